//! Packed paths: up to 56 steps in a small `Copy` value, no heap.

use crate::{Cell, Direction, Direction8};
use core::fmt;

#[cfg(feature = "serde")]
mod serde;
// The type data `reflect(Serialize, Deserialize)` registers: scenes save the paths
// (reflected as opaque values) through their serde impls.
#[cfg(all(feature = "bevy_reflect", feature = "serde"))]
use bevy_reflect::{ReflectDeserialize, ReflectSerialize};

/// The most steps a [`GridPath`] or [`GridPath8`] holds.
pub const MAX_STEPS: usize = 56;

/// `N` words of storage, `B` bits per step, steps in order from bit 0 and a header of
/// length and cursor in the top 16 bits of the last word.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Packed<const N: usize, const B: u32> {
    words: [u64; N],
}

impl<const N: usize, const B: u32> Packed<N, B> {
    const STEP_MASK: u64 = (1 << B) - 1;
    const BODY_BITS: u32 = MAX_STEPS as u32 * B;
    const LEN_SHIFT: u32 = 48;
    const POS_SHIFT: u32 = 56;

    const EMPTY: Self = Self { words: [0; N] };

    #[inline]
    const fn len(&self) -> usize {
        ((self.words[N - 1] >> Self::LEN_SHIFT) & 0xFF) as usize
    }

    #[inline]
    const fn pos(&self) -> usize {
        (self.words[N - 1] >> Self::POS_SHIFT) as usize
    }

    #[inline]
    fn set_header(&mut self, len: usize, pos: usize) {
        debug_assert!(len <= MAX_STEPS && pos <= len);
        let w = &mut self.words[N - 1];
        *w = (*w & ((1 << Self::LEN_SHIFT) - 1))
            | ((len as u64) << Self::LEN_SHIFT)
            | ((pos as u64) << Self::POS_SHIFT);
    }

    #[inline]
    fn step(&self, i: usize) -> u8 {
        debug_assert!(i < MAX_STEPS);
        let bit = i as u32 * B;
        let (w, s) = ((bit / 64) as usize, bit % 64);
        let mut v = self.words[w] >> s;
        if s + B > 64 {
            v |= self.words[w + 1] << (64 - s);
        }
        (v & Self::STEP_MASK) as u8
    }

    #[inline]
    fn set_step(&mut self, i: usize, code: u8) {
        let bit = i as u32 * B;
        let (w, s) = ((bit / 64) as usize, bit % 64);
        let code = u64::from(code) & Self::STEP_MASK;
        self.words[w] = (self.words[w] & !(Self::STEP_MASK << s)) | (code << s);
        if s + B > 64 {
            let hi = 64 - s;
            self.words[w + 1] = (self.words[w + 1] & !(Self::STEP_MASK >> hi)) | (code >> hi);
        }
    }

    #[inline]
    fn push(&mut self, code: u8) -> bool {
        let len = self.len();
        if len == MAX_STEPS {
            return false;
        }
        self.set_step(len, code);
        self.set_header(len + 1, self.pos());
        true
    }

    /// Steps from the low bits of `raw` (step 0 in bits `0..B`), `len` of them.
    #[inline]
    fn from_raw(raw: &[u64; 3], len: usize) -> Self {
        debug_assert!(len <= MAX_STEPS);
        let mut words = [0u64; N];
        words.copy_from_slice(&raw[..N]);
        let body_word = (Self::BODY_BITS / 64) as usize;
        let body_rest = Self::BODY_BITS % 64;
        words[body_word] &= (1 << body_rest) - 1;
        for w in &mut words[body_word + 1..] {
            *w = 0;
        }
        let mut p = Self { words };
        p.set_header(len, 0);
        p
    }

    /// Puts `code` before the first step; once full, the last step falls off. This is
    /// how solvers fill a path while walking back from the end of a route: the steps
    /// nearest the start are the ones kept.
    #[cfg(test)]
    fn prepend(&mut self, code: u8) {
        let len = self.len();
        let mut carry = u64::from(code);
        for w in &mut self.words {
            let out = *w >> (64 - B);
            *w = (*w << B) | carry;
            carry = out;
        }
        let body_word = (Self::BODY_BITS / 64) as usize;
        let body_rest = Self::BODY_BITS % 64;
        self.words[body_word] &= (1 << body_rest) - 1;
        for w in &mut self.words[body_word + 1..] {
            *w = 0;
        }
        self.set_header((len + 1).min(MAX_STEPS), 0);
    }
}

macro_rules! packed_path {
    ($(#[$meta:meta])* $name:ident, $dir:ty, $words:literal, $bits:literal) => {
        $(#[$meta])*
        #[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
        #[cfg_attr(feature = "bevy_reflect", reflect(opaque, Clone, PartialEq, Hash))]
        #[cfg_attr(
            all(feature = "bevy_reflect", feature = "serde"),
            reflect(Serialize, Deserialize)
        )]
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(Packed<$words, $bits>);

        impl $name {
            /// The empty path.
            pub const EMPTY: Self = Self(Packed::EMPTY);
            /// The most steps this path holds.
            pub const CAPACITY: usize = MAX_STEPS;

            /// A path of `steps`, or `None` if there are more than
            #[doc = concat!("[`", stringify!($name), "::CAPACITY`].")]
            #[must_use]
            pub fn from_steps(steps: &[$dir]) -> Option<Self> {
                if steps.len() > MAX_STEPS {
                    return None;
                }
                let mut p = Self::EMPTY;
                for &d in steps {
                    p.0.push(d.bits());
                }
                Some(p)
            }

            /// Appends a step; returns `false` (and changes nothing) when full.
            #[inline]
            #[must_use = "a full path rejects the step"]
            pub fn push(&mut self, dir: $dir) -> bool {
                self.0.push(dir.bits())
            }

            #[cfg(test)]
            pub(crate) fn prepend_bits(&mut self, code: u8) {
                self.0.prepend(code);
            }

            /// Number of steps in the path (whatever the cursor position).
            #[inline]
            #[must_use]
            pub const fn len(&self) -> usize {
                self.0.len()
            }

            /// Whether the path has no steps at all.
            #[inline]
            #[must_use]
            pub const fn is_empty(&self) -> bool {
                self.0.len() == 0
            }

            /// Steps not yet taken with [`next`](Iterator::next).
            #[inline]
            #[must_use]
            pub const fn remaining(&self) -> usize {
                self.0.len() - self.0.pos()
            }

            /// How many steps have been taken.
            #[inline]
            #[must_use]
            pub const fn position(&self) -> usize {
                self.0.pos()
            }

            /// Whether every step has been taken.
            #[inline]
            #[must_use]
            pub const fn is_finished(&self) -> bool {
                self.remaining() == 0
            }

            /// The step at index `i` (0 = first step), whatever the cursor.
            #[inline]
            #[must_use]
            pub fn get(&self, i: usize) -> Option<$dir> {
                (i < self.len()).then(|| <$dir>::from_bits(self.0.step(i)))
            }

            /// The next step, without taking it.
            #[inline]
            #[must_use]
            pub fn peek(&self) -> Option<$dir> {
                self.get(self.0.pos())
            }

            /// The step after the next one, without taking either: with
            /// [`peek`](Self::peek) it tells a mover that an L-turn is coming, which it
            /// can smooth into a diagonal.
            #[inline]
            #[must_use]
            pub fn peek2(&self) -> Option<$dir> {
                self.get(self.0.pos() + 1)
            }

            /// Moves the cursor back to the first step.
            #[inline]
            pub fn rewind(&mut self) {
                self.0.set_header(self.0.len(), 0);
            }

            /// An iterator over the remaining steps that leaves this path's cursor
            /// where it is.
            #[inline]
            #[must_use]
            pub fn iter(&self) -> Self {
                *self
            }

            /// The cells the whole path visits (from its first step, whatever the
            /// cursor) when it starts at `start`, `start` itself excluded. Meant for
            /// debugging and drawing.
            pub fn cells(&self, start: Cell) -> impl Iterator<Item = Cell> + use<> {
                let mut steps = *self;
                steps.rewind();
                steps.scan(start, |c, d| {
                    *c = c.step(d);
                    Some(*c)
                })
            }

            /// The cell reached after every step, starting from `start`.
            #[must_use]
            pub fn end(&self, start: Cell) -> Cell {
                self.cells(start).last().unwrap_or(start)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::EMPTY
            }
        }

        impl Iterator for $name {
            type Item = $dir;

            /// Takes the next step.
            #[inline]
            fn next(&mut self) -> Option<$dir> {
                // `self.0` explicitly: on `&mut Self`, `self.len()` would resolve to
                // `ExactSizeIterator::len` (the remaining count).
                let (len, pos) = (self.0.len(), self.0.pos());
                if pos >= len {
                    return None;
                }
                self.0.set_header(len, pos + 1);
                Some(<$dir>::from_bits(self.0.step(pos)))
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.remaining(), Some(self.remaining()))
            }
        }

        impl ExactSizeIterator for $name {}
        impl core::iter::FusedIterator for $name {}

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}[", stringify!($name))?;
                for i in 0..self.len() {
                    if i == self.position() {
                        f.write_str("|")?;
                    }
                    let d = <$dir>::from_bits(self.0.step(i));
                    write!(f, "{}", step_letter(d.into()))?;
                }
                f.write_str("]")
            }
        }
    };
}

fn step_letter(d: Direction8) -> &'static str {
    match d {
        Direction8::Right => "→",
        Direction8::UpRight => "↗",
        Direction8::Up => "↑",
        Direction8::UpLeft => "↖",
        Direction8::Left => "←",
        Direction8::DownLeft => "↙",
        Direction8::Down => "↓",
        Direction8::DownRight => "↘",
    }
}

packed_path!(
    /// Down to 56 orthogonal steps in 16 bytes: 2 bits a step, plus the length and a
    /// cursor. `Copy`, no heap; steps are stored in walking order, so following a path
    /// needs no reversal.
    ///
    /// A `GridPath` is an [`Iterator`] over its remaining steps: `next` takes a step.
    ///
    /// ```
    /// use tilepath::{Cell, Direction::*, GridPath};
    /// let mut path = GridPath::from_steps(&[Right, Right, Up]).unwrap();
    /// assert_eq!(path.peek(), Some(Right));
    /// assert_eq!(path.next(), Some(Right));
    /// assert_eq!((path.peek(), path.peek2()), (Some(Right), Some(Up))); // an L-turn
    /// assert_eq!(path.remaining(), 2);
    /// assert_eq!(path.end(Cell::new(0, 0)), Cell::new(2, 1));
    /// path.rewind();
    /// assert_eq!(path.collect::<Vec<_>>(), [Right, Right, Up]);
    /// assert_eq!(size_of::<GridPath>(), 16);
    /// ```
    GridPath,
    Direction,
    2,
    2
);

packed_path!(
    /// Down to 56 steps in 8 directions in 24 bytes: 3 bits a step, plus the length and a
    /// cursor. The 8-connected twin of [`GridPath`]: `Copy`, no heap, walking order.
    ///
    /// ```
    /// use tilepath::{Cell, Direction8::*, GridPath8};
    /// let path = GridPath8::from_steps(&[UpRight, Right, DownLeft]).unwrap();
    /// assert_eq!(path.end(Cell::new(0, 0)), Cell::new(1, 0));
    /// assert_eq!(size_of::<GridPath8>(), 24);
    /// ```
    GridPath8,
    Direction8,
    3,
    3
);

impl GridPath8 {
    /// The path whose first steps are the low bits of `raw` (step 0 in bits `0..3`),
    /// `len` of them: how the solvers hand out the steps they read back.
    #[inline]
    pub(crate) fn from_raw_steps(raw: &[u64; 3], len: usize) -> Self {
        Self(Packed::from_raw(raw, len))
    }
}

impl From<GridPath> for GridPath8 {
    /// The same steps, and the same cursor, as 8-connected steps: one path type holds
    /// 4- and 8-connected results alike.
    fn from(path: GridPath) -> Self {
        let mut wide = Packed::<3, 3>::EMPTY;
        for i in 0..path.len() {
            wide.set_step(
                i,
                Direction8::from(Direction::from_bits(path.0.step(i))).bits(),
            );
        }
        wide.set_header(path.len(), path.0.pos());
        Self(wide)
    }
}

const _: () = assert!(size_of::<GridPath>() == 16);
const _: () = assert!(size_of::<GridPath8>() == 24);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_round_trips() {
        for k in 0..4u8 {
            let mut p = GridPath::EMPTY;
            let mut p8 = GridPath8::EMPTY;
            for i in 0..MAX_STEPS {
                let d = Direction::from_bits(i as u8 + k);
                let d8 = Direction8::from_bits(i as u8 * 3 + k);
                assert!(p.push(d));
                assert!(p8.push(d8));
            }
            assert!(!p.push(Direction::Down));
            assert!(!p8.push(Direction8::Down));
            assert_eq!(p.len(), 56);
            for i in 0..MAX_STEPS {
                assert_eq!(p.get(i), Some(Direction::from_bits(i as u8 + k)));
                assert_eq!(p8.get(i), Some(Direction8::from_bits(i as u8 * 3 + k)));
            }
            assert_eq!(p.get(56), None);
        }
    }

    #[test]
    fn prepend_keeps_the_steps_nearest_the_start() {
        let mut p = GridPath8::EMPTY;
        // Walking back from the end of a 70-step route: step i is pushed last-first.
        let route: Vec<u8> = (0..70u32).map(|i| ((i * 5 + 1) & 7) as u8).collect();
        for &c in route.iter().rev() {
            p.prepend_bits(c);
        }
        assert_eq!(p.len(), 56);
        assert_eq!(p.position(), 0);
        for (i, &c) in route.iter().take(56).enumerate() {
            assert_eq!(p.get(i).map(Direction8::bits), Some(c));
        }
        let mut q = GridPath::EMPTY;
        for &c in route.iter().rev() {
            q.prepend_bits(c & 3);
        }
        for (i, &c) in route.iter().take(56).enumerate() {
            assert_eq!(q.get(i).map(Direction::bits), Some(c & 3));
        }
    }

    #[test]
    fn a_4_connected_path_widens_with_its_cursor() {
        use Direction::*;
        let mut p = GridPath::from_steps(&[Right, Up, Up, Left, Down]).unwrap();
        p.next();
        let wide = GridPath8::from(p);
        assert_eq!(wide.len(), 5);
        assert_eq!(wide.remaining(), 4);
        assert_eq!(
            wide.iter().collect::<Vec<_>>(),
            [
                Direction8::Up,
                Direction8::Up,
                Direction8::Left,
                Direction8::Down
            ]
        );
        let full: Vec<Direction8> = GridPath::from_steps(&[Up; 56])
            .map(GridPath8::from)
            .unwrap()
            .collect();
        assert_eq!(full, [Direction8::Up; 56]);
    }

    #[test]
    fn cursor_iteration_and_cells() {
        use Direction::*;
        let mut p = GridPath::from_steps(&[Right, Up, Up, Left]).unwrap();
        assert_eq!(p.iter().count(), 4);
        assert_eq!(p.next(), Some(Right));
        assert_eq!(p.remaining(), 3);
        assert_eq!(p.iter().collect::<Vec<_>>(), [Up, Up, Left]);
        assert_eq!(p.remaining(), 3, "iter() leaves the cursor alone");
        let cells: Vec<Cell> = p.cells(Cell::new(5, 5)).collect();
        assert_eq!(
            cells,
            [
                Cell::new(6, 5),
                Cell::new(6, 6),
                Cell::new(6, 7),
                Cell::new(5, 7)
            ]
        );
        while p.next().is_some() {}
        assert!(p.is_finished());
        assert_eq!((p.peek(), p.peek2(), p.next()), (None, None, None));
        p.rewind();
        assert_eq!(p.remaining(), 4);
        assert_eq!(format!("{p:?}"), "GridPath[|→↑↑←]");
        assert!(GridPath::from_steps(&[Down; 57]).is_none());
        assert_eq!(GridPath::EMPTY.end(Cell::new(1, 2)), Cell::new(1, 2));
    }
}

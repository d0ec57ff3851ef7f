//! Where a cell's neighbours are, in the arrays the solvers index: the one home of the
//! neighbour offsets that fields and tables use on their padded grids.
//!
//! The movement rule itself (a step enters a passable cell; a diagonal step also needs
//! both cells beside its corner passable) is [`Grid::can_step`](crate::Grid::can_step);
//! the hot loops apply it on these offsets.

use crate::Connectivity;

/// The offsets of a cell's 8 neighbours in a row-major array `stride` cells wide (a
/// grid padded with a border of blocked cells, so that every cell of the grid has all
/// 8), in [`Direction8`](crate::Direction8) code order: right, down-right, down,
/// down-left, left, up-left, up, up-right (`+y` is down).
#[inline(always)]
pub(crate) const fn padded_offsets(stride: usize) -> [isize; 8] {
    let s = stride as isize;
    [1, s + 1, s, s - 1, -1, -s - 1, -s, 1 - s]
}

/// The [`Direction8`](crate::Direction8) codes a unit moves in: all 8, or the 4
/// orthogonal ones (even codes).
#[inline]
pub(crate) const fn direction_codes(connectivity: Connectivity) -> &'static [usize] {
    match connectivity {
        Connectivity::Eight => &[0, 1, 2, 3, 4, 5, 6, 7],
        Connectivity::Four => &[0, 2, 4, 6],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction8;

    #[test]
    fn offsets_follow_the_direction_codes() {
        let stride = 10;
        for bits in 0..8u8 {
            let (dx, dy) = Direction8::from_bits(bits).offset();
            let want = dy as isize * stride as isize + dx as isize;
            assert_eq!(padded_offsets(stride)[usize::from(bits)], want);
        }
        assert!(
            direction_codes(Connectivity::Four)
                .iter()
                .all(|&d| !Direction8::from_bits(d as u8).is_diagonal())
        );
    }
}

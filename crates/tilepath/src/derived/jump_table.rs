//! Straight jump distances of every cell, precomputed from a set of bit rows
//! ([`BitGrid`]) and repaired with them: what a whole-grid jump point search reads in
//! place of its row and column scans ([`JumpDistances`](crate::JumpDistances)).
//!
//! A cell's distance in a straight direction is where the scan along its row or
//! column from there stops, by the rules of jump point search (`search/jps/jump.rs`):
//! the first cell ahead that has a *forced* neighbour (a cell of a side line that is
//! open while the side line's cell one step back is blocked), as a positive number of
//! steps; or, when a wall comes first, the steps to the last open cell before it,
//! negated (0: the next cell is blocked). Off the grid counts as blocked.
//!
//! Its distance in a diagonal direction `(dx, dy)` counts legal diagonal steps (the
//! cell entered and both cells beside the corner open) to the first cell whose
//! straight distance along `dx` or along `dy` is positive (a diagonal jump point), or,
//! negated, to the last cell before an illegal step; but no further than
//! [`DIAGONAL_CAP`] steps: `-DIAGONAL_CAP` says "that many legal steps with no jump
//! point; read on from there". The cap keeps a repair local: one wall can make jump
//! points of cells across the whole map (its forced neighbours are seen along whole
//! rows and columns), and every diagonal leading to one of them would change along
//! its whole length.
//!
//! The goal is no part of either: a search checks it against the distances.

use core::ops::Range;

use super::bit_grid::{BitGrid, BitView, RowView};
use crate::{GridError, memory};

/// The direction of a distance: its bits in a cell's record are `16 * dir..`.
pub(crate) const EAST: u32 = 0;
/// Towards lower x.
pub(crate) const WEST: u32 = 1;
/// Towards higher y.
pub(crate) const SOUTH: u32 = 2;
/// Towards lower y.
pub(crate) const NORTH: u32 = 3;

/// The diagonal directions, in the second word of a record: `dx` positive.
const DIAGONAL: [(i64, i64); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The index of diagonal direction `(dx, dy)` (each ±1) in a record's second word.
#[inline(always)]
pub(crate) const fn diagonal_index(dx: i64, dy: i64) -> u32 {
    (dx < 0) as u32 | ((dy < 0) as u32) << 1
}

/// The longest diagonal distance kept: see the module's notes.
pub(crate) const DIAGONAL_CAP: i64 = 32;

/// The longest line a distance fits: a side of at most this many cells.
pub(crate) const MAX_LINE: u32 = i16::MAX as u32;

/// Cells a [`RowView::words3`] read covers here: bit `j` for position `base + j`, of
/// which `0..=56` are whole (57 cells), so a chunk of 56 positions has the cell one
/// past each end.
const CHUNK: i64 = 56;

/// The distance `record` holds in direction `dir` ([`EAST`], [`WEST`], [`SOUTH`] or
/// [`NORTH`]).
#[inline(always)]
pub(crate) const fn distance(record: u64, dir: u32) -> i64 {
    (record >> (16 * dir)) as i16 as i64
}

/// The eight distances of every cell of a grid, 16 bytes a cell, row by row.
#[derive(Clone, Default)]
pub(crate) struct JumpTable {
    /// Cell `(x, y)`'s record at `y * width + x`: the straight distances [`EAST`],
    /// [`WEST`], [`SOUTH`], [`NORTH`] as `i16`s from the low bits up, then the
    /// diagonal ones by [`diagonal_index`].
    records: Vec<[u64; 2]>,
    width: usize,
    height: usize,
    /// A repair's scratch: the cells whose straight distances changed sign, with the
    /// direction.
    changed: Vec<(u32, u32, u32)>,
    /// A repair's scratch: the cells whose diagonal distances it recomputes first.
    seeds: Vec<(u32, u32)>,
    /// A repair's scratch for ordering many seeds by counting: the seeds placed, and
    /// the count of each key.
    ordered: Vec<(u32, u32)>,
    counts: Vec<u32>,
}

impl JumpTable {
    /// Bytes the table of a `width x height` grid takes.
    pub(crate) const fn bytes_for(width: u32, height: u32) -> u64 {
        16 * width as u64 * height as u64
    }

    /// The distances of `bits`' cells (a `width x height` grid).
    ///
    /// # Errors
    /// [`GridError::TooLargeForJumps`] if a side is longer than [`MAX_LINE`];
    /// [`GridError::OutOfMemory`] if the memory cannot be had.
    pub(crate) fn new(bits: &BitGrid, width: u32, height: u32) -> Result<Self, GridError> {
        if width > MAX_LINE || height > MAX_LINE {
            return Err(GridError::TooLargeForJumps { width, height });
        }
        let bytes = Self::bytes_for(width, height);
        memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let mut table = Self {
            records: vec![[0; 2]; (bytes / 16) as usize],
            width: width as usize,
            height: height as usize,
            changed: Vec::new(),
            seeds: Vec::new(),
            ordered: Vec::new(),
            counts: Vec::new(),
        };
        let view = bits.view();
        table.rows(view, 0..table.height, None);
        table.columns(view, 0..table.width, None);
        table.diagonals(1);
        table.diagonals(-1);
        Ok(table)
    }

    /// Fills the diagonal distances towards `dy` (both `dx`) of every cell, row by row
    /// against `dy`, so that the row a step ahead is done first.
    fn diagonals(&mut self, dy: i64) {
        let (w, h) = (self.width, self.height);
        for k in 0..h {
            let y = if dy > 0 { h - 1 - k } else { k };
            let (cur, next) = if dy > 0 {
                if y + 1 == h {
                    continue; // no step out of the grid: 0, as the records start
                }
                let (a, b) = self.records.split_at_mut((y + 1) * w);
                (&mut a[y * w..], &b[..w])
            } else {
                if y == 0 {
                    continue;
                }
                let (a, b) = self.records.split_at_mut(y * w);
                (&mut b[..w], &a[(y - 1) * w..])
            };
            for (x, record) in cur.iter_mut().enumerate() {
                let mut word = 0;
                for dx in [1, -1] {
                    let ahead = next.get((x as i64 + dx) as usize).copied();
                    let v = diagonal_from(record[0], next[x][0], ahead, (dx, dy));
                    word |= pack(diagonal_index(dx, dy), v);
                }
                record[1] |= word;
            }
        }
    }

    /// Recomputes the distances an edit of the cells in columns `x0..=x1`, rows
    /// `y0..=y1` (inside the grid) can change, from the edited `bits`: those along
    /// the rows `y0 - 1..=y1 + 1` and the columns `x0 - 1..=x1 + 1` (a distance reads
    /// its own line and the two beside it), whole.
    ///
    /// Then the diagonal distances that depend on what changed: those of the cells
    /// around the edit (a step's legality reads its neighbours), and backwards along
    /// each diagonal from every cell whose straight distances changed sign, as far as
    /// the values change, the cells farthest along a direction first, so that each
    /// recomputation reads final values ahead of it.
    pub(crate) fn repair(
        &mut self,
        bits: &BitGrid,
        (x0, y0): (usize, usize),
        (x1, y1): (usize, usize),
    ) {
        let view = bits.view();
        self.changed.clear();
        self.rows(
            view,
            y0.saturating_sub(1)..(y1 + 2).min(self.height),
            Some((x0, x1)),
        );
        self.columns(
            view,
            x0.saturating_sub(1)..(x1 + 2).min(self.width),
            Some((y0, y1)),
        );
        let mut changed = core::mem::take(&mut self.changed);
        let mut seeds = core::mem::take(&mut self.seeds);
        let (w, h) = (self.width as i64, self.height as i64);
        let inside = |x: i64, y: i64| (0..w).contains(&x) && (0..h).contains(&y);
        for &(dx, dy) in &DIAGONAL {
            // Seeds: the cells a step behind one whose distance along `dx` or `dy`
            // changed sign, and those around the edit.
            let (along, down) = (
                if dx > 0 { EAST } else { WEST },
                if dy > 0 { SOUTH } else { NORTH },
            );
            seeds.clear();
            seeds.extend(
                changed
                    .iter()
                    .filter(|&&(_, _, dir)| dir == along || dir == down)
                    .map(|&(x, y, _)| (i64::from(x) - dx, i64::from(y) - dy))
                    .chain(
                        (y0 as i64 - 1..=y1 as i64 + 1)
                            .flat_map(|y| (x0 as i64 - 1..=x1 as i64 + 1).map(move |x| (x, y))),
                    )
                    .filter(|&(x, y)| inside(x, y))
                    .map(|(x, y)| (x as u32, y as u32)),
            );
            self.farthest_first(&mut seeds, (dx, dy));
            match (dx, dy) {
                (1, 1) => self.walk_back::<1, 1>(&seeds),
                (-1, 1) => self.walk_back::<-1, 1>(&seeds),
                (1, -1) => self.walk_back::<1, -1>(&seeds),
                _ => self.walk_back::<-1, -1>(&seeds),
            }
        }
        changed.clear();
        self.changed = changed;
        self.seeds = seeds;
    }

    /// Recomputes the diagonal distances towards `(DX, DY)` backwards along the
    /// diagonal from each of `seeds` (cells of the grid, farthest first), as far as the
    /// values change (the seed's always): [`diagonal_from`] the records of the cell,
    /// of the one `DY` from it and of the one the step enters (none off the grid).
    fn walk_back<const DX: i64, const DY: i64>(&mut self, seeds: &[(u32, u32)]) {
        let (w, h) = (self.width as i64, self.height as i64);
        let dir = diagonal_index(DX, DY);
        let records = &mut self.records;
        for &(x, y) in seeds {
            let (mut x, mut y) = (i64::from(x), i64::from(y));
            let mut first = true;
            loop {
                let i = (y * w + x) as usize;
                // Whether the row, and the cell, a step ahead are on the grid.
                let row_ahead = if DY > 0 { y + 1 < h } else { y > 0 };
                let cell_ahead = row_ahead && if DX > 0 { x + 1 < w } else { x > 0 };
                let below = if row_ahead {
                    records[(i as i64 + DY * w) as usize][0]
                } else {
                    0
                };
                let ahead = cell_ahead.then(|| records[(i as i64 + DY * w + DX) as usize]);
                let v = diagonal_from(records[i][0], below, ahead, (DX, DY));
                let r = &mut records[i][1];
                let old = distance(*r, dir);
                *r = *r & !(0xFFFF << (16 * dir)) | pack(dir, v);
                (x, y) = (x - DX, y - DY);
                if v == old && !first || !(0..w).contains(&x) || !(0..h).contains(&y) {
                    break;
                }
                first = false;
            }
        }
    }

    /// Orders `seeds` (cells of the grid) farthest along `(dx, dy)` first: by
    /// `x * dx + y * dy`, descending. Many seeds (an edit on open ground changes the
    /// distances of whole rows and columns) are placed by counting, as their keys span
    /// at most `width + height` values; a few are sorted.
    fn farthest_first(&mut self, seeds: &mut Vec<(u32, u32)>, (dx, dy): (i64, i64)) {
        let span = self.width + self.height;
        if seeds.len() < 64 || seeds.len() * 4 < span {
            seeds.sort_unstable_by_key(|&(x, y)| {
                core::cmp::Reverse(i64::from(x) * dx + i64::from(y) * dy)
            });
            return;
        }
        // The key's distance below the largest any cell has: 0 for the farthest.
        let top = if dx > 0 { self.width as i64 - 1 } else { 0 }
            + if dy > 0 { self.height as i64 - 1 } else { 0 };
        let rank = |&(x, y): &(u32, u32)| (top - (i64::from(x) * dx + i64::from(y) * dy)) as usize;
        let counts = &mut self.counts;
        counts.clear();
        counts.resize(span + 1, 0);
        for seed in seeds.iter() {
            counts[rank(seed) + 1] += 1;
        }
        for k in 1..counts.len() {
            counts[k] += counts[k - 1];
        }
        let ordered = &mut self.ordered;
        ordered.clear();
        ordered.resize(seeds.len(), (0, 0));
        for seed in seeds.iter() {
            let at = &mut counts[rank(seed)];
            ordered[*at as usize] = *seed;
            *at += 1;
        }
        core::mem::swap(seeds, ordered);
    }

    /// Fills [`EAST`] and [`WEST`] of rows `ys`: whole, or after an edit of columns
    /// `edited` (see [`fill_line`]), noting in `changed` the cells whose distances
    /// changed sign.
    fn rows(&mut self, view: BitView<'_>, ys: Range<usize>, edited: Option<(usize, usize)>) {
        let w = self.width;
        for y in ys {
            let records = &mut self.records[y * w..(y + 1) * w];
            fill_line(view.rows, y as i64, records, 1, EAST, edited, |p, dir| {
                if edited.is_some() {
                    self.changed.push((p as u32, y as u32, dir));
                }
            });
        }
    }

    /// Fills [`SOUTH`] and [`NORTH`] of columns `xs`, as [`rows`](Self::rows) (`edited`:
    /// rows).
    fn columns(&mut self, view: BitView<'_>, xs: Range<usize>, edited: Option<(usize, usize)>) {
        let w = self.width;
        for x in xs {
            if let Some(records) = self.records.get_mut(x..) {
                fill_line(
                    view.columns,
                    x as i64,
                    records,
                    w,
                    SOUTH,
                    edited,
                    |p, dir| {
                        if edited.is_some() {
                            self.changed.push((x as u32, p as u32, dir));
                        }
                    },
                );
            }
        }
    }

    /// Whether `other` holds the same distances.
    pub(crate) fn same(&self, other: &Self) -> bool {
        self.records == other.records
    }

    /// The table, to read.
    #[inline]
    pub(crate) fn view(&self) -> JumpView<'_> {
        JumpView {
            records: &self.records,
            width: self.width,
        }
    }

    /// Bytes held.
    pub(crate) fn len_bytes(&self) -> usize {
        self.records.capacity() * 8
    }
}

/// Fills the distances along `line` of `lines` (a row of the rows, or a column of the
/// columns): position `p`'s record is `records[p * step]`; the forward distance (towards
/// higher positions) goes to direction `forward`, the backward one to `forward + 1`.
/// `sign_changed(p, dir)` hears of each position whose distance in `dir` turned from
/// positive or to it.
///
/// Whole (`edited` `None`), or after an edit of positions `lo..=hi` of this line or
/// of the lines beside it (`edited` `Some((lo, hi))`, the records right before it):
/// a position's distance reads the cells from it to the first stop ahead, and a cell
/// is a stop by itself and the cell before it on the lines beside, so only positions
/// up to `hi + 1` (forward) or from `lo - 1` (backward) can change, and past the edit
/// the first distance found unchanged leaves the rest as they were.
fn fill_line(
    lines: RowView<'_>,
    line: i64,
    records: &mut [[u64; 2]],
    step: usize,
    forward: u32,
    edited: Option<(usize, usize)>,
    mut sign_changed: impl FnMut(i64, u32),
) {
    let len = records.len().div_ceil(step) as i64;
    if len == 0 {
        return;
    }
    // Where each pass starts, and past which (exclusive) an unchanged distance ends it.
    let (top, bottom) = match edited {
        None => (len - 1, 0),
        Some((lo, hi)) => ((hi as i64 + 1).min(len - 1), (lo as i64 - 1).max(0)),
    };
    // The distance a step beyond each pass's start, as kept (0 off the line, where it
    // is never read: a stop).
    let kept = |p: i64, dir: u32| {
        if (0..len).contains(&p) {
            distance(records[p as usize * step][0], dir)
        } else {
            0
        }
    };
    let (ahead, behind) = (kept(top + 1, forward), kept(bottom - 1, forward + 1));
    // Sets `p`'s distance in `dir` to `v`; whether it changed.
    let mut put = |p: i64, dir: u32, v: i64| {
        let r = &mut records[p as usize * step][0];
        let old = distance(*r, dir);
        if (old > 0) != (v > 0) {
            sign_changed(p, dir);
        }
        *r = *r & !(0xFFFF << (16 * dir)) | pack(dir, v);
        old != v
    };
    // The distance at `p` from the one a step ahead: a stop ahead (a wall: 0, a jump
    // point: 1), else one more step to the same kind of stop.
    let next = |stop: bool, blocked: bool, v: i64| match (stop, blocked) {
        (true, true) => 0,
        (true, false) => 1,
        (false, _) if v > 0 => v + 1,
        (false, _) => v - 1,
    };
    // Forward, from `top` back: chunk `base = CHUNK * k - 1` holds positions `base..base
    // + CHUNK`, each reading the stop one ahead of it (bits 1..=CHUNK).
    let mut v = ahead;
    'forward: for k in (0..=(top + 1) / CHUNK).rev() {
        let base = CHUNK * k - 1;
        let (a, cur, b) = lines.words3(base, line);
        let stops = !cur | (a & !(a << 1)) | (b & !(b << 1));
        for p in (base.max(0)..(base + CHUNK).min(top + 1)).rev() {
            let j = p + 1 - base;
            v = next(stops >> j & 1 == 1, cur >> j & 1 == 0, v);
            if !put(p, forward, v) && edited.is_some() && p < bottom {
                break 'forward;
            }
        }
    }
    // Backward, from `bottom` on: chunk `base` holds positions `base + 1..=base +
    // CHUNK`, each reading the stop one behind it (bits 0..CHUNK).
    let mut v = behind;
    'backward: for k in bottom / CHUNK..=(len - 1) / CHUNK {
        let base = CHUNK * k - 1;
        let (a, cur, b) = lines.words3(base, line);
        let stops = !cur | (a & !(a >> 1)) | (b & !(b >> 1));
        for p in (base + 1).max(bottom)..(base + 1 + CHUNK).min(len) {
            let j = p - 1 - base;
            v = next(stops >> j & 1 == 1, cur >> j & 1 == 0, v);
            if !put(p, forward + 1, v) && edited.is_some() && p > top {
                break 'backward;
            }
        }
    }
}

/// The diagonal distance in direction `(dx, dy)` of a cell whose straight distances are
/// `here`, from the straight distances `below` of the cell `dy` from it and the record
/// `ahead` of the cell the step enters (`None` off the grid), that record already
/// right: the recurrence of the distances, for the build and the repair alike.
#[inline(always)]
fn diagonal_from(here: u64, below: u64, ahead: Option<[u64; 2]>, (dx, dy): (i64, i64)) -> i64 {
    let (along, down) = (
        if dx > 0 { EAST } else { WEST },
        if dy > 0 { SOUTH } else { NORTH },
    );
    // The straight distances say which neighbours are open (0: the next cell is
    // blocked, whatever the cell itself): the step is legal when `(x + dx, y)`,
    // `(x, y + dy)` and `(x + dx, y + dy)` are.
    if distance(here, along) == 0 || distance(here, down) == 0 || distance(below, along) == 0 {
        return 0;
    }
    let [straight, diagonal] = ahead.unwrap_or([0; 2]);
    if distance(straight, along) > 0 || distance(straight, down) > 0 {
        return 1;
    }
    onward(distance(diagonal, diagonal_index(dx, dy)))
}

/// The diagonal distance of a cell whose step ahead is legal and enters a cell that is
/// no jump point, of diagonal distance `v`: one more step, within [`DIAGONAL_CAP`].
#[inline(always)]
const fn onward(v: i64) -> i64 {
    if v > 0 && v < DIAGONAL_CAP {
        v + 1
    } else if v > 0 {
        -DIAGONAL_CAP
    } else {
        if v - 1 < -DIAGONAL_CAP {
            -DIAGONAL_CAP
        } else {
            v - 1
        }
    }
}

/// Distance `v` in direction `dir` of a record's word, the rest of it clear.
#[inline]
const fn pack(dir: u32, v: i64) -> u64 {
    (v as i16 as u16 as u64) << (16 * dir)
}

/// A read-only view of a [`JumpTable`].
#[derive(Clone, Copy)]
pub(crate) struct JumpView<'a> {
    records: &'a [[u64; 2]],
    width: usize,
}

impl JumpView<'_> {
    /// The record of cell `(x, y)` (inside the grid; elsewhere every distance is 0):
    /// its straight distances, and its diagonal ones (by [`diagonal_index`]).
    #[inline(always)]
    pub(crate) fn record(self, x: i64, y: i64) -> [u64; 2] {
        let i = (y as usize)
            .wrapping_mul(self.width)
            .wrapping_add(x as usize);
        self.records.get(i).copied().unwrap_or([0; 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derived::tests::below;

    /// The distance from `(x, y)` in direction `(dx, dy)` by walking the cells.
    fn walk(open: &impl Fn(i64, i64) -> bool, (x, y): (i64, i64), (dx, dy): (i64, i64)) -> i64 {
        let (sx, sy) = (dy.abs(), dx.abs());
        let mut k = 0;
        loop {
            let (px, py) = (x + dx * (k + 1), y + dy * (k + 1));
            if !open(px, py) {
                return -k;
            }
            let forced = |s: i64| {
                open(px + sx * s, py + sy * s) && !open(px + sx * s - dx, py + sy * s - dy)
            };
            if forced(1) || forced(-1) {
                return k + 1;
            }
            k += 1;
        }
    }

    /// The diagonal distance from `(x, y)` in direction `(dx, dy)` by walking the cells.
    fn walk_diagonal(
        open: &impl Fn(i64, i64) -> bool,
        (x, y): (i64, i64),
        (dx, dy): (i64, i64),
    ) -> i64 {
        let mut k = 0;
        let (mut cx, mut cy) = (x, y);
        loop {
            if !(open(cx + dx, cy) && open(cx, cy + dy) && open(cx + dx, cy + dy)) {
                return -k;
            }
            (cx, cy) = (cx + dx, cy + dy);
            k += 1;
            if walk(open, (cx, cy), (dx, 0)) > 0 || walk(open, (cx, cy), (0, dy)) > 0 {
                return if k <= DIAGONAL_CAP { k } else { -DIAGONAL_CAP };
            }
            if k == DIAGONAL_CAP {
                return -k;
            }
        }
    }

    fn check(table: &JumpTable, (w, h): (i64, i64), open: &impl Fn(i64, i64) -> bool) {
        for y in 0..h {
            for x in 0..w {
                let [r, diagonal] = table.view().record(x, y);
                for (dir, d) in [
                    (EAST, (1, 0)),
                    (WEST, (-1, 0)),
                    (SOUTH, (0, 1)),
                    (NORTH, (0, -1)),
                ] {
                    assert_eq!(
                        distance(r, dir),
                        walk(open, (x, y), d),
                        "({x}, {y}) dir {dir}"
                    );
                }
                for (dx, dy) in DIAGONAL {
                    let got = distance(diagonal, diagonal_index(dx, dy));
                    assert_eq!(
                        got,
                        walk_diagonal(open, (x, y), (dx, dy)),
                        "({x}, {y}) ({dx}, {dy})"
                    );
                }
            }
        }
    }

    #[test]
    fn seeds_are_ordered_farthest_first() {
        let mut rand = below(0x9e37_79b9);
        for (w, h) in [(1, 1), (40, 3), (97, 61), (300, 7)] {
            let bits = BitGrid::new(w, h).unwrap();
            let mut table = JumpTable::new(&bits, w, h).unwrap();
            // Few seeds (sorted) and many (counted), repeats among them.
            for n in [0, 5, 63, 64, 500, 3000] {
                let cells: Vec<(u32, u32)> = (0..n)
                    .map(|_| (rand(u64::from(w)) as u32, rand(u64::from(h)) as u32))
                    .collect();
                for (dx, dy) in DIAGONAL {
                    let mut seeds = cells.clone();
                    table.farthest_first(&mut seeds, (dx, dy));
                    let key = |&(x, y): &(u32, u32)| i64::from(x) * dx + i64::from(y) * dy;
                    assert!(seeds.windows(2).all(|p| key(&p[0]) >= key(&p[1])));
                    let (mut a, mut b) = (seeds, cells.clone());
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "the same seeds, {w}x{h}, {n}");
                }
            }
        }
    }

    #[test]
    fn distances_are_the_scans_and_repairs_equal_rebuilds() {
        let mut rand = below(0x2545_f491);
        let sizes = [
            (1, 1),
            (1, 9),
            (9, 1),
            (55, 3),
            (56, 57),
            (57, 2),
            (113, 70),
            (130, 5),
        ];
        // Cluttered and nearly open grids (long lines and diagonals to repair).
        for ((w, h), walls) in sizes.into_iter().flat_map(|d| [(d, 25), (d, 3)]) {
            let mut cells = vec![false; w * h];
            for c in &mut cells {
                *c = rand(100) >= walls;
            }
            let mut bits = BitGrid::new(w as u32, h as u32).unwrap();
            for (i, &c) in cells.iter().enumerate() {
                bits.set(i % w, i / w, c);
            }
            let mut table = JumpTable::new(&bits, w as u32, h as u32).unwrap();
            for round in 0..12 {
                {
                    let cells = &cells;
                    let open = |x: i64, y: i64| {
                        (0..w as i64).contains(&x)
                            && (0..h as i64).contains(&y)
                            && cells[y as usize * w + x as usize]
                    };
                    check(&table, (w as i64, h as i64), &open);
                }
                // A rectangle of edits, repaired at once.
                let (x0, y0) = (rand(w as u64) as usize, rand(h as u64) as usize);
                let (x1, y1) = (
                    (x0 + rand(4) as usize).min(w - 1),
                    (y0 + rand(3) as usize).min(h - 1),
                );
                let to = round % 3 == 0;
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let c = if round % 2 == 0 { to } else { rand(2) == 0 };
                        cells[y * w + x] = c;
                        bits.set(x, y, c);
                    }
                }
                table.repair(&bits, (x0, y0), (x1, y1));
                let rebuilt = JumpTable::new(&bits, w as u32, h as u32).unwrap();
                assert_eq!(table.records, rebuilt.records, "{w}x{h} round {round}");
            }
        }
    }

    #[test]
    fn sides_past_the_limit_are_refused() {
        let bits = BitGrid::new(MAX_LINE + 1, 1).unwrap();
        assert_eq!(
            JumpTable::new(&bits, MAX_LINE + 1, 1).err(),
            Some(GridError::TooLargeForJumps {
                width: MAX_LINE + 1,
                height: 1
            })
        );
        let empty = BitGrid::new(0, 0).unwrap();
        assert_eq!(JumpTable::new(&empty, 0, 0).unwrap().len_bytes(), 0);
    }
}

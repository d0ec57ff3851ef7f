//! What units ask a computed field: distances, next steps, paths.

use super::*;
use crate::topology::hex_mask;

impl DistanceField {
    /// The cost from `cell` to the nearest goal (plus that goal's start value), or
    /// `None` if no goal is reachable, the cell is blocked or outside the field, or
    /// the field is not [`Ready`](FieldState::Ready) (see [`state`](Self::state)). For
    /// 8-connected fields the fixed-point value is converted back (relative error
    /// below `1e-7`); flee fields give negative values.
    #[must_use]
    pub fn distance(&self, cell: Cell) -> Option<f64> {
        self.units(cell).map(|u| u as f64 / self.scale() as f64)
    }

    /// [`distance`](Self::distance) in the field's fixed-point units (cost units for
    /// 4-connected fields, `cost * OCTILE_STRAIGHT` for 8-connected ones).
    #[must_use]
    pub fn units(&self, cell: Cell) -> Option<i64> {
        units_of(self.values[self.query_index(cell)?], self.bias)
    }

    /// A hint: brings the values of `cell` and of the cells above and below it into
    /// the cache, to be read soon (a crowd reading an agent's neighbours' costs on a
    /// big map, where they are far apart in memory). Changes nothing but time.
    #[inline]
    pub fn prefetch(&self, cell: Cell) {
        if let Some(i) = self.query_index(cell) {
            for j in [i.wrapping_sub(self.stride), i, i + self.stride] {
                if let Some(v) = self.values.get(j) {
                    crate::prefetch::prefetch(v);
                }
            }
        }
    }

    /// [`units`](Self::units) of the cells of grid row `y` the field covers, from its
    /// first column on (none for a row it does not answer): a row read without a
    /// lookup a cell.
    pub(crate) fn row_units(&self, y: i32) -> impl Iterator<Item = Option<i64>> + '_ {
        let row = y.wrapping_sub(self.origin.y) as u32;
        let cells = if row < self.answer_rows {
            let from = (row as usize + 1) * self.stride + 1;
            &self.values[from..from + self.width as usize]
        } else {
            &[]
        };
        let bias = self.bias;
        cells.iter().map(move |&v| units_of(v, bias))
    }

    /// Whether a goal is reachable from `cell`.
    #[must_use]
    pub fn is_reachable(&self, cell: Cell) -> bool {
        self.units(cell).is_some()
    }

    /// The best step from `cell` towards the goals (downhill), or `None` when the cell
    /// is a goal (or, in a flee field, a safest spot), when no goal is reachable, or
    /// when `cell` is outside the field, or when the field is not
    /// [`Ready`](FieldState::Ready). A unit standing on a blocked cell gets the
    /// step to its best reachable neighbour. Ties go to the first direction in
    /// [`Direction8`] order, so equal fields give equal moves.
    #[must_use]
    pub fn next_step(&self, cell: Cell) -> Option<Direction8> {
        let i = self.query_index(cell)?;
        let dir = self.step_at(i, &self.deltas())?;
        Some(Direction8::from_bits(dir as u8))
    }

    /// [`next_step`](Self::next_step) at index `i`, as a [`Direction8`] code.
    #[inline]
    pub(super) fn step_at(&self, i: usize, deltas: &[isize; 8]) -> Option<usize> {
        match self.connectivity {
            Connectivity::Four => self.step4_at(i),
            Connectivity::Eight => self.step8_at(i, deltas),
            Connectivity::Hex(layout) => {
                let (x, y) = self.cell_at(i);
                self.step_unit_at(i, deltas, hex_mask(layout, x, y))
            }
        }
    }

    /// The grid cell of padded index `i`.
    #[inline]
    fn cell_at(&self, i: usize) -> (i32, i32) {
        let (row, col) = (i / self.stride, i % self.stride);
        (
            self.origin.x.wrapping_add(col as i32 - 1),
            self.origin.y.wrapping_add(row as i32 - 1),
        )
    }

    /// [`next_step`](Self::next_step) at a 4-connected field's index, as a
    /// [`Direction8`] code. Walks stay inside: the border ring is blocked.
    #[inline]
    pub(super) fn step4_at(&self, i: usize) -> Option<usize> {
        let s = self.stride;
        self.best_unit_step(i, [(0, i + 1), (2, i + s), (4, i - 1), (6, i - s)])
    }

    /// [`next_step`](Self::next_step) over the direction codes in `mask` (bit `d` for
    /// code `d`) of a hex field, in code order.
    #[inline]
    fn step_unit_at(&self, i: usize, deltas: &[isize; 8], mask: u8) -> Option<usize> {
        let steps = (0..8)
            .filter(|&d| mask >> d & 1 == 1)
            .map(|d| (d, i.wrapping_add_signed(deltas[d])));
        self.best_unit_step(i, steps)
    }

    /// The best of `steps` (direction code, neighbour index) when every step weighs its
    /// cell's cost and there is no corner rule (4-connected and hex fields): the first
    /// of the cheapest, if moving there beats staying.
    #[inline(always)]
    fn best_unit_step(
        &self,
        i: usize,
        steps: impl IntoIterator<Item = (usize, usize)>,
    ) -> Option<usize> {
        let mut best = (u32::MAX, 8);
        for (dir, q) in steps {
            let v = self.values[q];
            // Neither blocked (0) nor unreached (MAX); a sum that saturates never wins.
            if v.wrapping_sub(1) < UNREACHED - 1 {
                let total = v.saturating_add(u32::from(self.costs[q]));
                if total < best.0 {
                    best = (total, dir);
                }
            }
        }
        self.moves(i, best)
    }

    /// [`next_step`](Self::next_step) at an 8-connected field's index.
    #[inline(always)]
    pub(super) fn step8_at(&self, i: usize, deltas: &[isize; 8]) -> Option<usize> {
        let mut best = (u32::MAX, 8);
        for dir in 0..8 {
            if let Some((_, total)) = self.offer_as(Connectivity::Eight, i, dir, deltas)
                && total < best.0
            {
                best = (total, dir);
            }
        }
        self.moves(i, best)
    }

    /// The best offer's direction if moving there beats staying: a reached cell's
    /// value equals its best offer unless the cell is a source (a goal, or a flee
    /// field's local minimum), where staying is best.
    #[inline]
    pub(super) fn moves(&self, i: usize, (total, dir): (u32, usize)) -> Option<usize> {
        let here = self.values[i];
        let moves = here == BLOCKED || here == UNREACHED || total <= here;
        (dir < 8 && moves).then_some(dir)
    }

    /// The first (up to 56) steps downhill from `cell`, for 4-connected fields (it stops
    /// at the first diagonal step of an 8-connected or hex one: use
    /// [`path8`](Self::path8)).
    /// Empty if `cell` is a goal or unreachable.
    #[must_use]
    pub fn path(&self, cell: Cell) -> GridPath {
        let mut path = GridPath::EMPTY;
        self.walk(cell, |d| d.orthogonal().is_some_and(|d| path.push(d)));
        path
    }

    /// The first (up to 56) steps downhill from `cell`, in 8 directions (on hex
    /// fields, the hex steps' [`Direction8`]s).
    #[must_use]
    pub fn path8(&self, cell: Cell) -> GridPath8 {
        let mut path = GridPath8::EMPTY;
        self.walk(cell, |d| path.push(d));
        path
    }

    /// Walks downhill from `cell` by index, up to 56 steps, handing each step to
    /// `take`; stops where the walk ends or `take` returns `false`.
    #[inline]
    pub(super) fn walk(&self, cell: Cell, take: impl FnMut(Direction8) -> bool) {
        let Some(i) = self.query_index(cell) else {
            return;
        };
        let deltas = self.deltas();
        // One loop per connectivity: the choice is made once a walk, not once a step.
        match self.connectivity {
            Connectivity::Four => self.walk_from(i, &deltas, take, |f, i| f.step4_at(i)),
            Connectivity::Eight => {
                self.walk_from(i, &deltas, take, |f, i| f.step8_at(i, &deltas));
            }
            Connectivity::Hex(layout) => self.walk_from(i, &deltas, take, |f, i| {
                let (x, y) = f.cell_at(i);
                f.step_unit_at(i, &deltas, hex_mask(layout, x, y))
            }),
        }
    }

    /// [`walk`](Self::walk) from index `i`, taking each step `step` gives.
    #[inline(always)]
    fn walk_from(
        &self,
        mut i: usize,
        deltas: &[isize; 8],
        mut take: impl FnMut(Direction8) -> bool,
        step: impl Fn(&Self, usize) -> Option<usize>,
    ) {
        for _ in 0..MAX_STEPS {
            let Some(dir) = step(self, i) else {
                break;
            };
            if !take(Direction8::from_bits(dir as u8)) {
                break;
            }
            i = i.wrapping_add_signed(deltas[dir]);
        }
    }
}

/// The best step from `cell` on several fields at once, each weighted: the neighbour
/// minimising `sum(weight * distance)` over the fields (e.g. a chase field with weight
/// 1 and a flee field from completed goals with weight 0.5). Neighbours unreachable in
/// any field are skipped. The fields should share connectivity (the first field's
/// decides which steps there are); `None` when no neighbour improves on `cell`.
#[must_use]
pub fn combined_next_step(fields: &[(&DistanceField, f32)], cell: Cell) -> Option<Direction8> {
    let first = fields.first()?.0;
    let connectivity = first.connectivity;
    let score = |c: Cell| -> Option<f64> {
        fields
            .iter()
            .map(|(f, w)| f.distance(c).map(|d| d * f64::from(*w)))
            .sum()
    };
    let here = score(cell);
    let mut best: Option<(f64, Direction8)> = None;
    for d in Direction8::ALL {
        if !connectivity.allows(cell, d) {
            continue;
        }
        let n = cell.step(d);
        if d.is_diagonal() && connectivity == Connectivity::Eight {
            let (dx, dy) = d.offset();
            let open = |c: Cell| first.query_index(c).is_some_and(|i| first.costs[i] != 0);
            // Wrapping: a cell past the ends of the `i32` range is outside the field.
            if !open(Cell::new(cell.x.wrapping_add(dx), cell.y))
                || !open(Cell::new(cell.x, cell.y.wrapping_add(dy)))
            {
                continue;
            }
        }
        if let Some(s) = score(n)
            && best.is_none_or(|(b, _)| s < b)
        {
            best = Some((s, d));
        }
    }
    let (s, d) = best?;
    match here {
        Some(h) if s >= h => None,
        _ => Some(d),
    }
}

/// [`DistanceField::units`] of a stored value, for a field of bias `bias`.
#[inline(always)]
fn units_of(v: u32, bias: u32) -> Option<i64> {
    (v != BLOCKED && v != UNREACHED).then(|| i64::from(v - 1) - i64::from(bias))
}

//! From an any-angle route back to grid steps: the cells a unit crosses walking it.

use super::trace::{Meets, trace};
use super::{Sight, Waypoint};
use crate::{Cell, Direction8, GridPath8};

impl Sight<'_> {
    /// The grid steps of walking `route` (the points [`Smoother::smooth`](super::Smoother::smooth)
    /// gave for a path from `start`) from the centre of `start`: the cells the unit's
    /// anchor crosses on its straight segments, in order, as steps the grid's rule
    /// allows ([`Grid::can_step_sized`](crate::Grid::can_step_sized)). Where a
    /// segment passes exactly through a corner, the step is the diagonal if it is
    /// legal, else two straight steps through the clear cell beside the corner.
    ///
    /// A unit walking the steps holds, one after the other, the cells a unit gliding
    /// along the straight route passes, so crowds and checks that work cell by cell
    /// see where it really is. Returns the first [`MAX_STEPS`](crate::MAX_STEPS) steps
    /// and whether they are the whole route; `None` if a step the route needs is not
    /// legal (the route was not made for this grid and unit), or a route point is
    /// neither a centre nor a corner.
    ///
    /// ```
    /// use tilepath::{Cell, Grid, Mobility, Sight, Waypoint};
    /// let grid = Grid::new(8, 8)?;
    /// let sight = Sight::new(&grid, Mobility::FLOOR_ONLY, 1);
    /// // Three across and one down: the line crosses the row boundary half-way, at
    /// // the corner of cells (1, 0) and (2, 1).
    /// let (steps, whole) = sight.steps_along(Cell::new(0, 0), &[Waypoint::centre_of(Cell::new(3, 1))]).unwrap();
    /// assert!(whole);
    /// let cells: Vec<Cell> = steps.cells(Cell::new(0, 0)).collect();
    /// assert_eq!(cells, [Cell::new(1, 0), Cell::new(2, 1), Cell::new(3, 1)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn steps_along(&self, start: Cell, route: &[Waypoint]) -> Option<(GridPath8, bool)> {
        let mut steps = GridPath8::EMPTY;
        let mut at = start;
        let mut from = Waypoint::centre_of(start);
        for &to in route {
            let near = at;
            let whole = self.cross((from, to), near, |next| {
                self.step_to(&mut at, next, &mut steps)
            })?;
            if !whole {
                return Some((steps, false));
            }
            from = to;
        }
        Some((steps, true))
    }

    /// Steps from `*at` into `next` (a cell touching it, or itself): straight, or
    /// diagonal when legal, else through the cell beside the corner whose steps are.
    /// `Some(false)` when `steps` is full; `None` if no legal way exists.
    fn step_to(&self, at: &mut Cell, next: Cell, steps: &mut GridPath8) -> Option<bool> {
        let (dx, dy) = (next.x - at.x, next.y - at.y);
        if (dx, dy) == (0, 0) {
            return Some(true);
        }
        if dx.abs() > 1 || dy.abs() > 1 {
            return None;
        }
        let legal = |c: Cell, d: Direction8| {
            self.grid()
                .can_step_sized(c, d, self.mobility(), self.size())
        };
        let dir = direction(dx, dy)?;
        if legal(*at, dir) {
            return Some(self.push(at, dir, steps));
        }
        if dx == 0 || dy == 0 {
            return None;
        }
        // Round the corner: along x then y, or along y then x.
        for (a, b) in [
            (direction(dx, 0)?, direction(0, dy)?),
            (direction(0, dy)?, direction(dx, 0)?),
        ] {
            if legal(*at, a) && legal(at.step(a), b) {
                return Some(self.push(at, a, steps) && self.push(at, b, steps));
            }
        }
        None
    }

    /// Appends `dir` and moves `*at`; `false` (nothing changed) when `steps` is full.
    fn push(&self, at: &mut Cell, dir: Direction8, steps: &mut GridPath8) -> bool {
        if steps.push(dir) {
            *at = at.step(dir);
            true
        } else {
            false
        }
    }

    /// Visits, in order, the cells the open segment `a`-`b` passes through (a cell it
    /// only touches at a corner is not visited; along the line between two rows or
    /// columns, the cell on a clear side, `near`'s side while it is clear), then
    /// `b`'s own cell when `b` is a centre. Stops with `Some(false)` when `visit`
    /// does, `None` when it fails or a point is neither a centre nor a corner.
    fn cross(
        &self,
        (a, b): (Waypoint, Waypoint),
        near: Cell,
        mut visit: impl FnMut(Cell) -> Option<bool>,
    ) -> Option<bool> {
        let ((ax, ay), (bx, by)) = (a.half_cells(), b.half_cells());
        let on_grid = |p: (i64, i64)| p.0 & 1 == p.1 & 1;
        if !on_grid((ax, ay)) || !on_grid((bx, by)) {
            return None;
        }
        let cell = |x: i64, y: i64| Some(Cell::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?));
        let (dx, dy) = (bx - ax, by - ay);
        let (sx, sy) = (dx.signum(), dy.signum());
        // The first and last cell along a moving coordinate.
        let first = |p: i64, s: i64| (p - i64::from(s < 0)).div_euclid(2);
        let last = |p: i64, s: i64| (p - i64::from(s > 0)).div_euclid(2);
        if (dx == 0) != (dy == 0) {
            // Parallel to an axis: `along` moves, `across` stays.
            let (p, q, s, across) = if dx == 0 {
                (ay, by, sy, ax)
            } else {
                (ax, bx, sx, ay)
            };
            let at = |along: i64, side: i64| {
                if dx == 0 {
                    (side, along)
                } else {
                    (along, side)
                }
            };
            let near_side = i64::from(if dx == 0 { near.x } else { near.y });
            let mut side = if across & 1 == 1 {
                across.div_euclid(2)
            } else if near_side == across / 2 - 1 || near_side == across / 2 {
                near_side
            } else {
                across / 2
            };
            let (from, to) = (first(p, s), last(q, s));
            let mut along = from;
            loop {
                if across & 1 == 0 {
                    let (x, y) = at(along, side);
                    if !self.clear_at(x, y) {
                        // The other side of the line (the rule keeps one clear).
                        side = if side == across / 2 {
                            across / 2 - 1
                        } else {
                            across / 2
                        };
                    }
                }
                let (x, y) = at(along, side);
                if !visit(cell(x, y)?)? {
                    return Some(false);
                }
                if along == to {
                    break;
                }
                along += s;
            }
        } else if dx != 0 {
            // Corners need nothing: the step after one is diagonal, taken round it
            // where the diagonal is not legal.
            let mut outcome = Some(true);
            trace((ax, ay), (bx, by), |m| match m {
                Meets::Cell(x, y) => match cell(x, y).and_then(&mut visit) {
                    Some(true) => true,
                    other => {
                        outcome = other;
                        false
                    }
                },
                Meets::Corner { .. } => true,
            });
            if outcome != Some(true) {
                return outcome;
            }
        }
        if let Some(c) = b.cell() {
            return visit(c);
        }
        Some(true)
    }
}

/// The direction of the unit step `(dx, dy)`.
fn direction(dx: i32, dy: i32) -> Option<Direction8> {
    Direction8::ALL.into_iter().find(|d| d.offset() == (dx, dy))
}

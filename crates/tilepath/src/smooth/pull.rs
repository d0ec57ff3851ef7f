//! Pulling a grid path straight: the waypoints of an any-angle route.

use super::bend::wraps;
use super::funnel::Funnel;
use super::taut::Taut;
use super::visibility::Visibility;
use super::{Sight, Waypoint};
use crate::Cell;

/// Pulls grid paths straight into any-angle routes ([`smooth`](Self::smooth)),
/// holding the scratch it needs so that a query allocates nothing once it has seen
/// its longest path.
#[derive(Clone, Debug, Default)]
pub struct Smoother {
    /// The path's cells, headed by `from`'s.
    cells: Vec<Cell>,
    /// Finds the shortest route through the path's corridor.
    funnel: Funnel,
    /// Pulls the route taut once its turns are pulled straight.
    taut: Taut,
    /// Looks for a shorter route round the other side of walls.
    visibility: Visibility,
}

impl Smoother {
    /// A smoother with no scratch yet.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            cells: Vec::new(),
            funnel: Funnel::new(),
            taut: Taut::new(),
            visibility: Visibility::new(),
        }
    }

    /// The any-angle route from `from` through the centres of `cells` (a grid path's
    /// cells after its start, each one legal step from the one before) for the unit
    /// `sight` is for: `out` is cleared, then receives the points where the route
    /// turns after `from`, ending with the last cell's centre. Consecutive points see
    /// each other ([`Sight::sees`]), except across steps on dearer ground than the
    /// cheapest, which stay the grid path's steps. The route is never longer than the
    /// grid path and never costs more. Pulling a longer path on in pieces: pass the
    /// last point kept so far as `from` and the cells after it.
    ///
    /// How: first the string is pulled through the path's corridor (its cells, and
    /// the two cells beside each diagonal step) in one pass that reads nothing of the
    /// grid: the funnel algorithm over the lines where one cell of the corridor gives
    /// onto the next. Its turns are corners of the corridor: where it bends round a
    /// wall (already the turns of a taut route) or only turns in open ground. Those
    /// points are pulled straight, from each point kept to the farthest of the next
    /// ones it sees, every segment past the corridor checked ([`Sight::sees`]). The
    /// string's own segments keep the rule where the corridor is clear for the unit:
    /// known for a one-cell unit whose mobility enters everything it enters at one
    /// cost (every cell a path of its steps into is then clear), read cell by cell
    /// otherwise, and checked segment by segment for bigger units. Where it is not
    /// clear (dearer ground), the grid path's turns are pulled instead. Then the
    /// route is pulled taut: a turn with no wall on its inner side (at a cell's
    /// centre, or at a corner it bends the wrong way round) is replaced
    /// by the shortest way round the walls between it and the straight line past it,
    /// also round corners the grid path never touched (first tried round the corners
    /// of the turn's own cell, which is mostly where that way turns). Every turn then
    /// wraps a wall corner: the route is the shortest of those that go its way round
    /// every wall. Where the truly shortest goes round the other side, that route can
    /// still be longer than the shortest; so when it is more than 5% longer than the
    /// straight line between its ends (only then can it be more than 5% longer than
    /// the shortest), and the points a shorter route could pass (an ellipse round
    /// that line) are few, the shortest route through them is searched for (A* over
    /// a visibility graph of the wall corners there) and taken if shorter. What that
    /// buys: a route at most 5% longer than the truly shortest between its ends,
    /// except where it winds far from the straight line (more than 256 cells in the
    /// ellipse, or more than 128 wall corners), as a maze's does, where the walls it
    /// wraps mostly force its way.
    ///
    /// Why the string first: its turns are mostly where the route turns in the end,
    /// found by arithmetic on the path's cells, so most of what is left is one sight
    /// test per segment kept; pulling the grid path's turns instead (cell centres)
    /// leaves every turn to be moved to its wall corner by reading the grid round it.
    /// The cost is the length of the segments tested and the area of the triangles
    /// still pulled taut, read a word of the packed grid at a time for one-cell units.
    ///
    /// A `from` or cells off the grid (bad input) are not pulled: `out` is then the
    /// centres of the cells where the grid path turns, and its last cell's. Cells that
    /// are no path of the unit's on this grid (planned for another unit or before the
    /// grid changed, steps that cut a corner or jump) are never a panic and the route
    /// still ends at the last cell's centre, but it may cross what they cross.
    /// (The plugin turns every route back into grid steps legal by construction.)
    ///
    /// Returns the work it did: the cells its line-of-sight tests read and the points
    /// it weighed, a measure of its cost (linear in it) that a budget can charge.
    /// Allocates only to grow its scratch and `out`.
    ///
    /// ```
    /// use tilepath::{AStar, Cell, Connectivity, Grid, Mobility, PathQuery, Sight, Smoother, Solver, TileKind, Waypoint};
    /// let grid = Grid::from_ascii(".....\n...#.\n.....\n.....", |c| {
    ///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    /// })?;
    /// let (from, to) = (Cell::new(0, 0), Cell::new(4, 3));
    /// let query = PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(Connectivity::Eight);
    /// let r = AStar::new().find(&grid, query)?;
    /// let sight = Sight::new(&grid, Mobility::FLOOR_ONLY, 1);
    /// let mut route = Vec::new();
    /// Smoother::new().smooth(&sight, Waypoint::centre_of(from), r.path.cells(from), &mut route);
    /// // One straight line past the wall, where the grid path takes a diagonal and
    /// // two straight steps.
    /// assert_eq!(route, [Waypoint::centre_of(to)]);
    /// assert_eq!(r.path.len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn smooth(
        &mut self,
        sight: &Sight<'_>,
        from: Waypoint,
        cells: impl IntoIterator<Item = Cell>,
        out: &mut Vec<Waypoint>,
    ) -> u64 {
        out.clear();
        let path = &mut self.cells;
        path.clear();
        // `from`'s cell heads the corridor when the path steps on from it.
        let head = from.cell();
        path.extend(head);
        path.extend(cells);
        // The path's own cells, after `from`'s.
        let (own, steps_on) = match head {
            Some(s) => (1, path.get(1).is_some_and(|&c| is_step(s, c))),
            None => (0, false),
        };
        let corridor = if steps_on { &path[..] } else { &path[own..] };
        let mut work = corridor.len() as u64;
        if corridor.is_empty() {
            return work;
        }
        // Through the corridor first: its turns are mostly the wall corners a taut
        // route wraps, so pulling them straight leaves little to pull taut. Checked
        // segment by segment as they are pulled (the string's own segments only where
        // the corridor may not be clear); where a segment is not seen, the grid path's
        // turns are pulled instead.
        let joint = Waypoint::centre_of(corridor[0]);
        if !steps_on && joint != from {
            out.push(joint);
        }
        let pulled =
            sight.on_grid(from.half_cells()) && self.funnel.through(corridor, out, &mut work) && {
                let strung = Strung::through(sight, corridor, from == joint, out, &mut work);
                pull_tight(sight, from, out, strung, &mut work)
            };
        if !pulled {
            out.clear();
            let turns = &path[own..];
            for (k, &cell) in turns.iter().enumerate() {
                let turns_here = match (k.checked_sub(1).map(|b| turns[b]), turns.get(k + 1)) {
                    (Some(b), Some(&n)) => cell - b != n - cell,
                    _ => true,
                };
                if turns_here {
                    out.push(Waypoint::centre_of(cell));
                }
            }
            // Points off the grid (a `from` or cells outside it) see nothing: the
            // route stays the grid path's turns.
            if out.is_empty()
                || !sight.on_grid(from.half_cells())
                || out.iter().any(|p| !sight.on_grid(p.half_cells()))
            {
                return work;
            }
            pull_tight(sight, from, out, Strung::No, &mut work);
        }
        // The string's segments, and those pulled straight from it, all keep the
        // rule; the grid path's turns may be a step over dearer ground apart.
        self.taut.tighten(sight, from, out, pulled, &mut work);
        self.visibility.shorten(sight, from, out, &mut work);
        work
    }
}

/// What the points [`pull_tight`] pulls are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strung {
    /// The grid path's turns.
    No,
    /// The string through the path's corridor, which may not be clear for the unit.
    Checked,
    /// The string through a corridor that is clear for the unit
    /// ([`through`](Self::through)): a segment between two of its points keeps the
    /// rule, and so does a turn at one (a corner of the corridor, touching two of its
    /// cells that share an edge or three round a diagonal step); and so does the
    /// segment from `from` to the first point when `from_start`, `from` being the
    /// string's start.
    Clear {
        /// Whether `from` is the string's start.
        from_start: bool,
    },
}

impl Strung {
    /// The string `points` through the corridor of `cells`: [`Clear`](Self::Clear)
    /// where the corridor is. It is, for a path of the unit's, where every cell the
    /// unit may stand on is clear ([`Sight::passable_is_clear`]), but for its first
    /// cell (a unit may step out of a cell walled under it) and but for points off the
    /// grid (then the cells are no such path); otherwise its cells are read, once
    /// ([`Sight::corridor_clear`], which costs less than testing the segments it
    /// saves; its cells are added to `work`).
    fn through(
        sight: &Sight<'_>,
        cells: &[Cell],
        from_start: bool,
        points: &[Waypoint],
        work: &mut u64,
    ) -> Self {
        let clear = if sight.passable_is_clear() {
            cells.first().is_some_and(|&c| sight.is_clear(c))
                && points.iter().all(|p| sight.on_grid(p.half_cells()))
        } else {
            *work += cells.len() as u64;
            sight.corridor_clear(cells)
        };
        if clear {
            Self::Clear { from_start }
        } else {
            Self::Checked
        }
    }
}

/// Keeps, from each kept point (starting at `from`), the farthest of the next points
/// it sees without a break; the last point always stays. In place.
///
/// Strung (the string through the path's corridor, see [`Strung`]): the string's
/// segments are legal only where the corridor is clear for the unit. Then a point
/// kept because nothing past it is seen must be seen itself, and a route must be able
/// to turn at every point kept ([`Sight::can_turn_at`]), else `false` (`points` part
/// pulled): checked, unless the corridor is known clear. And the pulling stops at a
/// point where the string wraps a wall, so the route keeps going round it the grid
/// path's way (a line past it mostly runs into that wall: the test is saved; where it
/// would not, the taut step still finds the shortest route the grid path's way round,
/// and the visibility search one round the other side where that is far shorter).
/// Otherwise (the grid path's turns) a point nothing is seen past stays as it is: a
/// grid step on dearer ground, or the next point.
fn pull_tight(
    sight: &Sight<'_>,
    from: Waypoint,
    points: &mut Vec<Waypoint>,
    strung: Strung,
    work: &mut u64,
) -> bool {
    let n = points.len();
    let (mut anchor, mut kept, mut i) = (from, 0, 0);
    while i < n {
        let mut j = i;
        while j + 1 < n
            && !(strung != Strung::No
                && wraps(
                    sight,
                    anchor.half_cells(),
                    points[j].half_cells(),
                    points[j + 1].half_cells(),
                ))
            && sight.sees_counting(anchor, points[j + 1], work)
        {
            j += 1;
        }
        // `anchor` is the point before `points[i]` (or `from`): with it, a segment
        // of the string when `i > 0`.
        let check = match strung {
            Strung::No => false,
            Strung::Checked => true,
            Strung::Clear { from_start } => i == 0 && !from_start,
        };
        if check
            && ((j == i && !sight.sees_counting(anchor, points[i], work))
                || (j + 1 < n && !sight.can_turn_at(points[j])))
        {
            return false;
        }
        anchor = points[j];
        points[kept] = anchor;
        kept += 1;
        i = j + 1;
    }
    points.truncate(kept);
    true
}

/// Whether `b` is one step (of eight) from `a`.
fn is_step(a: Cell, b: Cell) -> bool {
    a != b && a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1
}

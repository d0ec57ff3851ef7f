//! Pulling paths straight (`Smoother`): optimal 8-connected paths on grids with dearer
//! ground, pulled from the start's centre, and cell sequences that are no path at all
//! (jumps, repeats, cells off the grid, starts anywhere up to the ends of `i64`).
//! Never a panic; the route ends at the last cell's centre; a route pulled from a
//! path's start keeps the rule segment by segment (the testkit's own line of sight),
//! but for straight runs of the path's steps on dearer ground, and is never longer
//! than the path.

use super::*;
use tilepath::{Sight, Waypoint};

pub(crate) fn pull_op(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    s: &mut Solvers,
    covered: &mut Covered,
    op: &mut String,
) {
    let sight = Sight::new(grid, mobility, 1);
    let mut route = Vec::new();
    if rng.random_bool(0.3) {
        let mut cells = Vec::new();
        let mut at = any_cell(rng, grid);
        for _ in 0..rng.random_range(0..60) {
            at = match rng.random_range(0..10) {
                0 => any_cell(rng, grid),
                1 => at,
                _ => at + Cell::new(rng.random_range(-1..=1), rng.random_range(-1..=1)),
            };
            cells.push(at);
        }
        let big = |rng: &mut StdRng| match rng.random_range(0..4) {
            0 => i64::MIN,
            1 => i64::MAX,
            _ => rng.random_range(-4..2 * i64::from(grid.width().max(grid.height())) + 4),
        };
        let from = Waypoint::from_half_cells(big(rng), big(rng));
        let _ = write!(op, "pull {from:?} through {cells:?}");
        s.smoother
            .smooth(&sight, from, cells.iter().copied(), &mut route);
        assert_eq!(
            route.last().copied(),
            cells.last().map(|&c| Waypoint::centre_of(c))
        );
        covered.pulls += 1;
        return;
    }
    if grid.is_empty() {
        return;
    }
    let (from, to) = (random_cell(rng, grid), random_cell(rng, grid));
    let _ = write!(op, "pull the path {from}->{to} mobility={mobility:?}");
    let r = s
        .whole
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
        )
        .unwrap();
    if r.path.is_empty() {
        return;
    }
    let start = Waypoint::centre_of(from);
    s.smoother
        .smooth(&sight, start, r.path.cells(from), &mut route);
    assert_eq!(route.last(), Some(&Waypoint::centre_of(r.end)));
    let clear = anchor_clear(grid, mobility, 1);
    let (mut at, mut length) = (start, 0.0);
    for &p in &route {
        // A straight run of the path's own steps (between two of its cells' centres,
        // along one of the eight directions) may cross dearer ground.
        let run = matches!((at.cell(), p.cell()), (Some(a), Some(b))
            if a.x == b.x || a.y == b.y || a.x.abs_diff(b.x) == a.y.abs_diff(b.y));
        assert!(
            run || reference_sees(&clear, at.half_cells(), p.half_cells()),
            "{at:?} -> {p:?} breaks the rule in {route:?}"
        );
        length += at.distance(p);
        at = p;
    }
    let mut path_length = 0.0;
    let mut c = from;
    for next in r.path.cells(from) {
        path_length += Waypoint::centre_of(c).distance(Waypoint::centre_of(next));
        c = next;
    }
    assert!(length <= path_length + 1e-9, "{length} > {path_length}");
    covered.pulls += 1;
    covered.pulled_paths += 1;
}

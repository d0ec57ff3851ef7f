//! Derived structures built on a copy of the cells and caught up with the edits made
//! since, as a game building them off-thread does (the [`Derived`] contract).

use super::*;

/// Starts building the jump distances and bit rows of `mobility` from a copy of the
/// cells, or catches those under way up with the cells edited since: by a repair from
/// the grid, or from the edited cells' kinds alone; with all the cells, one fewer, or
/// cells outside the grid added. Caught up with every cell, they equal a fresh build
/// and searches reading them answer as scanning the planes; a cell missed is caught up
/// by a later repair that names it; cells outside are ignored by a repair and refused
/// by a catch-up, which then changes nothing.
pub(crate) fn jumps_op(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    building: &mut Option<(JumpDistances, OpenRows, Vec<Cell>)>,
    covered: &mut Covered,
    op: &mut String,
) {
    let Some((mut distances, mut rows, mut since)) = building.take() else {
        let copy = grid.clone();
        let _ = write!(
            op,
            "JumpDistances::new({mobility:?}) on a copy of the cells"
        );
        *building = Some((
            JumpDistances::new(&copy, mobility).unwrap(),
            OpenRows::new(&copy, mobility).unwrap(),
            Vec::new(),
        ));
        return;
    };
    let mut missed = None;
    let mut outside = false;
    match rng.random_range(0..10) {
        0..2 if !since.is_empty() => {
            let i = rng.random_range(0..since.len());
            let c = since.remove(i);
            // Missed only if no other entry names it.
            if !since.contains(&c) {
                missed = Some(c);
            }
        }
        2 => {
            since.extend((0..3).map(|_| extreme_cell(rng, grid)));
            outside = since.iter().any(|&c| !grid.contains(c));
        }
        _ => {}
    }
    covered.catch_ups += 1;
    let by_kinds = rng.random_bool(0.5);
    if by_kinds {
        let _ = write!(op, "catch_up({mobility:?}, {since:?})");
        covered.without_grid += 1;
        // The kinds the cells have now; a cell outside gets one too.
        let edits: Vec<(Cell, TileKind)> = since
            .iter()
            .map(|&c| (c, grid.get(c).unwrap_or(TileKind::K0)))
            .collect();
        let before = (distances.clone(), rows.clone());
        let (a, b) = (distances.catch_up(&edits), rows.catch_up(&edits));
        if outside {
            let cell = *since.iter().find(|&&c| !grid.contains(c)).unwrap();
            assert_eq!(a.unwrap().unwrap_err(), GridError::OutOfBounds { cell });
            assert_eq!(b.unwrap().unwrap_err(), GridError::OutOfBounds { cell });
            assert!(
                distances == before.0 && rows == before.1,
                "a refused catch-up changed them"
            );
            covered.errors_checked += 1;
            return;
        }
        a.unwrap().unwrap();
        b.unwrap().unwrap();
    } else {
        let _ = write!(op, "repair({mobility:?}, {since:?})");
        distances.repair(grid, &since, usize::MAX).unwrap();
        rows.repair(grid, &since, usize::MAX).unwrap();
    }
    // A cell missed leaves them behind the grid (searches reading them may answer
    // wrongly) until a repair names it.
    if let Some(c) = missed {
        let _ = write!(op, "; repair of the missed {c}");
        distances.repair(grid, &[c], usize::MAX).unwrap();
        rows.repair(grid, &[c], usize::MAX).unwrap();
    }
    assert!(distances == JumpDistances::new(grid, mobility).unwrap());
    assert!(rows == OpenRows::new(grid, mobility).unwrap());
    // Whole-grid jump point search reads them (one-cost mobilities): its answers equal
    // those of scanning the planes.
    if Jps::applies_to(mobility) && !grid.is_empty() {
        for _ in 0..4 {
            let (from, to) = (random_cell(rng, grid), random_cell(rng, grid));
            let q = PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight);
            let a = Jps::whole_grid().find(grid, q.jumps(&distances)).unwrap();
            let b = Jps::whole_grid().find(grid, q.rows(&rows)).unwrap();
            let c = Jps::whole_grid().find(grid, q).unwrap();
            for r in [&a, &b] {
                assert_eq!(
                    !matches!(r.arrival, Arrival::Closest(_)),
                    !matches!(c.arrival, Arrival::Closest(_)),
                    "{from}->{to}"
                );
                assert!((r.cost - c.cost).abs() < 1e-9, "{from}->{to}");
            }
            covered.searches += 1;
        }
    }
}

//! Jump distances built on a copy of the cells and handed over after edits, as a
//! game building them off-thread does.

use super::*;

/// Starts building the jump distances of `mobility` from a copy of the cells, or has
/// the grid lend those it keeps, or hands the ones away to `grid` with the cells edited
/// since: all of them, one fewer, or with cells outside added. The grid takes them
/// over exactly when the cells they were made for, brought up to date with the cells
/// named, equal its own; later searches read them.
pub(crate) fn jumps_op(
    rng: &mut StdRng,
    grid: &mut Grid,
    mobility: Mobility,
    building: &mut Option<(Grid, JumpDistances, Vec<Cell>)>,
    covered: &mut Covered,
    op: &mut String,
) {
    let Some((copy, distances, mut since)) = building.take() else {
        let copy = grid.copy_cells().unwrap();
        assert_eq!(&copy, grid);
        if rng.random_bool(0.5)
            && let Some(lent) = grid.lend_jump_distances(mobility).unwrap()
        {
            let _ = write!(op, "lend_jump_distances({mobility:?})");
            assert!(!grid.keeps_jump_distances(mobility));
            covered.lent += 1;
            *building = Some((copy, lent, Vec::new()));
            return;
        }
        let _ = write!(
            op,
            "copy_cells, JumpDistances::new({mobility:?}) on the copy"
        );
        let distances = JumpDistances::new(&copy, mobility).unwrap();
        *building = Some((copy, distances, Vec::new()));
        return;
    };
    match rng.random_range(0..10) {
        0..2 if !since.is_empty() => {
            since.remove(rng.random_range(0..since.len()));
        }
        2 => since.extend((0..3).map(|_| extreme_cell(rng, grid))),
        _ => {}
    }
    let _ = write!(op, "adopt_jump_distances({mobility:?}, {since:?})");
    let mut expected = copy;
    for &c in &since {
        if let Some(kind) = grid.get(c) {
            expected.set(c, kind).unwrap();
        }
    }
    let kept_before = grid.keeps_jump_distances(mobility);
    covered.adoptions += 1;
    match grid.adopt_jump_distances(distances, &since) {
        Ok(()) => {
            // They are a mobility's: only which cells it enters must agree.
            assert!(same_open(&expected, grid, mobility));
            assert!(grid.keeps_jump_distances(mobility));
            // Whole-grid jump point search reads them (one-cost mobilities): its
            // answers equal those of scanning a copy that keeps nothing.
            if Jps::applies_to(mobility) && !grid.is_empty() {
                let plain = grid.copy_cells().unwrap();
                for _ in 0..4 {
                    let (from, to) = (random_cell(rng, grid), random_cell(rng, grid));
                    let a = Jps::whole_grid().find(
                        grid,
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                    );
                    let b = Jps::whole_grid().find(
                        &plain,
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                    );
                    let (a, b) = (a.unwrap(), b.unwrap());
                    assert_eq!(
                        !matches!(a.arrival, Arrival::Closest(_)),
                        !matches!(b.arrival, Arrival::Closest(_)),
                        "{from}->{to}"
                    );
                    assert!((a.cost - b.cost).abs() < 1e-9, "{from}->{to}");
                    covered.searches += 1;
                }
            }
        }
        Err(e) => {
            assert_eq!(e, GridError::StaleCopy);
            assert!(!same_open(&expected, grid, mobility));
            assert_eq!(grid.keeps_jump_distances(mobility), kept_before);
            covered.errors_checked += 1;
        }
    }
}

/// Whether `mobility` enters the same cells of `a` and `b` (grids of one size).
fn same_open(a: &Grid, b: &Grid, mobility: Mobility) -> bool {
    (0..a.len()).all(|i| {
        let c = a.cell_of(i).unwrap();
        a.is_passable(c, mobility) == b.is_passable(c, mobility)
    })
}

//! Jump distances built on a copy of the cells and handed over after edits, as a
//! game building them off-thread does.

use super::*;

/// Starts building the jump distances of `mobility` on a copy of the cells, or hands
/// the one under way to `grid` with the cells edited since: all of them, one fewer, or
/// with cells outside added. The grid takes them over exactly when the copy, brought up
/// to date with the cells named, equals it; later searches read them.
pub(crate) fn jumps_op(
    rng: &mut StdRng,
    grid: &mut Grid,
    mobility: Mobility,
    building: &mut Option<(Grid, Vec<Cell>)>,
    covered: &mut Covered,
    op: &mut String,
) {
    let Some((copy, mut since)) = building.take() else {
        let _ = write!(
            op,
            "copy_cells, keep_jump_distances({mobility:?}) on the copy"
        );
        let mut copy = grid.copy_cells().unwrap();
        assert_eq!(&copy, grid);
        copy.keep_jump_distances(mobility).unwrap();
        *building = Some((copy, Vec::new()));
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
    let mut expected = copy.copy_cells().unwrap();
    for &c in &since {
        if let Some(kind) = grid.get(c) {
            expected.set(c, kind).unwrap();
        }
    }
    let kept_before = grid.keeps_jump_distances(mobility);
    covered.adoptions += 1;
    match grid.adopt_jump_distances(copy, mobility, &since) {
        Ok(()) => {
            assert_eq!(&expected, grid);
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
            assert_ne!(&expected, grid);
            assert_eq!(grid.keeps_jump_distances(mobility), kept_before);
            covered.errors_checked += 1;
        }
    }
}

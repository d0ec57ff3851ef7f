//! Connected components: built or repaired after the edits, asked, and the bounded
//! searches they allow, checked against a reference search.

use super::*;

/// Builds the components or repairs them after the edits, then checks reachability
/// from a cell against a reference search, and the bounded search they allow.
pub(crate) fn components_op(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    parts: &mut Option<(Components, Vec<Cell>)>,
    s: &mut Solvers,
    covered: &mut Covered,
    op: &mut String,
) {
    match parts {
        Some((c, pending)) if rng.random_bool(0.8) => {
            let _ = write!(op, "components repair ({} cells) ", pending.len());
            c.repair(grid, pending).unwrap();
            pending.clear();
        }
        _ => {
            let connectivity = if rng.random_bool(0.5) {
                Connectivity::Hex(random_layout(rng))
            } else {
                Connectivity::Four
            };
            let _ = write!(op, "components build {connectivity:?} ");
            *parts = Some((
                Components::with_connectivity(grid, mobility, connectivity),
                Vec::new(),
            ));
        }
    }
    let (c, _) = parts.as_ref().unwrap();
    let other = Grid::new(grid.width() + 1, grid.height()).unwrap();
    assert!(c.clone().repair(&other, &[]).is_err(), "another size");
    if grid.is_empty() {
        assert_eq!(c.count(), 0);
        return;
    }
    let from = any_cell(rng, grid);
    let _ = write!(op, "from {from}");
    let hex = match c.connectivity() {
        Connectivity::Hex(layout) => Some(layout),
        _ => None,
    };
    let all: Vec<Option<f64>> = match hex {
        Some(layout) => reference_hex(grid, mobility, layout, &[(from, 0)], false, |_| true)
            .into_iter()
            .map(|d| d.map(|d| d as f64))
            .collect(),
        None => reference_dijkstra(grid, mobility, from, false, |_| true),
    };
    let open = grid.is_passable(from, mobility);
    for _ in 0..8 {
        let to = any_cell(rng, grid);
        let reached = open
            && grid.is_passable(to, mobility)
            && grid.index_of(to).is_some_and(|i| all[i].is_some());
        assert_eq!(c.is_reachable(from, to), reached, "{from} -> {to}");
        covered.component_checks += 1;
    }
    if let Some(layout) = hex
        && grid.contains(from)
    {
        let to = any_cell(rng, grid);
        let bounded = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility)
                    .within(c)
                    .connectivity(Connectivity::Hex(layout)),
            )
            .unwrap();
        if c.is_reachable(from, to) {
            let plain = s
                .whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            assert_eq!(bounded, plain);
        } else {
            check_hex_result(grid, mobility, layout, (from, to), &bounded);
            assert!(bounded.expanded <= tilepath::UNREACHABLE_EXPANSIONS);
        }
        // Components of another layout are not used: the plain search's answer.
        let other = HexLayout::ALL[(layout as usize + 1) % 5];
        let r = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility)
                    .within(c)
                    .connectivity(Connectivity::Hex(other)),
            )
            .unwrap();
        assert_eq!(
            r,
            s.whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(other))
                )
                .unwrap()
        );
    } else if grid.contains(from) {
        let to = any_cell(rng, grid);
        let bounded = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility)
                    .within(c)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        if c.is_reachable(from, to) {
            assert_eq!(
                bounded,
                s.whole
                    .find(
                        grid,
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
                    )
                    .unwrap()
            );
        } else {
            check_result(grid, mobility, from, to, &bounded);
            assert!(bounded.expanded <= tilepath::UNREACHABLE_EXPANSIONS);
        }
    }
}

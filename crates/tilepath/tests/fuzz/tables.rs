//! The next-hop-table part of an episode: builds, queries and repaired edits checked
//! against the reference.

use super::*;

pub(crate) struct TableModel {
    pub(crate) table: NextHopTable,
    pub(crate) changed: Vec<Cell>,
}

pub(crate) fn table_op(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    slot: &mut Option<TableModel>,
    covered: &mut Covered,
    op: &mut String,
) {
    if grid.len() > 600 {
        return;
    }
    let Some(t) = slot else {
        let conn = if rng.random_bool(0.5) {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        let slots = if rng.random_bool(0.5) {
            TableCells::AllCells
        } else {
            TableCells::Passable
        };
        let threads = rng.random_range(1..=3);
        let limit = if rng.random_bool(0.1) {
            rng.random_range(0..20_000)
        } else {
            u64::MAX
        };
        let _ = write!(
            op,
            "table build {conn:?} {slots:?} threads={threads} limit={limit}"
        );
        let builder = NextHopTable::builder(mobility)
            .connectivity(conn)
            .table_cells(slots)
            .threads(threads)
            .memory_limit(limit);
        let estimate = builder.estimate(grid);
        match builder.build(grid) {
            Ok(table) => {
                assert!(estimate.total_bytes <= limit);
                *slot = Some(TableModel {
                    table,
                    changed: Vec::new(),
                });
            }
            Err(e) => {
                // Refused at the estimate, or earlier on a part of it alone.
                assert!(
                    matches!(
                        e,
                        TableError::TooLarge { needed, limit: l }
                            if l == limit && needed > limit && needed <= estimate.total_bytes
                    ),
                    "{e:?} for {estimate:?}"
                );
                assert_eq!(builder.memory_limit(u64::MAX).estimate(grid), estimate);
                covered.errors_checked += 1;
                return;
            }
        }
        check_table(rng, grid, slot.as_ref().unwrap(), covered);
        return;
    };
    if rng.random_bool(0.1) {
        let _ = write!(op, "table update on a grid of another size");
        let other = Grid::new(grid.width(), grid.height() + 1).unwrap();
        assert!(matches!(
            t.table.repair(&other, &[]),
            Err(TableError::GridMismatch(_))
        ));
        covered.errors_checked += 1;
        return;
    }
    let mut changed = std::mem::take(&mut t.changed);
    if rng.random_bool(0.2) {
        changed.push(extreme_cell(rng, grid));
    }
    let _ = write!(op, "table update({changed:?})");
    match t.table.repair(grid, &changed) {
        Ok(_) => check_table(rng, grid, t, covered),
        Err(TableError::TooLarge { needed, limit }) => {
            // Documented: opening a cell outside the slots rebuilds, and a rebuild
            // above the table's memory limit is refused part-way through the edits.
            assert!(needed > limit);
            covered.errors_checked += 1;
            *slot = None;
        }
        Err(e) => panic!("table update: {e}"),
    }
}

pub(crate) fn check_table(rng: &mut StdRng, grid: &Grid, t: &TableModel, covered: &mut Covered) {
    let table = &t.table;
    let mobility = table.mobility();
    let eight = table.connectivity() == Connectivity::Eight;
    for _ in 0..8 {
        covered.table_checks += 1;
        let from = any_cell(rng, grid);
        let to = any_cell(rng, grid);
        let open = |c: Cell| grid.is_passable(c, mobility);
        if !grid.contains(from) || !grid.contains(to) {
            assert!(!table.is_reachable(from, to));
            assert_eq!(table.next_step(from, to), None);
            assert_eq!(table.distance(from, to), None);
            continue;
        }
        if !open(from) || !open(to) {
            let _ = (table.next_step(from, to), table.distance(from, to));
            continue;
        }
        let dist = reference_dijkstra(grid, mobility, from, eight, |_| true);
        let want = dist[grid.index_of(to).unwrap()];
        assert_eq!(table.is_reachable(from, to), want.is_some(), "{from}->{to}");
        match (table.distance(from, to), want) {
            (Some(a), Some(b)) => assert!(close(a, b), "{from}->{to}: {a} != {b}"),
            (a, b) => assert_eq!(a, b, "{from}->{to}"),
        }
        match table.next_step(from, to) {
            Some(d) => {
                let n = from.step(d);
                let (_, step) = walk(grid, mobility, from, std::iter::once(d));
                let rest = reference_dijkstra(grid, mobility, n, eight, |_| true);
                let rest = rest[grid.index_of(to).unwrap()].expect("a step off the route");
                assert!(close(step + rest, want.unwrap()), "{from}->{to}: {d:?}");
            }
            None => assert!(from == to || want.is_none(), "{from}->{to}: no step"),
        }
        let hops: Vec<_> = table.hops(from, to).collect();
        if let Some(want) = want {
            let (end, cost) = walk(grid, mobility, from, hops.iter().map(|&(d, _)| d));
            assert_eq!(end, to);
            assert!(close(cost, want));
        }
    }
}

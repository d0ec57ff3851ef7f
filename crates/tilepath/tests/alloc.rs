//! Zero allocation per query, proved with a counting global allocator: after a warm-up
//! that lets the reusable scratch grow to the workload, 10,000 more queries (other
//! pairs, same maps) allocate nothing, for each solver.

use tilepath::{
    AStar, Cell, Connectivity, Greedy, Grid, Jps, Mobility, PathQuery, Sight, Smoother, Solver,
    Waypoint,
};
use tilepath_testkit::*;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

struct Workload {
    maps: Vec<(Grid, Mobility)>,
}

impl Workload {
    fn new() -> Self {
        let mut rng = rng(5);
        let mut maps = Vec::new();
        for name in ["no_walls", "simple_wall", "pocket_wall", "multi_wall"] {
            maps.push((load_reference(name).0, Mobility::FLOOR_ONLY));
        }
        maps.push((
            random_grid(&mut rng, 200, 200, 0.25),
            Mobility::new([1, 3, 9, 0]),
        ));
        maps.push((
            random_grid(&mut rng, 200, 200, 0.2),
            Mobility::new([1, 60, 200, 0]),
        ));
        Self { maps }
    }

    /// `n` queries `(map, from, to)` drawn with `seed`.
    fn queries(&self, seed: u64, n: usize) -> Vec<(usize, Cell, Cell)> {
        let mut rng = rng(seed);
        (0..n)
            .map(|i| {
                let m = i % self.maps.len();
                let g = &self.maps[m].0;
                (m, random_cell(&mut rng, g), random_cell(&mut rng, g))
            })
            .collect()
    }
}

fn assert_no_allocations(name: &str, query: impl FnMut(&Grid, Mobility, Cell, Cell) -> f64) {
    assert_no_allocations_after(3000, name, query);
}

/// [`assert_no_allocations`] after `warm_up` queries: solvers whose open lists grow
/// with the largest frontier seen need a longer warm-up on some workloads.
fn assert_no_allocations_after(
    warm_up: usize,
    name: &str,
    mut query: impl FnMut(&Grid, Mobility, Cell, Cell) -> f64,
) {
    let work = Workload::new();
    let warm_up = work.queries(1, warm_up);
    let measured = work.queries(2, 10_000);
    let mut sink = 0.0;
    for &(m, from, to) in &warm_up {
        sink += query(&work.maps[m].0, work.maps[m].1, from, to);
    }
    let n = allocations_in(|| {
        for &(m, from, to) in &measured {
            sink += query(&work.maps[m].0, work.maps[m].1, from, to);
        }
    });
    println!(
        "{name}: {n} allocations in {} queries (checksum {sink})",
        measured.len()
    );
    assert_eq!(
        n, 0,
        "{name} allocated {n} times in 10,000 queries after warm-up"
    );
}

#[test]
fn the_counter_counts() {
    let n = allocations_in(|| drop(std::hint::black_box(vec![1u8; 10])));
    assert_eq!(n, 1);
}

#[test]
fn greedy_allocates_nothing_per_query() {
    let mut s = Greedy::new();
    assert_no_allocations("greedy", |g, l, a, b| {
        s.find(g, PathQuery::new(a, b, l)).unwrap().cost
    });
}

#[test]
fn windowed_astar_allocates_nothing_per_query() {
    let mut s = AStar::new();
    assert_no_allocations("A* 4", |g, l, a, b| {
        s.find(g, PathQuery::new(a, b, l)).unwrap().cost
    });
    assert_no_allocations("A* 8", |g, l, a, b| {
        s.find(g, PathQuery::new(a, b, l).connectivity(Connectivity::Eight))
            .unwrap()
            .cost
    });
}

#[test]
fn whole_grid_astar_allocates_nothing_per_query() {
    let mut s = AStar::whole_grid();
    assert_no_allocations("whole-grid A* 4", |g, l, a, b| {
        s.find(g, PathQuery::new(a, b, l)).unwrap().cost
    });
    assert_no_allocations("whole-grid A* 8", |g, l, a, b| {
        s.find(g, PathQuery::new(a, b, l).connectivity(Connectivity::Eight))
            .unwrap()
            .cost
    });
}

#[test]
fn pulling_routes_straight_allocates_nothing() {
    let mut s = AStar::new();
    let mut smoother = Smoother::new();
    let mut route = Vec::new();
    assert_no_allocations("pulled A* 8", |g, l, a, b| {
        let r = s
            .find(g, PathQuery::new(a, b, l).connectivity(Connectivity::Eight))
            .unwrap();
        let sight = Sight::new(g, l, 1);
        smoother.smooth(&sight, Waypoint::centre_of(a), r.path.cells(a), &mut route);
        route.len() as f64
    });
}

#[test]
fn hex_queries_allocate_nothing() {
    use tilepath::HexLayout;
    let mut window = AStar::new();
    let mut whole = AStar::whole_grid();
    let mut greedy = Greedy::new();
    for layout in HexLayout::ALL {
        assert_no_allocations(&format!("hex A* {layout:?}"), |g, l, a, b| {
            window
                .find(
                    g,
                    PathQuery::new(a, b, l).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap()
                .cost
        });
        assert_no_allocations(&format!("whole-grid hex A* {layout:?}"), |g, l, a, b| {
            whole
                .find(
                    g,
                    PathQuery::new(a, b, l).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap()
                .cost
        });
        assert_no_allocations(&format!("hex greedy {layout:?}"), |g, l, a, b| {
            greedy
                .find(
                    g,
                    PathQuery::new(a, b, l).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap()
                .cost
        });
    }
}

#[test]
fn sized_queries_allocate_nothing_with_mixed_sizes() {
    use std::collections::HashMap;
    use tilepath::{Clearance, Footprint};
    // One clearance per map, made during the warm-up (keyed by the map's address).
    let mut clear: HashMap<*const Grid, Clearance> = HashMap::new();
    let mut i = 0u32;
    // The footprints' costs make for larger frontiers than one cell's: the open lists
    // of the whole-grid 4-connected search reach their size over a longer warm-up.
    let mut sized =
        |warm_up: usize,
         name: &str,
         query: &mut dyn FnMut(Footprint<'_>, &Grid, Mobility, Cell, Cell) -> f64| {
            assert_no_allocations_after(warm_up, name, |g, l, a, b| {
                let c = clear.entry(g as *const Grid).or_insert_with(|| {
                    // Size 2 kept as bit rows (jump point search reads those), sizes
                    // 3 and 4 read from the values.
                    let mut c = Clearance::new(g, l);
                    c.keep_rows(2).unwrap();
                    c
                });
                i += 1;
                query(c.footprint(1 + (i % 4) as u8), g, l, a, b)
            });
        };
    let mut astar = AStar::new();
    sized(3000, "A* 4, sizes 1-4", &mut |f, g, l, a, b| {
        astar
            .find(g, PathQuery::new(a, b, l).sized(f))
            .unwrap()
            .cost
    });
    sized(3000, "A* 8, sizes 1-4", &mut |f, g, l, a, b| {
        astar
            .find(
                g,
                PathQuery::new(a, b, l)
                    .sized(f)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap()
            .cost
    });
    let mut whole = AStar::whole_grid();
    sized(3000, "whole-grid A* 8, sizes 1-4", &mut |f, g, l, a, b| {
        whole
            .find(
                g,
                PathQuery::new(a, b, l)
                    .sized(f)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap()
            .cost
    });
    sized(
        30_000,
        "whole-grid A* 4, sizes 1-4",
        &mut |f, g, l, a, b| {
            whole
                .find(g, PathQuery::new(a, b, l).sized(f))
                .unwrap()
                .cost
        },
    );
    let mut jps = Jps::whole_grid();
    sized(3000, "whole-grid Jps 8, sizes 1-4", &mut |f, g, l, a, b| {
        jps.find(
            g,
            PathQuery::new(a, b, l)
                .sized(f)
                .connectivity(Connectivity::Eight),
        )
        .unwrap()
        .cost
    });
    let mut jps = Jps::new();
    sized(3000, "Jps 4, sizes 1-4", &mut |f, g, l, a, b| {
        jps.find(g, PathQuery::new(a, b, l).sized(f)).unwrap().cost
    });
    let mut greedy = Greedy::new();
    sized(3000, "greedy, sizes 1-4", &mut |f, g, l, a, b| {
        greedy
            .find(g, PathQuery::new(a, b, l).sized(f))
            .unwrap()
            .cost
    });
}

#[test]
fn distance_fields_allocate_nothing_to_compute_or_repair() {
    use tilepath::{Connectivity, DistanceField, HexLayout, TileKind};
    let mut rng = rng(9);
    for (conn, mobility, size) in [
        (Connectivity::Four, Mobility::FLOOR_ONLY, 1),
        (Connectivity::Four, Mobility::new([1, 3, 9, 0]), 1),
        (Connectivity::Eight, Mobility::new([1, 2, 0, 0]), 1),
        (Connectivity::Eight, Mobility::new([1, 1, 1, 0]), 1), // one cost: two FIFOs
        (Connectivity::Four, Mobility::new([1, 3, 9, 0]), 2),
        (Connectivity::Eight, Mobility::new([1, 2, 2, 0]), 3),
        (
            Connectivity::Hex(HexLayout::RowOdd),
            Mobility::FLOOR_ONLY,
            1,
        ),
        (
            Connectivity::Hex(HexLayout::ColumnEven),
            Mobility::new([1, 3, 9, 0]),
            1,
        ),
        (
            Connectivity::Hex(HexLayout::Axial),
            Mobility::new([2, 2, 2, 0]),
            1,
        ),
    ] {
        let mut grid = random_grid(&mut rng, 120, 120, 0.2);
        let mut field = DistanceField::new(&grid, mobility, conn)
            .with_unit_size(size)
            .unwrap();
        let goals: Vec<Cell> = (0..8).map(|_| random_cell(&mut rng, &grid)).collect();
        let edits: Vec<Cell> = (0..400).map(|_| random_cell(&mut rng, &grid)).collect();
        let kinds: Vec<TileKind> = (0..400)
            .map(|i| TileKind::new((i % 4) as u8).unwrap())
            .collect();
        let run = |grid: &mut Grid, field: &mut DistanceField| {
            for (i, &g) in goals.iter().enumerate() {
                field.add_goal(g, i as u32);
            }
            field.compute(grid).unwrap();
            for (&c, &k) in edits.iter().zip(&kinds) {
                grid.set(c, k).unwrap();
                field.repair(grid, &[c]).unwrap();
            }
            for &g in &goals {
                field.remove_goal(g);
            }
            field.add_goal(goals[0], 0);
            field.compute(grid).unwrap();
            field.clear_goals();
        };
        // Warm-up: the work queues and the repair scratch reach their working size
        // (the largest computation and repair seen).
        run(&mut grid, &mut field);
        run(&mut grid, &mut field);
        let n = allocations_in(|| {
            for _ in 0..3 {
                run(&mut grid, &mut field);
            }
        });
        println!("{conn:?} field, size {size}: {n} allocations in 6 computes and 1,200 repairs");
        assert_eq!(n, 0, "{conn:?} field allocated {n} times");
    }
}

#[test]
fn next_hop_queries_allocate_nothing() {
    use tilepath::{Connectivity, NextHopTable};
    let mut rng = rng(11);
    for (conn, mobility) in [
        (Connectivity::Four, Mobility::new([1, 1, 1, 0])),
        (Connectivity::Four, Mobility::new([1, 3, 9, 0])),
        (Connectivity::Eight, Mobility::new([1, 2, 4, 0])),
    ] {
        let grid = random_grid(&mut rng, 40, 40, 0.2);
        let table = NextHopTable::builder(mobility)
            .connectivity(conn)
            .build(&grid)
            .unwrap();
        // Queries on dead-end branches and on the core are both covered.
        assert!(
            table.branch_cells() > 20 && table.table_cells() > 500,
            "{} branch cells, {} slots",
            table.branch_cells(),
            table.table_cells()
        );
        let pairs: Vec<(Cell, Cell)> = (0..10_000)
            .map(|_| (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid)))
            .collect();
        let mut answered = 0usize;
        let n = allocations_in(|| {
            for &(s, t) in &pairs {
                answered += usize::from(table.next_step(s, t).is_some());
                answered += usize::from(table.is_reachable(s, t));
                answered += table.path(s, t).len() + table.path8(s, t).len();
                answered += table.hops(s, t).count();
                answered += usize::from(table.step_away(s, t).is_some());
                answered += table.distance(s, t).map_or(0, |d| d as usize);
            }
        });
        println!("{conn:?} table: {n} allocations in 10,000 x 7 queries");
        assert_eq!(n, 0, "{conn:?} table queries allocated {n} times");
        assert!(answered > 10_000, "the queries found nothing: {answered}");
    }
}

#[test]
fn components_queries_repairs_and_bounded_searches_allocate_nothing() {
    let mut rng = rng(17);
    // Floor and walls only, so that toggling a cell twice restores it.
    let mut grid = random_grid(&mut rng, 120, 120, 0.35);
    for c in (0..120 * 120).map(|i| Cell::new(i % 120, i / 120)) {
        if grid.get(c) != Some(tilepath::TileKind::K3) {
            grid.set(c, tilepath::TileKind::K0).unwrap();
        }
    }
    let mobility = Mobility::FLOOR_ONLY;
    for connectivity in [
        tilepath::Connectivity::Four,
        tilepath::Connectivity::Hex(tilepath::HexLayout::RowEven),
    ] {
        components_allocate_nothing(&mut rng, &mut grid, mobility, connectivity);
    }
}

/// Edits, queries and bounded searches on components of `connectivity`: none
/// allocates once the split scratch has grown.
fn components_allocate_nothing(
    rng: &mut rand::rngs::StdRng,
    grid: &mut Grid,
    mobility: Mobility,
    connectivity: tilepath::Connectivity,
) {
    let mut parts = tilepath::Components::with_connectivity(grid, mobility, connectivity);
    let mut astar = AStar::for_grid(grid).unwrap();
    let hex = match connectivity {
        tilepath::Connectivity::Hex(layout) => Some(layout),
        _ => None,
    };
    let edits: Vec<Cell> = (0..400).map(|_| random_cell(rng, grid)).collect();
    let pairs: Vec<(Cell, Cell)> = (0..400)
        .map(|_| (random_cell(rng, grid), random_cell(rng, grid)))
        .collect();
    // Toggling every listed cell twice restores the map: the second round repeats the
    // first one's work, which has already grown the split scratch.
    let mut round = |grid: &mut Grid, parts: &mut tilepath::Components| {
        let mut splits = 0;
        for &c in &edits {
            let k = grid.get(c).unwrap();
            let flip = if k == tilepath::TileKind::K3 {
                tilepath::TileKind::K0
            } else {
                tilepath::TileKind::K3
            };
            grid.set(c, flip).unwrap();
            splits += parts.repair(grid, &[c]).unwrap().splits;
        }
        for &(a, b) in &pairs {
            std::hint::black_box(parts.is_reachable(a, b));
            match hex {
                Some(layout) => std::hint::black_box(
                    astar
                        .find(
                            grid,
                            PathQuery::new(a, b, mobility)
                                .within(parts)
                                .connectivity(Connectivity::Hex(layout)),
                        )
                        .unwrap()
                        .cost,
                ),
                None => std::hint::black_box(
                    astar
                        .find(grid, PathQuery::new(a, b, mobility).within(parts))
                        .unwrap()
                        .cost,
                ),
            };
        }
        splits
    };
    let warm = round(grid, &mut parts) + round(grid, &mut parts);
    assert!(warm > 0, "the edits split nothing");
    let mut again = 0;
    let n = allocations_in(|| {
        again = round(grid, &mut parts) + round(grid, &mut parts);
    });
    assert_eq!(again, warm);
    assert_eq!(
        n, 0,
        "{connectivity:?}: allocations in 1,600 edits and 1,600 queries"
    );
}

#[test]
fn clearance_repairs_allocate_nothing_once_warm() {
    let mut rng = rng(23);
    // Floor and walls only, so that toggling a cell twice restores it.
    let walls = random_grid(&mut rng, 120, 120, 0.2);
    let mut grid = Grid::from_fn(120, 120, |c| match walls.get(c) {
        Some(tilepath::TileKind::K3) => tilepath::TileKind::K3,
        _ => tilepath::TileKind::K0,
    })
    .unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let mut clear = tilepath::Clearance::new(&grid, mobility);
    let edits: Vec<Cell> = (0..300).map(|_| random_cell(&mut rng, &grid)).collect();
    let round = |grid: &mut Grid, clear: &mut tilepath::Clearance| {
        let mut computed = 0;
        for pair in edits.chunks(3) {
            for &c in pair {
                let k = grid.get(c).unwrap();
                let flip = if k == tilepath::TileKind::K3 {
                    tilepath::TileKind::K0
                } else {
                    tilepath::TileKind::K3
                };
                grid.set(c, flip).unwrap();
            }
            computed += clear.repair(grid, pair).unwrap();
        }
        computed
    };
    let warm = round(&mut grid, &mut clear) + round(&mut grid, &mut clear);
    assert!(warm > 0, "the edits changed nothing");
    let mut again = 0;
    let n = allocations_in(|| {
        again = round(&mut grid, &mut clear) + round(&mut grid, &mut clear);
    });
    assert_eq!(again, warm);
    assert_eq!(n, 0, "allocations in 600 repairs");
}

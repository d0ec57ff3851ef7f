//! What the structures allocate, measured with a counting global allocator: estimates
//! hold, refusals allocate (almost) nothing, malformed input costs no more than its
//! text. The tests of this binary take one lock, so that each measures alone.

use std::sync::Mutex;
use tilepath::{
    Arrival, Connectivity, Grid, GridError, Mobility, NextHopTable, PathQuery, Solver, TableCells,
    TableError, TileKind,
};
use tilepath_testkit::*;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

static ALONE: Mutex<()> = Mutex::new(());

#[test]
fn table_builds_stay_within_their_estimate() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = rng(15);
    let open = random_grid(&mut rng, 30, 20, 0.0);
    let walls = random_grid(&mut rng, 30, 20, 0.2);
    let maze = maze_grid(&mut rng, 15, 12, 0.1);
    let mobilities = [
        Mobility::FLOOR_ONLY,
        Mobility::new([1, 0, 0, 0]),
        Mobility::new([1, 3, 9, 0]),
        Mobility::new([2, 5, 7, 11]),
    ];
    for grid in [&open, &walls, &maze] {
        for mobility in mobilities {
            for conn in [Connectivity::Four, Connectivity::Eight] {
                for slots in [TableCells::Passable, TableCells::AllCells] {
                    for threads in [1, 2, 3] {
                        let builder = NextHopTable::builder(mobility)
                            .connectivity(conn)
                            .table_cells(slots)
                            .threads(threads);
                        let estimate = builder.estimate(grid);
                        let mut table = None;
                        let peak = peak_bytes_in(|| table = Some(builder.build(grid).unwrap()));
                        let table = table.unwrap();
                        assert!(
                            peak <= estimate.total_bytes,
                            "{mobility:?} {conn:?} {slots:?} {threads} threads: peak {peak} > \
                             estimate {}",
                            estimate.total_bytes
                        );
                        assert!(table.memory_bytes() as u64 <= estimate.total_bytes);
                    }
                }
            }
        }
    }
}

#[test]
fn a_table_too_large_for_its_limit_is_refused_before_allocating() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let grid = Grid::new(16_384, 16_384).unwrap();
    let builder = NextHopTable::builder(Mobility::FLOOR_ONLY).threads(2);
    let mut result = None;
    let peak = peak_bytes_in(|| result = Some(builder.build(&grid)));
    assert!(matches!(
        result.unwrap(),
        Err(TableError::TooLarge { needed, limit }) if needed > limit
    ));
    assert!(peak < 1 << 20, "refusing took {peak} bytes");
    let estimate = builder.estimate(&grid);
    assert_eq!(estimate.table_cells, grid.len() as u64);
}

#[test]
fn a_ragged_ascii_map_costs_no_more_than_its_text() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // 64 Ki columns in the first row, then 64 Ki rows of one: a 2 GiB grid if the
    // declared size were allocated before the rows are checked.
    let mut text = ".".repeat(65_536);
    text.push('\n');
    text.push_str(&".\n".repeat(65_535));
    let mut result = None;
    let peak = peak_bytes_in(|| result = Some(Grid::from_ascii(&text, |_| Some(TileKind::K0))));
    assert_eq!(
        result.unwrap(),
        Err(GridError::RaggedRow {
            row: 1,
            expected: 65_536,
            found: 1
        })
    );
    assert!(peak < 1 << 20, "a ragged map took {peak} bytes");
}

#[test]
fn a_grid_too_large_for_memory_is_an_error() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // 2 GiB is within reach; what is not is reported, not aborted on. The largest
    // grid is 2 GiB (1 GiB packed, as much again in bit planes with 16 bytes of
    // padding a row), so a refusal needs a machine with less: here the figure is
    // checked, and the error's text names it.
    assert_eq!(
        Grid::bytes_for(65_536, 65_536),
        (1 << 30) + 2 * 65_536 * (8_192 + 8)
    );
    assert_eq!(Grid::bytes_for(3, 1), 1 + 2 * 16);
    let e = GridError::OutOfMemory { bytes: 1 << 30 };
    assert_eq!(
        e.to_string(),
        "out of memory: the grid needs 1073741824 bytes"
    );
}

#[test]
fn whole_grid_scratch_takes_eight_bytes_a_cell() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // 2,500 columns: a power-of-two row would be 4,096.
    for (w, h) in [(2_500, 1_600), (4_096, 4_096)] {
        let mut grid = Grid::new(w, h).unwrap();
        for x in 0..w as i32 - 1 {
            grid.set(tilepath::Cell::new(x, h as i32 / 2), TileKind::K3)
                .unwrap();
        }
        let cells = u64::from(w) * u64::from(h);
        let open = tilepath::AStar::OPEN_PER_LINE * u64::from(w + h) * 32;
        assert_eq!(tilepath::AStar::whole_grid_bytes(w, h), 8 * cells + open);
        // The counter sees every thread: the test harness may print another test's
        // result while one is measured. The least of three measurements is this
        // solver's own.
        let mut astar = None;
        let peak = (0..3)
            .map(|_| {
                astar = None;
                peak_bytes_in(|| astar = Some(tilepath::AStar::for_grid(&grid).unwrap()))
            })
            .min()
            .unwrap();
        let mut astar = astar.unwrap();
        assert!(
            peak <= 8 * cells + open,
            "{w}x{h}: {peak} bytes for {cells} cells"
        );
        assert!(astar.memory_bytes() as u64 <= 8 * cells + open);
        // A route round the wall, across the grid.
        let (from, to) = (
            tilepath::Cell::new(0, 0),
            tilepath::Cell::new(0, h as i32 - 1),
        );
        let r = astar
            .find(
                &grid,
                PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(Connectivity::Eight),
            )
            .unwrap();
        assert!(
            !matches!(r.arrival, Arrival::Closest(_)) && route_end(&r, to) == to,
            "{r:?}"
        );
        assert!(astar.memory_bytes() as u64 <= 8 * cells + open);
    }
}

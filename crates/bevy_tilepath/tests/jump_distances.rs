//! Jump distances (`PathingSettings::jump_distances`): on big grids built in the
//! background from a copy of the cells, caught up with the edits made meanwhile (or
//! started again past too many), then read by whole-grid jump point searches, which
//! give the same answers as without them.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{app, reference, seeded, tick_until, ticks};
use rand::RngExt;
use rand::rngs::StdRng;

const FLOOR: Mobility = Mobility::FLOOR_ONLY;

/// A `w x h` grid strewn with 1-24 x 1-24 rectangles of wall.
fn rectangles(w: u32, h: u32, rects: usize, rng: &mut StdRng) -> Grid {
    let mut grid = Grid::new(w, h).unwrap();
    for _ in 0..rects {
        let min = Cell::new(rng.random_range(0..w as i32), rng.random_range(0..h as i32));
        let max = Cell::new(
            min.x + rng.random_range(0..24),
            min.y + rng.random_range(0..24),
        );
        grid.fill_rect(min, max, TileKind::K1);
    }
    grid
}

/// An app on `grid` whose far requests are whole-grid searches reading jump
/// distances, with no budget.
fn jump_app(grid: &Grid) -> App {
    let settings = PathingSettings {
        window_distance: 0,
        jump_distances: true,
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    app(Some(grid.clone()), settings)
}

/// An open cell of `grid`.
fn open_cell(grid: &Grid, rng: &mut StdRng) -> Cell {
    loop {
        let c = Cell::new(
            rng.random_range(0..grid.width() as i32),
            rng.random_range(0..grid.height() as i32),
        );
        if grid.is_passable(c, FLOOR) {
            break c;
        }
    }
}

/// Spawns a unit at `start` asking for `goal` (whole-grid, 8-connected jump point
/// search under these tests' settings).
fn request(app: &mut App, start: Cell, goal: Cell) -> Entity {
    app.world_mut()
        .spawn((
            GridCell(start),
            PathRequest::to_cell(goal)
                .with_mobility(FLOOR)
                .with_connectivity(Connectivity::Eight),
        ))
        .id()
}

/// Whether `unit`'s answer is the reference cost from `start` to `goal` on `grid`.
fn check(app: &App, unit: Entity, grid: &Grid, (start, goal): (Cell, Cell)) {
    let expected = reference(grid, FLOOR, start, true)[grid.index_of(goal).unwrap()];
    let status = *app.world().get::<PathStatus>(unit).unwrap();
    match expected {
        Some(e) => {
            assert_eq!(status, PathStatus::Found, "{start} -> {goal}");
            let cost = f64::from(app.world().get::<UnitPath>(unit).unwrap().route_cost);
            assert!((cost - e).abs() < 1e-3, "{start} -> {goal}: {cost} != {e}");
        }
        None => assert_ne!(status, PathStatus::Found, "{start} -> {goal}"),
    }
}

fn diagnostics(app: &App) -> PathingDiagnostics {
    *app.world().resource::<PathingDiagnostics>()
}

/// Whether the planner has the jump distances ready.
fn keeps(app: &App) -> bool {
    diagnostics(app).jump_distances == 1
}

/// Sets `cells` to `kind` on the app's grid and on `mirror`.
fn edit(app: &mut App, mirror: &mut Grid, cells: &[Cell], kind: TileKind) {
    let mut grid = app.world_mut().resource_mut::<PathingGrid>();
    for &c in cells {
        grid.set(c, kind).unwrap();
        mirror.set(c, kind).unwrap();
    }
}

/// The first far request starts the build and is answered in the same tick by
/// scanning rows; edits made while the distances are built are caught up with before
/// the searches read them (their answers equal a reference Dijkstra on the edited
/// grid); past 256 edited cells a build starts again from the grid as it is.
#[test]
fn big_grids_build_jump_distances_in_the_background() {
    let mut rng = seeded(41);
    let mut grid = rectangles(640, 420, 420, &mut rng);
    assert!(grid.len() > 1 << 18);
    let mut app = jump_app(&grid);
    let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
    let unit = request(&mut app, ends.0, ends.1);
    ticks(&mut app, 1);
    check(&app, unit, &grid, ends);
    assert_eq!(diagnostics(&app).jump_distances_building, 1);

    // While it is built: walls across open ground and gaps in walls, some cells twice.
    for round in 0..3 {
        let cells: Vec<Cell> = (0..12).map(|_| open_cell(&grid, &mut rng)).collect();
        edit(&mut app, &mut grid, &cells, TileKind::K1);
        let kind = [TileKind::K0, TileKind::K1][round % 2];
        edit(&mut app, &mut grid, &cells[..4], kind);
    }
    tick_until(&mut app, "the jump distances", |app| {
        diagnostics(app).jump_distances_building == 0 && keeps(app)
    });
    assert_answers(&mut app, &grid, &mut rng);
    for _ in 0..6 {
        let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
        let unit = request(&mut app, ends.0, ends.1);
        ticks(&mut app, 1);
        check(&app, unit, &grid, ends);
    }

    // A new grid: the distances are built again. 300 cells edited while they are
    // built or catching up (more than a copy may fall behind by: it is dropped and
    // built again from the grid as it is), in waves with requests between them: the
    // distances the grid ends up with are still a build's of the edited grid.
    grid = rectangles(640, 420, 300, &mut rng);
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .replace(grid.clone());
    for wave in 0..3 {
        let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
        let unit = request(&mut app, ends.0, ends.1);
        ticks(&mut app, 1);
        check(&app, unit, &grid, ends);
        assert!(
            !keeps(&app),
            "wave {wave}: the planner took a copy behind it"
        );
        assert_eq!(diagnostics(&app).jump_distances_building, 1, "wave {wave}");
        let cells: Vec<Cell> = (0..100).map(|_| open_cell(&grid, &mut rng)).collect();
        edit(&mut app, &mut grid, &cells, TileKind::K1);
    }
    // A copy dropped for falling behind is built again for the next request that
    // needs it: keep asking until the grid has them.
    let started = std::time::Instant::now();
    while !keeps(&app) {
        assert!(
            started.elapsed().as_secs() < 20,
            "the jump distances never ready"
        );
        if diagnostics(&app).jump_distances_building == 0 {
            let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
            request(&mut app, ends.0, ends.1);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        ticks(&mut app, 1);
    }
    assert_answers(&mut app, &grid, &mut rng);

    // Turning the setting off drops the builds under way.
    grid = rectangles(640, 420, 300, &mut rng);
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .replace(grid.clone());
    let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
    request(&mut app, ends.0, ends.1);
    ticks(&mut app, 1);
    assert_eq!(diagnostics(&app).jump_distances_building, 1);
    app.world_mut()
        .resource_mut::<PathingSettings>()
        .jump_distances = false;
    ticks(&mut app, 3);
    assert_eq!(diagnostics(&app).jump_distances_building, 0);
    assert!(!keeps(&app));
}

/// Once a big grid has its jump distances, an edit sends them off to catch up in the
/// background (the tick repairs nothing of them): answers meanwhile are still exact
/// (rows scanned), and the distances come back caught up with every edit made since.
/// Also when more edits come while they catch up, and for a rectangle filled at once.
#[test]
fn an_edit_sends_big_grids_jump_distances_off_and_they_come_back() {
    let mut rng = seeded(43);
    let mut grid = rectangles(640, 420, 420, &mut rng);
    let mut app = jump_app(&grid);
    let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
    request(&mut app, ends.0, ends.1);
    tick_until(&mut app, "the jump distances", |app| {
        diagnostics(app).jump_distances_building == 0 && keeps(app)
    });
    for round in 0..4 {
        let cells: Vec<Cell> = (0..6).map(|_| open_cell(&grid, &mut rng)).collect();
        if round == 3 {
            let (min, max) = (cells[0], Cell::new(cells[0].x + 3, cells[0].y + 2));
            app.world_mut()
                .resource_mut::<PathingGrid>()
                .fill_rect(min, max, TileKind::K1);
            grid.fill_rect(min, max, TileKind::K1);
        } else {
            edit(&mut app, &mut grid, &cells, TileKind::K1);
        }
        let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
        let unit = request(&mut app, ends.0, ends.1);
        ticks(&mut app, 1);
        check(&app, unit, &grid, ends);
        let d = diagnostics(&app);
        // Catching up in the background; on a task pool without threads of its own
        // (Bevy without `multi_threaded`), where a task runs as it is spawned, back
        // already. Never repaired in the tick: the tick's work is the search alone.
        assert_eq!(d.jump_distances + d.jump_distances_building, 1, "{d:?}");
        assert!(d.expanded < 100_000, "round {round}: {d:?}");
        if round == 1 {
            // More edits while they catch up: they catch up on them too.
            edit(&mut app, &mut grid, &cells[..3], TileKind::K0);
        }
        tick_until(&mut app, "the jump distances caught up", |app| {
            diagnostics(app).jump_distances_building == 0 && keeps(app)
        });
        assert_eq!(app.world().resource::<PathingGrid>().grid(), &grid);
        assert_answers(&mut app, &grid, &mut rng);
    }
    // With the setting off they are dropped; searches scan rows, as exact.
    app.world_mut()
        .resource_mut::<PathingSettings>()
        .jump_distances = false;
    let cells: Vec<Cell> = (0..3).map(|_| open_cell(&grid, &mut rng)).collect();
    edit(&mut app, &mut grid, &cells, TileKind::K1);
    ticks(&mut app, 1);
    assert!(!keeps(&app), "dropped with the setting off");
    assert_answers(&mut app, &grid, &mut rng);
}

/// Far requests (whole-grid jump point searches, reading the planner's jump
/// distances where it has them) answered in one tick, each at the cost of a reference
/// Dijkstra on `grid` (the app's grid's copy): distances that missed an edit would
/// stop scans in the wrong places.
fn assert_answers(app: &mut App, grid: &Grid, rng: &mut StdRng) {
    let asked: Vec<_> = (0..24)
        .map(|_| {
            let ends = (open_cell(grid, rng), open_cell(grid, rng));
            (request(app, ends.0, ends.1), ends)
        })
        .collect();
    ticks(app, 1);
    for (unit, ends) in asked {
        check(app, unit, grid, ends);
    }
}

/// Small grids build them in the tick that first needs them.
#[test]
fn small_grids_build_jump_distances_at_once() {
    let mut rng = seeded(5);
    let grid = rectangles(300, 300, 120, &mut rng);
    let mut app = jump_app(&grid);
    let ends = (open_cell(&grid, &mut rng), open_cell(&grid, &mut rng));
    let unit = request(&mut app, ends.0, ends.1);
    ticks(&mut app, 1);
    check(&app, unit, &grid, ends);
    assert!(keeps(&app));
    let diag = diagnostics(&app);
    assert_eq!(diag.jump_distances_building, 0);
    assert!(
        diag.expanded >= 4 * 300 * 300,
        "{} expansions",
        diag.expanded
    );
}

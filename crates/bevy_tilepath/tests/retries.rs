//! Goals out of reach cost a bounded search at every edit, for every unit size: a goal
//! a big unit's footprint cannot occupy is refused up front (`GoalUnfit`, no search,
//! tried again only when a cell under that footprint changes), and a goal it fits but
//! cannot reach is searched capped by the components of its footprint, as a one-cell
//! unit's is by the mobility's components.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, seeded, ticks};
use rand::RngExt;
use tilepath::UNREACHABLE_EXPANSIONS;

#[derive(Resource, Default)]
struct Failures(Vec<(Entity, NoPathReason)>);

fn record(mut failed: MessageReader<PathFailed>, mut log: ResMut<Failures>) {
    log.0.extend(failed.read().map(|f| (f.entity, f.reason)));
}

fn status(app: &App, unit: Entity) -> PathStatus {
    *app.world().get::<PathStatus>(unit).unwrap()
}

fn failures_of(app: &App, unit: Entity) -> usize {
    let log = &app.world().resource::<Failures>().0;
    log.iter().filter(|(e, _)| *e == unit).count()
}

fn set(app: &mut App, cell: Cell, kind: TileKind) {
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(cell, kind)
        .unwrap();
}

#[test]
fn a_goal_a_big_units_footprint_cannot_occupy_fails_up_front() {
    // 20x12 floor, one wall at (10, 5).
    let mut grid = Grid::new(20, 12).unwrap();
    grid.set(Cell::new(10, 5), TileKind::K1).unwrap();
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid), settings);
    app.init_resource::<Failures>()
        .add_systems(FixedPostUpdate, record);
    let spawn = |app: &mut App, goal: Cell, size: u8| {
        app.world_mut()
            .spawn((
                GridCell(Cell::new(1, 1)),
                PathRequest::to_cell(goal).with_size(size),
            ))
            .id()
    };
    // A floor cell whose 2x2 footprint hangs off the right edge, and one whose
    // footprint covers the wall.
    let off_edge = spawn(&mut app, Cell::new(19, 3), 2);
    let on_wall = spawn(&mut app, Cell::new(9, 4), 2);
    ticks(&mut app, 1);
    for unit in [off_edge, on_wall] {
        assert_eq!(
            status(&app, unit),
            PathStatus::NoPath(NoPathReason::GoalUnfit)
        );
        assert_eq!(failures_of(&app, unit), 1);
    }
    // Decided without any search, nor anything built for one.
    let diag = *app.world().resource::<PathingDiagnostics>();
    assert_eq!((diag.served, diag.expanded), (2, 0), "{diag:?}");

    // The rule is for footprints: a one-cell unit goes there; a big unit sent to the
    // wall itself is told the goal cell is blocked, with a partial path towards it.
    let small = spawn(&mut app, Cell::new(19, 3), 1);
    let blocked = spawn(&mut app, Cell::new(10, 5), 2);
    ticks(&mut app, 1);
    assert_eq!(status(&app, small), PathStatus::Found);
    assert_eq!(
        status(&app, blocked),
        PathStatus::Partial(NoPathReason::GoalBlocked)
    );

    // A chaser whose target stands there (a cell that moves) closes in as far as its
    // footprint fits, told why it stops short.
    let target = app.world_mut().spawn(GridCell(Cell::new(19, 3))).id();
    let chaser = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(1, 1)),
            PathRequest::chase(target).with_size(2),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(
        status(&app, chaser),
        PathStatus::Partial(NoPathReason::GoalUnfit)
    );
    assert_eq!(
        app.world().get::<UnitPath>(chaser).unwrap().end,
        Cell::new(18, 3)
    );

    // An edit elsewhere does not try the unfit goals again.
    set(&mut app, Cell::new(3, 9), TileKind::K1);
    ticks(&mut app, 2);
    for unit in [off_edge, on_wall] {
        assert_eq!(failures_of(&app, unit), 1, "tried again");
    }
    // The wall under the footprint goes: tried again, and it fits now. The footprint
    // off the edge never will.
    set(&mut app, Cell::new(10, 5), TileKind::K0);
    ticks(&mut app, 1);
    assert_eq!(status(&app, on_wall), PathStatus::Found);
    assert_eq!(
        status(&app, off_edge),
        PathStatus::NoPath(NoPathReason::GoalUnfit)
    );
    assert_eq!(failures_of(&app, off_edge), 1);
}

/// The tower-defence game: a 64x48 map, walls placed one by one, five 2x2
/// ogres sent to a cell where their footprint does not fit (beside the map's edge).
/// Each ogre is answered once; no edit costs any work for them.
#[test]
fn ogres_sent_where_they_do_not_fit_cost_nothing_at_edits() {
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(Grid::new(64, 48).unwrap()), settings);
    app.init_resource::<Failures>()
        .add_systems(FixedPostUpdate, record);
    let goal = Cell::new(63, 24);
    let ogres: Vec<Entity> = (0..5)
        .map(|i| {
            app.world_mut()
                .spawn((
                    GridCell(Cell::new(2, 4 + 8 * i)),
                    PathRequest::to_cell(goal).with_size(2),
                    PathFollower::new(3.0),
                ))
                .id()
        })
        .collect();
    ticks(&mut app, 1);
    let mut rng = seeded(365);
    for _ in 0..40 {
        let wall = Cell::new(rng.random_range(10..60), rng.random_range(0..48));
        set(&mut app, wall, TileKind::K1);
        for _ in 0..5 {
            ticks(&mut app, 1);
            let diag = *app.world().resource::<PathingDiagnostics>();
            assert_eq!((diag.served, diag.expanded), (0, 0), "{diag:?}");
        }
    }
    for &ogre in &ogres {
        assert_eq!(
            status(&app, ogre),
            PathStatus::NoPath(NoPathReason::GoalUnfit)
        );
        assert_eq!(failures_of(&app, ogre), 1);
    }
}

/// Five units of `size` on a 200x150 floor (30,000 cells), their goal inside a walled
/// box they cannot enter (sealed for one-cell units, with a 1-wide door for bigger
/// ones, who fit in the box but not through the door), searched by A* (their mobility
/// has several costs: one expansion is one unit of work). Walls are placed one at a time, left of the box; returns the
/// largest work of a tick after an edit, and checks the units stay short of the goal.
fn worst_tick_at_edits(size: u8) -> u64 {
    let mut grid = Grid::new(200, 150).unwrap();
    let (min, max) = (Cell::new(150, 50), Cell::new(190, 100));
    grid.fill_rect(min, Cell::new(max.x, min.y), TileKind::K1);
    grid.fill_rect(Cell::new(min.x, max.y), max, TileKind::K1);
    grid.fill_rect(min, Cell::new(min.x, max.y), TileKind::K1);
    grid.fill_rect(Cell::new(max.x, min.y), max, TileKind::K1);
    if size > 1 {
        grid.set(Cell::new(min.x, 75), TileKind::K0).unwrap();
    }
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid), settings);
    let goal = Cell::new(170, 75);
    let units: Vec<Entity> = (0..5)
        .map(|i| {
            app.world_mut()
                .spawn((
                    GridCell(Cell::new(5, 10 + 25 * i)),
                    PathRequest::to_cell(goal)
                        .with_size(size)
                        .with_mobility(MOBILITY),
                ))
                .id()
        })
        .collect();
    // The first tick builds what the searches need (counted as work).
    ticks(&mut app, 2);
    let mut rng = seeded(3655 + u64::from(size));
    let mut worst = 0;
    for _ in 0..20 {
        let wall = Cell::new(rng.random_range(20..140), rng.random_range(0..150));
        set(&mut app, wall, TileKind::K1);
        ticks(&mut app, 1);
        let diag = *app.world().resource::<PathingDiagnostics>();
        assert!(diag.served >= 5, "the edit retried every unit: {diag:?}");
        worst = worst.max(diag.expanded);
        ticks(&mut app, 2);
    }
    for &unit in &units {
        assert!(
            matches!(
                status(&app, unit),
                PathStatus::Partial(NoPathReason::Unreachable)
                    | PathStatus::NoPath(NoPathReason::Unreachable)
            ),
            "{:?}",
            status(&app, unit)
        );
    }
    worst
}

/// Goals out of reach are retried at every edit with a search capped at
/// `UNREACHABLE_EXPANSIONS` for one-cell and big units alike (the whole area would be
/// about 24,000 expansions a unit): five units, the cap each, and the edit's repairs.
#[test]
fn unreachable_goals_cost_a_capped_search_at_every_edit_for_every_size() {
    let bound = 5 * u64::from(UNREACHABLE_EXPANSIONS) + 1_000;
    for size in [1, 2, 3] {
        let worst = worst_tick_at_edits(size);
        assert!(worst <= bound, "size {size}: {worst} > {bound}");
    }
}

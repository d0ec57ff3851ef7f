//! A unit that reaches its goal says so: `PathStatus::Arrived` and one `PathArrived`,
//! for units with a `PathFollower` and units moved by the game; it leaves that state
//! when it is sent elsewhere.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{app, ticks};

#[derive(Resource, Default)]
struct Arrivals(Vec<PathArrived>);

fn record(mut arrived: MessageReader<PathArrived>, mut log: ResMut<Arrivals>) {
    log.0.extend(arrived.read().copied());
}

/// A 12x8 floor with a wall across x = 5 (y 0..=5): routes go round it.
fn walled_app() -> App {
    let mut grid = Grid::new(12, 8).unwrap();
    grid.fill_rect(Cell::new(5, 0), Cell::new(5, 5), TileKind::K1);
    let mut app = app(Some(grid), PathingSettings::default());
    app.init_resource::<Arrivals>()
        .add_systems(FixedPostUpdate, record);
    app
}

fn status(app: &App, unit: Entity) -> PathStatus {
    *app.world().get::<PathStatus>(unit).unwrap()
}

fn cell(app: &App, unit: Entity) -> Cell {
    app.world().get::<GridCell>(unit).unwrap().0
}

fn arrivals(app: &App) -> Vec<PathArrived> {
    app.world().resource::<Arrivals>().0.clone()
}

/// Ticks until the unit's status is `Arrived` (at most `max` ticks), checking on every
/// tick that it is not `Arrived` anywhere but on `goal`, nor while it moves.
fn walk_until_arrived(app: &mut App, unit: Entity, goal: Cell, max: usize) -> usize {
    for n in 1..=max {
        ticks(app, 1);
        if status(app, unit) == PathStatus::Arrived {
            assert_eq!(cell(app, unit), goal, "arrived off its goal");
            let follower = app.world().get::<PathFollower>(unit);
            assert!(
                follower.is_none_or(|f| !f.is_moving()),
                "arrived while still stepping"
            );
            return n;
        }
    }
    panic!(
        "not arrived at {goal} after {max} ticks: at {}, {:?}",
        cell(app, unit),
        status(app, unit)
    );
}

#[test]
fn a_follower_that_reaches_its_goal_arrives_once_and_leaves_when_sent_elsewhere() {
    let mut app = walled_app();
    let (start, goal) = (Cell::new(1, 1), Cell::new(9, 1));
    let unit = app
        .world_mut()
        .spawn((
            GridCell(start),
            PathRequest::to_cell(goal),
            PathFollower::new(6.0),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Found);
    // Round the wall: 8 steps to x = 9, and 2 x 5 steps up and down: 18 steps of 10
    // ticks, the first taken in the tick that planned it; the status says so when the
    // last step is done (tick 180), not when it starts (tick 171).
    let path = *app.world().get::<UnitPath>(unit).unwrap();
    assert_eq!((path.remaining(), path.route_cost), (17, 18.0));
    let n = walk_until_arrived(&mut app, unit, goal, 400);
    assert!((179..=180).contains(&(n + 1)), "arrived in tick {}", n + 1);
    assert_eq!(arrivals(&app), vec![PathArrived { entity: unit, goal }]);

    // Standing there: still arrived, no second message, and no plan asked for.
    ticks(&mut app, 60);
    assert_eq!(status(&app, unit), PathStatus::Arrived);
    assert_eq!(arrivals(&app).len(), 1);
    assert_eq!(app.world().resource::<PathingDiagnostics>().served, 0);

    // Sent elsewhere: it leaves the state at once, walks, and arrives once more.
    let back = Cell::new(1, 6);
    app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = PathGoal::Cell(back);
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Found);
    walk_until_arrived(&mut app, unit, back, 400);
    assert_eq!(
        arrivals(&app),
        vec![
            PathArrived { entity: unit, goal },
            PathArrived {
                entity: unit,
                goal: back
            }
        ]
    );
}

/// A re-targeted unit leaves `Arrived` as soon as it is queued, even while the budget
/// keeps it waiting for its new plan.
#[test]
fn a_retargeted_unit_waiting_for_its_plan_is_pending() {
    let mut app = walled_app();
    let goal = Cell::new(3, 3);
    let unit = app
        .world_mut()
        .spawn((GridCell(goal), PathRequest::to_cell(goal)))
        .id();
    ticks(&mut app, 1);
    // Spawned on its goal: arrived in its first tick.
    assert_eq!(status(&app, unit), PathStatus::Arrived);
    assert_eq!(arrivals(&app), vec![PathArrived { entity: unit, goal }]);
    // 20 units ahead of it in the FIFO and one request served a tick.
    app.insert_resource(PathingSettings {
        budget: PathingBudget::Expansions(0),
        time_cap: None,
        ..default()
    });
    for _ in 0..20 {
        app.world_mut().spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::to_cell(Cell::new(11, 7)),
        ));
    }
    ticks(&mut app, 1);
    app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = PathGoal::Cell(Cell::new(4, 3));
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Pending);
    ticks(&mut app, 40);
    assert_eq!(status(&app, unit), PathStatus::Found);
    assert_eq!(arrivals(&app).len(), 1);
}

/// A unit without a `PathFollower`, moved by the game's own system along its path
/// (or put on its goal by hand), arrives once it stands on its goal.
#[test]
fn units_moved_by_the_game_arrive_on_their_goal() {
    let mut app = walled_app();
    let goal = Cell::new(9, 1);
    // Walks its path a step every tick, before the pathing systems.
    let walker = app
        .world_mut()
        .spawn((GridCell(Cell::new(1, 1)), PathRequest::to_cell(goal)))
        .id();
    fn step(mut units: Query<(&mut UnitPath, &mut GridCell), Without<PathFollower>>) {
        for (mut path, mut cell) in &mut units {
            if path.at == cell.0
                && let Some(next) = path.advance()
            {
                cell.0 = next;
            }
        }
    }
    app.add_systems(FixedUpdate, step.before(PathingSystems::Collect));
    let n = walk_until_arrived(&mut app, walker, goal, 100);
    // Planned in the first tick, one step a tick from the second.
    assert_eq!(n, 19);
    assert_eq!(
        arrivals(&app),
        vec![PathArrived {
            entity: walker,
            goal
        }]
    );

    // Put on its goal by hand: planned again from there, and arrived.
    let other = Cell::new(10, 6);
    let placed = app
        .world_mut()
        .spawn((GridCell(Cell::new(0, 7)), PathRequest::to_cell(other)))
        .id();
    ticks(&mut app, 1);
    assert_eq!(status(&app, placed), PathStatus::Found);
    // Not moved by `step` (its path starts where the unit is) but by hand: away from
    // its path first, then the goal.
    app.world_mut().get_mut::<GridCell>(placed).unwrap().0 = other;
    ticks(&mut app, 1);
    assert_eq!(status(&app, placed), PathStatus::Arrived);
    assert_eq!(arrivals(&app).len(), 2);
    // Moved off its goal: planned again, no longer arrived.
    app.world_mut().get_mut::<GridCell>(placed).unwrap().0 = Cell::new(10, 5);
    ticks(&mut app, 1);
    assert_ne!(status(&app, placed), PathStatus::Arrived);
}

/// Re-planned where it stands (the grid replaced, its request touched): an arrived
/// unit stays arrived and is not announced again.
#[test]
fn an_arrived_unit_planned_again_in_place_does_not_arrive_twice() {
    let mut app = walled_app();
    let goal = Cell::new(2, 2);
    let unit = app
        .world_mut()
        .spawn((GridCell(goal), PathRequest::to_cell(goal)))
        .id();
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Arrived);
    let grid = app.world().resource::<PathingGrid>().grid().clone();
    app.world_mut().resource_mut::<PathingGrid>().replace(grid);
    app.world_mut()
        .get_mut::<PathRequest>(unit)
        .unwrap()
        .set_changed();
    ticks(&mut app, 1);
    assert_eq!(app.world().resource::<PathingDiagnostics>().served, 1);
    assert_eq!(status(&app, unit), PathStatus::Arrived);
    assert_eq!(arrivals(&app).len(), 1);
}

/// A chaser arrives when it stands on its target's cell, and sets off again when the
/// target moves.
#[test]
fn a_chaser_arrives_at_its_target_and_leaves_when_it_moves() {
    let mut app = walled_app();
    let target = app.world_mut().spawn(GridCell(Cell::new(3, 1))).id();
    let chaser = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 1)),
            PathRequest::chase(target),
            PathFollower::new(30.0),
        ))
        .id();
    walk_until_arrived(&mut app, chaser, Cell::new(3, 1), 60);
    app.world_mut().get_mut::<GridCell>(target).unwrap().0 = Cell::new(3, 4);
    ticks(&mut app, 1);
    assert_eq!(status(&app, chaser), PathStatus::Found);
    walk_until_arrived(&mut app, chaser, Cell::new(3, 4), 60);
    assert_eq!(arrivals(&app).len(), 2);
}

/// A unit on a partial path (its goal walled in) stands at the end of it without
/// arriving.
#[test]
fn a_unit_short_of_an_unreachable_goal_does_not_arrive() {
    let mut app = walled_app();
    let goal = Cell::new(9, 1);
    {
        let mut grid = app.world_mut().resource_mut::<PathingGrid>();
        grid.fill_rect(Cell::new(5, 6), Cell::new(5, 7), TileKind::K1);
    }
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(1, 1)),
            PathRequest::to_cell(goal),
            PathFollower::new(30.0),
        ))
        .id();
    for _ in 0..120 {
        ticks(&mut app, 1);
        // At the end of its partial path it is planned again there (no path).
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
    assert!(arrivals(&app).is_empty());
}

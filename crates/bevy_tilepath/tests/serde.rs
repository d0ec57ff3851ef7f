//! Saving and loading through serde (feature `serde`), in JSON and postcard: the unit
//! components, the settings, the grid transform and the pathing grid of a headless app
//! come back equal in a new app, whose units are then planned the same paths; a
//! custom layer rule is an error to save; malformed input is an error.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use core::time::Duration;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use common::*;

/// `value` through JSON and through postcard: both give it back.
fn round_trip<T>(value: &T) -> T
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(value).unwrap();
    let from_json: T = serde_json::from_str(&json).unwrap();
    assert_eq!(&from_json, value, "JSON {json}");
    let bytes = postcard::to_allocvec(value).unwrap();
    let from_postcard: T = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(&from_postcard, value, "postcard {bytes:?}");
    from_postcard
}

#[test]
fn values_round_trip() {
    let mut world = World::new();
    let target = world.spawn_empty().id();
    round_trip(&GridCell(Cell::new(-4, 9)));
    round_trip(&PathFollower::new(2.5).smoothed());
    round_trip(&Solid);
    round_trip(&OnGrid(target));
    round_trip(&PathGoal::Entity(target));
    round_trip(&PathGoal::Cell(Cell::new(3, 1)));
    for mode in [SearchMode::Auto, SearchMode::AStar, SearchMode::Greedy] {
        round_trip(&mode);
    }
    round_trip(&PathRequest::to_cell(Cell::new(7, 7)));
    round_trip(
        &PathRequest::chase(target)
            .with_mobility(Mobility::new([1, 0, 4, 2]))
            .with_connectivity(Connectivity::Hex(HexLayout::ColumnOdd))
            .with_mode(SearchMode::Greedy)
            .with_size(2)
            .with_max_expansions(900),
    );
    let reasons = [
        NoPathReason::NoGrid,
        NoPathReason::GridTooLarge,
        NoPathReason::GridMissing,
        NoPathReason::LayersMismatch,
        NoPathReason::StartOutsideGrid,
        NoPathReason::GoalOutsideGrid,
        NoPathReason::TargetMissing,
        NoPathReason::TargetOnOtherGrid,
        NoPathReason::GoalBlocked,
        NoPathReason::Unreachable,
        NoPathReason::SearchLimit,
        NoPathReason::UnitSize,
    ];
    round_trip(&PathStatus::Pending);
    round_trip(&PathStatus::Found);
    for reason in reasons {
        round_trip(&reason);
        round_trip(&PathStatus::Partial(reason));
        round_trip(&PathStatus::NoPath(reason));
    }
    let mut steps = GridPath8::from_steps(&[Direction8::Up, Direction8::UpRight]).unwrap();
    steps.next();
    round_trip(&UnitPath {
        steps,
        at: Cell::new(1, 2),
        goal: Cell::new(9, 9),
        end: Cell::new(2, 4),
        continues: true,
        route_cost: 12.25,
        mobility: Mobility::FLOOR_ONLY,
        size: 3,
        waypoints: Waypoints::new(
            Cell::new(1, 2),
            &[
                Waypoint::corner_of(Cell::new(2, 4)),
                Waypoint::centre_of(Cell::new(2, 5)),
            ],
        )
        .0,
    });
    round_trip(&UnitPath::default());
    for budget in [PathingBudget::Expansions(1234), PathingBudget::Unlimited] {
        round_trip(&budget);
    }
    round_trip(&PathingSettings::default());
    round_trip(&PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: Some(Duration::from_micros(2500)),
        threads: 1,
        landmarks: 4,
        jump_distances: true,
        straight_routes: false,
        layer_rule: LayerRule::Any(TileKind::K2),
        ..default()
    });
    for rule in [
        LayerRule::Highest,
        LayerRule::Top,
        LayerRule::Any(TileKind::K3),
    ] {
        round_trip(&rule);
    }
    for layout in MapLayout::ALL {
        round_trip(&layout);
        round_trip(&GridTransform {
            origin: Vec2::new(-100.5, 32.0),
            cell_size: Vec2::new(16.0, 8.0),
            layout,
        });
    }
}

fn bridge(kinds: &[Option<TileKind>]) -> Option<TileKind> {
    kinds.iter().rev().flatten().next().copied()
}

#[test]
fn a_custom_layer_rule_is_an_error_to_save() {
    let rule = LayerRule::Custom(bridge);
    let err = serde_json::to_string(&rule).unwrap_err().to_string();
    assert!(err.contains("Custom"), "{err}");
    assert!(postcard::to_allocvec(&rule).is_err());
    let settings = PathingSettings {
        layer_rule: rule,
        ..default()
    };
    assert!(serde_json::to_string(&settings).is_err());
    // No saved form loads as one.
    assert!(serde_json::from_str::<LayerRule>(r#"{"Custom":null}"#).is_err());
    assert!(serde_json::from_str::<LayerRule>(r#""Custom""#).is_err());
}

#[test]
fn malformed_input_is_an_error() {
    for bad in [
        r#"{"width":3,"height":3,"cells":[0,0]}"#,
        r#"{"width":3,"height":1,"cells":[192]}"#,
        r#"{"width":70000,"height":1,"cells":[]}"#,
        r#"{"width":65536,"height":65536,"cells":[1,2,3]}"#,
    ] {
        assert!(serde_json::from_str::<PathingGrid>(bad).is_err(), "{bad}");
    }
    let path = serde_json::to_value(UnitPath::default()).unwrap();
    let mut long = path.clone();
    long["steps"]["steps"] = serde_json::Value::Array(vec!["Up".into(); 57]);
    assert!(serde_json::from_value::<UnitPath>(long).is_err());
    let mut past = path.clone();
    past["steps"]["position"] = 1.into();
    assert!(serde_json::from_value::<UnitPath>(past).is_err());
    let mut turns = path.clone();
    // A path keeps 8 turns at most.
    let eight = vec![serde_json::json!([2, 0]); 8];
    turns["waypoints"] = serde_json::json!([{"x": 0, "y": 0}, eight]);
    assert!(serde_json::from_value::<UnitPath>(turns.clone()).is_ok());
    let nine = vec![serde_json::json!([2, 0]); 9];
    turns["waypoints"] = serde_json::json!([{"x": 0, "y": 0}, nine]);
    assert!(serde_json::from_value::<UnitPath>(turns).is_err());
    let mut kind = path;
    kind["mobility"] = serde_json::json!([1, 2, 3]);
    assert!(serde_json::from_value::<UnitPath>(kind).is_err());
    assert!(serde_json::from_str::<PathRequest>("{}").is_err());
    assert!(serde_json::from_str::<PathStatus>(r#"{"NoPath":"Lost"}"#).is_err());
}

/// What a game saves: the map, the settings and its units' pathing components.
#[derive(Serialize, Deserialize)]
struct Save {
    grid: PathingGrid,
    transform: GridTransform,
    settings: PathingSettings,
    units: Vec<(GridCell, PathRequest, UnitPath, PathStatus)>,
}

/// The units' components, by cell (each unit stands on its own).
fn units(app: &mut App) -> Vec<(GridCell, PathRequest, UnitPath, PathStatus)> {
    let mut query = app
        .world_mut()
        .query::<(&GridCell, &PathRequest, &UnitPath, &PathStatus)>();
    let mut units: Vec<_> = query
        .iter(app.world())
        .map(|(c, r, p, s)| (*c, *r, *p, *s))
        .collect();
    units.sort_by_key(|u| u.0.0);
    units
}

/// An app with planned units; its save.
fn saved_app() -> (App, Save) {
    let mut rng = seeded(11);
    let mut grid = random_grid(40, 30, 0.2, &mut rng);
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        layer_rule: LayerRule::Top,
        ..default()
    };
    let starts = [(0, 0), (5, 20), (39, 29), (20, 3)];
    let goals = [(39, 29), (30, 2), (0, 0), (21, 28)];
    for &(x, y) in starts.iter().chain(&goals) {
        grid.set(Cell::new(x, y), TileKind::K0).unwrap();
    }
    let mut app = app(Some(grid), settings);
    let transform = GridTransform {
        origin: Vec2::new(8.0, -8.0),
        cell_size: Vec2::splat(16.0),
        layout: MapLayout::Square,
    };
    app.insert_resource(transform);
    for (i, (&(sx, sy), &(gx, gy))) in starts.iter().zip(&goals).enumerate() {
        let connectivity = if i % 2 == 0 {
            Connectivity::Four
        } else {
            Connectivity::Eight
        };
        app.world_mut().spawn((
            GridCell(Cell::new(sx, sy)),
            PathRequest::to_cell(Cell::new(gx, gy))
                .with_mobility(MOBILITY)
                .with_connectivity(connectivity),
        ));
    }
    ticks(&mut app, 2);
    // A path walked a little: the cursor is saved too.
    let mut query = app.world_mut().query::<&mut UnitPath>();
    for mut path in query.iter_mut(app.world_mut()) {
        path.advance();
    }
    let units = units(&mut app);
    assert!(
        units.iter().all(|u| u.3 != PathStatus::Pending),
        "{units:?}"
    );
    let world = app.world();
    let save = Save {
        grid: PathingGrid::new(world.resource::<PathingGrid>().grid().clone()),
        transform: *world.resource::<GridTransform>(),
        settings: world.resource::<PathingSettings>().clone(),
        units,
    };
    (app, save)
}

/// A new app from `save`.
fn load(save: Save) -> App {
    let mut app = app(None, save.settings);
    app.insert_resource(save.grid)
        .insert_resource(save.transform);
    for unit in save.units {
        app.world_mut().spawn(unit);
    }
    app
}

#[test]
fn a_headless_app_saves_and_loads() {
    let (mut old, save) = saved_app();
    let json = serde_json::to_string(&save).unwrap();
    let binary = postcard::to_allocvec(&save).unwrap();
    // The grid goes as its packed bytes: postcard's save is the cells and little more.
    let cells = save.grid.grid().as_bytes().len();
    assert!(binary.len() < cells + 400, "{} bytes", binary.len());
    let from_json: Save = serde_json::from_str(&json).unwrap();
    let from_postcard: Save = postcard::from_bytes(&binary).unwrap();
    for loaded in [from_json, from_postcard] {
        assert_eq!(loaded.grid.grid(), save.grid.grid());
        assert!(loaded.grid.pending_changes().is_empty());
        assert_eq!(loaded.transform, save.transform);
        assert_eq!(loaded.settings, save.settings);
        assert_eq!(loaded.units, save.units);
        let mut new = load(loaded);
        assert_eq!(units(&mut new), save.units);
        assert_eq!(
            new.world().resource::<PathingGrid>().grid(),
            old.world().resource::<PathingGrid>().grid()
        );
        // Planned again in the new app: the same paths from the same cells.
        ticks(&mut new, 2);
        ticks(&mut old, 2);
        let (now, then) = (units(&mut new), units(&mut old));
        for (a, b) in now.iter().zip(&then) {
            assert_eq!(a.3, b.3);
            assert_eq!(a.2.goal, b.2.goal);
            assert_eq!(a.2.end, b.2.end);
            assert_eq!(a.2.steps, b.2.steps);
            assert_eq!(a.2.at, b.2.at);
        }
    }
}

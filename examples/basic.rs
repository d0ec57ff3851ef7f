//! The smallest tilepath game: a `bevy_ecs_tilemap` map with walls, and one unit that
//! plans its way round them with a `PathRequest` and walks the path with a `PathFollower`.
//!
//! ```sh
//! cargo run --example basic                # a window: the unit walks from S to G
//! cargo run --example basic -- --headless  # no window: prints when the unit arrives
//! ```

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;

/// The map, top row first: `#` is a wall, `S` the unit's start, `G` its goal.
const MAP: [&str; 7] = [
    "################",
    "#S....#........#",
    "#.###.#.#####..#",
    "#...#...#...#..#",
    "###.#####.#.#.##",
    "#.....#...#...G#",
    "################",
];
/// Cells are tile positions, and tile `y` grows upwards: `MAP`'s last row is `y = 0`.
const START: Cell = Cell::new(1, 5);
const GOAL: Cell = Cell::new(14, 1);
/// Tiles of `assets/maze_tiles.png`.
const FLOOR: TileTextureIndex = TileTextureIndex(0);
const WALL: TileTextureIndex = TileTextureIndex(3);

/// What the pathfinder sees of a tile: walls are kind K1, which `FLOOR_ONLY` blocks.
fn kind_of(tile: TileTextureIndex) -> TileKind {
    if tile == WALL {
        TileKind::K1
    } else {
        TileKind::K0
    }
}

/// The tilemap and the unit. Headless there is no `AssetServer`: no images, no camera.
fn setup(mut commands: Commands, assets: Option<Res<AssetServer>>) {
    let size = TilemapSize::new(MAP[0].len() as u32, MAP.len() as u32);
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for (y, row) in MAP.iter().rev().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let position = TilePos::new(x as u32, y as u32);
            let texture_index = if c == '#' { WALL } else { FLOOR };
            let tile = TileBundle {
                position,
                texture_index,
                tilemap_id: TilemapId(map),
                ..default()
            };
            storage.set(&position, commands.spawn(tile).id());
        }
    }
    let tile_size = TilemapTileSize::new(16.0, 16.0);
    commands.entity(map).insert((
        TilemapBundle {
            grid_size: tile_size.into(),
            size,
            storage,
            tile_size,
            anchor: TilemapAnchor::Center,
            ..default()
        },
        // Keeps the plugin's `PathingGrid` equal to the map, edits included.
        PathingTilemap::new(kind_of),
    ));

    let mut unit = commands.spawn((
        GridCell(START),
        PathRequest::to_cell(GOAL).with_mobility(Mobility::FLOOR_ONLY),
        PathFollower::new(6.0), // cells per second
        Transform::from_xyz(0.0, 0.0, 1.0),
    ));

    let Some(assets) = assets else { return };
    unit.insert(Sprite::from_image(assets.load("player.png")));
    commands
        .entity(map)
        .insert(TilemapTexture::Single(assets.load("maze_tiles.png")));
    commands.spawn((Camera2d, Transform::from_scale(Vec3::splat(0.25)))); // zoomed in
}

/// No window or renderer: what `--headless` and the test run.
fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PathingPlugin::default()))
        .add_systems(Startup, setup)
        // Every update advances time by one 60 Hz tick...
        .insert_resource(TimeUpdateStrategy::ManualDuration(
            Time::<Fixed>::from_hz(60.0).timestep(),
        ));
    // ...and runs exactly one fixed tick once the plugin has set the fixed timestep to
    // 60 Hz, which it does when the app is finished (`App::run` finishes it; an app
    // updated by hand must do it itself).
    app.finish();
    app.cleanup();
    app
}

/// Runs fixed ticks until the unit has arrived: it stands on the goal, its last step
/// done (its `PathStatus` says so, and a `PathArrived` message was sent); how many
/// ticks it took.
fn ticks_to_goal(app: &mut App, max: u32) -> Option<u32> {
    (1..=max).find(|_| {
        app.update();
        let mut units = app.world_mut().query::<(&GridCell, &PathStatus)>();
        units
            .iter(app.world())
            .any(|(cell, status)| *status == PathStatus::Arrived && cell.0 == GOAL)
    })
}

fn main() -> AppExit {
    if std::env::args().any(|a| a == "--headless") {
        let Some(ticks) = ticks_to_goal(&mut headless_app(), 600) else {
            eprintln!("the unit did not reach {GOAL:?} in 600 ticks");
            return AppExit::from_code(1);
        };
        println!("the unit reached {GOAL:?} after {ticks} ticks");
        return AppExit::Success;
    }
    // This example draws through X11 on Linux: say so instead of a panic.
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        eprintln!("no display found: run with --headless, or under Xvfb: see README.md");
        return AppExit::from_code(1);
    }
    App::new()
        .add_plugins(DefaultPlugins.set(ImagePlugin::default_nearest()))
        .add_plugins((TilemapPlugin, PathingPlugin::default()))
        .add_systems(Startup, setup)
        .run()
}

#[test]
fn the_unit_walks_round_the_walls_to_its_goal() {
    let mut app = headless_app();
    // The shortest route is 21 steps of 10 ticks (6 cells a second at 60 Hz); the unit
    // has arrived when the last one is done: 210 ticks plus planning.
    let ticks = ticks_to_goal(&mut app, 600).expect("the unit never arrived");
    assert!((210..=230).contains(&ticks), "{ticks} ticks");
    let arrived = app.world().resource::<Messages<PathArrived>>();
    assert_eq!(arrived.len(), 1, "one PathArrived");
}

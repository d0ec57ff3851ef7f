//! The smallest tilepath game: a `bevy_ecs_tilemap` map with walls, and one unit that
//! plans its way round them with a `PathRequest` and walks the path with a `PathFollower`.
//!
//! ```sh
//! cargo run --example basic                # a window; the unit walks to G and back
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
/// Tiles of `assets/maze_tiles.png`.
const FLOOR: TileTextureIndex = TileTextureIndex(0);
const WALL: TileTextureIndex = TileTextureIndex(3);

/// The character at a tile. Tile `y` grows upwards, so `MAP`'s last row is `y = 0`.
fn map_char(x: u32, y: u32) -> u8 {
    MAP[MAP.len() - 1 - y as usize].as_bytes()[x as usize]
}

fn find(c: u8) -> Cell {
    let size = (MAP[0].len() as u32, MAP.len() as u32);
    let mut tiles = (0..size.1).flat_map(|y| (0..size.0).map(move |x| (x, y)));
    let (x, y) = tiles
        .find(|&(x, y)| map_char(x, y) == c)
        .unwrap_or_default();
    Cell::new(x as i32, y as i32)
}

/// The tilemap and the unit. With an `AssetServer` (the window) they get textures.
fn setup(mut commands: Commands, assets: Option<Res<AssetServer>>) {
    let size = TilemapSize::new(MAP[0].len() as u32, MAP.len() as u32);
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for (x, y) in (0..size.y).flat_map(|y| (0..size.x).map(move |x| (x, y))) {
        let texture_index = if map_char(x, y) == b'#' { WALL } else { FLOOR };
        let position = TilePos::new(x, y);
        let tile = commands.spawn(TileBundle {
            position,
            texture_index,
            tilemap_id: TilemapId(map),
            ..default()
        });
        storage.set(&position, tile.id());
    }
    let tile_size = TilemapTileSize::new(16.0, 16.0);
    let texture = match &assets {
        Some(assets) => TilemapTexture::Single(assets.load("maze_tiles.png")),
        None => TilemapTexture::default(),
    };
    // `PathingTilemap` mirrors the map into the `PathingGrid`: walls are tile kind K1.
    let mirror = PathingTilemap::new(|t| {
        if t == WALL {
            TileKind::K1
        } else {
            TileKind::K0
        }
    });
    commands.entity(map).insert((
        TilemapBundle {
            grid_size: tile_size.into(),
            size,
            storage,
            texture,
            tile_size,
            anchor: TilemapAnchor::Center,
            ..default()
        },
        mirror,
    ));

    let mut unit = commands.spawn((
        GridCell(find(b'S')),
        PathRequest::to_cell(find(b'G')).with_layer(GridLayer::FLOOR_ONLY),
        PathFollower::new(6.0), // cells per second
        Transform::from_xyz(0.0, 0.0, 1.0),
    ));
    if let Some(assets) = assets {
        unit.insert(Sprite::from_image(assets.load("player.png")));
    }
}

/// Window only: at either end, head for the other one (changing the request re-plans).
fn walk_back_and_forth(mut units: Query<(&GridCell, &mut PathRequest)>) {
    for (cell, mut request) in &mut units {
        if request.goal == PathGoal::Cell(cell.0) {
            let other = if cell.0 == find(b'G') { b'S' } else { b'G' };
            request.goal = PathGoal::Cell(find(other));
        }
    }
}

/// Runs fixed ticks until the unit stands on `G`; how many it took.
fn ticks_to_goal(app: &mut App, max: u32) -> Option<u32> {
    let goal = find(b'G');
    (1..=max).find(|_| {
        app.update();
        let mut units = app.world_mut().query::<&GridCell>();
        units.iter(app.world()).any(|c| c.0 == goal)
    })
}

fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PathingPlugin::default()))
        .add_systems(Startup, setup)
        // Every update runs exactly one 60 Hz fixed tick.
        .insert_resource(TimeUpdateStrategy::ManualDuration(
            Time::<Fixed>::from_hz(60.0).timestep(),
        ));
    app
}

/// Window only: a camera zoomed in on the small map.
fn camera(mut commands: Commands) {
    let projection = OrthographicProjection {
        scale: 0.25,
        ..OrthographicProjection::default_2d()
    };
    commands.spawn((Camera2d, Projection::Orthographic(projection)));
}

fn main() -> AppExit {
    if std::env::args().any(|a| a == "--headless") {
        let Some(ticks) = ticks_to_goal(&mut headless_app(), 600) else {
            eprintln!("the unit did not reach {:?} in 600 ticks", find(b'G'));
            return AppExit::from_code(1);
        };
        println!("the unit reached {:?} after {ticks} ticks", find(b'G'));
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
        .add_systems(Startup, (setup, camera))
        .add_systems(FixedUpdate, walk_back_and_forth.after(PathingSystems::Move))
        .run()
}

#[test]
fn the_unit_reaches_its_goal() {
    // 21 steps round the walls at 6 cells a second: about 210 ticks.
    let ticks = ticks_to_goal(&mut headless_app(), 600).expect("the unit never arrived");
    assert!((200..300).contains(&ticks), "{ticks} ticks");
}

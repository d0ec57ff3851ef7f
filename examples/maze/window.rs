//! The window: camera, keyboard and mouse, screenshots.

use std::time::Duration;

use bevy::app::AppExit;
use bevy::camera::ScalingMode;
use bevy::diagnostic::FrameTimeDiagnosticsPlugin;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;

use crate::layout::Maze;
use crate::options::Options;
use crate::orders::{Destinations, Unit};
use crate::simulation::{
    Art, Autopilot, CHASERS_PER_PRESS, Chaser, MazePlugin, MazeRng, MazeTilemap, Player,
    PlayerInput, spawn_chasers,
};
use crate::ui;

/// Whether a window can be opened, checked before Bevy tries (it would panic): on
/// Linux and the BSDs the maze draws through X11 only, so it needs `DISPLAY`.
pub(crate) fn check_display() -> Result<(), String> {
    let unix_desktop = cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ));
    if unix_desktop && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        return Err(
            "no display found (DISPLAY is not set; the maze draws through X11): \
             run with --headless, or under Xvfb: see README.md"
                .into(),
        );
    }
    Ok(())
}

pub(crate) fn windowed_app(options: Options) -> App {
    let mut app = App::new();
    let Vec2 { x: w, y: h } =
        crate::tiles::map_extent(options.layout, options.width, options.height);
    let scale = (860.0 / h).min(1.0);
    app.add_plugins(
        DefaultPlugins
            .set(crate::options::task_pools(&options))
            .set(ImagePlugin::default_nearest())
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "tilepath maze".into(),
                    resolution: WindowResolution::new(
                        (w * scale + 320.0) as u32,
                        (h * scale + 40.0) as u32,
                    ),
                    ..default()
                }),
                ..default()
            }),
    )
    .add_plugins((TilemapPlugin, FrameTimeDiagnosticsPlugin::default()))
    .insert_resource(ClearColor(Color::srgb(0.07, 0.06, 0.09)))
    .insert_resource(Autopilot(options.autopilot))
    .insert_resource(options.clone())
    .add_systems(PreStartup, load_art)
    .add_plugins(MazePlugin)
    .add_systems(Startup, (setup_view, ui::spawn_panel))
    .add_systems(Update, (keyboard, mouse, ui::update_panel));
    if options.screenshot.is_some() {
        app.add_systems(Update, screenshot_and_quit);
    }
    app
}

pub(crate) fn load_art(mut commands: Commands, assets: Res<AssetServer>) {
    commands.insert_resource(Art {
        player: assets.load("player.png"),
        chaser: assets.load("chaser.png"),
    });
}

pub(crate) fn setup_view(
    mut commands: Commands,
    options: Res<Options>,
    debug: Option<ResMut<PathingDebug>>,
) {
    if let Some(mut debug) = debug {
        debug.enabled = options.gizmos;
        debug.max_paths = 300;
    }
    let Vec2 { x: w, y: h } =
        crate::tiles::map_extent(options.layout, options.width, options.height);
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: w + 320.0 * (h / 860.0).max(1.0),
                min_height: h + 40.0,
            },
            ..OrthographicProjection::default_2d()
        }),
        // Shift the maze right of the panel.
        Transform::from_xyz(-150.0 * (h / 860.0).max(1.0), 0.0, 0.0),
    ));
}

#[expect(
    clippy::too_many_arguments,
    clippy::type_complexity,
    reason = "a system's parameters"
)]
pub(crate) fn keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut input: ResMut<PlayerInput>,
    mut commands: Commands,
    mut rng: ResMut<MazeRng>,
    maze: Res<Maze>,
    art: Res<Art>,
    player: Query<(Entity, &GridCell), With<Player>>,
    debug: Option<ResMut<PathingDebug>>,
    mut exit: MessageWriter<AppExit>,
    autopilot: Res<Autopilot>,
    rebuild: (
        Query<&mut TileTextureIndex>,
        Res<MazeTilemap>,
        Query<&TileStorage>,
        Query<(Entity, &mut GridCell), (Or<(With<Chaser>, With<Unit>)>, Without<Player>)>,
        Res<Options>,
    ),
) {
    let held = |a: KeyCode, b: KeyCode| keys.pressed(a) || keys.pressed(b);
    let wish = if held(KeyCode::ArrowUp, KeyCode::KeyW) {
        Some(Direction::Up)
    } else if held(KeyCode::ArrowDown, KeyCode::KeyS) {
        Some(Direction::Down)
    } else if held(KeyCode::ArrowLeft, KeyCode::KeyA) {
        Some(Direction::Left)
    } else if held(KeyCode::ArrowRight, KeyCode::KeyD) {
        Some(Direction::Right)
    } else {
        None
    };
    if wish.is_some() || !autopilot.0 {
        input.0 = wish;
    }
    if keys.just_pressed(KeyCode::Escape) {
        exit.write(AppExit::Success);
    }
    if keys.just_pressed(KeyCode::KeyG)
        && let Some(mut debug) = debug
    {
        debug.enabled = !debug.enabled;
    }
    let Ok((player, at)) = player.single() else {
        return;
    };
    if keys.just_pressed(KeyCode::Space) {
        let distances = maze.distances(at.0);
        spawn_chasers(
            &mut commands,
            &maze,
            &distances,
            player,
            (
                CHASERS_PER_PRESS,
                rebuild.4.layout,
                rebuild.4.connectivity(),
            ),
            &mut rng.0,
            Some(&art),
        );
    }
    if keys.just_pressed(KeyCode::KeyR) {
        let (mut textures, map, storages, mut chasers, options) = rebuild;
        let new = Maze::new(options.map, options.width, options.height, &mut rng.0);
        let Ok(storage) = storages.get(map.0) else {
            return;
        };
        for cell in
            (0..new.height as i32).flat_map(|y| (0..new.width as i32).map(move |x| Cell::new(x, y)))
        {
            if let Some(tile) = storage.get(&TilePos::new(cell.x as u32, cell.y as u32))
                && let Ok(mut texture) = textures.get_mut(tile)
            {
                texture.set_if_neq(new.texture(cell));
            }
        }
        if options.orders.is_some() {
            commands.insert_resource(Destinations::new(&new));
        }
        // Chasers (and units) now inside a wall step out to a floor cell nearby; the player stays put
        // unless walled in.
        let floor: Vec<Cell> = new.floor_cells().collect();
        for (_, mut cell) in &mut chasers {
            if new.is_wall(cell.0)
                && let Some(&to) = floor.iter().min_by_key(|c| c.manhattan(cell.0))
            {
                cell.0 = to;
            }
        }
        if new.is_wall(at.0)
            && let Some(&to) = floor.iter().min_by_key(|c| c.manhattan(at.0))
        {
            commands.entity(player).insert((
                GridCell(to),
                UnitPath {
                    at: to,
                    ..default()
                },
            ));
        }
        commands.insert_resource(new);
    }
}

/// A click toggles the wall under the cursor (never under the player).
#[expect(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform)>,
    world: Res<GridTransform>,
    map: Res<MazeTilemap>,
    storages: Query<&TileStorage>,
    mut textures: Query<&mut TileTextureIndex>,
    mut maze: ResMut<Maze>,
    player: Query<&GridCell, With<Player>>,
) {
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let (Ok(window), Ok((camera, camera_transform)), Ok(storage)) =
        (window.single(), camera.single(), storages.get(map.0))
    else {
        return;
    };
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    let Ok(point) = camera.viewport_to_world_2d(camera_transform, cursor) else {
        return;
    };
    let cell = world.world_to_cell(point);
    if !maze.contains(cell) || player.single().is_ok_and(|p| p.0 == cell) {
        return;
    }
    let i = (cell.y as u32 * maze.width + cell.x as u32) as usize;
    maze.walls[i] = !maze.walls[i];
    for c in [cell, Cell::new(cell.x, cell.y + 1)] {
        if let Some(pos) = TilePos::from_i32_pair(c.x, c.y, &storage.size)
            && let Some(tile) = storage.get(&pos)
            && let Ok(mut texture) = textures.get_mut(tile)
        {
            texture.set_if_neq(maze.texture(c));
        }
    }
}

pub(crate) fn screenshot_and_quit(
    mut commands: Commands,
    options: Res<Options>,
    time: Res<Time<Real>>,
    mut taken: Local<Option<Duration>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    let now = time.elapsed();
    match *taken {
        None if now.as_secs_f32() >= options.after => {
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path));
            *taken = Some(now);
        }
        Some(at) if now - at > Duration::from_secs(2) => {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}

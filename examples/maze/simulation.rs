//! The simulation, shared by the window and the headless mode: the maze as a tilemap,
//! the player, the chasers, catching (or, with `--orders`, units under orders).

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::layout::{Maze, kind_of};
use crate::options::Options;
use crate::orders::{Destinations, OrdersPlugin, spawn_units};

pub(crate) const TILE_PX: f32 = 16.0;
pub(crate) const CHASERS_PER_PRESS: usize = 200;
pub(crate) const PLAYER_SPEED: f32 = 7.0;

#[derive(Component)]
pub(crate) struct Player;

#[derive(Component)]
pub(crate) struct Chaser;

#[derive(Resource)]
pub(crate) struct MazeRng(pub(crate) StdRng);

#[derive(Resource)]
pub(crate) struct MazeTilemap(pub(crate) Entity);

/// The player's wish for this tick: a direction held down (window) or chosen by the
/// autopilot (headless).
#[derive(Resource, Default)]
pub(crate) struct PlayerInput(pub(crate) Option<Direction>);

/// Headless: the player wanders by itself (off: it stands still, for tests).
#[derive(Resource)]
pub(crate) struct Autopilot(pub(crate) bool);

#[derive(Resource, Default)]
pub(crate) struct Score {
    pub(crate) caught: u64,
}

/// Sprites for the windowed mode; absent headless.
#[derive(Resource, Clone)]
pub(crate) struct Art {
    pub(crate) player: Handle<Image>,
    pub(crate) chaser: Handle<Image>,
}

/// The simulation: maze, player, chasers, catching. Rendering is added on top.
pub(crate) struct MazePlugin;

impl Plugin for MazePlugin {
    fn build(&self, app: &mut App) {
        if let Some(o) = app.world().get_resource::<Options>().cloned() {
            if o.orders.is_some() {
                app.add_plugins(OrdersPlugin);
            }
            let defaults = PathingSettings::default();
            app.insert_resource(PathingSettings {
                budget: match o.budget {
                    None => defaults.budget,
                    Some(0) => PathingBudget::Unlimited,
                    Some(n) => PathingBudget::Expansions(n),
                },
                time_cap: match o.time_cap {
                    None => defaults.time_cap,
                    Some(ms) if ms <= 0.0 => None,
                    Some(ms) => Some(core::time::Duration::from_secs_f64(ms / 1e3)),
                },
                threads: o.threads,
                landmarks: o.landmarks,
                jump_distances: o.jump_distances,
                ..defaults
            });
        }
        app.add_plugins(PathingPlugin::default())
            .init_resource::<PlayerInput>()
            .init_resource::<Score>()
            .add_systems(Startup, setup_world)
            .add_systems(
                FixedUpdate,
                (
                    (autopilot, steer_player)
                        .chain()
                        .before(PathingSystems::SyncGrid),
                    catch_chasers.after(PathingSystems::Move),
                    make_solid.before(PathingSystems::SyncGrid),
                ),
            );
    }
}

/// With crowds on (unless `--no-crowd`), every new chaser or unit under orders holds its cells:
/// no two share one (the player is not solid: chasers reach it).
#[expect(clippy::type_complexity, reason = "a system's query")]
fn make_solid(
    mut commands: Commands,
    options: Option<Res<Options>>,
    new: Query<
        Entity,
        (
            With<PathFollower>,
            Without<Player>,
            Without<Solid>,
            Added<PathRequest>,
        ),
    >,
) {
    if options.is_none_or(|o| !o.crowd) {
        return;
    }
    for unit in &new {
        commands.entity(unit).insert(Solid);
    }
}

pub(crate) fn setup_world(
    mut commands: Commands,
    options: Res<Options>,
    art: Option<Res<Art>>,
    asset_server: Option<Res<AssetServer>>,
) {
    let mut rng = StdRng::seed_from_u64(options.seed);
    let maze = Maze::new(options.map, options.width, options.height, &mut rng);
    let size = TilemapSize::new(maze.width, maze.height);
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for cell in
        (0..maze.height as i32).flat_map(|y| (0..maze.width as i32).map(move |x| Cell::new(x, y)))
    {
        let position = TilePos::new(cell.x as u32, cell.y as u32);
        let tile = commands
            .spawn(TileBundle {
                position,
                tilemap_id: TilemapId(map),
                texture_index: maze.texture(cell),
                ..default()
            })
            .id();
        storage.set(&position, tile);
    }
    let tile_size = crate::tiles::tile_size(options.layout);
    let map_type = TilemapType::from(options.layout);
    let mirror = PathingTilemap::new(kind_of);
    match asset_server {
        Some(assets) if art.is_some() => {
            commands.entity(map).insert((
                TilemapBundle {
                    grid_size: tile_size.into(),
                    map_type,
                    size,
                    storage,
                    texture: TilemapTexture::Single(crate::tiles::texture(options.layout, &assets)),
                    tile_size,
                    anchor: TilemapAnchor::Center,
                    ..default()
                },
                mirror,
            ));
        }
        _ => {
            commands.entity(map).insert((
                size,
                TilemapGridSize::from(tile_size),
                tile_size,
                map_type,
                TilemapAnchor::Center,
                storage,
                Transform::default(),
                mirror,
            ));
        }
    }
    commands.insert_resource(MazeTilemap(map));

    let floor: Vec<Cell> = maze.floor_cells().collect();
    let centre = Cell::new(maze.width as i32 / 2, maze.height as i32 / 2);
    let start = floor
        .iter()
        .copied()
        .min_by_key(|c| c.manhattan(centre))
        .unwrap_or(centre);
    let mut player = commands.spawn((
        Player,
        GridCell(start),
        UnitPath {
            at: start,
            ..default()
        },
        PathFollower::new(PLAYER_SPEED),
        Transform::from_xyz(0.0, 0.0, 3.0),
    ));
    if let Some(art) = &art {
        player.insert(Sprite {
            image: art.player.clone(),
            custom_size: Some(Vec2::splat(TILE_PX * 1.3)),
            ..default()
        });
    }
    let player = player.id();
    if let Some(seconds) = options.orders {
        let destinations = Destinations::new(&maze);
        let every = ((seconds * 60.0).round() as u64).max(1);
        let n = options.chasers;
        spawn_units(
            &mut commands,
            &destinations,
            n,
            every,
            &mut rng,
            art.as_deref(),
        );
        commands.insert_resource(destinations);
    } else {
        let distances = maze.distances(start);
        spawn_chasers(
            &mut commands,
            &maze,
            &distances,
            player,
            (options.chasers, options.layout, options.connectivity()),
            &mut rng,
            art.as_deref(),
        );
    }
    commands.insert_resource(maze);
    commands.insert_resource(MazeRng(rng));
}

/// Spawns `n` chasers on floor cells at least a few steps from the player (all of one
/// cell on hex maps, which have no footprints).
pub(crate) fn spawn_chasers(
    commands: &mut Commands,
    maze: &Maze,
    distances: &[u32],
    player: Entity,
    (n, layout, connectivity): (usize, MapLayout, Connectivity),
    rng: &mut StdRng,
    art: Option<&Art>,
) {
    let far: Vec<Cell> = maze
        .floor_cells()
        .filter(|c| {
            let d = distances[(c.y as u32 * maze.width + c.x as u32) as usize];
            d != u32::MAX && d >= 12
        })
        .collect();
    if far.is_empty() {
        return;
    }
    let request = PathRequest::chase(player)
        .with_mobility(Mobility::FLOOR_ONLY)
        .with_connectivity(connectivity);
    // A chaser starts where its whole footprint is floor no other chaser stands on
    // (solid chasers spawned on others would be moved apart by the plugin).
    let mut taken = std::collections::HashSet::new();
    let footprint = |c: Cell, size: u8| {
        let n = i32::from(size);
        (0..n).flat_map(move |dy| (0..n).map(move |dx| Cell::new(c.x + dx, c.y + dy)))
    };
    let chasers: Vec<_> = (0..n)
        .map(|i| {
            let mut size = if layout.hex().is_some() {
                1
            } else {
                maze.kind.unit_size(i)
            };
            let fits = |c: Cell, size: u8, taken: &std::collections::HashSet<Cell>| {
                footprint(c, size).all(|c| !maze.is_wall(c) && !taken.contains(&c))
            };
            let mut cell = far[rng.random_range(0..far.len())];
            for _ in 0..20 {
                if fits(cell, size, &taken) {
                    break;
                }
                cell = far[rng.random_range(0..far.len())];
            }
            if !fits(cell, size, &taken) {
                size = 1;
                for _ in 0..20 {
                    if fits(cell, size, &taken) {
                        break;
                    }
                    cell = far[rng.random_range(0..far.len())];
                }
            }
            taken.extend(footprint(cell, size));
            let speed = rng.random_range(3.0..5.5);
            (
                Chaser,
                GridCell(cell),
                request.with_size(size),
                PathFollower::new(speed).smoothed(),
                Transform::from_xyz(0.0, 0.0, 2.0),
            )
        })
        .collect();
    match art {
        Some(art) => {
            let sprite = |rng: &mut StdRng, size: u8| Sprite {
                image: art.chaser.clone(),
                custom_size: Some(Vec2::splat(TILE_PX * f32::from(size))),
                color: Color::hsl(rng.random_range(300.0..390.0) % 360.0, 0.9, 0.75),
                ..default()
            };
            let with_sprites: Vec<_> = chasers
                .into_iter()
                .map(|c| {
                    let size = c.2.size;
                    (c, sprite(rng, size))
                })
                .collect();
            commands.spawn_batch(with_sprites);
        }
        None => {
            commands.spawn_batch(chasers);
        }
    }
}

/// Headless: the player walks the corridors, keeping straight and turning at random.
pub(crate) fn autopilot(
    autopilot: Option<Res<Autopilot>>,
    mut rng: ResMut<MazeRng>,
    maze: Res<Maze>,
    mut input: ResMut<PlayerInput>,
    player: Query<(&GridCell, &PathFollower), With<Player>>,
) {
    if !autopilot.is_some_and(|a| a.0) {
        return;
    }
    let Ok((cell, follower)) = player.single() else {
        return;
    };
    if follower.is_moving() {
        return;
    }
    let dirs = [
        Direction::Right,
        Direction::Up,
        Direction::Left,
        Direction::Down,
    ];
    let open: Vec<Direction> = dirs
        .into_iter()
        .filter(|&d| !maze.is_wall(cell.0.step(d)))
        .collect();
    let keep = input
        .0
        .filter(|d| open.contains(d) && rng.0.random_range(0..4) != 0);
    let back = input.0.map(Direction::reverse);
    let choice = keep.or_else(|| {
        let forward: Vec<_> = open.iter().copied().filter(|&d| Some(d) != back).collect();
        let pool = if forward.is_empty() { &open } else { &forward };
        (!pool.is_empty()).then(|| pool[rng.0.random_range(0..pool.len())])
    });
    input.0 = choice;
}

/// Gives the player a one-step path in the wished direction when it is between moves.
pub(crate) fn steer_player(
    input: Res<PlayerInput>,
    grid: Res<PathingGrid>,
    mut player: Query<(&GridCell, &PathFollower, &mut UnitPath), With<Player>>,
) {
    let Ok((cell, follower, mut path)) = player.single_mut() else {
        return;
    };
    let Some(dir) = input.0 else { return };
    if follower.is_moving() || !path.is_finished() {
        return;
    }
    if grid.is_passable(cell.0.step(dir), Mobility::FLOOR_ONLY)
        && let Some(steps) = GridPath::from_steps(&[dir])
    {
        *path = UnitPath {
            steps: steps.into(),
            at: cell.0,
            goal: cell.0.step(dir),
            end: cell.0.step(dir),
            mobility: Mobility::FLOOR_ONLY,
            ..default()
        };
    }
}

/// A chaser whose footprint covers the player's cell is caught (removed), as in the
/// bit_gossip demo.
pub(crate) fn catch_chasers(
    mut commands: Commands,
    mut score: ResMut<Score>,
    player: Query<&GridCell, With<Player>>,
    chasers: Query<(Entity, &GridCell, &PathRequest), With<Chaser>>,
) {
    let Ok(at) = player.single() else { return };
    for (entity, cell, request) in &chasers {
        let n = i32::from(request.size.max(1));
        if (cell.0.x..cell.0.x + n).contains(&at.0.x) && (cell.0.y..cell.0.y + n).contains(&at.0.y)
        {
            commands.entity(entity).despawn();
            score.caught += 1;
        }
    }
}

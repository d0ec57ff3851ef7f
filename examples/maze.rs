//! The maze: hundreds to thousands of chasers hunt the player through a live, editable
//! maze drawn with `bevy_ecs_tilemap`, every path served by `bevy_tilepath`.
//!
//! ```sh
//! cargo run --release --example maze                      # windowed
//! cargo run --release --example maze -- --headless --chasers 10000 --ticks 600
//! cargo run --release --example maze -- --help
//! ```
//!
//! Keys: arrows/WASD move, Space spawns 200 chasers, click toggles a wall, R builds a
//! new maze, G toggles the path gizmos, Esc quits.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::app::AppExit;
use bevy::camera::ScalingMode;
use bevy::diagnostic::{DiagnosticPath, DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::time::TimeUpdateStrategy;
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const USAGE: &str = "\
usage: maze [options]

  --seed N          maze and spawn seed (default 1)
  --size N|WxH      maze size in cells, 8..=1024 (default 80x80)
  --chasers N       chasers at the start (default 300 windowed, 1000 headless)
  --headless        run without a window and print tick statistics
  --ticks N         headless: fixed ticks to run (default 600)
  --budget N        pathing work per tick in expansions, 0 = unlimited
                    (default: the plugin's, 500000)
  --threads N       threads solving a batch, the caller included; 0 = one per
                    core (default 0)
  --compute-pool    solve on Bevy's compute task pool instead of the plugin's
                    solver threads
  --screenshot PNG  windowed: save a screenshot after --after seconds, then quit
  --after SECS      when to take the screenshot (default 6)
  --autopilot       windowed: the player wanders by itself (always on headless)
  --gizmos          windowed: start with the path gizmos on
  -h, --help        this text";

/// Texture indices in `assets/maze_tiles.png`: three floors, two walls.
const FLOORS: [u32; 3] = [0, 1, 2];
const WALLS: [u32; 2] = [3, 4];
const TILE_PX: f32 = 16.0;
const CHASERS_PER_PRESS: usize = 200;
const PLAYER_SPEED: f32 = 7.0;

fn kind_of(texture: TileTextureIndex) -> TileKind {
    if WALLS.contains(&texture.0) {
        TileKind::K1
    } else {
        TileKind::K0
    }
}

/// What the command line asked for.
#[derive(Resource, Clone, Debug, PartialEq)]
struct Options {
    seed: u64,
    width: u32,
    height: u32,
    chasers: usize,
    headless: bool,
    ticks: u64,
    screenshot: Option<PathBuf>,
    after: f32,
    autopilot: bool,
    gizmos: bool,
    budget: Option<u64>,
    threads: usize,
    compute_pool: bool,
}

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut o = Options {
        seed: 1,
        width: 80,
        height: 80,
        chasers: 0,
        headless: false,
        ticks: 600,
        screenshot: None,
        after: 6.0,
        autopilot: false,
        gizmos: false,
        budget: None,
        threads: 0,
        compute_pool: false,
    };
    let mut chasers = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--headless" => o.headless = true,
            "--autopilot" => o.autopilot = true,
            "--gizmos" => o.gizmos = true,
            "--compute-pool" => o.compute_pool = true,
            "--threads" => o.threads = number(&value("--threads")?, "--threads")?,
            "--seed" => o.seed = number(&value("--seed")?, "--seed")?,
            "--chasers" => chasers = Some(number::<usize>(&value("--chasers")?, "--chasers")?),
            "--ticks" => o.ticks = number(&value("--ticks")?, "--ticks")?,
            "--budget" => o.budget = Some(number(&value("--budget")?, "--budget")?),
            "--after" => o.after = number(&value("--after")?, "--after")?,
            "--screenshot" => o.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--size" => {
                let v = value("--size")?;
                let (w, h) = v.split_once('x').unwrap_or((&v, &v));
                o.width = number(w, "--size")?;
                o.height = number(h, "--size")?;
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if !(8..=1024).contains(&o.width) || !(8..=1024).contains(&o.height) {
        return Err("--size must be between 8 and 1024 on each side".into());
    }
    if o.threads > 256 {
        return Err("--threads must be at most 256".into());
    }
    if chasers.is_some_and(|c| c > 1_000_000) {
        return Err("--chasers must be at most 1000000".into());
    }
    if o.headless && o.screenshot.is_some() {
        return Err("--screenshot needs a window (drop --headless)".into());
    }
    if !(o.after.is_finite() && o.after >= 0.0) {
        return Err("--after must be a number of seconds".into());
    }
    o.chasers = chasers.unwrap_or(if o.headless { 1000 } else { 300 });
    Ok(Some(o))
}

fn number<T: std::str::FromStr>(s: &str, name: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{name}: `{s}` is not a valid number"))
}

fn main() -> AppExit {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return AppExit::Success;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return AppExit::from_code(2);
        }
    };
    if options.headless {
        run_headless(options);
        AppExit::Success
    } else {
        windowed_app(options).run()
    }
}

// ----- the maze -----

/// The maze layout: `true` = wall. Row-major, `y` up (tile positions).
#[derive(Resource, Clone, Debug)]
struct Maze {
    width: u32,
    height: u32,
    walls: Vec<bool>,
}

impl Maze {
    /// A maze carved by a randomised depth-first search on the odd cells, with one wall
    /// in ten between two corridors knocked down so that there are loops to flank by.
    fn generate(width: u32, height: u32, rng: &mut StdRng) -> Self {
        let (w, h) = (width as i32, height as i32);
        let mut walls = vec![true; (width * height) as usize];
        let idx = |x: i32, y: i32| (y * w + x) as usize;
        let mut stack = vec![(1, 1)];
        walls[idx(1, 1)] = false;
        while let Some(&(x, y)) = stack.last() {
            let mut options = [(2, 0), (-2, 0), (0, 2), (0, -2)];
            let mut n = 0;
            for (dx, dy) in options {
                let (nx, ny) = (x + dx, y + dy);
                if nx > 0 && ny > 0 && nx < w - 1 && ny < h - 1 && walls[idx(nx, ny)] {
                    options[n] = (dx, dy);
                    n += 1;
                }
            }
            if n == 0 {
                stack.pop();
                continue;
            }
            let (dx, dy) = options[rng.random_range(0..n)];
            walls[idx(x + dx / 2, y + dy / 2)] = false;
            walls[idx(x + dx, y + dy)] = false;
            stack.push((x + dx, y + dy));
        }
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                let between_h = !walls[idx(x - 1, y)] && !walls[idx(x + 1, y)];
                let between_v = !walls[idx(x, y - 1)] && !walls[idx(x, y + 1)];
                if walls[idx(x, y)] && (between_h != between_v) && rng.random_range(0..10) == 0 {
                    walls[idx(x, y)] = false;
                }
            }
        }
        Self {
            width,
            height,
            walls,
        }
    }

    fn contains(&self, c: Cell) -> bool {
        c.x >= 0 && c.y >= 0 && (c.x as u32) < self.width && (c.y as u32) < self.height
    }

    fn is_wall(&self, c: Cell) -> bool {
        !self.contains(c) || self.walls[(c.y as u32 * self.width + c.x as u32) as usize]
    }

    fn texture(&self, c: Cell) -> TileTextureIndex {
        let hash = (c.x as u32).wrapping_mul(73_856_093) ^ (c.y as u32).wrapping_mul(19_349_663);
        if self.is_wall(c) {
            // The lit variant where the wall has floor in front of it (below on screen).
            let front = !self.is_wall(Cell::new(c.x, c.y - 1));
            TileTextureIndex(if front { WALLS[0] } else { WALLS[1] })
        } else {
            TileTextureIndex(FLOORS[[0, 1, 0, 1, 2][(hash >> 7) as usize % 5]])
        }
    }

    /// Breadth-first distances from `from` over floor cells (`u32::MAX`: unreachable).
    fn distances(&self, from: Cell) -> Vec<u32> {
        let mut d = vec![u32::MAX; self.walls.len()];
        let mut queue = std::collections::VecDeque::new();
        if !self.is_wall(from) {
            d[(from.y as u32 * self.width + from.x as u32) as usize] = 0;
            queue.push_back(from);
        }
        while let Some(c) = queue.pop_front() {
            let here = d[(c.y as u32 * self.width + c.x as u32) as usize];
            for dir in [
                Direction::Right,
                Direction::Down,
                Direction::Left,
                Direction::Up,
            ] {
                let n = c.step(dir);
                if !self.is_wall(n) {
                    let i = (n.y as u32 * self.width + n.x as u32) as usize;
                    if d[i] == u32::MAX {
                        d[i] = here + 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        d
    }

    fn floor_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height as i32)
            .flat_map(move |y| (0..self.width as i32).map(move |x| Cell::new(x, y)))
            .filter(|&c| !self.is_wall(c))
    }
}

// ----- the simulation (shared by the window and the headless mode) -----

#[derive(Component)]
struct Player;

#[derive(Component)]
struct Chaser;

#[derive(Resource)]
struct MazeRng(StdRng);

#[derive(Resource)]
struct MazeTilemap(Entity);

/// The player's wish for this tick: a direction held down (window) or chosen by the
/// autopilot (headless).
#[derive(Resource, Default)]
struct PlayerInput(Option<Direction>);

/// Headless: the player wanders by itself (off: it stands still, for tests).
#[derive(Resource)]
struct Autopilot(bool);

#[derive(Resource, Default)]
struct Score {
    caught: u64,
}

/// Sprites for the windowed mode; absent headless.
#[derive(Resource, Clone)]
struct Art {
    player: Handle<Image>,
    chaser: Handle<Image>,
}

/// The simulation: maze, player, chasers, catching. Rendering is added on top.
struct MazePlugin;

impl Plugin for MazePlugin {
    fn build(&self, app: &mut App) {
        if let Some(o) = app.world().get_resource::<Options>().cloned() {
            let defaults = PathingSettings::default();
            app.insert_resource(PathingSettings {
                budget: match o.budget {
                    None => defaults.budget,
                    Some(0) => PathingBudget::Unlimited,
                    Some(n) => PathingBudget::Expansions(n),
                },
                threads: o.threads,
                parallelism: if o.compute_pool {
                    Parallelism::ComputeTaskPool
                } else {
                    Parallelism::SolverThreads
                },
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
                ),
            );
    }
}

fn setup_world(
    mut commands: Commands,
    options: Res<Options>,
    art: Option<Res<Art>>,
    asset_server: Option<Res<AssetServer>>,
) {
    let mut rng = StdRng::seed_from_u64(options.seed);
    let maze = Maze::generate(options.width, options.height, &mut rng);
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
    let tile_size = TilemapTileSize::new(TILE_PX, TILE_PX);
    let mirror = PathingTilemap::new(kind_of);
    match asset_server {
        Some(assets) if art.is_some() => {
            commands.entity(map).insert((
                TilemapBundle {
                    grid_size: tile_size.into(),
                    size,
                    storage,
                    texture: TilemapTexture::Single(assets.load("maze_tiles.png")),
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
                TilemapType::Square,
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
    let distances = maze.distances(start);
    spawn_chasers(
        &mut commands,
        &maze,
        &distances,
        player,
        options.chasers,
        &mut rng,
        art.as_deref(),
    );
    commands.insert_resource(maze);
    commands.insert_resource(MazeRng(rng));
}

/// Spawns `n` chasers on floor cells at least a few steps from the player.
fn spawn_chasers(
    commands: &mut Commands,
    maze: &Maze,
    distances: &[u32],
    player: Entity,
    n: usize,
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
    let request = PathRequest::chase(player).with_layer(GridLayer::FLOOR_ONLY);
    let chasers: Vec<_> = (0..n)
        .map(|_| {
            let cell = far[rng.random_range(0..far.len())];
            let speed = rng.random_range(3.0..5.5);
            (
                Chaser,
                GridCell(cell),
                request,
                PathFollower::new(speed).smoothed(),
                Transform::from_xyz(0.0, 0.0, 2.0),
            )
        })
        .collect();
    match art {
        Some(art) => {
            let sprite = |rng: &mut StdRng| Sprite {
                image: art.chaser.clone(),
                custom_size: Some(Vec2::splat(TILE_PX)),
                color: Color::hsl(rng.random_range(300.0..390.0) % 360.0, 0.9, 0.75),
                ..default()
            };
            let with_sprites: Vec<_> = chasers.into_iter().map(|c| (c, sprite(rng))).collect();
            commands.spawn_batch(with_sprites);
        }
        None => {
            commands.spawn_batch(chasers);
        }
    }
}

/// Headless: the player walks the corridors, keeping straight and turning at random.
fn autopilot(
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
        Direction::Down,
        Direction::Left,
        Direction::Up,
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
fn steer_player(
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
    if grid.is_passable(cell.0.step(dir), GridLayer::FLOOR_ONLY)
        && let Some(steps) = GridPath::from_steps(&[dir])
    {
        *path = UnitPath {
            steps: PathSteps::Four(steps),
            at: cell.0,
            goal: cell.0.step(dir),
            end: cell.0.step(dir),
            ..default()
        };
    }
}

/// A chaser on the player's cell is caught (removed), as in the bit_gossip demo.
fn catch_chasers(
    mut commands: Commands,
    mut score: ResMut<Score>,
    player: Query<&GridCell, With<Player>>,
    chasers: Query<(Entity, &GridCell), With<Chaser>>,
) {
    let Ok(at) = player.single() else { return };
    for (entity, cell) in &chasers {
        if cell == at {
            commands.entity(entity).despawn();
            score.caught += 1;
        }
    }
}

// ----- headless -----

fn headless_app(options: Options, autopilot: bool) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(options)
        .insert_resource(Autopilot(autopilot))
        .add_plugins(MazePlugin);
    // Every update advances exactly one fixed tick.
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(step));
    app.finish();
    app.cleanup();
    app
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn run_headless(options: Options) {
    let ticks = options.ticks;
    println!(
        "maze {}x{} seed {}, {} chasers, {} ticks (60 Hz), {} compute threads",
        options.width,
        options.height,
        options.seed,
        options.chasers,
        ticks,
        bevy::tasks::available_parallelism()
    );
    let mut app = headless_app(options, true);
    let setup = Instant::now();
    app.update(); // startup: maze, tilemap, chasers (the first update runs no fixed tick)
    println!("setup {:.1} ms", setup.elapsed().as_secs_f64() * 1e3);
    let mut whole = Vec::with_capacity(ticks as usize);
    let mut pathing = Vec::with_capacity(ticks as usize);
    let (mut served, mut max_waiting, mut fields) = (0_u64, 0_u32, 0_u64);
    for _ in 0..ticks {
        let t = Instant::now();
        app.update();
        whole.push(t.elapsed().as_secs_f64() * 1e3);
        let d = *app.world().resource::<PathingDiagnostics>();
        pathing.push(d.time.as_secs_f64() * 1e3);
        served += u64::from(d.served);
        max_waiting = max_waiting.max(d.waiting);
        fields += u64::from(d.fields_built);
    }
    let report = |name: &str, v: &mut Vec<f64>| {
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        v.sort_by(f64::total_cmp);
        println!(
            "{name:<34} mean {mean:7.3} ms   p99 {:7.3} ms   max {:7.3} ms",
            percentile(v, 0.99),
            v.last().copied().unwrap_or(0.0)
        );
    };
    report("tick (whole app update)", &mut whole);
    report("pathing (collect + solve)", &mut pathing);
    let world = app.world_mut();
    let alive = world
        .query_filtered::<(), With<Chaser>>()
        .iter(world)
        .count();
    let caught = world.resource::<Score>().caught;
    println!(
        "requests served {served} ({:.0}/tick), most waiting after a tick {max_waiting}, \
         fields built {fields}; chasers alive {alive}, caught {caught}",
        served as f64 / ticks.max(1) as f64
    );
}

// ----- the window -----

#[derive(Component)]
struct Panel;

fn windowed_app(options: Options) -> App {
    let mut app = App::new();
    let (w, h) = (options.width as f32, options.height as f32);
    let scale = (860.0 / (h * TILE_PX)).min(1.0);
    app.add_plugins(
        DefaultPlugins
            .set(ImagePlugin::default_nearest())
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "tilepath maze".into(),
                    resolution: WindowResolution::new(
                        (w * TILE_PX * scale + 320.0) as u32,
                        (h * TILE_PX * scale + 40.0) as u32,
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
    .add_systems(Startup, setup_view)
    .add_systems(Update, (keyboard, mouse, update_panel));
    if options.screenshot.is_some() {
        app.add_systems(Update, screenshot_and_quit);
    }
    app
}

fn load_art(mut commands: Commands, assets: Res<AssetServer>) {
    commands.insert_resource(Art {
        player: assets.load("player.png"),
        chaser: assets.load("chaser.png"),
    });
}

fn setup_view(mut commands: Commands, options: Res<Options>, debug: Option<ResMut<PathingDebug>>) {
    if let Some(mut debug) = debug {
        debug.enabled = options.gizmos;
        debug.max_paths = 300;
    }
    let (w, h) = (
        options.width as f32 * TILE_PX,
        options.height as f32 * TILE_PX,
    );
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
    commands.spawn((
        Panel,
        Text::new("tilepath maze"),
        TextFont {
            font_size: FontSize::Px(17.0),
            ..default()
        },
        TextColor(Color::srgb(0.92, 0.9, 0.85)),
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(14.0),
            left: Val::Px(14.0),
            width: Val::Px(280.0),
            padding: UiRect::all(Val::Px(10.0)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.55)),
    ));
}

#[expect(
    clippy::too_many_arguments,
    clippy::type_complexity,
    reason = "a system's parameters"
)]
fn keyboard(
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
        Query<(Entity, &mut GridCell), (With<Chaser>, Without<Player>)>,
        Res<Options>,
    ),
) {
    let held = |a: KeyCode, b: KeyCode| keys.pressed(a) || keys.pressed(b);
    // Tile y grows upwards: "up" on screen is the grid's +y, `Direction::Down`.
    let wish = if held(KeyCode::ArrowUp, KeyCode::KeyW) {
        Some(Direction::Down)
    } else if held(KeyCode::ArrowDown, KeyCode::KeyS) {
        Some(Direction::Up)
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
            CHASERS_PER_PRESS,
            &mut rng.0,
            Some(&art),
        );
    }
    if keys.just_pressed(KeyCode::KeyR) {
        let (mut textures, map, storages, mut chasers, options) = rebuild;
        let new = Maze::generate(options.width, options.height, &mut rng.0);
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
        // Chasers now inside a wall step out to a floor cell nearby; the player stays put
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
fn mouse(
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

fn update_panel(
    mut panel: Query<&mut Text, With<Panel>>,
    store: Res<DiagnosticsStore>,
    pathing: Res<PathingDiagnostics>,
    score: Res<Score>,
    chasers: Query<(), With<Chaser>>,
    debug: Option<Res<PathingDebug>>,
) {
    let Ok(mut text) = panel.single_mut() else {
        return;
    };
    let smoothed =
        |path: &DiagnosticPath| store.get(path).and_then(|d| d.smoothed()).unwrap_or(0.0);
    let fps = smoothed(&FrameTimeDiagnosticsPlugin::FPS);
    let ms = smoothed(&PathingDiagnostics::PATH_TIME_MS);
    let served = smoothed(&PathingDiagnostics::PATH_SERVED);
    let gizmos = debug.is_some_and(|d| d.enabled);
    **text = format!(
        "tilepath maze\n\n\
         chasers alive   {}\n\
         caught          {}\n\
         FPS             {fps:.0}\n\
         pathing / tick  {ms:.2} ms\n\
         served / tick   {served:.0}\n\
         waiting         {}\n\
         fields built    {}\n\n\
         arrows/WASD move\n\
         Space  +{CHASERS_PER_PRESS} chasers\n\
         click  toggle a wall\n\
         R      new maze\n\
         G      path gizmos ({})",
        chasers.iter().count(),
        score.caught,
        pathing.waiting,
        pathing.fields_built,
        if gizmos { "on" } else { "off" },
    );
}

fn screenshot_and_quit(
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

// ----- tests: the simulation, headless -----

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn arguments() {
        let o = parse_args(args(
            "--headless --chasers 10000 --ticks 600 --size 40x30 --seed 9 --threads 3 --compute-pool",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(
            (o.headless, o.chasers, o.ticks, o.width, o.height, o.seed),
            (true, 10000, 600, 40, 30, 9)
        );
        assert_eq!((o.threads, o.compute_pool), (3, true));
        assert_eq!(parse_args(args("--help")).unwrap(), None);
        for bad in [
            "--chasers",
            "--chasers many",
            "--size 3",
            "--size 80x",
            "--frobnicate",
            "--ticks -1",
            "--threads 1000",
            "--threads",
            "--headless --screenshot a.png",
        ] {
            assert!(parse_args(args(bad)).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn maze_is_connected_with_walls_around() {
        let mut rng = StdRng::seed_from_u64(3);
        let maze = Maze::generate(41, 31, &mut rng);
        let d = maze.distances(Cell::new(1, 1));
        assert!(
            maze.floor_cells()
                .all(|c| d[(c.y as u32 * 41 + c.x as u32) as usize] != u32::MAX)
        );
        assert!((0..41).all(|x| maze.is_wall(Cell::new(x, 0)) && maze.is_wall(Cell::new(x, 30))));
    }

    /// Chasers close in on a standing player, get caught, and never stand in a wall.
    #[test]
    fn chasers_close_in_and_never_walk_through_walls() {
        let options = parse_args(args("--headless --chasers 300 --size 48x48 --seed 5"))
            .unwrap()
            .unwrap();
        let mut app = headless_app(options, false);
        app.update();
        let world = app.world_mut();
        let player = world
            .query_filtered::<&GridCell, With<Player>>()
            .single(world)
            .unwrap()
            .0;
        let maze = world.resource::<Maze>().clone();
        let distances = maze.distances(player);
        let distance = |c: Cell| distances[(c.y as u32 * maze.width + c.x as u32) as usize];
        let chasers = |app: &mut App| -> Vec<(Entity, Cell)> {
            let world = app.world_mut();
            let mut q = world.query_filtered::<(Entity, &GridCell), With<Chaser>>();
            q.iter(world).map(|(e, c)| (e, c.0)).collect()
        };
        let start: HashMap<Entity, u32> = chasers(&mut app)
            .into_iter()
            .map(|(e, c)| (e, distance(c)))
            .collect();
        assert_eq!(start.len(), 300);
        assert!(start.values().all(|&d| d >= 12 && d != u32::MAX));
        // 300 ticks = 5 s at 3 to 5.5 cells/s: at least 15 cells each.
        for _ in 0..300 {
            app.update();
            for (_, c) in chasers(&mut app) {
                assert!(!maze.is_wall(c), "a chaser stands in the wall at {c:?}");
            }
        }
        let end = chasers(&mut app);
        let caught = app.world().resource::<Score>().caught;
        assert_eq!(
            end.len() as u64 + caught,
            300,
            "every chaser is alive or caught"
        );
        assert!(caught > 0, "nobody was caught");
        for (e, c) in end {
            let (before, after) = (start[&e], distance(c));
            assert!(
                after + 14 <= before || after == 0,
                "chaser {e} did not close in: {before} -> {after} steps from the player"
            );
        }
        let d = app.world().resource::<PathingDiagnostics>();
        assert!(d.total_served >= 300);
    }
}

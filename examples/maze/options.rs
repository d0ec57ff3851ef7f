//! The command line.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;

use crate::layout::MapKind;

pub(crate) const USAGE: &str = "\
usage: maze [options]

  --seed N          maze and spawn seed (default 1)
  --size N|WxH      maze size in cells, 8..=1024 (default 80x80)
  --layout NAME     how tiles are laid out: square (default), hex-row,
                    hex-row-even, hex-row-odd, hex-column, hex-column-even,
                    hex-column-odd, iso (isometric diamond)
  --hex, --iso      short for --layout hex-row-odd and --layout iso
  --map maze|rooms|halls
                    a maze; rooms and open areas; or halls: rooms joined by
                    corridors 1 to 3 cells wide, where one chaser in 5 is 2x2
                    and one in 10 is 3x3 (default maze)
  --chasers N       chasers at the start (default 300 windowed, 1000 headless)
  --orders SECS     instead of chasing, N units (--units N, the same as --chasers)
                    walk to far goals of their own, each getting a new one every
                    SECS seconds (staggered); headless prints how long requests
                    waited and checks that each one is answered
  --no-crowd        chasers and units walk as if alone, sharing cells and
                    gliding along straight routes (by default they are
                    solid: no two share a cell, see bevy_tilepath's Solid;
                    on rooms and halls they step cell by cell along the
                    same routes, in the maze 4-connected)
  --headless        run without a window and print tick statistics
  --ticks N         headless: fixed ticks to run (default 600)
  --paced           headless: each tick takes at least 1/60 s of wall time, as a
                    game's frames do, so that work on Bevy's async compute pool
                    (fields, landmark guides, untangling) gets the time between
                    frames it would get in a game (by default ticks run back to
                    back: the first second of game time passes in less)
  --budget N        pathing work per tick in expansions, 0 = unlimited
                    (default: the plugin's, 500000)
  --time-cap MS     pathing wall time per tick in milliseconds, 0 = none
                    (default: the plugin's, 2.5)
  --landmarks N     landmarks guiding long searches (PathingSettings::landmarks;
                    default 0)
  --jump-distances  keep jump distances for long searches
                    (PathingSettings::jump_distances)
  --threads N       tasks a batch is spread over on Bevy's compute pool; 0 = one
                    per pool thread and the caller (default 0)
  --compute-threads N
                    threads of Bevy's compute pool, where systems run; 0 =
                    Bevy's default share of the cores (default 0). With two or
                    more, systems that only read what they share run side by
                    side (the crowds' planning beside the followers); Bevy's
                    default gives the pool two from four cores up, one on two
  --screenshot PNG  windowed: save a screenshot after --after seconds, then quit
  --after SECS      when to take the screenshot (default 6)
  --autopilot       windowed: the player wanders by itself (always on headless)
  --gizmos          windowed: start with the path gizmos on
  --export PATH     write the map as PATH.map and N far-goal scenarios as
                    PATH.scen (Moving AI formats; N = --units), then quit
  -h, --help        this text";

/// What the command line asked for.
#[derive(Resource, Clone, Debug, PartialEq)]
pub(crate) struct Options {
    pub(crate) seed: u64,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) map: MapKind,
    /// How the tiles are laid out (`--layout`, `--hex`, `--iso`).
    pub(crate) layout: MapLayout,
    pub(crate) chasers: usize,
    /// Seconds between one unit's orders: the orders scenario instead of chasers.
    pub(crate) orders: Option<f32>,
    pub(crate) headless: bool,
    /// Headless: each tick takes at least 1/60 s of wall time (`--paced`).
    pub(crate) paced: bool,
    /// Whether chasers and units are [`Solid`](bevy_tilepath::Solid) (on unless
    /// `--no-crowd`).
    pub(crate) crowd: bool,
    pub(crate) ticks: u64,
    pub(crate) screenshot: Option<PathBuf>,
    pub(crate) after: f32,
    pub(crate) autopilot: bool,
    pub(crate) gizmos: bool,
    pub(crate) budget: Option<u64>,
    /// Milliseconds; 0 = no cap, `None` = the plugin's default.
    pub(crate) time_cap: Option<f64>,
    pub(crate) threads: usize,
    /// Threads of Bevy's compute pool (`--compute-threads`; 0: Bevy's default).
    pub(crate) compute_threads: usize,
    /// Write the map and scenarios in Moving AI formats to this path (no extension).
    pub(crate) export: Option<PathBuf>,
    /// `PathingSettings::landmarks`.
    pub(crate) landmarks: usize,
    /// `PathingSettings::jump_distances`.
    pub(crate) jump_distances: bool,
}

pub(crate) fn parse_args(
    args: impl IntoIterator<Item = String>,
) -> Result<Option<Options>, String> {
    let mut o = Options {
        seed: 1,
        width: 80,
        height: 80,
        map: MapKind::Maze,
        layout: MapLayout::Square,
        chasers: 0,
        orders: None,
        headless: false,
        paced: false,
        crowd: true,
        ticks: 600,
        screenshot: None,
        after: 6.0,
        autopilot: false,
        gizmos: false,
        budget: None,
        time_cap: None,
        threads: 0,
        compute_threads: 0,
        export: None,
        landmarks: 0,
        jump_distances: false,
    };
    let mut chasers = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--headless" => o.headless = true,
            "--paced" => o.paced = true,
            "--no-crowd" => o.crowd = false,
            "--autopilot" => o.autopilot = true,
            "--gizmos" => o.gizmos = true,
            "--jump-distances" => o.jump_distances = true,
            "--landmarks" => o.landmarks = number(&value("--landmarks")?, "--landmarks")?,
            "--threads" => o.threads = number(&value("--threads")?, "--threads")?,
            "--compute-threads" => {
                o.compute_threads = number(&value("--compute-threads")?, "--compute-threads")?;
            }
            "--seed" => o.seed = number(&value("--seed")?, "--seed")?,
            "--chasers" | "--units" => chasers = Some(number::<usize>(&value(&arg)?, &arg)?),
            "--orders" => o.orders = Some(number(&value("--orders")?, "--orders")?),
            "--map" => {
                o.map = match value("--map")?.as_str() {
                    "maze" => MapKind::Maze,
                    "rooms" => MapKind::Rooms,
                    "halls" => MapKind::Halls,
                    other => {
                        return Err(format!("--map: `{other}` is not maze, rooms or halls"));
                    }
                }
            }
            "--hex" => o.layout = MapLayout::HexRowOdd,
            "--iso" => o.layout = MapLayout::IsoDiamond,
            "--layout" => o.layout = layout(&value("--layout")?)?,
            "--ticks" => o.ticks = number(&value("--ticks")?, "--ticks")?,
            "--budget" => o.budget = Some(number(&value("--budget")?, "--budget")?),
            "--time-cap" => o.time_cap = Some(number(&value("--time-cap")?, "--time-cap")?),
            "--after" => o.after = number(&value("--after")?, "--after")?,
            "--screenshot" => o.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--export" => o.export = Some(PathBuf::from(value("--export")?)),
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
    if o.time_cap.is_some_and(|ms| !(0.0..=1000.0).contains(&ms)) {
        return Err("--time-cap must be between 0 and 1000 ms".into());
    }
    if o.threads > 256 {
        return Err("--threads must be at most 256".into());
    }
    if o.compute_threads > 256 {
        return Err("--compute-threads must be at most 256".into());
    }
    if chasers.is_some_and(|c| c > 1_000_000) {
        return Err("--chasers must be at most 1000000".into());
    }
    if o.paced && !o.headless {
        return Err("--paced is for --headless runs (a window is paced by its display)".into());
    }
    if o.headless && o.screenshot.is_some() {
        return Err("--screenshot needs a window (drop --headless)".into());
    }
    if o.orders
        .is_some_and(|s| !(s.is_finite() && s * 60.0 >= 1.0 && s <= 3600.0))
    {
        return Err("--orders must be between 1/60 and 3600 seconds".into());
    }
    if !(o.after.is_finite() && o.after >= 0.0) {
        return Err("--after must be a number of seconds".into());
    }
    o.chasers = chasers.unwrap_or(if o.headless { 1000 } else { 300 });
    Ok(Some(o))
}

/// The layout `--layout` names.
fn layout(name: &str) -> Result<MapLayout, String> {
    Ok(match name {
        "square" => MapLayout::Square,
        "hex-row" => MapLayout::HexRow,
        "hex-row-even" => MapLayout::HexRowEven,
        "hex-row-odd" => MapLayout::HexRowOdd,
        "hex-column" => MapLayout::HexColumn,
        "hex-column-even" => MapLayout::HexColumnEven,
        "hex-column-odd" => MapLayout::HexColumnOdd,
        "iso" | "iso-diamond" => MapLayout::IsoDiamond,
        other => return Err(format!("--layout: `{other}` is not a layout (see --help)")),
    })
}

pub(crate) fn number<T: std::str::FromStr>(s: &str, name: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{name}: `{s}` is not a valid number"))
}

impl Options {
    /// How chasers and units under orders move: 8-connected, so that their paths are
    /// pulled straight (`PathingSettings::straight_routes`) and they glide along the
    /// straight lines (in a crowd, stepping along the cells the lines cross, and
    /// drawn on the line as far as the units near them leave room). A crowd in the
    /// maze moves 4-connected: its corridors leave nothing to
    /// pull straight, and pulling every chaser's path as the player moves would cost
    /// more than the rest of the tick.
    pub(crate) fn connectivity(&self) -> Connectivity {
        if self.crowd && self.map == MapKind::Maze {
            Connectivity::Four
        } else {
            Connectivity::Eight
        }
    }
}

/// Bevy's task pools as `--compute-threads` asks: Bevy's own, or a compute pool of
/// that many threads (the IO and async compute pools as Bevy makes them).
pub(crate) fn task_pools(options: &Options) -> bevy::app::TaskPoolPlugin {
    use bevy::app::{TaskPoolOptions, TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
    if options.compute_threads == 0 {
        return TaskPoolPlugin::default();
    }
    let defaults = TaskPoolOptions::default();
    TaskPoolPlugin {
        task_pool_options: TaskPoolOptions {
            compute: TaskPoolThreadAssignmentPolicy {
                min_threads: options.compute_threads,
                max_threads: options.compute_threads,
                ..defaults.compute.clone()
            },
            ..defaults
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn arguments() {
        let o = parse_args(args(
            "--headless --chasers 10000 --ticks 600 --size 40x30 --seed 9 --threads 3",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(
            (o.headless, o.chasers, o.ticks, o.width, o.height, o.seed),
            (true, 10000, 600, 40, 30, 9)
        );
        assert_eq!(o.threads, 3);
        let o = parse_args(args("--headless --compute-threads 2"))
            .unwrap()
            .unwrap();
        assert_eq!(o.compute_threads, 2);
        assert!(parse_args(args("--compute-threads 1000")).is_err());
        assert_eq!((o.map, o.orders), (MapKind::Maze, None));
        let o = parse_args(args(
            "--headless --map rooms --size 1024 --units 2000 --orders 5",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(
            (o.map, o.width, o.chasers, o.orders, o.paced),
            (MapKind::Rooms, 1024, 2000, Some(5.0), false)
        );
        assert!(
            parse_args(args("--headless --paced"))
                .unwrap()
                .unwrap()
                .paced
        );
        assert!(
            parse_args(args("--paced")).is_err(),
            "a window is paced already"
        );
        assert_eq!(parse_args(args("--help")).unwrap(), None);
        let layout = |s| parse_args(args(s)).unwrap().unwrap().layout;
        assert_eq!(layout("--hex"), MapLayout::HexRowOdd);
        assert_eq!(layout("--iso"), MapLayout::IsoDiamond);
        assert_eq!(layout("--layout hex-column-even"), MapLayout::HexColumnEven);
        for bad in [
            "--chasers",
            "--chasers many",
            "--size 3",
            "--size 80x",
            "--frobnicate",
            "--ticks -1",
            "--time-cap NaN",
            "--time-cap -2",
            "--threads 1000",
            "--threads",
            "--headless --screenshot a.png",
            "--map caves",
            "--layout octagons",
            "--layout",
            "--orders 0",
            "--orders -2",
            "--orders NaN",
        ] {
            assert!(parse_args(args(bad)).is_err(), "{bad} should be rejected");
        }
    }
}

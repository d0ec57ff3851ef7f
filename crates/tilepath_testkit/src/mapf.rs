//! The MAPF benchmark instances in `data/mapf` (see `data/mapf/README.md`): a map
//! and, per agent, a start, a goal and its own shortest distance.

use std::path::PathBuf;
use tilepath::{Cell, Grid};

/// The instances in `data/mapf/instances`, smallest first.
pub const MAPF_INSTANCES: [&str; 9] = [
    "random-32-32-10-100-s1",
    "random-32-32-10-200-s1",
    "random-32-32-10-400-s1",
    "maze-32-32-2-50-s1",
    "maze-32-32-2-100-s1",
    "room-64-64-8-200-s1",
    "room-64-64-8-500-s1",
    "warehouse-20-40-10-2-2-500-s1",
    "warehouse-20-40-10-2-2-1000-s1",
];

/// One MAPF instance.
pub struct MapfInstance {
    /// The instance's name (its file name without `.scen`).
    pub name: String,
    /// The map: kind 0 passable, kind 3 blocked.
    pub grid: Grid,
    /// Per agent: its start.
    pub starts: Vec<Cell>,
    /// Per agent: its goal.
    pub goals: Vec<Cell>,
    /// Per agent: its 4-connected shortest distance, as the file gives it.
    pub distances: Vec<u32>,
}

impl MapfInstance {
    /// The sum of the agents' own shortest distances: a lower bound of the sum of
    /// costs.
    pub fn lower_bound(&self) -> u64 {
        self.distances.iter().map(|&d| u64::from(d)).sum()
    }
}

fn mapf_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join("mapf")
}

/// A MAPF map (`maps/<name>.map`) as a grid: `.` (and `G`, `S`) kind 0, anything
/// else kind 3.
pub fn load_mapf_map(name: &str) -> Grid {
    let path = mapf_dir().join("maps").join(format!("{name}.map"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    crate::maps::parse_movingai(&text)
}

/// The instance `instances/<name>.scen`, with its map.
pub fn load_mapf(name: &str) -> MapfInstance {
    let path = mapf_dir().join("instances").join(format!("{name}.scen"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut map = None;
    let (mut starts, mut goals, mut distances) = (Vec::new(), Vec::new(), Vec::new());
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let n = |i: usize| f[i].trim().parse::<i32>().unwrap();
        map.get_or_insert_with(|| f[1].trim_end_matches(".map").to_string());
        starts.push(Cell::new(n(4), n(5)));
        goals.push(Cell::new(n(6), n(7)));
        distances.push(f[8].trim().parse::<f64>().unwrap() as u32);
    }
    let map = map.expect("an instance with no agents");
    MapfInstance {
        name: name.to_string(),
        grid: load_mapf_map(&map),
        starts,
        goals,
        distances,
    }
}

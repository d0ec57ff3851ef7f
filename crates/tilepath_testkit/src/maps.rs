//! Loaders for the test maps in this crate's `data/` (see `data/README.md` for their
//! sources and licences): Moving AI `.map`/`.scen` and the reference maps.

use std::path::PathBuf;
use tilepath::{Cell, Grid, TileKind};

/// The Moving AI maps in `data/movingai`, each with its `.scen`.
pub const MOVING_AI_MAPS: [&str; 6] = [
    "arena.map",
    "den312d.map",
    "lak303d.map",
    "maze512-1-0.map",
    "random512-10-0.map",
    "32room_000.map",
];

/// The maps' folder, `data/` in this crate: part of the repository, so that a fresh
/// clone tests with nothing beside it.
pub fn maps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// A Moving AI `.map` as a grid: kind 0 passable (`.`, `G`, `S`), kind 3 blocked.
pub fn load_movingai(name: &str) -> Grid {
    let text = std::fs::read_to_string(maps_dir().join("movingai").join(name)).unwrap();
    parse_movingai(&text)
}

/// The grid of a Moving AI `.map` file's text: kind 0 passable (`.`, `G`, `S`), kind 3
/// blocked.
pub fn parse_movingai(text: &str) -> Grid {
    let body = text.split_once("\nmap\n").expect("no `map` line").1;
    Grid::from_ascii(body, |c| {
        Some(if matches!(c, '.' | 'G' | 'S') {
            TileKind::K0
        } else {
            TileKind::K3
        })
    })
    .unwrap()
}

/// One Moving AI scenario.
pub struct Scenario {
    /// Start cell.
    pub start: Cell,
    /// Goal cell.
    pub goal: Cell,
    /// The optimal octile length the file gives.
    pub optimal: f64,
}

/// The scenarios of Moving AI map `name` (`name.scen` beside the map).
pub fn load_scenarios(name: &str) -> Vec<Scenario> {
    let text =
        std::fs::read_to_string(maps_dir().join("movingai").join(format!("{name}.scen"))).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = |i: usize| f[i].parse::<i32>().unwrap();
            Scenario {
                start: Cell::new(n(4), n(5)),
                goal: Cell::new(n(6), n(7)),
                optimal: f[8].parse().unwrap(),
            }
        })
        .collect()
}

/// The reference maps of quasilyte/pathing: (grid, start, finish).
pub fn load_reference(name: &str) -> (Grid, Cell, Cell) {
    let text =
        std::fs::read_to_string(maps_dir().join("reference").join(format!("{name}.txt"))).unwrap();
    let mut start = Cell::default();
    let mut finish = Cell::default();
    for (y, line) in text.lines().enumerate() {
        for (x, ch) in line.chars().enumerate() {
            match ch {
                'S' => start = Cell::new(x as i32, y as i32),
                'F' => finish = Cell::new(x as i32, y as i32),
                _ => {}
            }
        }
    }
    let grid = Grid::from_ascii(&text, |c| {
        Some(if c == 'x' { TileKind::K1 } else { TileKind::K0 })
    })
    .unwrap();
    (grid, start, finish)
}

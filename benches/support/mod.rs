//! Map loading shared by the benchmarks (the same maps the tests use).
#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;
use tilepath::{Cell, Grid, TileKind};

/// `../shared/maps`, or a clear panic if it is missing.
pub fn maps_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/maps");
    assert!(
        dir.is_dir(),
        "benchmarks need the shared maps at {} (shared/ beside the clone)",
        dir.display()
    );
    dir
}

/// A reference map (`x` = wall) with its start `S` and finish `F`; `pad` spaces are
/// added to the right of every row (2000 makes `large_map` from `multi_wall`).
pub fn reference(name: &str, pad: usize) -> (Grid, Cell, Cell, String) {
    let text = std::fs::read_to_string(maps_dir().join(format!("reference/{name}.txt"))).unwrap();
    let text: String = text
        .lines()
        .map(|l| format!("{l}{}\n", " ".repeat(pad)))
        .collect();
    let find = |ch| {
        text.lines()
            .enumerate()
            .find_map(|(y, l)| l.find(ch).map(|x| Cell::new(x as i32, y as i32)))
            .unwrap()
    };
    let grid = Grid::from_ascii(&text, |c| {
        Some(if c == 'x' { TileKind::K1 } else { TileKind::K0 })
    })
    .unwrap();
    (grid, find('S'), find('F'), text)
}

/// A Moving AI map (kind 0 passable, kind 3 blocked) and its scenarios
/// `(start, goal, optimal length)`.
pub fn movingai(name: &str) -> (Grid, Vec<(Cell, Cell, f64)>) {
    let dir = maps_dir().join("movingai");
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    let body = text.split_once("\nmap\n").unwrap().1;
    let grid = Grid::from_ascii(body, |c| {
        Some(if matches!(c, '.' | 'G' | 'S') {
            TileKind::K0
        } else {
            TileKind::K3
        })
    })
    .unwrap();
    let scen = std::fs::read_to_string(dir.join(format!("{name}.scen"))).unwrap();
    let scenarios = scen
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = |i: usize| f[i].parse::<i32>().unwrap();
            (f.len() >= 9).then(|| {
                (
                    Cell::new(n(4), n(5)),
                    Cell::new(n(6), n(7)),
                    f[8].parse().unwrap(),
                )
            })
        })
        .collect();
    (grid, scenarios)
}

/// Passability as a plain `Vec<bool>` (row-major), for the peer crates.
pub fn passable(grid: &Grid) -> Vec<bool> {
    (0..grid.len())
        .map(|i| grid.is_passable(grid.cell_of(i).unwrap(), tilepath::GridLayer::FLOOR_ONLY))
        .collect()
}

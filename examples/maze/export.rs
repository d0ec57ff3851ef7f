//! `--export PATH`: the map as a Moving AI `.map` and far-goal scenarios as a `.scen`,
//! so that other solvers can be timed on the very map and routes of the orders
//! scenario.
//!
//! Row `y` of the map is line `y` of the `.map` (the tilemap's `y` grows upward, the
//! format's downward: the graph is the same, mirrored). Scenarios follow the orders'
//! rule (a random floor cell, and a floor cell at least a quarter of the width plus
//! height away), with the optimal 8-connected length (no corner cutting) from
//! [`Jps`].

use std::fmt::Write as _;
use std::path::Path;

use bevy_tilepath::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::layout::Maze;
use crate::options::Options;
use crate::orders::Destinations;

/// Writes `path.map` and `path.scen` (`options.chasers` scenarios).
pub(crate) fn export(options: &Options, path: &Path) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(options.seed);
    let maze = Maze::new(options.map, options.width, options.height, &mut rng);
    let name = path
        .file_name()
        .map_or("maze".into(), |n| n.to_string_lossy().into_owned());
    let mut map = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        maze.height, maze.width
    );
    for y in 0..maze.height as i32 {
        for x in 0..maze.width as i32 {
            map.push(if maze.is_wall(Cell::new(x, y)) {
                '@'
            } else {
                '.'
            });
        }
        map.push('\n');
    }
    let grid = Grid::from_fn(maze.width, maze.height, |c| {
        if maze.is_wall(c) {
            TileKind::K1
        } else {
            TileKind::K0
        }
    })
    .map_err(|e| e.to_string())?;
    let destinations = Destinations::new(&maze);
    let floor: Vec<Cell> = maze.floor_cells().collect();
    let mut jps = Jps::for_grid(&grid).map_err(|e| e.to_string())?;
    let mut scen = String::from("version 1\n");
    for _ in 0..options.chasers {
        let from = floor[rng.random_range(0..floor.len())];
        let Some(to) = destinations.far_goal(from, &mut rng) else {
            break;
        };
        let r = jps
            .find(
                &grid,
                PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(Connectivity::Eight),
            )
            .map_err(|e| e.to_string())?;
        let _ = writeln!(
            scen,
            "0\t{name}.map\t{}\t{}\t{}\t{}\t{}\t{}\t{:.8}",
            maze.width, maze.height, from.x, from.y, to.x, to.y, r.cost
        );
    }
    let write = |ext: &str, text: &str| {
        std::fs::write(path.with_extension(ext), text).map_err(|e| format!("{ext}: {e}"))
    };
    write("map", &map)?;
    write("scen", &scen)?;
    println!(
        "wrote {} and {}",
        path.with_extension("map").display(),
        path.with_extension("scen").display()
    );
    Ok(())
}

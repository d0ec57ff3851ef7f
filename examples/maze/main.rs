//! The maze: hundreds to thousands of chasers hunt the player through a live, editable
//! maze drawn with `bevy_ecs_tilemap`, every path served by `bevy_tilepath`.
//!
//! ```sh
//! cargo run --release --example maze                      # windowed
//! cargo run --release --example maze -- --headless --chasers 10000 --ticks 600
//! cargo run --release --example maze -- --headless --map rooms --size 1024 --units 2000 --orders 5
//! cargo run --release --example maze -- --help
//! ```
//!
//! Keys: arrows/WASD move, Space spawns 200 chasers, click toggles a wall, R builds a
//! new maze, G toggles the path gizmos, Esc quits.
//!
//! With `--orders SECS` the units are not chasers: each walks to a far goal of its own
//! and gets a new one every `SECS` seconds, and the plugin plans the long routes segment
//! by segment; headless, the run prints how long requests waited and checks that every
//! one was answered. `--map rooms` makes rooms and open areas instead of a maze.
//! `--hex` and `--iso` (or `--layout NAME`) lay the same maps out as hexes or
//! isometric diamonds: the plugin reads the tilemap's layout and units move to each
//! tile's own neighbours.
//!
//! The files: `options.rs` (the command line), `layout.rs` (maze and rooms
//! generation), `simulation.rs` (player, chasers, catching: shared by both modes),
//! `orders.rs` (the orders scenario and its account of requests), `headless.rs` (tick
//! statistics, and the simulation's tests), `window.rs` (window, input, screenshots),
//! `tiles.rs` (the tiles'
//! look on each layout), `ui.rs` (the panel), `export.rs` (the map and far-goal scenarios in Moving AI
//! formats, for other solvers).

mod export;
mod headless;
mod layout;
mod options;
mod orders;
mod simulation;
mod tiles;
mod ui;
mod window;

use bevy::app::AppExit;

use crate::options::{USAGE, parse_args};

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
    if let Some(path) = &options.export {
        return match export::export(&options, path) {
            Ok(()) => AppExit::Success,
            Err(e) => {
                eprintln!("error: {e}");
                AppExit::from_code(1)
            }
        };
    }
    if options.headless {
        headless::run_headless(options);
        return AppExit::Success;
    }
    // Bevy would panic with a backtrace when it cannot open a window: say it plainly.
    if let Err(e) = window::check_display() {
        eprintln!("{e}");
        return AppExit::from_code(1);
    }
    window::windowed_app(options).run()
}

//! The README's app, line for line: a grid with a wall, and one unit that plans its way
//! round it and walks there. No tilemap: the game fills the grid itself (with
//! `bevy_ecs_tilemap`, put a `PathingTilemap` on the map instead; see `basic.rs`).
//!
//! ```sh
//! cargo run --example quickstart
//! ```

use bevy::prelude::*;
use bevy_tilepath::prelude::*;

const FLOOR: TileKind = TileKind::K0; // what a new grid is made of
const WALL: TileKind = TileKind::K1; // Mobility::FLOOR_ONLY cannot enter it
const TILE: f32 = 32.0;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, PathingPlugin::default()))
        .insert_resource(GridTransform {
            origin: Vec2::new(-9.5 * TILE, -5.5 * TILE), // where cell (0, 0) is drawn
            cell_size: Vec2::splat(TILE),
            ..default()
        })
        .add_systems(Startup, setup)
        .run();
}

fn setup(mut commands: Commands, mut pathing: ResMut<PathingGrid>, place: Res<GridTransform>) {
    let mut grid = Grid::filled(20, 12, FLOOR).unwrap();
    grid.fill_rect(Cell::new(9, 0), Cell::new(9, 9), WALL); // a wall, open at the top
    for cell in (0..20).flat_map(|x| (0..12).map(move |y| Cell::new(x, y))) {
        if grid.get(cell) == Some(WALL) {
            let at = place.cell_to_world(cell).extend(0.0);
            let color = Color::srgb(0.3, 0.3, 0.35);
            commands.spawn((
                Sprite::from_color(color, Vec2::splat(TILE)),
                Transform::from_translation(at),
            ));
        }
    }
    pathing.replace(grid); // the plugin plans on this grid; edit it any time
    commands.spawn(Camera2d);
    commands.spawn((
        Sprite::from_color(Color::srgb(0.2, 0.6, 1.0), Vec2::splat(TILE * 0.7)),
        GridCell(Cell::new(2, 2)),
        PathRequest::to_cell(Cell::new(17, 2)).with_mobility(Mobility::FLOOR_ONLY),
        PathFollower::new(5.0), // cells per second; it moves the Transform too
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::time::TimeUpdateStrategy;

    /// This file's app, from `use` to the end of `setup`.
    fn app_source() -> &'static str {
        let source = include_str!("quickstart.rs");
        let start = source.find("use bevy::prelude").unwrap();
        let end = source.find("#[cfg(test)]").unwrap();
        source[start..end].trim()
    }

    #[test]
    fn the_readme_shows_this_app() {
        let readme = include_str!("../README.md");
        assert!(
            readme.contains(app_source()),
            "README.md's app differs from examples/quickstart.rs: copy it over"
        );
    }

    #[test]
    fn the_unit_walks_round_the_wall() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, PathingPlugin::default()))
            .insert_resource(TimeUpdateStrategy::ManualDuration(
                Time::<Fixed>::from_hz(60.0).timestep(),
            ))
            .add_systems(Startup, setup);
        app.finish();
        app.cleanup();
        let goal = Cell::new(17, 2);
        let mut seen = Vec::new();
        for _ in 0..600 {
            app.update();
            let mut units = app.world_mut().query::<&GridCell>();
            let cell = units.single(app.world()).unwrap().0;
            assert!(
                cell.x != 9 || cell.y >= 10,
                "walked into the wall at {cell:?}"
            );
            if seen.last() != Some(&cell) {
                seen.push(cell);
            }
            if cell == goal {
                break;
            }
        }
        assert_eq!(seen.last(), Some(&goal), "never arrived: {seen:?}");
        // Round the wall's top end (y = 10 or 11), never through it.
        assert!(seen.iter().any(|c| c.x == 9 && c.y >= 10), "{seen:?}");
    }
}

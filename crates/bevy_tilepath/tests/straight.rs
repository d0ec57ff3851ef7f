//! Straight routes (`PathingSettings::straight_routes`): an 8-connected unit on open
//! ground walks a straight line, not an L or a staircase; wherever it is drawn, its
//! anchor is on floor (never inside a wall), also when walls appear in its way while
//! it walks; its cell changes one step at a time.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::*;

/// Runs a unit of `size` (`Solid` if `solid`) from `from` to `to` on `grid`, calling
/// `edit` before every tick; checks every drawn position and cell change. Returns the
/// length in cells of the way it was drawn and the ticks it took, or `None` if it did
/// not arrive.
fn walk(
    grid: Grid,
    (size, solid): (u8, bool),
    (from, to): (Cell, Cell),
    straight: bool,
    mut edit: impl FnMut(&mut App, u32),
) -> Option<(f32, u32)> {
    let settings = PathingSettings {
        straight_routes: straight,
        ..default()
    };
    let mut app = app(Some(grid), settings);
    let unit = app
        .world_mut()
        .spawn((
            GridCell(from),
            PathRequest::to_cell(to)
                .with_mobility(Mobility::FLOOR_ONLY)
                .with_connectivity(Connectivity::Eight)
                .with_size(size),
            PathFollower::new(4.0),
            Transform::default(),
        ))
        .id();
    if solid {
        app.world_mut().entity_mut(unit).insert(Solid);
    }
    let mut drawn: Option<Vec2> = None;
    let mut length = 0.0;
    let mut last_cell = from;
    for tick in 0..2000 {
        edit(&mut app, tick);
        app.update();
        let world = app.world();
        let grid = world.resource::<PathingGrid>().grid();
        let pos = world.get::<Transform>(unit).unwrap().translation.truncate();
        let cell = world.get::<GridCell>(unit).unwrap().0;
        assert!(
            cell.chebyshev(last_cell) <= 1,
            "tick {tick}: cell jumped {last_cell:?} -> {cell:?}"
        );
        last_cell = cell;
        // The default transform centres cell (x, y) at (x, y): the anchor point, in
        // cell units, is the world position plus one half (minus the footprint's).
        let anchor = pos + Vec2::splat(0.5) - Vec2::splat(f32::from(size - 1) / 2.0);
        if drawn.is_some() {
            // A point on a cell's edge may be read into the blocked cell beside it.
            let inside = |dx: f32, dy: f32| {
                let p = anchor + Vec2::new(dx, dy);
                let c = Cell::new(p.x.floor() as i32, p.y.floor() as i32);
                grid.fits(c, Mobility::FLOOR_ONLY, size)
            };
            let e = 1e-3;
            assert!(
                inside(0.0, 0.0)
                    || inside(e, e)
                    || inside(-e, -e)
                    || inside(e, -e)
                    || inside(-e, e),
                "tick {tick}: drawn at {anchor:?} (cell {cell:?}), inside a wall"
            );
        }
        if let Some(d) = drawn {
            length += d.distance(pos);
        }
        drawn = Some(pos);
        if cell == to && *world.get::<PathStatus>(unit).unwrap() == PathStatus::Arrived {
            return Some((length, tick));
        }
    }
    let world = app.world();
    println!(
        "not arrived: at {last_cell:?}, {:?}, path {:?}",
        world.get::<PathStatus>(unit),
        world.get::<UnitPath>(unit).map(|p| (p.at, p.end, p.goal))
    );
    None
}

fn floor(w: u32, h: u32) -> Grid {
    Grid::filled(w, h, TileKind::K0).unwrap()
}

#[test]
fn a_unit_on_open_ground_walks_a_straight_line() {
    let (from, to) = (Cell::new(1, 1), Cell::new(31, 11));
    let straight = (30.0f32 * 30.0 + 10.0 * 10.0).sqrt();
    // The 8-connected optimum: 10 diagonal steps and 20 straight ones.
    let octile = 20.0 + 10.0 * core::f32::consts::SQRT_2;
    let (line, _) = walk(floor(40, 16), (1, false), (from, to), true, |_, _| {}).expect("arrives");
    let (grid_path, _) =
        walk(floor(40, 16), (1, false), (from, to), false, |_, _| {}).expect("arrives");
    // A solid unit with nobody near glides the same way.
    let (solid, _) = walk(floor(40, 16), (1, true), (from, to), true, |_, _| {}).expect("arrives");
    println!(
        "straight {straight:.2}, walked {line:.2} ({solid:.2} solid); grid path walked {grid_path:.2} (octile {octile:.2})"
    );
    for walked in [line, solid] {
        assert!(
            walked <= straight * 1.01,
            "walked {walked}, the line is {straight}"
        );
    }
    // (The first tick's motion is not counted.)
    assert!(
        grid_path >= octile - 0.5,
        "the grid path is not an L: {grid_path}"
    );
    assert!(line < grid_path * 0.95);
}

#[test]
fn drawn_positions_stay_on_floor_round_walls_and_new_walls() {
    // Pillars and a wall with a gap between the unit and its goal.
    let grid = Grid::from_ascii(
        "........................\n\
         ....#..........#........\n\
         ....#..........#...##...\n\
         ..........#....#...##...\n\
         ....######.....#........\n\
         ...............####.....\n\
         ...##...................\n\
         ...##...........#.......\n\
         ........................\n\
         ........................",
        |c| Some(if c == '#' { TileKind::K1 } else { TileKind::K0 }),
    )
    .unwrap();
    let mut placed = 0;
    for (size, solid) in [(1, false), (2, false), (1, true), (2, true)] {
        let size = (size, solid);
        let route = (Cell::new(0, 0), Cell::new(22, 7 - i32::from(size.0)));
        walk(grid.clone(), size, route, true, |_, _| {}).expect("arrives");
        // Walls dropped ahead of the unit while it walks, on the cells its path takes.
        let arrived = walk(grid.clone(), size, route, true, |app, tick| {
            if tick >= 240 || tick % 30 != 10 {
                return;
            }
            let world = app.world_mut();
            let mut q = world.query::<(&UnitPath, &GridCell)>();
            let ahead: Vec<(Cell, Cell)> = q
                .iter(world)
                .flat_map(|(p, at)| p.cells_ahead().skip(2).take(1).map(move |c| (c, at.0)))
                .collect();
            let mut grid = world.resource_mut::<PathingGrid>();
            for (c, at) in ahead {
                // Only walls that leave the goal reachable: the unit must re-plan
                // round them, not give up.
                let mut walled = grid.grid().clone();
                if walled.set(c, TileKind::K1).is_err() || c == route.1 {
                    continue;
                }
                let eight = true;
                let d = tilepath_testkit::reference_dijkstra_sized(
                    &walled,
                    Mobility::FLOOR_ONLY,
                    size.0,
                    at,
                    eight,
                    |_| true,
                );
                let goal = walled.index_of(route.1).unwrap();
                if d[goal].is_some() && grid.set(c, TileKind::K1).is_ok() {
                    placed += 1;
                }
            }
        });
        assert!(
            arrived.is_some(),
            "size {size:?}: did not arrive round the new walls"
        );
    }
    println!("{placed} walls placed in the way");
    assert!(placed >= 6, "too few walls placed in the way: {placed}");
}

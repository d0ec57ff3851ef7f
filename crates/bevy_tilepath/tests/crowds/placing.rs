//! Units put where they cannot stand: on top of each other, inside walls, more than
//! the free cells.

use super::*;

/// Units spawned on top of each other, or inside a wall, are moved to the nearest
/// free cells; the game can ask who holds a cell.
#[test]
fn units_spawned_on_top_of_each_other_are_spread_out() {
    let mut grid = Grid::filled(20, 20, TileKind::K0).unwrap();
    grid.set(Cell::new(5, 5), TileKind::K1).unwrap();
    let mut app = app(Some(grid), PathingSettings::default());
    let here = Cell::new(10, 10);
    let stacked: Vec<Entity> = (0..9)
        .map(|_| {
            app.world_mut()
                .spawn((GridCell(here), PathFollower::new(3.0), Solid))
                .id()
        })
        .collect();
    let walled = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(5, 5)),
            PathRequest::to_cell(Cell::new(6, 6)),
            PathFollower::new(3.0),
            Solid,
        ))
        .id();
    ticks(&mut app, 1);
    let cells: Vec<Cell> = stacked.iter().map(|&e| cell_of(&app, e)).collect();
    for (i, c) in cells.iter().enumerate() {
        assert!(!cells[..i].contains(c), "two units still on {c}");
        assert!(
            c.x.abs_diff(here.x).max(c.y.abs_diff(here.y)) <= 1,
            "{c} is not the nearest free cell"
        );
    }
    assert_ne!(cell_of(&app, walled), Cell::new(5, 5));
    let occupancy = app
        .world_mut()
        .run_system_once(|o: Occupancy| o.holder(Cell::new(10, 10)))
        .unwrap();
    assert!(occupancy.is_some_and(|e| stacked.contains(&e)));
}

/// More solid units than free cells: the extra ones stay out of the crowd (counted,
/// never on a held cell) and are placed once cells free up, within the retry delay.
#[test]
fn a_full_room_places_its_extra_units_as_cells_free_up() {
    // 20: every extra unit was tried and waits out the retry delay; 3000: most are
    // not even tried in a tick (the placing budget), and take the cells at once.
    for count in [20, 3000] {
        full_room(count);
    }
}

fn full_room(count: i32) {
    // A closed 4x4 room in a 12x12 map of walls.
    let mut grid = Grid::filled(12, 12, TileKind::K1).unwrap();
    for y in 4..8 {
        for x in 4..8 {
            grid.set(Cell::new(x, y), TileKind::K0).unwrap();
        }
    }
    let mut app = app(Some(grid), PathingSettings::default());
    let units: Vec<Entity> = (0..count)
        .map(|i| {
            let at = Cell::new(4 + i % 4, 4 + (i / 4) % 4);
            let stay = PathRequest::to_cell(at).with_mobility(Mobility::FLOOR_ONLY);
            app.world_mut()
                .spawn((GridCell(at), stay, PathFollower::new(3.0), Solid))
                .id()
        })
        .collect();
    ticks(&mut app, 2);
    let unplaced = |app: &App| app.world().resource::<PathingDiagnostics>().crowd_unplaced;
    assert_eq!(unplaced(&app), count as u32 - 16);
    let holders = |app: &mut App| {
        app.world_mut()
            .run_system_once(|o: Occupancy| {
                (4..8)
                    .flat_map(|y| (4..8).map(move |x| Cell::new(x, y)))
                    .filter_map(|c| o.holder(c))
                    .collect::<Vec<_>>()
            })
            .unwrap()
    };
    let first = holders(&mut app);
    assert_eq!(first.len(), 16);
    // Four of those leave: four of the others take their cells, within the delay
    // after which a unit that found no room is tried again.
    for &e in &first[..4] {
        app.world_mut().despawn(e);
    }
    let mut waited = 0;
    while unplaced(&app) != count as u32 - 4 - 16 {
        assert!(
            waited <= 31,
            "no unit took the freed cells in {waited} ticks"
        );
        ticks(&mut app, 1);
        waited += 1;
    }
    let now = holders(&mut app);
    assert_eq!(now.len(), 16, "the freed cells were not all taken");
    assert!(now.iter().all(|e| units.contains(e)));
    println!("{count} units: the freed cells were taken after {waited} ticks");
}

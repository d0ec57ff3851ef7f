//! Solid units on hex maps.

use super::*;

/// Solid units on hex maps of every hex tilemap type (bevy_ecs_tilemap's `Row`,
/// `RowEven`, `RowOdd`, `Column`, `ColumnEven`, `ColumnOdd`): two groups of 24 cross
/// a wall through a door two cells wide, each unit to a cell of its own on the other
/// side, asking for 4- or 8-connected moves (a hex map moves them by its hex steps).
/// After every tick no two hold a cell, none swapped, every move is one hex step of
/// the layout (`Invariants`), every unit holds the cell it is on in its grid's crowd
/// ([`Occupancy`]: it is solid there, not walking as a unit that is not), and all
/// arrive within 4,000 ticks.
#[test]
fn solid_units_on_hex_maps_never_share_a_cell_and_arrive() {
    let (w, h) = (30, 20);
    let mut grid = Grid::filled(w, h, TileKind::K0).unwrap();
    for y in 0..h as i32 {
        if !(9..=10).contains(&y) {
            grid.set(Cell::new(15, y), TileKind::K1).unwrap();
        }
    }
    for layout in MapLayout::ALL.into_iter().filter(|l| l.hex().is_some()) {
        let mut app = app(Some(grid.clone()), PathingSettings::default());
        app.insert_resource(GridTransform {
            layout,
            ..default()
        });
        let mut rng = seeded(31);
        let mut units = Vec::new();
        for i in 0..24 {
            let (x, y) = (1 + 2 * (i % 6), 2 + 5 * (i / 6) - (i / 6) % 2);
            let speed = rng.random_range(3.0..8.0);
            let eight = i % 2 == 0;
            let a = spawn(
                &mut app,
                Cell::new(x, y),
                Cell::new(28 - x, 19 - y),
                1,
                speed,
                eight,
            );
            let b = spawn(
                &mut app,
                Cell::new(28 - x, 19 - y),
                Cell::new(x, y),
                1,
                speed,
                !eight,
            );
            units.extend([a, b]);
        }
        let mut inv = Invariants::new();
        let (mut moved, mut arrived_at) = (0_u64, None);
        for tick in 0..4000 {
            ticks(&mut app, 1);
            inv.check(&mut app, if tick == 0 { &units } else { &[] });
            let d = app.world().resource::<PathingDiagnostics>();
            assert_eq!(d.crowd_unplaced, 0, "{layout:?}, tick {tick}");
            moved += u64::from(d.crowd_moved);
            let at: Vec<(Entity, Cell)> = units.iter().map(|&e| (e, cell_of(&app, e))).collect();
            let held = app
                .world_mut()
                .run_system_once(move |o: Occupancy| {
                    at.iter().all(|&(e, c)| o.holder(c) == Some(e))
                })
                .unwrap();
            assert!(
                held,
                "{layout:?}, tick {tick}: a unit does not hold its cell"
            );
            if all_home(&app, &units) {
                arrived_at = Some(tick);
                break;
            }
        }
        println!(
            "48 solid units through a door on {layout:?}: all home after {arrived_at:?} ticks \
             ({} ticks and {} steps checked, {moved} crowd moves)",
            inv.ticks, inv.steps
        );
        assert!(
            arrived_at.is_some(),
            "{layout:?}: not every unit home in 4000 ticks"
        );
        assert!(
            inv.steps > 500 && moved > 500,
            "{layout:?}: the units hardly moved"
        );
    }
}

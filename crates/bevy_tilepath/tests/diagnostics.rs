//! The tick's diagnostics agree with what happened: distance fields are counted as
//! repaired only on ticks whose grid was edited, and a tick without edits does no
//! repair work.

mod common;

use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, seeded, ticks};
use rand::RngExt;

/// A small tower defense: 300 enemies walking to one goal cell (they share a distance
/// field), five 2x2 ogres sent to a cell their footprint does not fit, and a wall
/// placed now and then. `fields_repaired` is non-zero only on the ticks that edited
/// the grid (and on those, once the shared field exists); a tick without edits that
/// serves nothing does no work at all.
#[test]
fn fields_are_repaired_only_on_ticks_with_edits() {
    let mut rng = seeded(36);
    let (w, h) = (64, 48);
    let grid = Grid::from_fn(w, h, |c| {
        let (x, y) = (c.x as u32, c.y as u32);
        // A few wall stubs for the enemies to walk around, gaps left open.
        if x % 12 == 6 && y % 16 > 3 || rng.random_bool(0.05) && x > 1 && x < w - 2 {
            TileKind::K1
        } else {
            TileKind::K0
        }
    })
    .unwrap();
    // On the right edge: a 2x2 footprint anchored there would leave the grid.
    let goal = Cell::new(w as i32 - 1, h as i32 / 2);
    let mut grid = grid;
    grid.set(goal, TileKind::K0).unwrap();
    let mut app = app(Some(grid), common::uncapped());
    for i in 0..305 {
        let start = Cell::new(rng.random_range(0..3), rng.random_range(0..h as i32 - 1));
        let request = PathRequest::to_cell(goal).with_mobility(MOBILITY);
        let request = if i < 300 {
            app.world_mut()
                .resource_mut::<PathingGrid>()
                .set(start, TileKind::K0)
                .unwrap();
            request
        } else {
            // The ogres' 2x2 footprint starts on open floor.
            for c in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let cell = Cell::new(start.x + c.0, start.y + c.1);
                let mut grid = app.world_mut().resource_mut::<PathingGrid>();
                grid.set(cell, TileKind::K0).unwrap();
            }
            request.with_size(2)
        };
        app.world_mut()
            .spawn((GridCell(start), request, PathFollower::new(6.0)));
    }
    // The spawns' own edits are one tick's worth.
    ticks(&mut app, 1);

    let (mut edit_ticks, mut repaired_ticks, mut quiet_ticks) = (0, 0, 0);
    // The enemies' shared field is built on the first tick.
    let mut built = app.world().resource::<PathingDiagnostics>().fields_built;
    for tick in 0..900 {
        let edited = tick % 15 == 7 && {
            let cell = Cell::new(
                rng.random_range(2..w as i32 - 2),
                rng.random_range(0..h as i32),
            );
            let mut grid = app.world_mut().resource_mut::<PathingGrid>();
            let old = grid.set(cell, TileKind::K1).unwrap();
            old != TileKind::K1
        };
        ticks(&mut app, 1);
        let d = *app.world().resource::<PathingDiagnostics>();
        built += d.fields_built;
        if edited {
            edit_ticks += 1;
            // The shared field, once built, is kept and repaired after every edit.
            if built > 0 {
                assert!(
                    d.fields_repaired >= 1,
                    "tick {tick}: an edit repaired no field: {d:?}"
                );
            }
        } else {
            assert_eq!(d.fields_repaired, 0, "tick {tick}: no edit, yet {d:?}");
            if d.served == 0 && d.fields_built == 0 {
                // Nothing to serve and nothing to repair: no work.
                assert_eq!(d.expanded, 0, "tick {tick}: work without edits: {d:?}");
                quiet_ticks += 1;
            }
        }
        repaired_ticks += usize::from(d.fields_repaired > 0);
    }
    println!(
        "{edit_ticks} ticks with edits, {repaired_ticks} with fields repaired, {quiet_ticks} \
         quiet ticks checked for work, {built} fields built"
    );
    assert!(built >= 1, "the enemies share a field");
    assert!(
        edit_ticks >= 40 && repaired_ticks >= 40,
        "{edit_ticks} {repaired_ticks}"
    );
    assert!(quiet_ticks >= 100, "{quiet_ticks}");
}

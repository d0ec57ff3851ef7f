//! Crowds in the plugin: solid units never share a cell, never pass through each
//! other, and get where they are going in the cases games have.
//!
//! `main.rs` holds what every test here checks after each tick ([`Invariants`]) and
//! how they spawn units; `rules.rs` the invariants under hostile runs and on straight
//! routes; `scenarios.rs` the crowds games have (corridors, shared goals, chasers, big
//! and small units); `placing.rs` units put where they cannot stand; `hex.rs` hex
//! maps; `sync.rs` units changed between steps.

#[path = "../common/mod.rs"]
mod common;
mod hex;
mod placing;
mod rules;
mod scenarios;
mod sync;

use std::collections::HashMap;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{app, seeded, ticks, uncapped};
use rand::RngExt;

/// The cells of the `size x size` footprint anchored at `c`.
fn footprint(c: Cell, size: u8) -> impl Iterator<Item = Cell> {
    let n = i32::from(size);
    (0..n).flat_map(move |dy| (0..n).map(move |dx| Cell::new(c.x + dx, c.y + dy)))
}

/// Checks, after a tick, that no two solid units hold a cell (the cells under their
/// footprints at their [`GridCell`]s), that none swapped cells with another, that
/// every unit moved at most one step, and that units drawn as discs of 0.7 times
/// their size never overlap on the way (a unit enters a cell another leaves in the
/// same step behind it: centres a cell apart in a file, at least 0.71 apart where the
/// file turns). Units moved by the test itself are listed in `moved_by_hand`.
///
/// On a hex map ([`GridTransform`]'s layout) every move must be one hex step of the
/// layout; the discs are not checked there (hex steps have no corner rule: a unit
/// following another round a turn of 60 degrees comes within half a cell of it).
struct Invariants {
    seen: HashMap<Entity, Cell>,
    ticks: usize,
    steps: usize,
    /// The closest two units' centres came, over the sum of their sizes' halves.
    closest: f32,
    /// Unit-ticks of units between two cells, and of those drawn off the line between
    /// the cells' centres (gliding on a straight route).
    moving: usize,
    glided: usize,
    /// The cell each unit left on its last step, and the steps that went straight back
    /// onto it (a unit pushed back and forth).
    left: HashMap<Entity, Cell>,
    reversals: usize,
}

/// The share of its size a unit's disc covers.
const DISC: f32 = 0.7;

impl Invariants {
    fn new() -> Self {
        Self {
            seen: HashMap::new(),
            ticks: 0,
            steps: 0,
            closest: f32::MAX,
            moving: 0,
            glided: 0,
            left: HashMap::new(),
            reversals: 0,
        }
    }

    fn check(&mut self, app: &mut App, moved_by_hand: &[Entity]) {
        self.ticks += 1;
        let place = *app.world().resource::<GridTransform>();
        let hex = place.layout.hex();
        let unit_len =
            (place.cell_to_world(Cell::new(1, 0)) - place.cell_to_world(Cell::new(0, 0))).length();
        let mut q = app.world_mut().query_filtered::<(
            Entity,
            &GridCell,
            &PathRequest,
            &PathFollower,
            &Transform,
        ), With<Solid>>();
        let units: Vec<_> = q
            .iter(app.world())
            .map(|(e, c, r, f, t)| {
                (
                    e,
                    c.0,
                    r.size,
                    f.is_moving(),
                    t.translation.truncate() / unit_len,
                )
            })
            .collect();
        for &(_, cell, size, moving, at) in units.iter().filter(|_| hex.is_none()) {
            // The default transform centres cell (x, y) at (x, y). Drawn between two
            // cells' centres, a unit is off its cell's centre along an axis or a
            // diagonal.
            let centre =
                Vec2::new(cell.x as f32, cell.y as f32) + Vec2::splat(f32::from(size - 1) / 2.0);
            let d = (at - centre).abs();
            if moving {
                self.moving += 1;
                if d.x.min(d.y).min((d.x - d.y).abs()) > 0.02 {
                    self.glided += 1;
                }
            }
        }
        let mut holder: HashMap<Cell, Entity> = HashMap::new();
        let ticks = self.ticks;
        let detail = |e: Entity| {
            let u = units.iter().find(|u| u.0 == e).unwrap();
            format!(
                "{e} at {} size {} moving {} (was {:?})",
                u.1,
                u.2,
                u.3,
                self.seen.get(&e)
            )
        };
        for &(e, cell, size, _, _) in &units {
            for c in footprint(cell, size) {
                if let Some(other) = holder.insert(c, e)
                    && other != e
                {
                    panic!(
                        "tick {ticks}: {} and {} both hold {c}",
                        detail(e),
                        detail(other)
                    );
                }
            }
            if let Some(&before) = self.seen.get(&e)
                && before != cell
                && !moved_by_hand.contains(&e)
            {
                let one_step = match hex {
                    Some(layout) => layout
                        .directions(before)
                        .into_iter()
                        .any(|d| before.step(d) == cell),
                    None => before.x.abs_diff(cell.x) <= 1 && before.y.abs_diff(cell.y) <= 1,
                };
                assert!(one_step, "tick {ticks}: {e} jumped from {before} to {cell}");
                self.steps += 1;
                if self.left.insert(e, before) == Some(cell) {
                    self.reversals += 1;
                }
            }
        }
        // Discs: every pair of units near each other (on squares).
        for (i, a) in units.iter().enumerate().filter(|_| hex.is_none()) {
            for b in &units[i + 1..] {
                if moved_by_hand.contains(&a.0) || moved_by_hand.contains(&b.0) {
                    continue;
                }
                let reach = (f32::from(a.2) + f32::from(b.2)) / 2.0;
                let d = a.4.distance(b.4) / reach;
                if d < 2.0 {
                    self.closest = self.closest.min(d);
                }
                assert!(
                    d >= DISC,
                    "tick {ticks}: {} and {} came {:.2} cells close",
                    detail(a.0),
                    detail(b.0),
                    a.4.distance(b.4)
                );
            }
        }
        // No swap: no two units each entered the cell the other left this tick.
        let now: HashMap<Entity, Cell> = units.iter().map(|u| (u.0, u.1)).collect();
        for (&e, &cell) in &now {
            let Some(&before) = self.seen.get(&e) else {
                continue;
            };
            if before == cell {
                continue;
            }
            for (&o, &other) in &now {
                if o != e
                    && let Some(&other_before) = self.seen.get(&o)
                {
                    assert!(
                        !(other == before && other_before == cell),
                        "tick {ticks}: {e} and {o} swapped"
                    );
                }
            }
        }
        self.seen = now;
    }
}

fn spawn(app: &mut App, at: Cell, goal: Cell, size: u8, speed: f32, eight: bool) -> Entity {
    let connectivity = if eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    app.world_mut()
        .spawn((
            GridCell(at),
            Transform::default(),
            PathRequest::to_cell(goal)
                .with_mobility(Mobility::FLOOR_ONLY)
                .with_connectivity(connectivity)
                .with_size(size),
            PathFollower::new(speed),
            Solid,
        ))
        .id()
}

fn cell_of(app: &App, e: Entity) -> Cell {
    app.world().get::<GridCell>(e).unwrap().0
}

/// Whether every unit of `units` stands on the cell its request heads for.
fn all_home(app: &App, units: &[Entity]) -> bool {
    units.iter().all(|&e| {
        let PathGoal::Cell(goal) = app.world().get::<PathRequest>(e).unwrap().goal else {
            unreachable!("the tests send units to cells")
        };
        cell_of(app, e) == goal
    })
}

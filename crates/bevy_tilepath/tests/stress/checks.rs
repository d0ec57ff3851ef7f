//! The invariants checked after every tick, and what the run covered.

use super::*;

/// Ticks a stale path may wait unnoticed: an edit made between `Collect` and `Solve`
/// is seen by the next tick's `Collect`; every other one by the same tick's.
pub(crate) const STALE_GRACE: u64 = 1;

/// The step from `a` to `b`, if they are neighbours.
pub(crate) fn step_between(a: Cell, b: Cell) -> Option<Direction8> {
    Direction8::ALL
        .into_iter()
        .find(|d| Some(d.offset()) == b.x.checked_sub(a.x).zip(b.y.checked_sub(a.y)))
}

/// The grid a unit walks on (its `OnGrid` map's, else the default one) and its
/// layout; `None` while that map is gone.
pub(crate) fn grid_of<'a>(
    on: Option<&OnGrid>,
    (grid, world): (&'a PathingGrid, &GridTransform),
    maps: &'a Query<(Entity, &PathingMap)>,
) -> Option<(&'a PathingGrid, MapLayout)> {
    match on {
        None => Some((grid, world.layout)),
        Some(o) => maps
            .get(o.0)
            .ok()
            .map(|(_, m)| (m.grid(), m.transform.layout)),
    }
}

/// The first step of `path` still ahead that the step rule now rejects: where from,
/// and which way.
pub(crate) fn first_illegal_step(
    path: &UnitPath,
    grid: &PathingGrid,
    layout: MapLayout,
) -> Option<(Cell, Direction8)> {
    let mut at = path.at;
    for d in path.steps.iter() {
        if !layout.can_step(grid.grid(), at, d, path.mobility, path.size) {
            return Some((at, d));
        }
        at = at.step(d);
    }
    None
}

/// How often the unkind moves were made, and what each layout saw.
#[derive(Default)]
pub(crate) struct Coverage {
    /// Walls put on a corner cell of a unit's next (legal) diagonal step.
    pub(crate) corner_walls: u64,
    /// Followers put on another cell by hand while between two cells.
    pub(crate) mid_step_moves: u64,
    /// Walls put under a unit bigger than one cell.
    pub(crate) walls_under_big: u64,
    /// Units put on another grid (or taken off theirs), and of them mid-step.
    pub(crate) grid_changes: u64,
    pub(crate) grid_changes_mid_step: u64,
    /// Paths seen with a step the rule now rejects, and ticks such a path was seen
    /// while its grid had nothing waiting (when it must have been answered).
    pub(crate) stale_paths: u64,
    pub(crate) stale_idle: u64,
    /// Ticks that left a whole-grid search paused at the time cap.
    pub(crate) paused_ticks: u64,
    /// Units spawned, by size.
    pub(crate) sizes: [u64; 4],
    /// Maps with a grid of their own spawned, path steps checked and follower moves
    /// checked, by layout.
    pub(crate) maps_by_layout: BTreeMap<String, u64>,
    pub(crate) steps_by_layout: BTreeMap<String, u64>,
    pub(crate) moves_by_layout: BTreeMap<String, u64>,
}

/// What the checking systems saw, and the test's own record of requests.
#[derive(Resource, Default)]
pub(crate) struct Watch {
    pub(crate) tick: u64,
    /// Units whose request was (re)issued and not answered yet: the tick it was.
    pub(crate) asked: HashMap<Entity, u64>,
    pub(crate) longest_wait: u64,
    pub(crate) answered: u64,
    pub(crate) found: u64,
    pub(crate) failed: u64,
    pub(crate) steps_checked: u64,
    pub(crate) moves_checked: u64,
    /// Units the test moved by hand this tick (not a follower's move).
    pub(crate) teleported: Vec<Entity>,
    /// Each follower's cell and grid after the last move check.
    pub(crate) last_cell: HashMap<Entity, (Cell, Option<Entity>)>,
    /// Units answered this tick (a path or a failure).
    pub(crate) answered_now: HashSet<Entity>,
    /// Units whose path has a step the rule rejects: since which tick.
    pub(crate) stale_since: HashMap<Entity, u64>,
    /// Cells the system between `Collect` and `Solve` sets this tick, on which grid.
    pub(crate) between: Vec<(Option<Entity>, Cell, TileKind)>,
    pub(crate) violations: Vec<String>,
    pub(crate) reasons: HashMap<NoPathReason, u64>,
    pub(crate) cover: Coverage,
}

pub(crate) fn edit_between(
    mut watch: ResMut<Watch>,
    mut grid: ResMut<PathingGrid>,
    mut maps: Query<&mut PathingMap>,
) {
    for (key, c, k) in watch.between.drain(..) {
        let _ = match key {
            None => grid.set(c, k),
            Some(m) => match maps.get_mut(m) {
                Ok(mut map) => map.grid_mut().set(c, k),
                Err(_) => continue,
            },
        };
    }
}

/// Right after `Solve`: every answer this tick is checked against the grid it was
/// planned on.
#[expect(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn check_answers(
    mut watch: ResMut<Watch>,
    grid: Res<PathingGrid>,
    world: Res<GridTransform>,
    maps: Query<(Entity, &PathingMap)>,
    diag: Res<PathingDiagnostics>,
    mut found: MessageReader<PathFound>,
    mut failed: MessageReader<PathFailed>,
    units: Query<(&GridCell, &UnitPath, &PathStatus, Option<&OnGrid>)>,
) {
    let w = &mut *watch;
    w.cover.paused_ticks += u64::from(diag.searches_paused > 0);
    let (mut n_found, mut n_failed) = (0_u32, 0_u32);
    for f in found.read() {
        n_found += 1;
        answered(w, f.entity);
        let Ok((cell, path, status, on)) = units.get(f.entity) else {
            w.violations
                .push(format!("tick {}: found for a missing unit", w.tick));
            continue;
        };
        if path.at != cell.0 {
            w.violations.push(format!(
                "tick {}: {} path starts at {:?}, unit at {:?}",
                w.tick, f.entity, path.at, cell.0
            ));
        }
        // Served with a path, and perhaps on its goal by the end of the tick.
        let arrived = *status == PathStatus::Arrived && cell.0 == path.goal;
        if !matches!(status, PathStatus::Found | PathStatus::Partial(_)) && !arrived {
            w.violations
                .push(format!("tick {}: found with status {status:?}", w.tick));
        }
        // Planned on the unit's grid, for its mobility and footprint.
        let Some((g, layout)) = grid_of(on, (&grid, &world), &maps) else {
            w.violations.push(format!(
                "tick {}: {} found on a grid that is gone",
                w.tick, f.entity
            ));
            continue;
        };
        let mut at = path.at;
        let mut steps = path.steps;
        let mut n = 0;
        for d in steps.by_ref() {
            n += 1;
            if !layout.can_step(g.grid(), at, d, path.mobility, path.size) {
                w.violations.push(format!(
                    "tick {}: {} path (size {}) steps {d:?} from {at:?} illegally on {layout:?}",
                    w.tick, f.entity, path.size
                ));
                break;
            }
            at = at.step(d);
        }
        w.steps_checked += n;
        *w.cover
            .steps_by_layout
            .entry(format!("{layout:?}"))
            .or_default() += n;
        if at != path.end {
            w.violations.push(format!(
                "tick {}: path ends at {at:?} not {:?}",
                w.tick, path.end
            ));
        }
    }
    for f in failed.read() {
        n_failed += 1;
        *w.reasons.entry(f.reason).or_default() += 1;
        answered(w, f.entity);
    }
    w.found += u64::from(n_found);
    w.failed += u64::from(n_failed);
    if diag.served != n_found + n_failed || diag.failed != n_failed {
        w.violations.push(format!(
            "tick {}: diagnostics say served {} failed {}, messages {n_found} + {n_failed}",
            w.tick, diag.served, diag.failed
        ));
    }
    if diag.served_by_field > n_found {
        w.violations
            .push(format!("tick {}: more served by field than found", w.tick));
    }
}

pub(crate) fn answered(w: &mut Watch, e: Entity) {
    w.answered += 1;
    w.answered_now.insert(e);
    if let Some(t) = w.asked.remove(&e) {
        w.longest_wait = w.longest_wait.max(w.tick - t);
    }
}

/// Right after `Move`, on every unit's own grid:
/// - a follower whose cell changed by walking took one step the step rule allows its
///   path's mobility and size (a follower stepping into a cell walled meanwhile turns
///   back by such a step too; one standing on a walled cell may walk off it, which
///   the rule allows);
/// - a unit with a request whose path has a step the rule now rejects is answered (a
///   path or a failure) within [`STALE_GRACE`] ticks of the path going stale, or its
///   grid still has requests waiting: none is left with a stale path while nothing
///   waits.
#[expect(clippy::type_complexity, reason = "a system's queries")]
pub(crate) fn check_moves(
    mut watch: ResMut<Watch>,
    grid: Res<PathingGrid>,
    world: Res<GridTransform>,
    diag: Res<PathingDiagnostics>,
    maps: Query<(Entity, &PathingMap)>,
    followers: Query<(Entity, &GridCell, &UnitPath, Option<&OnGrid>), With<PathFollower>>,
    units: Query<
        (Entity, &UnitPath, &PathStatus, Option<&OnGrid>),
        (With<PathRequest>, With<GridCell>),
    >,
) {
    let w = &mut *watch;
    for (e, cell, path, on) in &followers {
        let key = on.map(|o| o.0);
        let before = w.last_cell.insert(e, (cell.0, key));
        let Some((before, before_key)) = before else {
            continue;
        };
        if w.teleported.contains(&e) || before_key != key || before == cell.0 {
            continue;
        }
        w.moves_checked += 1;
        let Some((g, layout)) = grid_of(on, (&grid, &world), &maps) else {
            w.violations.push(format!(
                "tick {}: {e} walked from {before:?} to {:?} on a grid that is gone",
                w.tick, cell.0
            ));
            continue;
        };
        *w.cover
            .moves_by_layout
            .entry(format!("{layout:?}"))
            .or_default() += 1;
        let Some(d) = step_between(before, cell.0) else {
            w.violations.push(format!(
                "tick {}: {e} jumped from {before:?} to {:?} in one tick",
                w.tick, cell.0
            ));
            continue;
        };
        if !layout.can_step(g.grid(), before, d, path.mobility, path.size) {
            w.violations.push(format!(
                "tick {}: {e} (size {}) walked {d:?} from {before:?} to {:?} illegally on {layout:?}",
                w.tick, path.size, cell.0
            ));
        }
    }
    w.teleported.clear();

    // What waits on each grid after this tick's `Solve` (the default grid's share is
    // what the maps leave of the sum: it counts the plans of gone maps, so it says
    // "waiting" more often, never less).
    let on_maps: u32 = maps.iter().map(|(_, m)| m.diagnostics().waiting).sum();
    let default_waiting = diag.waiting.saturating_sub(on_maps);
    let mut stale_now = HashMap::new();
    for (e, path, status, on) in &units {
        // A failed unit keeps its last path (and is planned again when things
        // change); an arrived one stands on its goal and walks no further.
        if matches!(status, PathStatus::NoPath(_) | PathStatus::Arrived) {
            continue;
        }
        let Some((g, layout)) = grid_of(on, (&grid, &world), &maps) else {
            continue;
        };
        let Some((at, d)) = first_illegal_step(path, g, layout) else {
            continue;
        };
        // Answered this tick: stale (if ever) from now on.
        let since = match w.stale_since.get(&e) {
            Some(&t) if !w.answered_now.contains(&e) => t,
            _ => {
                w.cover.stale_paths += 1;
                w.tick
            }
        };
        stale_now.insert(e, since);
        let waiting = match on {
            None => default_waiting,
            Some(o) => maps.get(o.0).map_or(0, |(_, m)| m.diagnostics().waiting),
        };
        w.cover.stale_idle += u64::from(waiting == 0);
        if w.tick - since >= STALE_GRACE && waiting == 0 {
            w.violations.push(format!(
                "tick {}: {e} has kept a path whose step {d:?} from {at:?} is illegal on \
                 {layout:?} since tick {since} ({status:?}, size {}), and nothing waits",
                w.tick, path.size
            ));
        }
    }
    w.stale_since = stale_now;
    w.answered_now.clear();
}

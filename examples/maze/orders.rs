//! The orders scenario (`--orders SECS`): as in a strategy game, every unit walks to a
//! far goal of its own and gets a new one every `SECS` seconds, each unit on its own
//! beat. Routes run to hundreds of steps; the plugin plans them 56 steps at a time and
//! asks for the next segment itself when the current one is about to run out
//! ([`PathingSettings::replan_margin`]), so the game only gives the orders.
//!
//! The game keeps its own account of the requests, to check the plugin's: a request is
//! made when an order is given, or when a unit's segment is about to run out (the
//! plugin's rule, with the margin read from its settings); it is answered by a
//! [`PathFound`] or [`PathFailed`] for the unit. Headless runs print the account
//! ([`OrderStats`]).

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use rand::RngExt;
use rand::rngs::StdRng;

use crate::layout::Maze;
use crate::options::Options;
use crate::simulation::{Art, MazeRng, TILE_PX};

/// A unit under orders.
#[derive(Component, Clone, Copy, Debug)]
pub(crate) struct Unit {
    /// Ticks between two orders.
    every: u64,
    /// The tick of the next order.
    next_order: u64,
    /// The request waiting for its answer: the tick it was made, and what made it.
    asked: Option<(u64, Asked)>,
    /// Ticks the unit has stood at the end of a segment, waiting for the next one.
    stalled: u64,
}

impl Unit {
    /// Whether a request of the unit waits for its answer.
    pub(crate) fn is_waiting(&self) -> bool {
        self.asked.is_some()
    }
}

/// What made a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    /// A new order: the game changed the unit's `PathRequest`.
    Order,
    /// The next segment of a long route: the plugin plans it unasked.
    Segment,
}

/// Where orders may send units: every floor cell (all reachable from each other), and
/// how far (Manhattan) a goal must be from the unit.
#[derive(Resource, Clone, Debug)]
pub(crate) struct Destinations {
    floor: Vec<Cell>,
    min_distance: u32,
}

impl Destinations {
    /// Goals at least a quarter of the map's width plus height away (512 cells on a
    /// 1024x1024 map).
    pub(crate) fn new(maze: &Maze) -> Self {
        Self {
            floor: maze.floor_cells().collect(),
            min_distance: (maze.width + maze.height) / 4,
        }
    }

    /// A random floor cell far from `from` (the farthest of a few tries if none is far
    /// enough).
    pub(crate) fn far_goal(&self, from: Cell, rng: &mut StdRng) -> Option<Cell> {
        let mut best = None;
        for _ in 0..64 {
            let c = *self
                .floor
                .get(rng.random_range(0..self.floor.len().max(1)))?;
            if c.manhattan(from) >= self.min_distance {
                return Some(c);
            }
            best = best.max(Some((c.manhattan(from), c)));
        }
        best.map(|(_, c)| c)
    }
}

/// The game's account of the requests since the start. Made = answered + replaced +
/// waiting, checked by [`OrderStats::lost`]; the waiting count is also checked against
/// the plugin's every tick.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OrderStats {
    /// Fixed ticks run.
    pub(crate) tick: u64,
    /// Orders given.
    pub(crate) orders: u64,
    /// Next segments asked for (a long route's segment about to run out).
    pub(crate) segments: u64,
    /// Requests answered with a path to the goal.
    pub(crate) found: u64,
    /// Requests answered with a path towards the goal that cannot reach it.
    pub(crate) partial: u64,
    /// Requests answered with no path.
    pub(crate) failed: u64,
    /// Requests replaced by a new order before their answer came (that answer then
    /// serves the new order).
    pub(crate) replaced: u64,
    /// Answers that no request of the game accounts for.
    pub(crate) unasked: u64,
    /// Ticks from request to answer (0: answered in the tick it was made): the sum and
    /// the longest.
    pub(crate) wait_sum: u64,
    pub(crate) longest_wait: u64,
    /// Requests waiting for an answer now, and the most after any tick.
    pub(crate) waiting: u64,
    pub(crate) most_waiting: u64,
    /// Ticks after which the game and the plugin counted different numbers of waiting
    /// requests.
    pub(crate) disagreements: u64,
    /// Unit-ticks spent standing at the end of a segment, waiting for the next one, and
    /// the longest such stand.
    pub(crate) stalled: u64,
    pub(crate) longest_stall: u64,
}

impl OrderStats {
    pub(crate) fn made(&self) -> u64 {
        self.orders + self.segments
    }

    pub(crate) fn answered(&self) -> u64 {
        self.found + self.partial + self.failed
    }

    /// Requests neither answered, nor replaced, nor waiting.
    pub(crate) fn lost(&self) -> i64 {
        self.made() as i64 - (self.answered() + self.replaced + self.waiting) as i64
    }
}

/// Gives the orders and checks their answers.
pub(crate) struct OrdersPlugin;

impl Plugin for OrdersPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<OrderStats>().add_systems(
            FixedUpdate,
            (
                give_orders.before(PathingSystems::Collect),
                read_answers
                    .after(PathingSystems::Solve)
                    .before(PathingSystems::Move),
            ),
        );
    }
}

/// Spawns `n` units on random floor cells, each with an order every `every` ticks, the
/// first at a random tick of the first `every`. They stand still until then.
pub(crate) fn spawn_units(
    commands: &mut Commands,
    destinations: &Destinations,
    n: usize,
    every: u64,
    rng: &mut StdRng,
    art: Option<&Art>,
) {
    let floor = &destinations.floor;
    if floor.is_empty() {
        return;
    }
    for _ in 0..n {
        let cell = floor[rng.random_range(0..floor.len())];
        let mut unit = commands.spawn((
            Unit {
                every,
                next_order: rng.random_range(1..=every),
                asked: None,
                stalled: 0,
            },
            GridCell(cell),
            UnitPath {
                at: cell,
                mobility: Mobility::FLOOR_ONLY,
                ..default()
            },
            PathFollower::new(rng.random_range(3.0..5.5)).smoothed(),
            Transform::from_xyz(0.0, 0.0, 2.0),
        ));
        if let Some(art) = art {
            unit.insert(Sprite {
                image: art.chaser.clone(),
                custom_size: Some(Vec2::splat(TILE_PX)),
                color: Color::hsl(rng.random_range(150.0..210.0), 0.8, 0.7),
                ..default()
            });
        }
    }
}

/// Gives the orders due this tick, and notes the units whose segment is about to run
/// out (the plugin plans their next one in this tick's collection).
#[expect(clippy::type_complexity, reason = "a system's query")]
fn give_orders(
    mut commands: Commands,
    mut stats: ResMut<OrderStats>,
    mut rng: ResMut<MazeRng>,
    destinations: Res<Destinations>,
    settings: Res<PathingSettings>,
    options: Option<Res<Options>>,
    mut units: Query<(
        Entity,
        &mut Unit,
        &GridCell,
        &UnitPath,
        &PathFollower,
        Option<&mut PathRequest>,
        Option<&PathStatus>,
    )>,
) {
    stats.tick += 1;
    let tick = stats.tick;
    for (entity, mut unit, cell, path, follower, request, status) in &mut units {
        if tick >= unit.next_order
            && let Some(goal) = destinations.far_goal(cell.0, &mut rng.0)
        {
            unit.next_order = tick + unit.every;
            if unit.asked.is_some() {
                stats.replaced += 1;
            }
            unit.asked = Some((tick, Asked::Order));
            stats.orders += 1;
            match request {
                // Written even when the goal is the same: a new order plans again.
                Some(mut request) => request.goal = PathGoal::Cell(goal),
                None => {
                    let connectivity = options
                        .as_ref()
                        .map_or(Connectivity::Four, |o| o.connectivity());
                    commands
                        .entity(entity)
                        .insert(PathRequest::to_cell(goal).with_connectivity(connectivity));
                }
            }
        } else if unit.asked.is_none()
            && matches!(status, Some(PathStatus::Found | PathStatus::Partial(_)))
            && path.continues
            && path.remaining() <= settings.replan_margin
        {
            unit.asked = Some((tick, Asked::Segment));
            stats.segments += 1;
        }
        if path.continues && path.is_finished() && !follower.is_moving() {
            unit.stalled += 1;
            stats.stalled += 1;
            stats.longest_stall = stats.longest_stall.max(unit.stalled);
        } else {
            unit.stalled = 0;
        }
    }
}

/// Matches this tick's answers to the requests waiting for them, and checks that the
/// game and the plugin count the same requests waiting.
fn read_answers(
    mut stats: ResMut<OrderStats>,
    mut found: MessageReader<PathFound>,
    mut failed: MessageReader<PathFailed>,
    diagnostics: Res<PathingDiagnostics>,
    mut units: Query<&mut Unit>,
) {
    let tick = stats.tick;
    let answers = found
        .read()
        .map(|f| (f.entity, if f.complete { 0 } else { 1 }))
        .chain(failed.read().map(|f| (f.entity, 2)));
    for (entity, kind) in answers {
        let Ok(mut unit) = units.get_mut(entity) else {
            continue; // not a unit under orders (the player, a chaser)
        };
        let Some((asked, _)) = unit.asked.take() else {
            stats.unasked += 1;
            continue;
        };
        let wait = tick - asked;
        stats.wait_sum += wait;
        stats.longest_wait = stats.longest_wait.max(wait);
        match kind {
            0 => stats.found += 1,
            1 => stats.partial += 1,
            _ => stats.failed += 1,
        }
    }
    stats.waiting = units.iter().filter(|u| u.is_waiting()).count() as u64;
    stats.most_waiting = stats.most_waiting.max(stats.waiting);
    if stats.waiting != u64::from(diagnostics.waiting) {
        stats.disagreements += 1;
    }
}

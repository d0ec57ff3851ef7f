//! The hostile game's world: its maps and their shapes, units, requests and settings.

use super::*;

pub(crate) fn kind_of(t: TileTextureIndex) -> TileKind {
    TileKind::new((t.0 % 4) as u8).unwrap()
}

/// A kind `mobility` cannot enter, if there is one.
pub(crate) fn wall_for(mobility: Mobility) -> Option<TileKind> {
    (0..4)
        .filter_map(TileKind::new)
        .find(|&k| !mobility.is_passable(k))
}

pub(crate) struct Game {
    pub(crate) rng: StdRng,
    /// The default grid's layers.
    pub(crate) maps: Vec<Entity>,
    /// Maps with a grid of their own (`PathingMap` on the tilemap), oldest first.
    pub(crate) grid_maps: Vec<Entity>,
    /// The next of [`MAP_TYPES`] a map with a grid of its own takes.
    pub(crate) next_type: usize,
    /// Every how many ticks such a map comes (and, past [`MAX_GRID_MAPS`], the oldest
    /// goes): every layout comes at least once in a run.
    pub(crate) map_period: u64,
    pub(crate) tick: u64,
    pub(crate) tiles: Vec<Entity>,
    pub(crate) units: Vec<Entity>,
    /// Chased entities, with the grid they are on.
    pub(crate) targets: Vec<(Entity, Option<Entity>)>,
    /// Requests taken off units, to be put back.
    pub(crate) removed: Vec<(Entity, PathRequest)>,
    /// Units whose cell was taken off, with that cell.
    pub(crate) cellless: Vec<(Entity, Cell)>,
    /// The size, anchor and transform maps share unless chaos picks their own: layers
    /// that disagree leave the grid empty (every request fails with
    /// `LayersMismatch`), so they mostly agree and most answers come from a solver.
    pub(crate) shape: Shape,
}

/// What the layers of a grid must agree on (besides their grid and tile sizes, fixed).
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) size: TilemapSize,
    pub(crate) anchor: TilemapAnchor,
    pub(crate) transform: Transform,
}

/// Gives every map the shared shape again (a new `TileStorage` where the size
/// changes): the layers agree until chaos strikes again.
pub(crate) fn reshape_all(app: &mut App, g: &Game) {
    let Shape {
        size,
        anchor,
        transform,
    } = g.shape;
    for &map in &g.maps {
        let mut e = app.world_mut().entity_mut(map);
        if e.get::<TilemapSize>() != Some(&size) {
            e.insert((size, TileStorage::empty(size)));
        }
        e.insert((anchor, transform));
    }
}

/// Chaos: a shape of its own for one map (or a new one for all).
pub(crate) fn random_shape(rng: &mut StdRng) -> Shape {
    Shape {
        size: random_size(rng),
        anchor: if rng.random_bool(0.5) {
            TilemapAnchor::Center
        } else {
            TilemapAnchor::None
        },
        transform: Transform::from_xyz(rng.random_range(-50.0..50.0), 0.0, 0.0),
    }
}

impl Game {
    /// A cell, mostly inside the maps (which are at most 40x40).
    pub(crate) fn random_cell(&mut self, side: i32) -> Cell {
        let (lo, hi) = if self.rng.random_bool(0.05) {
            (-2, side + 2)
        } else {
            (0, side / 2)
        };
        Cell::new(self.rng.random_range(lo..hi), self.rng.random_range(lo..hi))
    }

    /// A request for a unit on grid `on` (hex maps take size 1 mostly: they have no
    /// footprints, bigger units are refused there).
    pub(crate) fn random_request(&mut self, on: Option<Entity>, hex: bool) -> PathRequest {
        // Mostly a target on the unit's own grid (one on another fails at once).
        let anywhere = self.rng.random_bool(0.1);
        let near: Vec<Entity> = self
            .targets
            .iter()
            .filter(|t| anywhere || t.1 == on)
            .map(|t| t.0)
            .collect();
        let goal = if !near.is_empty() && self.rng.random_bool(0.4) {
            PathGoal::Entity(near[self.rng.random_range(0..near.len())])
        } else {
            PathGoal::Cell(self.random_cell(40))
        };
        // Mostly 1: big footprints seldom fit these maps' goals.
        let size = match self.rng.random_range(0..20) {
            _ if hex && self.rng.random_bool(0.9) => 1,
            0..=13 => 1,
            14..=16 => 2,
            17 | 18 => 3,
            _ => 4,
        };
        let mut r = PathRequest::to_cell(Cell::default());
        r.goal = goal;
        r = r
            .with_mobility(MOBILITIES[self.rng.random_range(0..MOBILITIES.len())])
            .with_connectivity(if self.rng.random_bool(0.5) {
                Connectivity::Eight
            } else {
                Connectivity::Four
            })
            .with_mode(
                [SearchMode::Auto, SearchMode::AStar, SearchMode::Greedy]
                    [self.rng.random_range(0..3)],
            );
        if self.rng.random_bool(0.1) {
            r = r.with_max_expansions(self.rng.random_range(0..500));
        }
        r.with_size(size)
    }

    /// A random unit that `fits` (a few tries).
    pub(crate) fn pick_unit(
        &mut self,
        app: &App,
        fits: impl Fn(&App, Entity) -> bool,
    ) -> Option<Entity> {
        (0..40).find_map(|_| {
            let e = *self
                .units
                .get(self.rng.random_range(0..self.units.len().max(1)))?;
            fits(app, e).then_some(e)
        })
    }

    /// The grid `unit` walks on, if it is there: its key, the grid and its layout.
    pub(crate) fn unit_grid(
        app: &App,
        unit: Entity,
    ) -> Option<(Option<Entity>, &PathingGrid, MapLayout)> {
        match app.world().get::<OnGrid>(unit) {
            None => Some((
                None,
                app.world().resource::<PathingGrid>(),
                app.world().resource::<GridTransform>().layout,
            )),
            Some(o) => {
                let map = app.world().get::<PathingMap>(o.0)?;
                Some((Some(o.0), map.grid(), map.transform.layout))
            }
        }
    }

    /// Sets `cell` of grid `key` to `kind`: now (before `Collect`) or, half the time,
    /// by the system between `Collect` and `Solve`. Whether the cell is in the grid and
    /// of another kind now.
    pub(crate) fn set_cell(
        &mut self,
        app: &mut App,
        key: Option<Entity>,
        cell: Cell,
        kind: TileKind,
    ) -> bool {
        let was = match key {
            None => app.world().resource::<PathingGrid>().get(cell),
            Some(m) => app
                .world()
                .get::<PathingMap>(m)
                .and_then(|map| map.grid().get(cell)),
        };
        if was.is_none_or(|k| k == kind) {
            return false;
        }
        if self.rng.random_bool(0.5) {
            app.world_mut()
                .resource_mut::<Watch>()
                .between
                .push((key, cell, kind));
            return true;
        }
        match key {
            None => app
                .world_mut()
                .resource_mut::<PathingGrid>()
                .set(cell, kind)
                .is_ok(),
            Some(m) => app
                .world_mut()
                .get_mut::<PathingMap>(m)
                .is_some_and(|mut map| map.grid_mut().set(cell, kind).is_ok()),
        }
    }
}

/// Mostly 20 to 40 cells a side; sometimes none.
pub(crate) fn random_size(rng: &mut StdRng) -> TilemapSize {
    if rng.random_bool(0.05) {
        TilemapSize::new(rng.random_range(0..3), rng.random_range(0..3))
    } else {
        TilemapSize::new(rng.random_range(20..41), rng.random_range(20..41))
    }
}

/// A layer of the default grid: a square map of the shared `shape`, or (one time in
/// ten) of its own.
pub(crate) fn spawn_map(
    app: &mut App,
    rng: &mut StdRng,
    tiles: &mut Vec<Entity>,
    shape: Shape,
) -> Entity {
    let shape = if rng.random_bool(0.1) {
        random_shape(rng)
    } else {
        shape
    };
    let map = app.world_mut().spawn(TilemapType::Square).id();
    fill_map(app, rng, tiles, map, shape);
    map
}

/// A map of `map_type` mirrored into a grid of its own (a `PathingMap` on it), smaller
/// than the default grid's.
pub(crate) fn spawn_grid_map(
    app: &mut App,
    rng: &mut StdRng,
    tiles: &mut Vec<Entity>,
    map_type: TilemapType,
) -> Entity {
    let shape = Shape {
        size: TilemapSize::new(rng.random_range(12..29), rng.random_range(12..29)),
        ..random_shape(rng)
    };
    let map = app
        .world_mut()
        .spawn((map_type, PathingMap::default()))
        .id();
    fill_map(app, rng, tiles, map, shape);
    map
}

/// Makes `map` a mirrored tilemap of `shape`, nine tiles in ten there.
pub(crate) fn fill_map(
    app: &mut App,
    rng: &mut StdRng,
    tiles: &mut Vec<Entity>,
    map: Entity,
    shape: Shape,
) {
    let Shape {
        size,
        anchor,
        transform,
    } = shape;
    app.world_mut().entity_mut(map).insert((
        size,
        TilemapGridSize { x: 16.0, y: 16.0 },
        TilemapTileSize { x: 16.0, y: 16.0 },
        anchor,
        TileStorage::empty(size),
        transform,
        PathingTilemap::new(kind_of),
    ));
    for y in 0..size.y {
        for x in 0..size.x {
            if rng.random_bool(0.9) {
                let texture = if rng.random_bool(0.2) { 1 } else { 0 };
                let tile = app
                    .world_mut()
                    .spawn(TileBundle {
                        position: TilePos::new(x, y),
                        texture_index: TileTextureIndex(texture),
                        tilemap_id: TilemapId(map),
                        ..default()
                    })
                    .id();
                tiles.push(tile);
            }
        }
    }
}

pub(crate) fn random_settings(rng: &mut StdRng) -> PathingSettings {
    let (budget, time_cap) = match rng.random_range(0..5) {
        0 => (PathingBudget::Expansions(0), None),
        // Pulling paths straight is charged too: with less, a tick serves only a
        // path or two.
        1 => (PathingBudget::Expansions(rng.random_range(1..30_000)), None),
        2 => (
            PathingBudget::Expansions(rng.random_range(30_000..300_000)),
            None,
        ),
        // Half of them a cap of zero: every whole-grid search longer than a part
        // pauses, to go on at the next tick.
        3 => (
            PathingBudget::Unlimited,
            Some(core::time::Duration::from_micros(if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(0..300)
            })),
        ),
        _ => (PathingBudget::Unlimited, None),
    };
    PathingSettings {
        budget,
        time_cap,
        field_threshold: rng.random_range(0..12),
        max_fields: rng.random_range(0..5),
        window_distance: rng.random_range(0..60),
        max_expansions: if rng.random_bool(0.2) {
            rng.random_range(0..2_000)
        } else {
            u32::MAX
        },
        replan_margin: rng.random_range(0..60),
        retarget_interval: rng.random_range(0..5),
        retry_interval: rng.random_range(0..40),
        crowd_stuck_after: rng.random_range(0..200),
        parallel_min_batch: rng.random_range(0..80),
        threads: rng.random_range(0..4),
        // 0 is taken as 1: tasks then wait for the one solver.
        whole_grid_solvers: rng.random_range(0..3),
        landmarks: if rng.random_bool(0.3) {
            rng.random_range(1..6)
        } else {
            0
        },
        jump_distances: rng.random_bool(0.3),
        straight_routes: rng.random_bool(0.7),
        // One tilemap: every rule gives its tiles' kinds.
        layer_rule: LayerRule::default(),
    }
}

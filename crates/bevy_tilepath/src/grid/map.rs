//! A grid of its own, on an entity: one per map when a game has several.

use bevy::prelude::*;
use tilepath::Grid;

use super::{GridTransform, PathingGrid};
use crate::{LayerRule, PathingDiagnostics};

/// A pathing grid of its own, on an entity: a floor of a dungeon, an island, a level
/// kept loaded. Units walk on it with [`OnGrid`](crate::OnGrid) pointing at the entity;
/// units without `OnGrid` walk on the default grid, the [`PathingGrid`] resource.
///
/// Put it on a `bevy_ecs_tilemap` tilemap that has a
/// [`PathingTilemap`](crate::PathingTilemap) to mirror that map (and the layers that
/// name it with [`PathingTilemap::on_grid`](crate::PathingTilemap::on_grid)) into it, or
/// on any entity and fill it yourself through [`grid_mut`](Self::grid_mut).
///
/// Every grid has its own change log, waiting requests, distance fields, reachability
/// and [diagnostics](Self::diagnostics); requests never cross grids. (The plugin writes
/// the component every tick, so `Changed<PathingMap>` says little.) Despawning the
/// entity (or removing this component) fails the requests of its units with
/// [`NoPathReason::GridMissing`](crate::NoPathReason::GridMissing).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_tilepath::prelude::*;
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PathingPlugin::default()));
/// let island = Grid::from_ascii("....\n.##.\n....", |c| {
///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
/// })
/// .unwrap();
/// let island = app.world_mut().spawn(PathingMap::from_grid(island)).id();
/// let unit = app
///     .world_mut()
///     .spawn((
///         GridCell(Cell::new(0, 1)),
///         OnGrid(island),
///         PathRequest::to_cell(Cell::new(3, 1)),
///     ))
///     .id();
/// app.world_mut().run_schedule(FixedUpdate); // one pathing tick
/// assert_eq!(app.world().get::<PathStatus>(unit), Some(&PathStatus::Found));
/// // The default grid (the `PathingGrid` resource) is still empty: nothing crossed.
/// assert!(app.world().resource::<PathingGrid>().is_empty());
/// ```
#[derive(Component, Reflect, Default)]
#[reflect(Component, Default)]
pub struct PathingMap {
    /// The grid (not reflected).
    #[reflect(ignore)]
    grid: PathingGrid,
    /// Where its cells are in the world. The mirror sets it from the tilemap; without
    /// a tilemap set it yourself.
    pub transform: GridTransform,
    /// How the tilemaps mirrored into this grid (its layers) combine into each cell's
    /// kind. Default: [`LayerRule::Highest`].
    pub layer_rule: LayerRule,
    /// What the plugin did on this grid in the last tick (its share of the
    /// [`PathingDiagnostics`] resource, which adds up every grid).
    diagnostics: PathingDiagnostics,
}

impl PathingMap {
    /// A map whose grid is `grid`, cell `(x, y)` centred at world `(x, y)`.
    #[must_use]
    pub fn from_grid(grid: Grid) -> Self {
        Self {
            grid: PathingGrid::new(grid),
            ..default()
        }
    }

    /// With this rule combining its tilemap layers.
    #[must_use]
    pub fn with_layer_rule(mut self, rule: LayerRule) -> Self {
        self.layer_rule = rule;
        self
    }

    /// With this placement in the world.
    #[must_use]
    pub fn with_transform(mut self, transform: GridTransform) -> Self {
        self.transform = transform;
        self
    }

    /// The grid, with its change log.
    #[must_use]
    pub fn grid(&self) -> &PathingGrid {
        &self.grid
    }

    /// The grid, to edit: every edit is recorded as on the [`PathingGrid`] resource.
    pub fn grid_mut(&mut self) -> &mut PathingGrid {
        &mut self.grid
    }

    /// What the plugin did on this grid in the last tick.
    #[must_use]
    pub fn diagnostics(&self) -> &PathingDiagnostics {
        &self.diagnostics
    }

    pub(crate) fn set_diagnostics(&mut self, diagnostics: PathingDiagnostics) {
        self.diagnostics = diagnostics;
    }
}

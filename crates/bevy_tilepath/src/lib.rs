#![doc = include_str!("../README.md")]

mod arrival;
mod crowd;
#[cfg(feature = "debug")]
mod debug;
mod diagnostics;
mod follow;
mod grid;
mod layer_rule;
mod messages;
mod plan;
mod reachability;
mod settings;
#[cfg(feature = "tilemap")]
mod tilemap;
mod unit;

use bevy::app::FixedUpdate;
use bevy::diagnostic::{Diagnostic, RegisterDiagnostic};
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

pub use crowd::{Occupancy, Solid};
#[cfg(feature = "debug")]
pub use debug::PathingDebug;
pub use diagnostics::PathingDiagnostics;
pub use follow::PathFollower;
pub use grid::{ChangeCursor, Changes, GridTransform, MapLayout, PathingGrid, PathingMap};
pub use layer_rule::LayerRule;
pub use messages::{PathArrived, PathFailed, PathFound};
pub use reachability::{IfBlocked, Reachability, Walker};
pub use settings::{PathingBudget, PathingSettings};
#[cfg(feature = "tilemap")]
pub use tilemap::{PathTile, PathingTilemap, cell_to_tile_pos, tile_pos_to_cell};
pub use tilepath;
pub use unit::{
    GridCell, NoPathReason, OnGrid, PathGoal, PathRequest, PathStatus, SearchMode, UnitPath,
    Waypoints,
};

/// Everything a game needs: `use bevy_tilepath::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "debug")]
    pub use crate::PathingDebug;
    pub use crate::{
        GridCell, GridTransform, LayerRule, MapLayout, NoPathReason, Occupancy, OnGrid,
        PathArrived, PathFailed, PathFollower, PathFound, PathGoal, PathRequest, PathStatus,
        PathingBudget, PathingDiagnostics, PathingGrid, PathingMap, PathingPlugin, PathingSettings,
        PathingSystems, Reachability, SearchMode, Solid, UnitPath, Walker, Waypoints,
    };
    #[cfg(feature = "tilemap")]
    pub use crate::{PathTile, PathingTilemap};
    pub use tilepath::prelude::*;
}

/// The pathing systems, in run order (chained). Order your own systems against them,
/// e.g. `.after(PathingSystems::Solve)` to read fresh paths.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathingSystems {
    /// Mirror the tilemaps into their grids ([`PathingGrid`], [`PathingMap`]).
    SyncGrid,
    /// Queue the units whose paths need planning.
    Collect,
    /// Serve queued requests under the budget; publish diagnostics.
    Solve,
    /// Move [`PathFollower`]s along their paths, [`Solid`] units together; mark the
    /// units that arrived ([`PathStatus::Arrived`], [`PathArrived`]).
    Move,
}

/// Adds batched grid pathfinding.
///
/// Runs in [`FixedUpdate`] by default. If the app's fixed timestep is still Bevy's
/// default (64 Hz) when the plugin is finished, it is set to 60 Hz; a timestep the
/// app chose itself is kept. Runtime knobs are in [`PathingSettings`].
#[derive(Clone, Debug)]
pub struct PathingPlugin {
    /// The schedule the pathing systems run in. Default: [`FixedUpdate`].
    pub schedule: InternedScheduleLabel,
}

impl Default for PathingPlugin {
    fn default() -> Self {
        Self {
            schedule: FixedUpdate.intern(),
        }
    }
}

impl PathingPlugin {
    /// Runs the pathing systems in `schedule` instead of [`FixedUpdate`].
    #[must_use]
    pub fn in_schedule(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Plugin for PathingPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<GridCell>()
            .register_type::<PathRequest>()
            .register_type::<PathGoal>()
            .register_type::<SearchMode>()
            .register_type::<UnitPath>()
            .register_type::<PathStatus>()
            .register_type::<NoPathReason>()
            .register_type::<PathFollower>()
            .register_type::<PathFound>()
            .register_type::<PathFailed>()
            .register_type::<PathArrived>()
            .register_type::<PathingSettings>()
            .register_type::<PathingBudget>()
            .register_type::<PathingDiagnostics>()
            .register_type::<GridTransform>()
            .register_type::<OnGrid>()
            .register_type::<PathingMap>()
            .register_type::<LayerRule>()
            .register_type::<Solid>();
        #[cfg(feature = "tilemap")]
        app.register_type::<PathingTilemap>()
            .register_type::<PathTile>();
        #[cfg(feature = "debug")]
        app.register_type::<PathingDebug>();
        app.init_resource::<PathingSettings>()
            .init_resource::<PathingGrid>()
            .init_resource::<GridTransform>()
            .init_resource::<PathingDiagnostics>()
            .init_resource::<plan::Planner>()
            .init_resource::<crowd::Crowds>()
            .add_message::<PathFound>()
            .add_message::<PathFailed>()
            .add_message::<PathArrived>()
            .register_diagnostic(
                Diagnostic::new(PathingDiagnostics::PATH_TIME_MS).with_suffix("ms"),
            )
            .register_diagnostic(Diagnostic::new(PathingDiagnostics::PATH_SERVED))
            .register_diagnostic(Diagnostic::new(PathingDiagnostics::PATH_WAITING))
            .register_diagnostic(Diagnostic::new(PathingDiagnostics::PATH_EXPANDED));

        app.configure_sets(
            self.schedule,
            (
                PathingSystems::SyncGrid,
                PathingSystems::Collect,
                PathingSystems::Solve,
                PathingSystems::Move,
            )
                .chain(),
        )
        .add_systems(
            self.schedule,
            (
                plan::collect::collect_requests.in_set(PathingSystems::Collect),
                (
                    plan::solve::solve_requests,
                    diagnostics::publish_diagnostics,
                )
                    .chain()
                    .in_set(PathingSystems::Solve),
                (
                    crowd::step_crowds,
                    follow::follow_paths,
                    arrival::mark_arrivals,
                )
                    .chain()
                    .in_set(PathingSystems::Move),
                // Beside the followers: both only read the crowds.
                (
                    crowd::plan_crowds_on_main.run_if(crowd::plan_on_main),
                    crowd::plan_crowds.run_if(not(crowd::plan_on_main)),
                )
                    .after(crowd::step_crowds)
                    .in_set(PathingSystems::Move),
            ),
        )
        .add_observer(plan::on_request_removed)
        .add_observer(crowd::note_departure)
        .add_observer(crowd::note_new_map);

        #[cfg(feature = "tilemap")]
        {
            // Every tile remembers where it was mirrored, so a moved tile's old cell is
            // written again. Tiles spawned before this (it then fails) get it later.
            let _ = app.world_mut().try_register_required_components::<
                bevy_ecs_tilemap::tiles::TilePos,
                tilemap::MirroredAt,
            >();
            app.init_resource::<tilemap::MirrorState>()
                .add_systems(
                    self.schedule,
                    (tilemap::maps::sync_tilemap, tilemap::tiles::sync_tiles)
                        .chain()
                        .in_set(PathingSystems::SyncGrid),
                )
                .add_observer(tilemap::tiles::on_tile_removed);
        }

        #[cfg(feature = "debug")]
        {
            app.init_resource::<PathingDebug>()
                // Headless apps (no gizmo plugin) simply draw nothing.
                .add_systems(
                    PostUpdate,
                    debug::draw_paths
                        .run_if(resource_exists::<bevy::gizmos::config::GizmoConfigStore>),
                );
        }
    }

    fn finish(&self, app: &mut App) {
        if let Some(mut fixed) = app.world_mut().get_resource_mut::<Time<Fixed>>()
            && fixed.timestep() == Time::<Fixed>::default().timestep()
        {
            fixed.set_timestep_hz(60.0);
        }
    }
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::reflect::{GetPath, ReflectFromReflect};

    /// Inspectors and scenes see the plugin's types: registered, and their fields
    /// readable and writable through reflection.
    #[test]
    fn plugin_types_are_reflected() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, PathingPlugin::default()));
        let registry = app.world().resource::<AppTypeRegistry>().clone();
        let registry = registry.read();
        for id in [
            core::any::TypeId::of::<GridCell>(),
            core::any::TypeId::of::<PathRequest>(),
            core::any::TypeId::of::<UnitPath>(),
            core::any::TypeId::of::<PathStatus>(),
            core::any::TypeId::of::<PathFollower>(),
            core::any::TypeId::of::<PathFound>(),
            core::any::TypeId::of::<PathFailed>(),
            core::any::TypeId::of::<PathingSettings>(),
            core::any::TypeId::of::<PathingDiagnostics>(),
            core::any::TypeId::of::<GridTransform>(),
        ] {
            assert!(registry.get(id).is_some(), "{id:?} not registered");
        }
        let mut request = PathRequest::to_cell(tilepath::Cell::new(3, 4));
        assert_eq!(request.path::<i32>("goal.0.y"), Ok(&4));
        *request.path_mut::<i32>("goal.0.x").unwrap() = 9;
        assert_eq!(request.goal, PathGoal::Cell(tilepath::Cell::new(9, 4)));
        // A value rebuilt from its reflection is equal.
        let settings = PathingSettings {
            budget: PathingBudget::Unlimited,
            time_cap: Some(core::time::Duration::from_micros(2500)),
            ..default()
        };
        let from = registry
            .get_type_data::<ReflectFromReflect>(core::any::TypeId::of::<PathingSettings>())
            .expect("FromReflect registered");
        let back = from.from_reflect(&settings).unwrap();
        assert_eq!(back.reflect_partial_eq(&settings), Some(true));
        let path = UnitPath::default();
        assert_eq!(
            path.path::<tilepath::Mobility>("mobility"),
            Ok(&tilepath::Mobility::ALL_PASSABLE)
        );
    }
}

//! Gizmos for the grid and units' paths (feature `debug`).

use bevy::prelude::*;
use tilepath::Mobility;

use crate::grid::Grids;
use crate::{OnGrid, UnitPath};

/// What the debug drawing shows. Toggle [`enabled`](Self::enabled) at run time.
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct PathingDebug {
    /// Draw at all. Default: `false`.
    pub enabled: bool,
    /// Draw at most this many paths a frame (drawing is the cost, not the paths).
    /// Default: 500.
    pub max_paths: usize,
    /// Outline the cells blocked for this mobility. Default: `None`.
    pub blocked_for: Option<Mobility>,
    /// Colour of the paths.
    pub path_color: Color,
    /// Colour of the blocked-cell outlines.
    pub blocked_color: Color,
}

impl Default for PathingDebug {
    fn default() -> Self {
        Self {
            enabled: false,
            max_paths: 500,
            blocked_for: None,
            path_color: Color::srgba(1.0, 0.85, 0.2, 0.8),
            blocked_color: Color::srgba(1.0, 0.2, 0.2, 0.5),
        }
    }
}

pub(crate) fn draw_paths(
    settings: Res<PathingDebug>,
    grids: Grids,
    paths: Query<(&UnitPath, Option<&OnGrid>)>,
    mut gizmos: Gizmos,
) {
    if !settings.enabled {
        return;
    }
    for (path, on_grid) in paths.iter().take(settings.max_paths) {
        let Some((_, world)) = grids.get(on_grid.map(|g| g.0)) else {
            continue;
        };
        let start = core::iter::once(path.at);
        gizmos.linestrip_2d(
            start
                .chain(path.cells_ahead())
                .map(|c| world.footprint_to_world(c, path.size)),
            settings.path_color,
        );
        // A unit bigger than one cell: its footprint where it stands.
        if path.size > 1 {
            gizmos.rect_2d(
                world.footprint_to_world(path.at, path.size),
                world.cell_size * f32::from(path.size),
                settings.path_color,
            );
        }
    }
    let Some(mobility) = settings.blocked_for else {
        return;
    };
    for (_, grid, world) in grids.iter() {
        let g = grid.grid();
        for y in 0..g.height() as i32 {
            for x in 0..g.width() as i32 {
                let cell = tilepath::Cell::new(x, y);
                if !g.is_passable(cell, mobility) {
                    gizmos.rect_2d(
                        world.cell_to_world(cell),
                        world.cell_size * 0.9,
                        settings.blocked_color,
                    );
                }
            }
        }
    }
}

//! Gizmos for the grid and units' paths (feature `debug`).

use bevy::prelude::*;
use tilepath::{Cell, Mobility};

use crate::grid::Grids;
use crate::{GridTransform, MapLayout, OnGrid, UnitPath};

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
        if path.waypoints.is_empty() {
            let start = core::iter::once(path.at);
            gizmos.linestrip_2d(
                start
                    .chain(path.cells_ahead())
                    .map(|c| world.footprint_to_world(c, path.size)),
                settings.path_color,
            );
        } else {
            // A path pulled straight: its route, from where the path began.
            let start = tilepath::Waypoint::centre_of(path.waypoints.start());
            gizmos.linestrip_2d(
                core::iter::once(start)
                    .chain(path.waypoints.points())
                    .map(|w| {
                        let (x, y) = w.position(1);
                        world.point_to_world(Vec2::new(x, y), path.size)
                    }),
                settings.path_color,
            );
        }
        // A unit bigger than one cell: its footprint where it stands.
        if path.size > 1 {
            gizmos.linestrip_2d(outline(world, path.at, path.size, 1.0), settings.path_color);
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
                    gizmos.linestrip_2d(outline(world, cell, 1, 0.9), settings.blocked_color);
                }
            }
        }
    }
}

/// The closed outline of the `size x size` footprint at `cell` in the world, shrunk
/// about its centre by `scale`: a square or diamond (its 4 corners), or a hex (its 6).
fn outline(world: &GridTransform, cell: Cell, size: u8, scale: f32) -> [Vec2; 7] {
    let centre = world.footprint_to_world(cell, size);
    let g = world.cell_size / 2.0;
    let corners: [Vec2; 6] = match world.layout {
        MapLayout::HexRow | MapLayout::HexRowEven | MapLayout::HexRowOdd => [
            Vec2::new(0.0, g.y),
            Vec2::new(-g.x, g.y / 2.0),
            Vec2::new(-g.x, -g.y / 2.0),
            Vec2::new(0.0, -g.y),
            Vec2::new(g.x, -g.y / 2.0),
            Vec2::new(g.x, g.y / 2.0),
        ],
        MapLayout::HexColumn | MapLayout::HexColumnEven | MapLayout::HexColumnOdd => [
            Vec2::new(g.x, 0.0),
            Vec2::new(g.x / 2.0, g.y),
            Vec2::new(-g.x / 2.0, g.y),
            Vec2::new(-g.x, 0.0),
            Vec2::new(-g.x / 2.0, -g.y),
            Vec2::new(g.x / 2.0, -g.y),
        ],
        MapLayout::Square | MapLayout::IsoDiamond | MapLayout::IsoStaggered => {
            // Centres are affine in the cell: the footprint's sides follow the cell axes.
            let at = world.cell_to_world(cell);
            let half = f32::from(size) / 2.0;
            let ex = (world.cell_to_world(Cell::new(cell.x.wrapping_add(1), cell.y)) - at) * half;
            let ey = (world.cell_to_world(Cell::new(cell.x, cell.y.wrapping_add(1))) - at) * half;
            let (a, b) = (ex + ey, ex - ey);
            [a, -b, -a, b, a, a]
        }
    };
    let p = |i: usize| centre + corners[i] * scale;
    [p(0), p(1), p(2), p(3), p(4), p(5), p(0)]
}

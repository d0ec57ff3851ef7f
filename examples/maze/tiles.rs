//! The tiles' look on each layout: the square maze's own texture, or hexes and
//! diamonds drawn at startup in the same colours (three floors, two walls, in the
//! texture order of `layout::FLOORS` and `layout::WALLS`).

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;

use crate::simulation::TILE_PX;

/// The size of a tile and of its grid cell on `layout`: squares of `TILE_PX`, regular
/// hexes as wide (pointy-top) or as tall (flat-top) as that, diamonds twice as wide
/// as tall.
pub(crate) fn tile_size(layout: MapLayout) -> TilemapTileSize {
    let hex = (TILE_PX * 0.866).round();
    match layout {
        MapLayout::Square => TilemapTileSize::new(TILE_PX, TILE_PX),
        MapLayout::HexRow | MapLayout::HexRowEven | MapLayout::HexRowOdd => {
            TilemapTileSize::new(hex, TILE_PX)
        }
        MapLayout::HexColumn | MapLayout::HexColumnEven | MapLayout::HexColumnOdd => {
            TilemapTileSize::new(TILE_PX, hex)
        }
        MapLayout::IsoDiamond | MapLayout::IsoStaggered => {
            TilemapTileSize::new(2.0 * TILE_PX, TILE_PX)
        }
    }
}

/// The size the whole map takes in the world, from its corner tiles' centres.
pub(crate) fn map_extent(layout: MapLayout, width: u32, height: u32) -> Vec2 {
    let size = tile_size(layout);
    let grid = Vec2::new(size.x, size.y);
    let (w, h) = (width.saturating_sub(1), height.saturating_sub(1));
    let corners = [(0, 0), (w, 0), (0, h), (w, h)].map(|(x, y)| {
        let cell = layout.tile_to_cell(x, y);
        layout.cell_offset(cell, grid)
    });
    let min = corners.iter().fold(Vec2::MAX, |a, &c| a.min(c));
    let max = corners.iter().fold(Vec2::MIN, |a, &c| a.max(c));
    max - min + grid
}

/// Floor and wall colours (sRGB), lit and in shade.
const COLOURS: [[u8; 3]; 5] = [
    [62, 68, 62],
    [68, 74, 66],
    [55, 61, 57],
    [156, 66, 52],
    [116, 48, 42],
];

/// Whether pixel centre `(dx, dy)` (from the tile's centre, in units of its half size)
/// is inside the tile's shape, shrunk by `inset`.
fn inside(layout: MapLayout, dx: f32, dy: f32, inset: f32) -> bool {
    let (x, y) = (dx.abs() + inset, dy.abs() + inset);
    match layout {
        MapLayout::Square => x <= 1.0 && y <= 1.0,
        MapLayout::HexRow | MapLayout::HexRowEven | MapLayout::HexRowOdd => {
            x <= 1.0 && y <= 1.0 - 0.5 * x
        }
        MapLayout::HexColumn | MapLayout::HexColumnEven | MapLayout::HexColumnOdd => {
            y <= 1.0 && x <= 1.0 - 0.5 * y
        }
        MapLayout::IsoDiamond | MapLayout::IsoStaggered => x + y <= 1.0,
    }
}

/// The tile texture for `layout`: the maze's own for squares, else five shapes drawn
/// side by side.
pub(crate) fn texture(layout: MapLayout, assets: &AssetServer) -> Handle<Image> {
    if layout == MapLayout::Square {
        return assets.load("maze_tiles.png");
    }
    let size = tile_size(layout);
    let (w, h) = (size.x as u32, size.y as u32);
    let mut data = vec![0_u8; (5 * w * h * 4) as usize];
    for (t, colour) in COLOURS.iter().enumerate() {
        for py in 0..h {
            for px in 0..w {
                let dx = (px as f32 + 0.5) / w as f32 * 2.0 - 1.0;
                let dy = (py as f32 + 0.5) / h as f32 * 2.0 - 1.0;
                if !inside(layout, dx, dy, 0.0) {
                    continue;
                }
                // A darker rim, and a little grain.
                let rim = !inside(layout, dx, dy, 2.2 / h as f32);
                let grain = ((px * 7 + py * 13 + t as u32 * 5) % 9) as i32 - 4;
                let shade = if rim { -22 } else { grain };
                let i = ((py * 5 * w + t as u32 * w + px) * 4) as usize;
                for (c, &v) in colour.iter().enumerate() {
                    data[i + c] = (i32::from(v) + shade).clamp(0, 255) as u8;
                }
                data[i + 3] = 255;
            }
        }
    }
    let image = Image::new(
        Extent3d {
            width: 5 * w,
            height: h,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::all(),
    );
    assets.add(image)
}

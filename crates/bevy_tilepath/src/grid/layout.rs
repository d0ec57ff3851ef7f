//! Map layouts: where a tile of each `bevy_ecs_tilemap` layout sits in the grid and in
//! the world, and how its cells connect.

use bevy::prelude::*;
use tilepath::{Cell, Connectivity, Direction8, Grid, HexLayout, Mobility};

/// How a map's tiles are laid out: the one home of every layout's coordinates, so
/// that the mirror, the planner, the follower and a game's own code agree. It names
/// `bevy_ecs_tilemap`'s layouts (`TilemapType`) and converts from them.
///
/// **Cells.** A tile's cell has the tile's coordinates, except on `IsoStaggered`
/// maps: there the cell is the tile's diamond position `(x, x + y)`, so that the map
/// is a square grid sheared, and moves (corner rule, unit sizes, jump points) are the
/// square ones. Its grid is `w x (w + h - 1)` cells; the cells no tile maps to are
/// holes ([`holds`](Self::holds)): a request starting or ending in one fails as
/// outside the grid, and the mirror writes them with its
/// [`missing`](crate::PathingTilemap::missing) kind, which must be impassable for
/// your units (the default, `K3`, is for [`Mobility::FLOOR_ONLY`](tilepath::Mobility))
/// or they may cut across them. Use [`tile_to_cell`](Self::tile_to_cell) and
/// [`cell_to_tile`](Self::cell_to_tile) rather than copying coordinates.
///
/// **Neighbours.** Square and isometric maps move as the request says, 4- or
/// 8-connected (on staggered maps that is `bevy_ecs_tilemap`'s own staggered
/// neighbourhood, diagonals included). Hex maps always move to their 6 neighbours
/// ([`connectivity`](Self::connectivity)); unit sizes above 1 are not supported on
/// hex maps yet.
///
/// **World.** Cell centres are where `bevy_ecs_tilemap` draws the tiles (its
/// `center_in_world`), and the cell of a world position is the tile its
/// `from_world_pos` finds.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Default, Debug, PartialEq, Hash)]
pub enum MapLayout {
    /// Square tiles.
    #[default]
    Square,
    /// Pointy-top hexes in axial coordinates (`HexCoordSystem::Row`).
    HexRow,
    /// Pointy-top hexes, even rows shifted right (`HexCoordSystem::RowEven`).
    HexRowEven,
    /// Pointy-top hexes, odd rows shifted right (`HexCoordSystem::RowOdd`).
    HexRowOdd,
    /// Flat-top hexes in axial coordinates (`HexCoordSystem::Column`).
    HexColumn,
    /// Flat-top hexes, even columns shifted up (`HexCoordSystem::ColumnEven`).
    HexColumnEven,
    /// Flat-top hexes, odd columns shifted up (`HexCoordSystem::ColumnOdd`).
    HexColumnOdd,
    /// Isometric diamond (`IsoCoordSystem::Diamond`): square neighbours.
    IsoDiamond,
    /// Isometric staggered (`IsoCoordSystem::Staggered`): a sheared diamond map.
    IsoStaggered,
}

/// `sqrt(3) / 2`, as `bevy_ecs_tilemap` writes it.
const HALF_SQRT_3: f32 = 0.866_025_4;
/// `1 / sqrt(3)`.
const INV_SQRT_3: f32 = 0.577_350_26;
/// `2 / sqrt(3)`.
const DOUBLE_INV_SQRT_3: f32 = 1.154_700_5;

impl MapLayout {
    /// Every layout: square, the six hex tilemap types, the two isometric ones.
    pub const ALL: [MapLayout; 9] = [
        Self::Square,
        Self::HexRow,
        Self::HexRowEven,
        Self::HexRowOdd,
        Self::HexColumn,
        Self::HexColumnEven,
        Self::HexColumnOdd,
        Self::IsoDiamond,
        Self::IsoStaggered,
    ];

    /// The core's name for this hex layout, `None` for square and isometric maps.
    #[must_use]
    pub const fn hex(self) -> Option<HexLayout> {
        match self {
            Self::HexRow | Self::HexColumn => Some(HexLayout::Axial),
            Self::HexRowEven => Some(HexLayout::RowEven),
            Self::HexRowOdd => Some(HexLayout::RowOdd),
            Self::HexColumnEven => Some(HexLayout::ColumnEven),
            Self::HexColumnOdd => Some(HexLayout::ColumnOdd),
            Self::Square | Self::IsoDiamond | Self::IsoStaggered => None,
        }
    }

    /// How a unit that asked for `requested` moves on this map: hex maps always move
    /// to their 6 neighbours; the others as asked.
    #[must_use]
    pub const fn connectivity(self, requested: Connectivity) -> Connectivity {
        match self.hex() {
            Some(hex) => Connectivity::Hex(hex),
            None => requested,
        }
    }

    /// Whether a unit of `size x size` cells walking with `mobility` may step from
    /// `from` in direction `dir` on `grid`, a grid of this layout: the one step rule
    /// the [`PathFollower`](crate::PathFollower) checks every step with, and that every
    /// path the plugin hands out keeps. On square and isometric maps it is
    /// [`Grid::can_step_sized`] (the footprint's step, the footprints beside a
    /// diagonal's corner included); on hex maps [`Grid::can_step_with`] with the
    /// map's hex connectivity (one of the cell's 6 steps, no corner rule, and no
    /// footprints: `size` is not read).
    #[must_use]
    pub fn can_step(
        self,
        grid: &Grid,
        from: Cell,
        dir: Direction8,
        mobility: Mobility,
        size: u8,
    ) -> bool {
        match self.hex() {
            Some(hex) => grid.can_step_with(from, dir, mobility, Connectivity::Hex(hex)),
            None => grid.can_step_sized(from, dir, mobility, size),
        }
    }

    /// The size in cells of the grid for a map of `width x height` tiles, `None` if
    /// it does not fit a `u32`.
    #[must_use]
    pub fn grid_size(self, width: u32, height: u32) -> Option<(u32, u32)> {
        match self {
            // Tile (x, y) is cell (x, x + y): rows 0 ..= (w - 1) + (h - 1).
            Self::IsoStaggered if width > 0 && height > 0 => {
                Some((width, width.checked_add(height - 1)?))
            }
            _ => Some((width, height)),
        }
    }

    /// The cell of the tile at `(x, y)`.
    #[must_use]
    pub fn tile_to_cell(self, x: u32, y: u32) -> Cell {
        let (x, y) = (x as i32, y as i32);
        match self {
            Self::IsoStaggered => Cell::new(x, y.wrapping_add(x)),
            _ => Cell::new(x, y),
        }
    }

    /// The tile of `cell` on a map of `width x height` tiles, `None` if no tile of
    /// the map is there.
    #[must_use]
    pub fn cell_to_tile(self, cell: Cell, width: u32, height: u32) -> Option<(u32, u32)> {
        let (x, y) = match self {
            Self::IsoStaggered => (cell.x, cell.y.wrapping_sub(cell.x)),
            _ => (cell.x, cell.y),
        };
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        (x < width && y < height).then_some((x, y))
    }

    /// Whether a tile maps to `cell` on a grid of `width x height` cells built for this
    /// layout (on isometric staggered maps, the cells between the tiles' diagonal
    /// edges are holes that no tile maps to).
    #[must_use]
    pub fn holds(self, cell: Cell, width: u32, height: u32) -> bool {
        let inside = u32::try_from(cell.x).is_ok_and(|x| x < width)
            && u32::try_from(cell.y).is_ok_and(|y| y < height);
        match self {
            Self::IsoStaggered => {
                inside && {
                    let tiles_high = i64::from(height) - i64::from(width) + 1;
                    (0..tiles_high).contains(&(i64::from(cell.y) - i64::from(cell.x)))
                }
            }
            _ => inside,
        }
    }

    /// The centre of `cell` relative to the centre of cell `(0, 0)`, for tiles whose
    /// grid size (`TilemapGridSize`, times the map's scale) is `grid`.
    #[must_use]
    pub fn cell_offset(self, cell: Cell, grid: Vec2) -> Vec2 {
        let (x, y) = (cell.x as f32, cell.y as f32);
        match self {
            Self::Square => Vec2::new(x, y) * grid,
            Self::IsoDiamond | Self::IsoStaggered => Vec2::new(0.5 * (x + y), 0.5 * (y - x)) * grid,
            _ => {
                let (q, r) = self.to_axial(cell);
                let (q, r) = (q as f32, r as f32);
                if self.is_row_hex() {
                    Vec2::new(grid.x * (q + 0.5 * r), 0.75 * grid.y * r)
                } else {
                    Vec2::new(0.75 * grid.x * q, grid.y * (0.5 * q + r))
                }
            }
        }
    }

    /// The cell whose tile contains the point `offset` from the centre of cell
    /// `(0, 0)` (it may be outside the grid).
    #[must_use]
    pub fn cell_at(self, offset: Vec2, grid: Vec2) -> Cell {
        let p = offset / grid;
        match self {
            Self::Square => Cell::new((p.x + 0.5).floor() as i32, (p.y + 0.5).floor() as i32),
            Self::IsoDiamond | Self::IsoStaggered => {
                let (x, y) = (p.x - p.y, p.x + p.y);
                Cell::new((x + 0.5).floor() as i32, (y + 0.5).floor() as i32)
            }
            _ => {
                let (q, r) = if self.is_row_hex() {
                    let y = p.y / HALF_SQRT_3;
                    (p.x - INV_SQRT_3 * y, DOUBLE_INV_SQRT_3 * y)
                } else {
                    let x = p.x / HALF_SQRT_3;
                    (DOUBLE_INV_SQRT_3 * x, p.y - INV_SQRT_3 * x)
                };
                let (q, r) = round_cube(q, r);
                self.axial_cell(q, r)
            }
        }
    }

    /// Whether this is a pointy-top (row) hex layout.
    const fn is_row_hex(self) -> bool {
        matches!(self, Self::HexRow | Self::HexRowEven | Self::HexRowOdd)
    }

    /// The axial coordinates of a hex cell.
    fn to_axial(self, cell: Cell) -> (i32, i32) {
        self.hex()
            .map_or((cell.x, cell.y), |hex| hex.to_axial(cell))
    }

    /// The hex cell at axial `(q, r)`.
    fn axial_cell(self, q: i32, r: i32) -> Cell {
        self.hex()
            .map_or(Cell::new(q, r), |hex| hex.from_axial(q, r))
    }
}

/// The hex containing fractional axial `(q, r)`: each cube coordinate rounded, the one
/// that moved most recomputed from the other two.
fn round_cube(q: f32, r: f32) -> (i32, i32) {
    let s = -(q + r);
    let (rq, rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    // Far outside any grid the coordinates saturate; wrapping keeps that a cell.
    let (q, r, s) = (rq as i32, rr as i32, rs as i32);
    if dq > dr && dq > ds {
        (r.wrapping_add(s).wrapping_neg(), r)
    } else if dr > ds {
        (q, q.wrapping_add(s).wrapping_neg())
    } else {
        (q, r)
    }
}

#[cfg(feature = "tilemap")]
impl From<bevy_ecs_tilemap::map::TilemapType> for MapLayout {
    fn from(map_type: bevy_ecs_tilemap::map::TilemapType) -> Self {
        use bevy_ecs_tilemap::map::{HexCoordSystem as H, IsoCoordSystem as I, TilemapType as T};
        match map_type {
            T::Square => Self::Square,
            T::Hexagon(H::Row) => Self::HexRow,
            T::Hexagon(H::RowEven) => Self::HexRowEven,
            T::Hexagon(H::RowOdd) => Self::HexRowOdd,
            T::Hexagon(H::Column) => Self::HexColumn,
            T::Hexagon(H::ColumnEven) => Self::HexColumnEven,
            T::Hexagon(H::ColumnOdd) => Self::HexColumnOdd,
            T::Isometric(I::Diamond) => Self::IsoDiamond,
            T::Isometric(I::Staggered) => Self::IsoStaggered,
        }
    }
}

#[cfg(feature = "tilemap")]
impl From<MapLayout> for bevy_ecs_tilemap::map::TilemapType {
    fn from(layout: MapLayout) -> Self {
        use bevy_ecs_tilemap::map::{HexCoordSystem as H, IsoCoordSystem as I, TilemapType as T};
        match layout {
            MapLayout::Square => T::Square,
            MapLayout::HexRow => T::Hexagon(H::Row),
            MapLayout::HexRowEven => T::Hexagon(H::RowEven),
            MapLayout::HexRowOdd => T::Hexagon(H::RowOdd),
            MapLayout::HexColumn => T::Hexagon(H::Column),
            MapLayout::HexColumnEven => T::Hexagon(H::ColumnEven),
            MapLayout::HexColumnOdd => T::Hexagon(H::ColumnOdd),
            MapLayout::IsoDiamond => T::Isometric(I::Diamond),
            MapLayout::IsoStaggered => T::Isometric(I::Staggered),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_through_tiles_and_the_world() {
        let grid = Vec2::new(17.0, 11.0);
        for layout in MapLayout::ALL {
            for y in 0..9 {
                for x in 0..7 {
                    let cell = layout.tile_to_cell(x, y);
                    assert_eq!(layout.cell_to_tile(cell, 7, 9), Some((x, y)), "{layout:?}");
                    let centre = layout.cell_offset(cell, grid);
                    assert_eq!(layout.cell_at(centre, grid), cell, "{layout:?}");
                }
            }
            assert_eq!(layout.cell_to_tile(layout.tile_to_cell(7, 0), 7, 9), None);
            assert_eq!(layout.cell_to_tile(Cell::new(-1, 0), 7, 9), None);
            let (w, h) = layout.grid_size(7, 9).unwrap();
            for y in -1..=h as i32 {
                for x in -1..=w as i32 {
                    let cell = Cell::new(x, y);
                    let tile = layout.cell_to_tile(cell, 7, 9);
                    assert_eq!(
                        layout.holds(cell, w, h),
                        tile.is_some(),
                        "{layout:?} {cell:?}"
                    );
                }
            }
            // Positions far away or not numbers give some cell, never a panic.
            for p in [
                Vec2::splat(1e30),
                Vec2::splat(-3e38),
                Vec2::NAN,
                Vec2::INFINITY,
            ] {
                let _ = layout.cell_at(p, grid);
                let _ = layout.cell_offset(Cell::new(i32::MAX, i32::MIN), grid);
            }
            #[cfg(feature = "tilemap")]
            assert_eq!(
                MapLayout::from(bevy_ecs_tilemap::map::TilemapType::from(layout)),
                layout
            );
        }
    }
}

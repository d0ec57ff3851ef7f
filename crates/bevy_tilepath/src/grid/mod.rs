//! The pathing grid resource: the packed grid, its change log, and where cells are in
//! the world.

mod access;
mod changes;
mod layout;
mod map;
#[cfg(feature = "serde")]
mod serde;
mod transform;

use bevy::prelude::*;
use tilepath::{Cell, Grid, GridError, Mobility, TileKind};

pub use changes::{ChangeCursor, Changes};
pub use layout::MapLayout;
pub use map::PathingMap;
pub use transform::GridTransform;

pub(crate) use access::{GridKey, Grids, GridsMut};

use changes::ChangeLog;

use crate::NoPathReason;

/// A packed grid requests are solved on. As a resource it is the default grid: units
/// without [`OnGrid`](crate::OnGrid) walk on it. A game with several maps gives each its
/// own in a [`PathingMap`](crate::PathingMap) (which holds one of these).
///
/// With the `tilemap` feature and a [`PathingTilemap`](crate::PathingTilemap) on a
/// `bevy_ecs_tilemap` map, the plugin keeps it equal to the tilemap (or to several
/// tilemaps, its layers). Without one, edit it yourself: [`set`](Self::set) a cell or
/// [`replace`](Self::replace) the whole grid.
/// Every change is recorded, so paths that cross a changed cell are planned again and
/// distance fields are repaired rather than rebuilt. An edit made at any point of the
/// frame (also between the plugin's own systems) is seen by the next planning step.
///
/// Cells are `bevy_ecs_tilemap` tile positions: `Cell::new(x, y)` is `TilePos { x, y }`,
/// row-major with `y` growing *upwards* in the world (see the core crate's glossary on
/// the y convention).
#[derive(Resource, Default)]
pub struct PathingGrid {
    grid: Grid,
    log: ChangeLog,
    /// Bumped by every change.
    generation: u64,
    /// Why the grid could not be made (larger than supported, layers that disagree):
    /// every request fails with it until the grid is set again.
    failure: Option<NoPathReason>,
}

impl PathingGrid {
    /// A resource holding `grid`.
    #[must_use]
    pub fn new(grid: Grid) -> Self {
        let mut this = Self::default();
        this.replace(grid);
        this
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Whether there is no grid yet (or it has no cells): every request fails with
    /// [`NoPathReason::NoGrid`](crate::NoPathReason::NoGrid).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.grid.is_empty()
    }

    /// Counts every change; equal generations mean an equal grid.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The kind of `cell`, `None` outside the grid.
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<TileKind> {
        self.grid.get(cell)
    }

    /// Whether a unit using `mobility` may enter `cell` (`false` outside the grid).
    #[must_use]
    pub fn is_passable(&self, cell: Cell, mobility: Mobility) -> bool {
        self.grid.is_passable(cell, mobility)
    }

    /// Sets the kind of one cell and records the change (nothing is recorded when the
    /// kind is already `kind`). Returns the previous kind.
    ///
    /// # Errors
    /// [`GridError::OutOfBounds`] for a cell outside the grid; the grid is unchanged.
    pub fn set(&mut self, cell: Cell, kind: TileKind) -> Result<TileKind, GridError> {
        let old = self.grid.set(cell, kind)?;
        if old != kind {
            self.generation += 1;
            self.log.record(cell, self.grid.len());
        }
        Ok(old)
    }

    /// Sets every cell of the rectangle `min..=max` that lies inside the grid to `kind`
    /// and records the cells whose kind changed (as [`set`](Self::set) would, one by
    /// one); returns how many changed. A building placed or a room walled off in one
    /// call: where the planner keeps jump distances
    /// ([`PathingSettings::jump_distances`](crate::PathingSettings::jump_distances)),
    /// they are repaired once for the rectangle instead of once a cell.
    pub fn fill_rect(&mut self, min: Cell, max: Cell, kind: TileKind) -> usize {
        let (x0, y0) = (min.x.max(0), min.y.max(0));
        let x1 = max.x.min(self.grid.width() as i32 - 1);
        let y1 = max.y.min(self.grid.height() as i32 - 1);
        let mut changed = 0;
        for y in y0..=y1 {
            for x in x0..=x1 {
                let cell = Cell::new(x, y);
                if self.grid.get(cell) != Some(kind) {
                    self.log.record(cell, self.grid.len());
                    changed += 1;
                }
            }
        }
        if changed > 0 {
            self.grid.fill_rect(min, max, kind);
            self.generation += 1;
        }
        changed
    }

    /// Replaces the whole grid (for example with one of another size). Every path and
    /// distance field is planned again on the next tick.
    pub fn replace(&mut self, grid: Grid) {
        self.grid = grid;
        self.log.replaced();
        self.failure = None;
        self.generation += 1;
    }

    /// Removes the grid: requests fail with
    /// [`NoPathReason::NoGrid`](crate::NoPathReason::NoGrid) until a grid is set again.
    pub fn clear(&mut self) {
        self.replace(Grid::default());
    }

    /// Where the change log ends now: [`changes_since`](Self::changes_since) this cursor
    /// later returns what changed in between.
    #[must_use]
    pub fn change_cursor(&self) -> ChangeCursor {
        self.log.cursor()
    }

    /// What changed since `cursor` was taken: the cells set since (in change order, a
    /// cell possibly more than once), or [`Changes::Replaced`] when the grid was
    /// replaced since (or the log no longer reaches back that far).
    #[must_use]
    pub fn changes_since(&self, cursor: ChangeCursor) -> Changes<'_> {
        self.log.since(cursor)
    }

    /// [`changes_since`](Self::changes_since) `cursor`, moving `cursor` to now: what a
    /// structure kept in step with the grid has to catch up on.
    pub(crate) fn take_changes(&self, cursor: &mut ChangeCursor) -> Changes<'_> {
        let changes = self.log.since(*cursor);
        *cursor = self.change_cursor();
        changes
    }

    /// The cells changed since the plugin last planned, oldest first.
    #[must_use]
    pub fn pending_changes(&self) -> &[Cell] {
        self.log.pending()
    }

    /// Removes the grid and makes every request fail with `reason` until a grid is set
    /// again.
    #[cfg(feature = "tilemap")]
    pub(crate) fn set_failed(&mut self, reason: NoPathReason) {
        self.clear();
        self.failure = Some(reason);
    }

    /// Why the grid could not be made, if it could not.
    pub(crate) fn failure(&self) -> Option<NoPathReason> {
        self.failure
    }

    /// Drops the log entries before `cursor`: every reader has seen them.
    pub(crate) fn forget_changes_before(&mut self, cursor: ChangeCursor) {
        self.log.forget_before(cursor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_seen_by_every_cursor() {
        let mut g = PathingGrid::new(Grid::new(10, 10).unwrap());
        let start = g.change_cursor();
        let c = Cell::new(3, 4);
        assert_eq!(g.set(c, TileKind::K0).unwrap(), TileKind::K0);
        assert_eq!(g.changes_since(start), Changes::Cells(&[]), "same kind");
        g.set(c, TileKind::K1).unwrap();
        let middle = g.change_cursor();
        g.set(Cell::new(5, 5), TileKind::K2).unwrap();
        assert_eq!(
            g.changes_since(start),
            Changes::Cells(&[c, Cell::new(5, 5)])
        );
        assert_eq!(g.changes_since(middle), Changes::Cells(&[Cell::new(5, 5)]));
        // The first reader is done with what it saw; the second still sees its part.
        g.forget_changes_before(middle);
        assert_eq!(g.changes_since(middle), Changes::Cells(&[Cell::new(5, 5)]));
        assert_eq!(
            g.changes_since(start),
            Changes::Replaced,
            "forgotten: all changed"
        );
        assert!(g.set(Cell::new(10, 0), TileKind::K1).is_err());
    }

    #[test]
    fn filled_rectangles_record_the_cells_they_change() {
        let mut g = PathingGrid::new(Grid::new(10, 6).unwrap());
        g.set(Cell::new(2, 1), TileKind::K1).unwrap();
        let (start, generation) = (g.change_cursor(), g.generation());
        // Clipped to the grid; (2, 1) is a wall already.
        assert_eq!(
            g.fill_rect(Cell::new(-3, 0), Cell::new(2, 1), TileKind::K1),
            5
        );
        let expected = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)].map(|(x, y)| Cell::new(x, y));
        assert_eq!(g.changes_since(start), Changes::Cells(&expected));
        assert_eq!(g.generation(), generation + 1);
        for x in 0..10 {
            for y in 0..6 {
                let wall = x <= 2 && y <= 1;
                assert_eq!(
                    g.get(Cell::new(x, y)) == Some(TileKind::K1),
                    wall,
                    "({x}, {y})"
                );
            }
        }
        // Nothing to change, or nothing inside: nothing recorded.
        let cursor = g.change_cursor();
        assert_eq!(
            g.fill_rect(Cell::new(0, 0), Cell::new(1, 1), TileKind::K1),
            0
        );
        assert_eq!(
            g.fill_rect(Cell::new(20, 20), Cell::new(30, 30), TileKind::K1),
            0
        );
        assert_eq!(
            g.fill_rect(Cell::new(5, 5), Cell::new(4, 4), TileKind::K1),
            0
        );
        assert_eq!(g.changes_since(cursor), Changes::Cells(&[]));
        assert_eq!(g.generation(), generation + 1);
    }

    #[test]
    fn replacing_invalidates_older_cursors() {
        let mut g = PathingGrid::new(Grid::new(4, 4).unwrap());
        let before = g.change_cursor();
        g.set(Cell::new(3, 3), TileKind::K1).unwrap();
        g.replace(Grid::new(100, 100).unwrap());
        assert_eq!(g.changes_since(before), Changes::Replaced);
        let after = g.change_cursor();
        g.set(Cell::new(99, 99), TileKind::K1).unwrap();
        assert_eq!(g.changes_since(after), Changes::Cells(&[Cell::new(99, 99)]));
        assert_eq!(g.pending_changes(), &[Cell::new(99, 99)]);
    }

    #[test]
    fn a_log_nobody_reads_stays_bounded() {
        let mut g = PathingGrid::new(Grid::new(8, 8).unwrap());
        let cursor = g.change_cursor();
        for i in 0..10_000 {
            let kind = if i % 2 == 0 {
                TileKind::K1
            } else {
                TileKind::K0
            };
            g.set(Cell::new(1, 1), kind).unwrap();
        }
        assert!(g.pending_changes().len() <= 1024);
        assert_eq!(g.changes_since(cursor), Changes::Replaced);
    }
}

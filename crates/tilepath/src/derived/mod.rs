//! What is derived from a grid for a kind of unit, and the one contract it follows
//! ([`Derived`]): built from the grid, repaired after its edits, built away from it
//! and caught up.
//!
//! Here live the structures jump point search reads instead of the grid's planes (a
//! mobility's cells as bit rows, [`OpenRows`]; their [`JumpDistances`]) and the bit
//! layout they share; the other derived structures ([`Components`](crate::Components),
//! [`Clearance`](crate::Clearance), [`Landmarks`](crate::Landmarks)) live with what
//! they answer and implement the same trait. The [`Grid`] itself is only the map.

mod bit_grid;
mod jump_distances;
mod jump_table;
mod open_rows;

pub(crate) use bit_grid::{BitGrid, BitView};
pub use jump_distances::JumpDistances;
pub(crate) use jump_table::{
    DIAGONAL_CAP, EAST, JumpView, NORTH, SOUTH, WEST, diagonal_index, distance as jump_distance,
};
pub use open_rows::OpenRows;

use crate::{Cell, Grid, TileKind};
use core::fmt::Debug;

/// A structure derived from a [`Grid`] for a kind of unit, kept in step with the
/// grid's edits: the one contract of everything built from a grid to make searches
/// faster or to answer questions about it (bit rows, jump distances, components,
/// clearance, landmark guides).
///
/// - **Build**: [`build`](Self::build) makes it for a [`Key`](Self::Key) (what kind of
///   unit it serves: the tile kinds it enters, and where it matters the way it moves,
///   its size or its settings) from the grid as it is.
/// - **Repair**: after cells of the grid were edited, [`repair`](Self::repair) with
///   those cells brings it up to date; it then answers as a fresh build would. Every
///   edited cell must be named (in any order, repeats allowed): a cell missed leaves
///   it behind the grid until a later repair names it. A search reading a structure
///   behind its grid may answer wrongly (and debug builds assert on a route through a
///   wall), but never reads out of bounds: a structure of another grid size is
///   refused.
/// - **Build away and catch up**: a structure built on another thread from a copy of
///   the grid (a [`Grid`] clone is the cells alone) is brought up to date with the
///   cells edited since the copy by the same [`repair`](Self::repair). One that keeps
///   what it is repaired from ([`catch_up`](Self::catch_up) says so) can also be
///   repaired away from the grid, from the edited cells' kinds alone, so that a game
///   that edits a big map never repairs it in its frame.
///
/// A structure is handed to the searches that use it with the query
/// ([`PathQuery`](crate::PathQuery)); it must be in step with the grid searched.
/// Bevy's plugin keeps every structure its searches need through this trait alone.
///
/// ```
/// use tilepath::{Cell, Components, Derived, Grid, Mobility, OpenRows, TileKind};
/// let mut grid = Grid::new(16, 16)?;
/// let walker = Mobility::FLOOR_ONLY;
/// let mut rows = OpenRows::build(&grid, walker.passable_kinds())?;
/// let mut parts = Components::new(&grid, walker);
/// // A wall across the map: every structure is repaired with the cells edited.
/// let wall: Vec<Cell> = (0..16).map(|y| Cell::new(8, y)).collect();
/// for &c in &wall {
///     grid.set(c, TileKind::K1)?;
/// }
/// rows.repair(&grid, &wall, usize::MAX)?;
/// Derived::repair(&mut parts, &grid, &wall, usize::MAX)?;
/// assert!(!parts.is_reachable(Cell::new(0, 0), Cell::new(15, 0)));
/// # Ok::<(), tilepath::GridError>(())
/// ```
pub trait Derived: Sized + Send + Sync + 'static {
    /// What it is built for: units whose queries have the same key share one.
    type Key: Copy + PartialEq + Debug + Send + Sync + 'static;
    /// Why a build or a repair failed.
    type Error: core::error::Error + Send + Sync + 'static;

    /// Builds it for `key` from `grid`.
    ///
    /// # Errors
    /// When its memory cannot be had, or the grid is too large for it (each type says
    /// which).
    fn build(grid: &Grid, key: Self::Key) -> Result<Self, Self::Error>;

    /// The key it was built for.
    fn key(&self) -> Self::Key;

    /// Brings it up to date with `grid` after the cells `changed` were edited (since
    /// it was built, or last repaired), so that it answers as a fresh
    /// [`build`](Self::build) would. A repair that could cost as much as a build (a
    /// search for what an edit cut apart) stops after about `most` cells; the
    /// structure is then left [unsettled](Self::is_settled): still safe to use, but
    /// only conservative, until it is built again. Returns the work done (cells read
    /// or written), for a caller that budgets it.
    ///
    /// # Errors
    /// A grid of another size ([`GridMismatch`](crate::GridMismatch), in the type's
    /// error), or what a type's repair can meet besides (each type says which); the
    /// structure must then be built again.
    fn repair(&mut self, grid: &Grid, changed: &[Cell], most: usize) -> Result<u64, Self::Error>;

    /// Whether it answers exactly (a [`repair`](Self::repair) cut short leaves it
    /// conservative until it is built again).
    fn is_settled(&self) -> bool {
        true
    }

    /// For a structure that keeps what it is repaired from: [`repair`](Self::repair)
    /// without the grid, from the kind each edited cell has now (in edit order), so
    /// that it can be repaired on another thread while the grid is edited and
    /// searched. `None` where it needs the grid (the default).
    fn catch_up(&mut self, edits: &[(Cell, TileKind)]) -> Option<Result<u64, Self::Error>> {
        let _ = edits;
        None
    }

    /// Bytes it holds.
    fn memory_bytes(&self) -> usize;
}

#[cfg(test)]
pub(crate) mod tests;

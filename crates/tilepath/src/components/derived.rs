//! Components as a structure derived from the grid ([`Derived`]): built for a set of
//! passable kinds, a lattice and a unit size, repaired from the grid's edits.

use super::Components;
use crate::grid::GridMismatch;
use crate::{Cell, Clearance, Connectivity, Derived, Grid, GridError, HexLayout, MAX_UNIT_SIZE};
use crate::{Mobility, TileKind};

/// What a [`Components`] is built for ([`Derived::Key`]): the units it answers
/// "can this unit get there?" for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReachKey {
    /// The tile kinds the units enter ([`Mobility::passable_kinds`]).
    pub kinds: u8,
    /// Their lattice: `None` for square maps (4- and 8-connected units reach the same
    /// cells), a hex layout's own otherwise.
    pub hex: Option<HexLayout>,
    /// Their side in cells: 1, or the side of a square footprint (hex maps have none).
    pub size: u8,
}

impl ReachKey {
    /// The key of the components answering for units of `mobility` moving as
    /// `connectivity`, `size` cells a side.
    #[must_use]
    pub const fn of(mobility: Mobility, connectivity: Connectivity, size: u8) -> Self {
        let hex = match connectivity {
            Connectivity::Hex(layout) if size <= 1 => Some(layout),
            _ => None,
        };
        Self {
            kinds: mobility.passable_kinds(),
            hex,
            size,
        }
    }
}

impl Derived for Components {
    type Key = ReachKey;
    type Error = GridError;

    /// One-cell units' components ([`try_with_connectivity`](Components::try_with_connectivity)),
    /// or a footprint's ([`try_for_footprint`](Components::try_for_footprint), from a
    /// clearance made for the build and dropped after).
    fn build(grid: &Grid, key: ReachKey) -> Result<Self, GridError> {
        let mobility = Mobility::entering(key.kinds);
        if key.size == 1 {
            let connectivity = key.hex.map_or(Connectivity::Four, Connectivity::Hex);
            return Self::try_with_connectivity(grid, mobility, connectivity);
        }
        let clearance = Clearance::try_new(grid, mobility)?;
        Self::try_for_footprint(clearance.footprint(key.size))
    }

    fn key(&self) -> ReachKey {
        ReachKey::of(
            Mobility::entering(self.passable),
            self.connectivity,
            self.unit_size,
        )
    }

    /// [`repair_within`](Components::repair_within); for a footprint's components, the
    /// anchors whose footprint covers an edited cell are read off the grid (`size²`
    /// cells each), so that they need no clearance kept beside them.
    fn repair(&mut self, grid: &Grid, changed: &[Cell], most: usize) -> Result<u64, GridError> {
        if self.unit_size == 1 {
            let s = self.repair_within(grid, changed, most)?;
            return Ok((s.opened + s.closed + s.cells_searched) as u64);
        }
        GridMismatch::check((self.width, self.height), grid)?;
        let (kinds, size) = (self.passable, self.unit_size);
        let stats = self.repair_anchors(changed, most, |_, anchor| {
            fits_here(grid, kinds, anchor, size)
        });
        // Each anchor read `size²` cells.
        let read = (changed.len() * usize::from(size).pow(4)) as u64;
        Ok(read + (stats.opened + stats.closed + stats.cells_searched) as u64)
    }

    fn is_settled(&self) -> bool {
        self.settled
    }

    fn memory_bytes(&self) -> usize {
        Components::memory_bytes(self)
    }
}

/// Whether a unit of side `size` entering the kinds of `kinds` fits with its
/// footprint anchored at `anchor` on `grid` (as its clearance would say: sizes 0 and
/// above [`MAX_UNIT_SIZE`] fit nowhere).
fn fits_here(grid: &Grid, kinds: u8, anchor: Cell, size: u8) -> bool {
    let n = i32::from(size);
    (1..=MAX_UNIT_SIZE).contains(&size)
        && (0..n).all(|dy| {
            (0..n).all(|dx| {
                grid.get(Cell::new(anchor.x + dx, anchor.y + dy))
                    .is_some_and(|k: TileKind| kinds >> k.index() & 1 == 1)
            })
        })
}

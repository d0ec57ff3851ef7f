//! The footprint rule: which cells a unit bigger than one cell covers, and what entering
//! a cell costs it (`footprint/` holds what the solvers read it through).

use crate::{Cell, Grid, Mobility};

/// What entering `cell` costs a unit of `size x size` cells anchored there, read cell
/// by cell: 0 if any cell under the footprint is outside the grid, or blocked and not
/// under the footprint anchored at `leaving` (the cell the unit steps from: a unit
/// walled over walks out); else the highest cost of the passable cells under it (the
/// mobility's lowest if none is). The one statement of the footprint rule and of its
/// step rule: [`Grid::can_step_sized`] checks a step's cell and both corners of a
/// diagonal with it, and the solvers' `EnterCost::step_unchecked` reads it, with
/// the same `leaving`, for every footprint that does not fit; the fast paths
/// (clearance reads, the padded loader) are tested against it. `size >= 1`.
pub(crate) fn footprint_cost(
    grid: &Grid,
    mobility: Mobility,
    cell: Cell,
    size: u8,
    leaving: Option<Cell>,
) -> u8 {
    let n = i32::from(size);
    let under_leaving = |c: Cell| {
        leaving.is_some_and(|s| (s.x..s.x + n).contains(&c.x) && (s.y..s.y + n).contains(&c.y))
    };
    let mut highest = 0;
    for dy in 0..n {
        for dx in 0..n {
            let c = Cell::new(cell.x + dx, cell.y + dy);
            match grid.cost(c, mobility) {
                0 if grid.contains(c) && under_leaving(c) => {}
                0 => return 0,
                cost => highest = highest.max(cost),
            }
        }
    }
    if highest == 0 {
        mobility.min_cost()
    } else {
        highest
    }
}

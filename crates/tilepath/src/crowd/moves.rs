//! The steps an agent may take from a cell: the one place every part of the crowd
//! (the joint step, the corridor swap rule, the look round for nearer seats, a step
//! planned in parts, untangling) reads an agent's moves from.
//!
//! An agent moves by its [`Connectivity`]: 4-connected (orthogonal steps),
//! 8-connected (diagonal ones too, with the grid's corner rule) or hex (the 6 steps
//! of its [`HexLayout`](crate::HexLayout) from the cell, no corner rule). Whether a
//! step is legal is the grid's rule ([`Grid::can_step_with`] for a one-cell agent,
//! [`Grid::can_step_sized`] for a footprint); this file chooses which directions are
//! tried, in a fixed order so that equal inputs give equal steps, and which rule
//! applies.

use super::agent::Agent;
use crate::{Cell, Connectivity, Direction8, Grid, Mobility};

/// Every direction, orthogonal ones first: each connectivity's directions are these
/// in this order, those it has from the cell ([`Connectivity::allows`]), so that a
/// 4-connected agent's are the first 4.
const DIRECTIONS: [Direction8; 8] = [
    Direction8::Right,
    Direction8::Up,
    Direction8::Left,
    Direction8::Down,
    Direction8::UpRight,
    Direction8::UpLeft,
    Direction8::DownLeft,
    Direction8::DownRight,
];

/// The directions an agent moving by `connectivity` may try from `from`, in the
/// crowd's fixed order (orthogonal first): those [`Connectivity::allows`], that is
/// the first 4, all 8, or the cell's 6 hex steps
/// ([`HexLayout::directions`](crate::HexLayout::directions)). Every step of a crowd
/// reads them for every agent: squares walk a prefix of the order without a test
/// per direction, hex cells test the 6 of their layout as a mask.
#[inline]
pub(crate) fn directions(
    connectivity: Connectivity,
    from: Cell,
) -> impl Iterator<Item = Direction8> {
    let (n, mask) = match connectivity {
        Connectivity::Four => (4, u8::MAX),
        Connectivity::Eight => (8, u8::MAX),
        Connectivity::Hex(layout) => (
            8,
            layout
                .directions(from)
                .iter()
                .fold(0_u8, |m, d| m | 1 << d.bits()),
        ),
    };
    DIRECTIONS[..n]
        .iter()
        .copied()
        .filter(move |d| mask >> d.bits() & 1 == 1)
        .inspect(move |&d| debug_assert!(connectivity.allows(from, d)))
}

/// Whether an agent of `size x size` cells with `mobility`, moving by
/// `connectivity`, may take the step from anchor `from` towards `dir` on `grid`: a
/// step its connectivity has, by the grid's rule for it. A one-cell agent: the cell
/// entered is passable and, for an 8-connected diagonal step, both cells beside its
/// corner too ([`Grid::can_step_with`]); a footprint: [`Grid::can_step_sized`]. A hex
/// agent is one cell (the crowd refuses bigger ones): a bigger one never steps.
/// `from` itself is not read, so an agent walled over steps out.
#[inline]
pub(crate) fn can_step_as(
    grid: &Grid,
    from: Cell,
    dir: Direction8,
    mobility: Mobility,
    size: u8,
    connectivity: Connectivity,
) -> bool {
    match (size, connectivity) {
        (1, _) => grid.can_step_with(from, dir, mobility, connectivity),
        (_, Connectivity::Hex(_)) => false,
        _ => connectivity.allows(from, dir) && grid.can_step_sized(from, dir, mobility, size),
    }
}

/// Whether `agent` may step from anchor `from` towards `dir` on `grid`
/// ([`can_step_as`] with its size, mobility and connectivity).
#[inline]
pub(crate) fn can_step(grid: &Grid, from: Cell, dir: Direction8, agent: &Agent) -> bool {
    can_step_as(
        grid,
        from,
        dir,
        agent.mobility,
        agent.size,
        agent.connectivity,
    )
}

/// The direction of the step from anchor `from` to the neighbouring anchor `to`, if
/// `connectivity` has one and [`can_step_as`] allows it.
#[inline]
pub(crate) fn step_between_as(
    grid: &Grid,
    (from, to): (Cell, Cell),
    mobility: Mobility,
    size: u8,
    connectivity: Connectivity,
) -> Option<Direction8> {
    directions(connectivity, from)
        .find(|&d| from.step(d) == to)
        .filter(|&d| can_step_as(grid, from, d, mobility, size, connectivity))
}

/// The direction of `agent`'s step from `from` to the neighbouring anchor `to`, if
/// it has one and `grid` allows it ([`step_between_as`]).
#[inline]
pub(crate) fn step_between(grid: &Grid, from: Cell, to: Cell, agent: &Agent) -> Option<Direction8> {
    step_between_as(
        grid,
        (from, to),
        agent.mobility,
        agent.size,
        agent.connectivity,
    )
}

/// Whether `connectivity`'s diagonal steps pass between two corner cells, which the
/// crowd keeps other agents' steps from crossing or brushing: the diagonal steps of
/// squares, 8-connected. A hex step crosses the edge its two cells share, with no
/// corner beside it.
#[inline]
pub(crate) fn has_corners(connectivity: Connectivity) -> bool {
    connectivity == Connectivity::Eight
}

/// The moves an untangling searches for an agent moving by `connectivity`: on
/// squares orthogonal steps only (the setting of multi-agent path finding, in which
/// no two steps cross), on hex maps the 6 hex steps of the layout (which cross
/// nothing).
#[inline]
pub(crate) fn untangling(connectivity: Connectivity) -> Connectivity {
    match connectivity {
        Connectivity::Hex(_) => connectivity,
        Connectivity::Four | Connectivity::Eight => Connectivity::Four,
    }
}

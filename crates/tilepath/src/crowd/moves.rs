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
use crate::grid::around_bit;
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

/// The steps an agent of `size x size` cells with `mobility`, moving by
/// `connectivity`, may take from anchor `from` on `grid`, as a mask by
/// [`Direction8::bits`]: [`can_step_as`] for each of its [`directions`] from there. A
/// one-cell agent's are read from the 3x3 cells round it at once
/// ([`Grid::open_around`]) by the same rule: the cell entered open and, for a
/// diagonal step with corners ([`has_corners`]), both cells beside the corner.
#[inline]
pub(crate) fn legal_steps_as(
    grid: &Grid,
    from: Cell,
    mobility: Mobility,
    size: u8,
    connectivity: Connectivity,
) -> u8 {
    if size != 1 {
        return directions(connectivity, from)
            .filter(|&d| can_step_as(grid, from, d, mobility, size, connectivity))
            .fold(0, |m, d| m | 1 << d.bits());
    }
    let allowed = match connectivity {
        Connectivity::Four => ORTHOGONAL,
        Connectivity::Eight => u8::MAX,
        Connectivity::Hex(_) => directions(connectivity, from).fold(0, |m, d| m | 1 << d.bits()),
    };
    let open = u32::from(grid.open_around(from, mobility));
    let corners = has_corners(connectivity);
    let mut legal = 0;
    for (d, &(to, p, q)) in AROUND.iter().enumerate() {
        let ok = if corners {
            open >> to & open >> p & open >> q
        } else {
            open >> to
        };
        legal |= ((ok & 1) as u8) << d;
    }
    legal & allowed
}

/// The orthogonal directions, as a mask by [`Direction8::bits`].
const ORTHOGONAL: u8 = {
    let mut m = 0;
    let mut d = 0;
    while d < 4 {
        m |= 1 << DIRECTIONS[d].bits();
        d += 1;
    }
    m
};

/// Per direction (by [`Direction8::bits`]): the [`Grid::open_around`] bits of the
/// cell a one-cell step enters and of the two cells beside its corner (for an
/// orthogonal step, the cell entered thrice).
const AROUND: [(u32, u32, u32); 8] = {
    let mut t = [(0, 0, 0); 8];
    let mut d = 0;
    while d < 8 {
        let (dx, dy) = Direction8::from_bits(d as u8).offset();
        let to = around_bit(dx, dy);
        t[d] = if dx != 0 && dy != 0 {
            (to, around_bit(dx, 0), around_bit(0, dy))
        } else {
            (to, to, to)
        };
        d += 1;
    }
    t
};

/// The steps `agent` may take from anchor `from` on `grid` ([`legal_steps_as`] with
/// its size, mobility and connectivity).
#[inline]
pub(crate) fn legal_steps(grid: &Grid, from: Cell, agent: &Agent) -> u8 {
    legal_steps_as(grid, from, agent.mobility, agent.size, agent.connectivity)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HexLayout, TileKind};

    /// The steps read at once are the steps tried one by one: every cell of random
    /// grids (and a ring of cells round them), every connectivity, sizes 1 to 3, two
    /// mobilities.
    #[test]
    fn steps_read_at_once_are_the_steps_tried_one_by_one() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let connectivities = [Connectivity::Four, Connectivity::Eight]
            .into_iter()
            .chain(HexLayout::ALL.map(Connectivity::Hex));
        let connectivities: Vec<_> = connectivities.collect();
        let (mut steps, mut allowed, mut checked) = (0, 0, 0);
        for _ in 0..200 {
            let (w, h) = (1 + next() % 40, 1 + next() % 9);
            let mut grid = Grid::new(w as u32, h as u32).unwrap();
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let kind = TileKind::ALL[(next() % 10).saturating_sub(6) as usize];
                    grid.set(Cell::new(x, y), kind).unwrap();
                }
            }
            let mobility =
                [Mobility::FLOOR_ONLY, Mobility::new([1, 2, 0, 3])][(next() % 2) as usize];
            for y in -2..=h as i32 + 1 {
                for x in -2..=w as i32 + 1 {
                    let from = Cell::new(x, y);
                    for &connectivity in &connectivities {
                        for size in 1..=3 {
                            let mask = legal_steps_as(&grid, from, mobility, size, connectivity);
                            for d in Direction8::ALL {
                                let has = directions(connectivity, from).any(|t| t == d);
                                let tried = has
                                    && can_step_as(&grid, from, d, mobility, size, connectivity);
                                assert_eq!(
                                    mask >> d.bits() & 1 == 1,
                                    tried,
                                    "{from:?} {d:?} {connectivity:?} size {size}"
                                );
                                // The share of legal steps, of one-cell agents on the grid.
                                if size == 1 && grid.contains(from) {
                                    steps += usize::from(tried);
                                    allowed += usize::from(has);
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        println!(
            "{checked} steps checked; of one-cell agents' on the grid {allowed}, {steps} legal"
        );
        // Both answers are common: 4 cells in 10 are of the three other kinds.
        assert!(steps > allowed / 5 && steps < allowed * 4 / 5);
    }
}

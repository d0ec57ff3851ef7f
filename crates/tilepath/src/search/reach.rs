//! Goals out of reach: the rule of [`PathQuery::within`] for every solver.

use super::{PathQuery, Solver};
use crate::{Cell, Components, Connectivity, Mobility};

/// The most cells a query [`within`](PathQuery::within) components expands for a goal out of reach.
pub const UNREACHABLE_EXPANSIONS: u32 = 4096;

/// Runs `search` on `solver`, capped at [`UNREACHABLE_EXPANSIONS`] (or the solver's own
/// limit, if lower) when the query's components say the goal cannot be reached from the
/// start: the rule of [`PathQuery::within`], for every solver. Components of another
/// lattice than the query's (square ones serve 4- and 8-connected queries alike:
/// without corner cutting both join the same cells) are not used.
pub(crate) fn capped<S: Solver, R>(
    solver: &mut S,
    q: &PathQuery<'_>,
    search: impl FnOnce(&mut S) -> R,
) -> R {
    let serves = |p: &&Components| match (p.connectivity(), q.connectivity) {
        (Connectivity::Hex(a), Connectivity::Hex(b)) => a == b,
        (Connectivity::Hex(_), _) | (_, Connectivity::Hex(_)) => false,
        _ => true,
    };
    match q.reach.filter(serves) {
        Some(parts) => within_reach_of(
            solver,
            parts,
            (q.from, q.to),
            (q.mobility, q.size()),
            search,
        ),
        None => search(solver),
    }
}

/// Runs `search` on `solver`, capped when `parts` (for units of side `size`) say the
/// goal cannot be reached: components of another unit size are not
/// used (the search runs uncapped), as they answer for other cells.
pub(crate) fn within_reach_of<S: Solver, R>(
    solver: &mut S,
    parts: &Components,
    (from, to): (Cell, Cell),
    (mobility, size): (Mobility, u8),
    search: impl FnOnce(&mut S) -> R,
) -> R {
    debug_assert!(parts.serves(mobility), "components of another mobility");
    if parts.unit_size() != size || parts.is_reachable(from, to) {
        return search(solver);
    }
    let limit = solver.max_expansions();
    solver.set_max_expansions(limit.min(UNREACHABLE_EXPANSIONS));
    let answer = search(solver);
    solver.set_max_expansions(limit);
    answer
}

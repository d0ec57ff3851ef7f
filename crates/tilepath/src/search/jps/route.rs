//! From jump points to a [`PathResult`]: the route's first steps, its length and cost.

use super::super::PackedSteps;
use crate::cost::CostSum;
use crate::search::{Arrival, PathResult};
use crate::{Cell, Direction8, Grid, GridPath8, MAX_STEPS, Mobility};

/// Who a route is for: a unit of `mobility` (one cost) and side `size` on `grid`.
#[derive(Clone, Copy)]
pub(super) struct Unit<'a> {
    pub(super) grid: &'a Grid,
    pub(super) mobility: Mobility,
    pub(super) size: u8,
}

/// The route through `corners`, given from its end back to the start: consecutive
/// corners are joined by a straight line (a repeated corner is skipped). The cost of
/// every step is the unit's mobility's one cost.
pub(super) fn build(
    Unit {
        grid,
        mobility,
        size,
    }: Unit<'_>,
    (start, goal): (Cell, Cell),
    corners: impl Iterator<Item = (i64, i64)>,
    expanded: u32,
) -> PathResult {
    // Direction code of each unit step (dx, dy), by `(dy + 1) * 3 + dx + 1`.
    let mut code_of = [u8::MAX; 9];
    for d in Direction8::ALL {
        let (dx, dy) = d.offset();
        code_of[((dy + 1) * 3 + dx + 1) as usize] = d.bits();
    }
    let cost = mobility.min_cost();
    // Steps go into a 192-bit shift register, last step first: once more than 56 are
    // in, the far end falls off the top and the steps nearest the start remain. Of a
    // line longer than that, only its last 56 steps can remain, so no more are pushed.
    let mut words = [0u64; 3];
    let mut len = 0u64;
    let mut sum = CostSum::default();
    let mut corners = corners.peekable();
    let end = corners.next().unwrap_or((start.x.into(), start.y.into()));
    let mut at = end;
    for prev in corners {
        let (dx, dy) = ((at.0 - prev.0).signum(), (at.1 - prev.1).signum());
        let steps = at.0.abs_diff(prev.0).max(at.1.abs_diff(prev.1));
        if steps == 0 {
            continue;
        }
        debug_assert!(
            at.0.abs_diff(prev.0) == at.1.abs_diff(prev.1) || dx == 0 || dy == 0,
            "{prev:?} -> {at:?} is not a line"
        );
        let code = code_of[((dy + 1) * 3 + dx + 1) as usize];
        debug_assert!(code != u8::MAX, "step ({dx}, {dy}) has no code");
        if cfg!(debug_assertions) {
            // Every step keeps the one movement rule.
            let mut c = Cell::new(prev.0 as i32, prev.1 as i32);
            for _ in 0..steps {
                let legal = grid.can_step_sized(c, Direction8::from_bits(code), mobility, size);
                debug_assert!(legal, "{c} {dx} {dy} size {size}");
                c = c.step(Direction8::from_bits(code));
            }
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal {
            sum.diagonal += steps * u64::from(cost);
        } else {
            sum.straight += steps * u64::from(cost);
        }
        len += steps;
        push_run::<GridPath8>(&mut words, code, steps.min(MAX_STEPS as u64));
        at = prev;
    }
    debug_assert_eq!(
        at,
        (start.x.into(), start.y.into()),
        "the route starts elsewhere"
    );
    let path = GridPath8::from_raw_steps(&words, (len as usize).min(MAX_STEPS));
    let route_end = Cell::new(end.0 as i32, end.1 as i32);
    let len = u32::try_from(len).unwrap_or(u32::MAX);
    let end = if len as usize > MAX_STEPS {
        path.end(start)
    } else {
        route_end
    };
    PathResult {
        path,
        end,
        arrival: Arrival::of(route_end, goal, len),
        cost: sum.value(),
        route_len: len,
        expanded,
    }
}

/// Pushes `n` steps of direction `code` into the shift register `words` (see
/// [`build`]), as many at a time as fill a word: a word of the code repeated, shifted
/// in at once.
#[inline]
fn push_run<P: PackedSteps>(words: &mut [u64; 3], code: u8, mut n: u64) {
    // Steps a shift moves in, and a 1 in the low bit of each of their fields.
    let per = u64::from(63 / P::BITS);
    let ones = ((1u64 << (per * u64::from(P::BITS))) - 1) / ((1 << P::BITS) - 1);
    while n > 0 {
        let m = n.min(per);
        let s = m * u64::from(P::BITS);
        let run = u64::from(code) * (ones & ((1 << s) - 1));
        *words = [
            (words[0] << s) | run,
            (words[1] << s) | (words[0] >> (64 - s)),
            (words[2] << s) | (words[1] >> (64 - s)),
        ];
        n -= m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GridPath, GridPath8};

    /// Runs pushed at once are the steps pushed one by one.
    fn runs_match_steps<P: PackedSteps>() {
        let codes = 1u8 << P::BITS;
        for (i, n) in [0u64, 1, 2, 20, 21, 22, 31, 32, 33, 55, 56]
            .into_iter()
            .enumerate()
        {
            let mut runs = [
                0x0123_4567_89ab_cdef,
                0xfedc_ba98_7654_3210,
                0x0f0f_0f0f_0f0f_0f0f,
            ];
            let mut one = runs;
            let code = (i as u8 * 5 + 3) % codes;
            push_run::<P>(&mut runs, code, n);
            for _ in 0..n {
                one = [
                    (one[0] << P::BITS) | u64::from(code),
                    (one[1] << P::BITS) | (one[0] >> (64 - P::BITS)),
                    (one[2] << P::BITS) | (one[1] >> (64 - P::BITS)),
                ];
            }
            assert_eq!(runs, one, "{n} steps of {code}");
        }
    }

    #[test]
    fn runs_are_pushed_as_steps() {
        runs_match_steps::<GridPath>();
        runs_match_steps::<GridPath8>();
    }
}

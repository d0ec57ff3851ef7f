//! The direct route to the goal: from a jump point being expanded, the canonical
//! route of the distance estimate's length (8-connected: diagonal steps, then
//! straight ones; 4-connected: vertical steps, then horizontal ones), if every step of
//! it is legal.
//!
//! Such a route costs exactly the estimate `h`, so the goal it reaches gets the
//! f-value of the jump point being expanded, the least in the open list: the goal is
//! the next node the search closes (ties aside, which cannot beat it), and its cost is
//! optimal. The expansion then needs no other successor. On open maps this ends most
//! searches at the first jump point that sees the goal, instead of scanning every
//! direction around it.

use super::jump::Search;
use super::rows::CHUNK;
use super::rows::{Rows, Source};
use crate::cost::OCTILE_DIAGONAL;
use crate::derived::{DIAGONAL_CAP, EAST, NORTH, SOUTH, WEST, diagonal_index, jump_distance};

/// A direct route: `corner` is where it turns (the jump point itself or the goal when
/// it does not), `g` the goal's g through it.
pub(super) struct Direct {
    pub(super) corner: (i64, i64),
    pub(super) corner_g: u64,
    pub(super) goal_g: u64,
}

impl<S: Source, const EIGHT: bool, const TRACK: bool> Search<'_, S, EIGHT, TRACK> {
    /// The first step of the direct route from `(x, y)` to the target (`(0, 0)` at
    /// the target itself).
    #[inline(always)]
    pub(super) fn toward_target(&self, x: i64, y: i64) -> (i64, i64) {
        let (dx, dy) = ((self.target.0 - x).signum(), (self.target.1 - y).signum());
        if EIGHT || dy == 0 { (dx, dy) } else { (0, dy) }
    }

    /// The direct route from jump point `(x, y)` (whose g is `g`) to the target, if
    /// every step of it is legal. The target must be a cell scans can reach.
    pub(super) fn direct(&self, x: i64, y: i64, g: u64) -> Option<Direct> {
        let r = &self.rows;
        let (gx, gy) = self.target;
        let (dx, dy) = ((gx - x).signum(), (gy - y).signum());
        let (ax, ay) = (gx.abs_diff(x) as i64, gy.abs_diff(y) as i64);
        // The first leg: diagonal (8-connected) or vertical (4-connected).
        let (first, step) = if EIGHT {
            (ax.min(ay), OCTILE_DIAGONAL)
        } else {
            (ay, Self::STRAIGHT)
        };
        let (fx, fy) = if EIGHT { (dx, dy) } else { (0, dy) };
        if Rows::<S>::JUMPS {
            // Both legs hop from stop to stop along the jump distances.
            let (cx, cy) = (x + fx * first, y + fy * first);
            let second = (gx - cx, gy - cy);
            if !self.clear_by_distances((x, y), (fx, fy), first)
                || !self.clear_by_distances(
                    (cx, cy),
                    (second.0.signum(), second.1.signum()),
                    second.0.abs().max(second.1.abs()),
                )
            {
                return None;
            }
            return Some(self.direct_through((cx, cy), g + first as u64 * step));
        }
        let (mut cx, mut cy) = (x, y);
        if EIGHT {
            // A read of three cells a step: the row the step enters, around the cell
            // beyond it, holds the cell beside its corner there, the cell it enters, and
            // the next step's corner cell in this row. (The leg stays between the jump
            // point and the target, so its columns are the area's.)
            let (ahead, behind) = (1 + fx, 1 - fx);
            let enter = 0b010 | 1 << behind;
            let mut row = r.three(cx, cy);
            for _ in 0..first {
                let next = r.three(cx + fx, cy + fy);
                if row >> ahead & 1 == 0 || next & enter != enter {
                    return None;
                }
                row = next;
                cx += fx;
                cy += fy;
            }
        } else {
            for _ in 0..first {
                if !r.is_open(cx, cy + fy) {
                    return None;
                }
                cy += fy;
            }
        }
        // The second leg, straight along a row or a column.
        let clear = if cy == gy {
            self.row_clear(cx, gx, cy)
        } else {
            debug_assert_eq!(cx, gx);
            let sy = (gy - cy).signum();
            let mut c = cy;
            loop {
                if c == gy {
                    break true;
                }
                c += sy;
                if !r.is_open(cx, c) {
                    break false;
                }
            }
        };
        if !clear {
            return None;
        }
        Some(self.direct_through((cx, cy), g + first as u64 * step))
    }

    /// The direct route turning at `corner`, reached at `corner_g`.
    #[inline(always)]
    fn direct_through(&self, corner: (i64, i64), corner_g: u64) -> Direct {
        let straight = self
            .target
            .0
            .abs_diff(corner.0)
            .max(self.target.1.abs_diff(corner.1));
        Direct {
            corner,
            corner_g,
            goal_g: corner_g + straight * Self::STRAIGHT,
        }
    }

    /// Where the source keeps jump distances ([`Rows::JUMPS`]): whether the `n` steps
    /// from `(x, y)` by `(dx, dy)` (straight or diagonal) are all legal, read a stop
    /// at a time: a distance reaching `n` covers them, a wall before `n` ends them.
    #[inline(always)]
    fn clear_by_distances(
        &self,
        (mut x, mut y): (i64, i64),
        (dx, dy): (i64, i64),
        mut n: i64,
    ) -> bool {
        while n > 0 {
            let [straight, diagonal] = self.rows.record(x, y);
            let v = match (dx, dy) {
                (1, 0) => jump_distance(straight, EAST),
                (-1, 0) => jump_distance(straight, WEST),
                (0, 1) => jump_distance(straight, SOUTH),
                (0, -1) => jump_distance(straight, NORTH),
                _ => jump_distance(diagonal, diagonal_index(dx, dy)),
            };
            let reach = v.abs();
            if reach >= n {
                return true;
            }
            // A wall ends the leg; a jump point, or a capped diagonal distance, is read on from.
            if v <= 0 && !(dx != 0 && dy != 0 && v == -DIAGONAL_CAP) {
                return false;
            }
            (x, y, n) = (x + dx * reach, y + dy * reach, n - reach);
        }
        true
    }

    /// Whether the cells of row `y` strictly after `x` up to `to` (towards it) are
    /// open, read a word at a time.
    #[inline(always)]
    fn row_clear(&self, x: i64, to: i64, y: i64) -> bool {
        let r = &self.rows;
        let (lo, hi) = if to > x { (x + 1, to) } else { (to, x - 1) };
        let mut base = lo;
        while base <= hi {
            let n = (hi - base + 1).min(CHUNK);
            let want = (1u64 << n) - 1;
            if r.bits(base, y) & want != want {
                return false;
            }
            base += CHUNK;
        }
        true
    }
}

//! The cells a straight segment passes through, in order: the one walk that line of
//! sight and walking a route as grid steps share. A one-cell unit's sight test reads
//! the same cells and corners row by row instead (`Sight::sees_by_rows`, its hot
//! loop); `tests/smooth.rs` checks both against the testkit's reference.

/// What a segment meets as it is traced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Meets {
    /// The cell `(x, y)`, passed through.
    Cell(i64, i64),
    /// A corner passed exactly through, from the cell before it to the diagonal one
    /// after it (met next), between the two cells `beside` it.
    Corner {
        /// The two cells touching the corner on either side of the segment.
        beside: [(i64, i64); 2],
    },
}

/// Traces the open segment from `a` to `b` (in half cells, moving along both axes:
/// neither `dx` nor `dy` is 0), telling `visit` each cell it passes through and each
/// corner it passes exactly through, in order; stops as soon as `visit` returns
/// `false`. Returns whether it reached the cell the segment ends in.
pub(super) fn trace(a: (i64, i64), b: (i64, i64), mut visit: impl FnMut(Meets) -> bool) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    debug_assert!(dx != 0 && dy != 0, "{a:?} -> {b:?} runs along an axis");
    let (sx, sy) = (dx.signum(), dy.signum());
    // The cell the segment enters first and the one it leaves last: a point on a line
    // between cells belongs to the cell on the side it moves to (from) or comes from
    // (to).
    let first = |p: i64, s: i64| (p - i64::from(s < 0)).div_euclid(2);
    let last = |p: i64, s: i64| (p - i64::from(s > 0)).div_euclid(2);
    let (mut cx, mut cy) = (first(a.0, sx), first(a.1, sy));
    let (ex, ey) = (last(b.0, sx), last(b.1, sy));
    // Half cells from `a` to the next vertical and horizontal lines crossed.
    let (adx, ady) = (i128::from(dx.abs()), i128::from(dy.abs()));
    let mut nx = if sx > 0 {
        2 * (cx + 1) - a.0
    } else {
        a.0 - 2 * cx
    };
    let mut ny = if sy > 0 {
        2 * (cy + 1) - a.1
    } else {
        a.1 - 2 * cy
    };
    // Each crossing moves at least one of x, y one cell towards the end.
    let mut left = (cx - ex).abs() + (cy - ey).abs();
    loop {
        if !visit(Meets::Cell(cx, cy)) {
            return false;
        }
        if left <= 0 {
            return (cx, cy) == (ex, ey);
        }
        // Which line comes first: compare nx / adx with ny / ady.
        let (tx, ty) = (i128::from(nx) * ady, i128::from(ny) * adx);
        if tx == ty
            && !visit(Meets::Corner {
                beside: [(cx + sx, cy), (cx, cy + sy)],
            })
        {
            return false;
        }
        if tx <= ty {
            cx += sx;
            nx += 2;
            left -= 1;
        }
        if ty <= tx {
            cy += sy;
            ny += 2;
            left -= 1;
        }
    }
}

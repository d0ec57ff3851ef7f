//! The smoother's unit tests: what its private parts read from the grid.

use super::Sight;
use crate::{Grid, Mobility, TileKind};

/// A small deterministic generator (no dependency in the library's own tests).
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

#[test]
fn convex_corners_read_by_words_match_cell_by_cell() {
    let mut state = 7;
    let mut found = 0;
    for _ in 0..300 {
        let (w, h) = (1 + next(&mut state) % 90, 1 + next(&mut state) % 12);
        let density = next(&mut state) % 60;
        let grid = Grid::from_fn(w as u32, h as u32, |_| {
            if next(&mut state) % 100 < density {
                TileKind::from_bits((1 + next(&mut state) % 3) as u8)
            } else {
                TileKind::K0
            }
        })
        .unwrap();
        let mobility = [
            Mobility::FLOOR_ONLY,
            Mobility::new([1, 1, 0, 0]),
            Mobility::new([2, 1, 1, 0]),
        ][(next(&mut state) % 3) as usize];
        let size = 1 + (next(&mut state) % 3) as u8;
        let sight = Sight::new(&grid, mobility, size);
        let (w, h) = (w as i64, h as i64);
        for y in -1..=h + 1 {
            let lo = -2 + (next(&mut state) % (w as u64 + 4)) as i64;
            let hi = lo + (next(&mut state) % 80) as i64;
            let mut seen = Vec::new();
            sight.convex_corners_on(y, (lo, hi), |x, i| seen.push((x, i)));
            let expected: Vec<(i64, usize)> = (lo..=hi)
                .filter_map(|x| {
                    let walls = [
                        !sight.clear_at(x - 1, y - 1),
                        !sight.clear_at(x, y - 1),
                        !sight.clear_at(x - 1, y),
                        !sight.clear_at(x, y),
                    ];
                    (walls.iter().filter(|&&c| c).count() == 1)
                        .then(|| (x, walls.iter().position(|&c| c).unwrap()))
                })
                .collect();
            assert_eq!(
                seen, expected,
                "{w}x{h} size {size} row {y} from {lo} to {hi}"
            );
            found += seen.len();
        }
    }
    assert!(found > 1_000, "only {found} corners");
}

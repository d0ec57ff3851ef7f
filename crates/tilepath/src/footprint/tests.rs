//! Tests of the footprint rules: fitting bits, footprint costs, and walled-over starts walked out by the step rule in every solver.

use super::*;
use crate::TileKind;

#[test]
fn fitting_bits_agree_with_each_value() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for round in 0..500 {
        let mut values = [0u8; 64];
        for v in &mut values {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            *v = (seed % u64::from(MAX_UNIT_SIZE + 1)) as u8;
        }
        let size = (round % usize::from(MAX_UNIT_SIZE)) as u8 + 1;
        let want = (0..64).fold(0u64, |b, k| b | u64::from(values[k] >= size) << k);
        assert_eq!(fitting64(&values, size), want, "size {size}");
        assert_eq!(fitting64_words(&values, size), want, "size {size}");
    }
}

#[test]
fn enterable_cells_come_a_word_at_a_time() {
    let mut s = 3u32;
    let mut grid = Grid::from_fn(45, 30, |_| {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        TileKind::from_bits(u8::from((s >> 16).is_multiple_of(13)))
    })
    .unwrap();
    grid.set(Cell::new(20, 15), TileKind::K1).unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let clear = Clearance::new(&grid, mobility);
    for size in 2..=4u8 {
        // From a start that fits, and from one walled over (its rows take the
        // cell-by-cell rule).
        for start in [Cell::new(-50, -50), Cell::new(19, 14)] {
            let costs = FootprintCosts::new(&grid, clear.footprint(size), mobility, start);
            for i in 0..grid.len() {
                let got = costs.enterable_from([0; 4], i);
                for j in 0..32 {
                    let want = i + j < grid.len() && costs.enterable(i + j);
                    assert_eq!(got >> (2 * j) & 1 == 1, want, "size {size} from {i}+{j}");
                }
            }
        }
    }
}

/// Every path every solver returns from a start whose footprint was walled over
/// passes [`Grid::can_step_sized`] step by step: a follower checking steps with it
/// never stops before a step it was handed (issue 36). The smallest case the rule
/// once failed: a 2x2 unit at (0, 1) of `...M / .... / M#M.` (rows by increasing
/// y) stepped down-right off the wall, then up-right onto it again.
#[test]
fn walled_over_starts_walk_out_by_the_step_rule() {
    use crate::{AStar, Connectivity, Greedy, GridPath8, Jps, PathQuery, Solver};
    let mut s = 5u32;
    let mut rand = |n: u32| {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (s >> 16) % n
    };
    let mut steps = 0;
    for _ in 0..1500 {
        let size = 2 + rand(3) as u8;
        let n = u32::from(size);
        let (w, h) = (n + 1 + rand(6), n + 1 + rand(6));
        let mut grid = Grid::from_fn(w, h, |_| match rand(10) {
            0 => TileKind::K1,
            1..=3 => TileKind::K2,
            _ => TileKind::K0,
        })
        .unwrap();
        let start = Cell::new(rand(w - n + 1) as i32, rand(h - n + 1) as i32);
        for _ in 0..1 + rand(2) {
            let wall = Cell::new(start.x + rand(n) as i32, start.y + rand(n) as i32);
            grid.set(wall, TileKind::K1).unwrap();
        }
        let goal = Cell::new(rand(w) as i32, rand(h) as i32);
        for mobility in [Mobility::new([1, 0, 4, 2]), Mobility::new([1, 0, 1, 1])] {
            let clear = Clearance::new(&grid, mobility);
            let q = PathQuery::new(start, goal, mobility).sized(clear.footprint(size));
            let paths: [(&str, GridPath8); 8] = [
                ("window 4", AStar::new().find(&grid, q).unwrap().path),
                (
                    "window 8",
                    AStar::new()
                        .find(&grid, q.connectivity(Connectivity::Eight))
                        .unwrap()
                        .path,
                ),
                ("whole 4", AStar::whole_grid().find(&grid, q).unwrap().path),
                (
                    "whole 8",
                    AStar::whole_grid()
                        .find(&grid, q.connectivity(Connectivity::Eight))
                        .unwrap()
                        .path,
                ),
                ("greedy", Greedy::new().find(&grid, q).unwrap().path),
                ("jps 4", Jps::new().find(&grid, q).unwrap().path),
                (
                    "jps 8",
                    Jps::whole_grid()
                        .find(&grid, q.connectivity(Connectivity::Eight))
                        .unwrap()
                        .path,
                ),
                (
                    "jps window 8",
                    Jps::new()
                        .find(&grid, q.connectivity(Connectivity::Eight))
                        .unwrap()
                        .path,
                ),
            ];
            for (solver, path) in paths {
                let mut at = start;
                for d in path.iter() {
                    assert!(
                        grid.can_step_sized(at, d, mobility, size),
                        "{solver}: size {size} from {start} to {goal} steps {d:?} from {at}"
                    );
                    at = at.step(d);
                    steps += 1;
                }
            }
        }
    }
    assert!(steps > 10_000, "too few steps checked: {steps}");
}

#[test]
fn a_footprint_costs_the_most_expensive_cell_under_it() {
    let mut s = 11u32;
    let grid = Grid::from_fn(37, 21, |_| {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        TileKind::from_bits(if (s >> 16).is_multiple_of(9) {
            3
        } else {
            (s >> 20) as u8 % 3
        })
    })
    .unwrap();
    let mobility = Mobility::new([1, 4, 9, 0]);
    let clear = Clearance::new(&grid, mobility);
    for size in 2..=5u8 {
        let costs =
            FootprintCosts::new(&grid, clear.footprint(size), mobility, Cell::new(-99, -99));
        for i in 0..grid.len() {
            let cell = grid.cell_of(i).unwrap();
            let n = i32::from(size);
            let under = (0..n)
                .flat_map(|dy| (0..n).map(move |dx| Cell::new(cell.x + dx, cell.y + dy)))
                .map(|c| grid.cost(c, mobility));
            let want = if under.clone().any(|c| c == 0) {
                0
            } else {
                under.max().unwrap()
            };
            assert_eq!(costs.at(i), want, "size {size} at {cell}");
        }
    }
}

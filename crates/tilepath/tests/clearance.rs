//! `Clearance` against a brute-force count of the largest open square at each cell, on
//! seeded random grids, and after random edit batches.

use tilepath::{Cell, Clearance, Grid, MAX_UNIT_SIZE, Mobility, TileKind};
use tilepath_testkit::*;

/// The side of the largest open square (at most `MAX_UNIT_SIZE`) with its smallest
/// corner at `cell`, checked cell by cell.
fn brute(grid: &Grid, mobility: Mobility, cell: Cell) -> u8 {
    let mut n = 0;
    while n < MAX_UNIT_SIZE {
        let side = i32::from(n) + 1;
        let fits = (0..side).all(|dy| {
            (0..side).all(|dx| grid.is_passable(Cell::new(cell.x + dx, cell.y + dy), mobility))
        });
        if !fits {
            break;
        }
        n += 1;
    }
    n
}

fn assert_equal(grid: &Grid, mobility: Mobility, clear: &Clearance, what: &str) {
    for y in -1..grid.height() as i32 + 1 {
        for x in -1..grid.width() as i32 + 1 {
            let c = Cell::new(x, y);
            assert_eq!(clear.get(c), brute(grid, mobility, c), "{what}: {c}");
        }
    }
}

#[test]
fn clearance_is_the_largest_open_square() {
    let mut rng = rng(41);
    for round in 0..60 {
        let (w, h) = (1 + round % 40, 1 + (round * 7) % 37);
        let walls = [0.0, 0.05, 0.2, 0.5][round as usize % 4];
        let grid = random_grid(&mut rng, w, h, walls);
        for mobility in [Mobility::FLOOR_ONLY, Mobility::new([1, 4, 0, 2])] {
            let clear = Clearance::new(&grid, mobility);
            assert!(clear.serves(mobility));
            assert_equal(&grid, mobility, &clear, &format!("round {round}"));
        }
    }
    // Open ground larger than the cap: every value is capped, except near the far edges.
    let grid = Grid::new(40, 40).unwrap();
    let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    assert_eq!(clear.get(Cell::new(0, 0)), MAX_UNIT_SIZE);
    assert_eq!(clear.get(Cell::new(39, 39)), 1);
    assert_eq!(clear.get(Cell::new(30, 20)), 10);
    assert!(clear.fits(Cell::new(0, 0), 200) && !clear.fits(Cell::new(0, 0), 0));
}

#[test]
fn repairs_equal_a_fresh_build() {
    let mut rng = rng(42);
    for round in 0..40 {
        let mut grid = random_grid(&mut rng, 50, 45, 0.1);
        let mobility = Mobility::FLOOR_ONLY;
        let mut clear = Clearance::new(&grid, mobility);
        for step in 0..25 {
            // Batches of 1 to 6 edits, some outside the grid or repeated.
            let n = 1 + (step % 6);
            let mut batch: Vec<Cell> = (0..n).map(|_| random_cell(&mut rng, &grid)).collect();
            for &c in &batch {
                let kind = TileKind::new((rng_kind(round, step, c)) as u8).unwrap();
                grid.set(c, kind).unwrap();
            }
            batch.push(Cell::new(-3, 9));
            batch.push(batch[0]);
            clear.repair(&grid, &batch).unwrap();
            assert_equal(
                &grid,
                mobility,
                &clear,
                &format!("round {round} step {step}"),
            );
        }
    }
    let other = Grid::new(3, 3).unwrap();
    let mut clear = Clearance::new(&Grid::new(4, 4).unwrap(), Mobility::FLOOR_ONLY);
    assert!(clear.repair(&other, &[Cell::new(0, 0)]).is_err());
}

/// A kind for an edit: walls (kind 3) and floors about equally, and the other kinds.
fn rng_kind(round: u32, step: u32, c: Cell) -> u32 {
    let h = (round * 31 + step * 17) as i64 + i64::from(c.x) * 7 + i64::from(c.y) * 13;
    [3, 0, 3, 0, 1, 2][(h.rem_euclid(6)) as usize]
}

#[test]
fn a_single_edit_recomputes_at_most_the_cap_squared() {
    let mut grid = Grid::new(300, 300).unwrap();
    let mut clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    grid.set(Cell::new(150, 150), TileKind::K3).unwrap();
    let computed = clear.repair(&grid, &[Cell::new(150, 150)]).unwrap();
    assert_eq!(computed, usize::from(MAX_UNIT_SIZE).pow(2));
    assert_eq!(clear.get(Cell::new(149, 149)), 1);
    assert_eq!(clear.get(Cell::new(135, 135)), 15);
    // An edit that keeps the cell open changes nothing.
    grid.set(Cell::new(10, 10), TileKind::K0).unwrap();
    assert_eq!(clear.repair(&grid, &[Cell::new(10, 10)]).unwrap(), 0);
}

use super::*;
use crate::{Cell, Grid, GridError, GridMismatch, Mobility, TileKind};

const KINDS: [Mobility; 3] = [
    Mobility::FLOOR_ONLY,
    Mobility::new([0, 2, 0, 5]),
    Mobility::new([1, 1, 1, 0]),
];

/// Every rows' bit (borders too) is its cell's passability, every distance what a
/// fresh build of the same cells holds.
fn assert_derived_match(g: &Grid, rows: &[OpenRows], jumps: &[JumpDistances]) {
    for r in rows.iter().chain(jumps.iter().map(JumpDistances::rows)) {
        let mobility = Mobility::entering(r.key());
        let view = r.view();
        let (w, h) = (i64::from(g.width()), i64::from(g.height()));
        for y in -1..=h {
            for x in -64..w + 64 {
                let bit = view.rows.bit(x, y);
                assert_eq!(view.columns.bit(y, x), bit);
                let open = g.is_passable(Cell::new(x as i32, y as i32), mobility);
                assert_eq!(bit, open, "{mobility:?} ({x}, {y})");
            }
        }
    }
    for j in jumps {
        let fresh = JumpDistances::build(g, j.key()).unwrap();
        assert!(*j == fresh, "repaired distances differ from a build");
        let (a, b) = (j.view(), fresh.view());
        for y in 0..i64::from(g.height()) {
            for x in 0..i64::from(g.width()) {
                assert_eq!(a.record(x, y), b.record(x, y), "({x}, {y})");
            }
        }
    }
}

/// A `w x h` grid of K0 with K3 walls at `percent` of the cells.
fn walled(w: u32, h: u32, percent: u64, rand: &mut impl FnMut(u64) -> u64) -> Grid {
    Grid::from_fn(w, h, |_| {
        if rand(100) < percent {
            TileKind::K3
        } else {
            TileKind::K0
        }
    })
    .unwrap()
}

/// A seeded xorshift source of numbers below its argument.
pub(super) fn below(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

/// 30 random edits of `g` to floor or wall, one in `rect_every` a rectangle of up to
/// `rect` cells (a side); every cell named (a rectangle's outside the grid too).
fn random_edits(
    g: &mut Grid,
    rand: &mut impl FnMut(u64) -> u64,
    rect_every: usize,
    rect: (u64, u64),
) -> Vec<Cell> {
    let (w, h) = (u64::from(g.width()), u64::from(g.height()));
    let mut changed = Vec::new();
    for round in 0..30 {
        let c = Cell::new(rand(w) as i32, rand(h) as i32);
        let kind = [TileKind::K0, TileKind::K3][rand(2) as usize];
        if round % rect_every == 0 {
            let d = Cell::new(c.x + rand(rect.0) as i32, c.y + rand(rect.1) as i32);
            g.fill_rect(c, d, kind);
            for y in c.y..=d.y {
                changed.extend((c.x..=d.x).map(|x| Cell::new(x, y)));
            }
        } else {
            g.set(c, kind).unwrap();
            changed.push(c);
        }
    }
    changed
}

#[test]
fn empty_grids_have_empty_rows() {
    for g in [
        Grid::default(),
        Grid::new(0, 3).unwrap(),
        Grid::new(4, 0).unwrap(),
    ] {
        let rows = OpenRows::new(&g, Mobility::FLOOR_ONLY).unwrap();
        let jumps = JumpDistances::new(&g, Mobility::FLOOR_ONLY).unwrap();
        assert_derived_match(&g, &[rows], &[jumps]);
    }
}

#[test]
fn rows_and_distances_follow_every_edit() {
    for (w, h) in [(1, 1), (5, 3), (8, 2), (63, 2), (64, 3), (65, 2), (130, 3)] {
        for kind in TileKind::ALL {
            let mut g = Grid::filled(w, h, kind).unwrap();
            let mut rows: Vec<_> = KINDS
                .iter()
                .map(|&m| OpenRows::new(&g, m).unwrap())
                .collect();
            let mut jumps: Vec<_> = [KINDS[0], KINDS[2]]
                .iter()
                .map(|&m| JumpDistances::new(&g, m).unwrap())
                .collect();
            assert_derived_match(&g, &rows, &jumps);
            let repair =
                |g: &Grid, changed: &[Cell], rows: &mut [OpenRows], jumps: &mut [JumpDistances]| {
                    for r in rows {
                        r.repair(g, changed, usize::MAX).unwrap();
                    }
                    for j in jumps {
                        j.repair(g, changed, usize::MAX).unwrap();
                    }
                };
            let all: Vec<Cell> = (0..g.len()).map(|i| g.cell_of(i).unwrap()).collect();
            for i in 0..g.len() {
                let k = TileKind::ALL[(i * 7 + i / 3) % 4];
                g.set(g.cell_of(i).unwrap(), k).unwrap();
            }
            repair(&g, &all, &mut rows, &mut jumps);
            g.fill_rect(Cell::new(1, 0), Cell::new(w as i32 + 3, 1), TileKind::K3);
            repair(&g, &all, &mut rows, &mut jumps);
            g.fill_rect(Cell::new(-1, -1), Cell::new(2, 9), TileKind::K0);
            repair(&g, &all, &mut rows, &mut jumps);
            assert_derived_match(&g, &rows, &jumps);
        }
    }
}

#[test]
fn jump_distances_follow_random_edits() {
    let mut rand = below(0x9e37_79b9);
    for walls in [30, 4] {
        let mut g = walled(97, 61, walls, &mut rand);
        let mut jumps = JumpDistances::new(&g, Mobility::FLOOR_ONLY).unwrap();
        for round in 0..40 {
            let c = Cell::new(rand(97) as i32, rand(61) as i32);
            let kind = if rand(3) == 0 {
                TileKind::K0
            } else {
                TileKind::K3
            };
            let mut changed = vec![c];
            if round % 4 == 0 {
                // A building: its cells in one repair, over the rectangle.
                let d = Cell::new(c.x + rand(9) as i32, c.y + rand(5) as i32);
                g.fill_rect(c, d, kind);
                changed = (c.y..=d.y)
                    .flat_map(|y| (c.x..=d.x).map(move |x| Cell::new(x, y)))
                    .collect();
            } else {
                g.set(c, kind).unwrap();
            }
            jumps.repair(&g, &changed, usize::MAX).unwrap();
            if round % 8 == 7 {
                assert_derived_match(&g, &[], core::slice::from_ref(&jumps));
            }
        }
        assert_derived_match(&g, &[], core::slice::from_ref(&jumps));
    }
    // Sides a distance cannot span are refused.
    let wide = Grid::new(40_000, 1).unwrap();
    assert_eq!(
        JumpDistances::new(&wide, Mobility::FLOOR_ONLY).err(),
        Some(GridError::TooLargeForJumps {
            width: 40_000,
            height: 1
        })
    );
}

#[test]
fn built_on_a_copy_and_caught_up_they_equal_a_build_here() {
    let mut rand = below(0x2545_f491);
    let floor = Mobility::FLOOR_ONLY;
    for walls in [25, 3] {
        let mut g = walled(83, 57, walls, &mut rand);
        let copy = g.clone();
        let built = (
            JumpDistances::new(&copy, floor).unwrap(),
            OpenRows::new(&copy, floor).unwrap(),
        );
        // Edits made while the copy was built, some cells more than once, some set
        // to the kind they had; a rectangle may cross the grid's edge.
        let mut changed = random_edits(&mut g, &mut rand, 5, (6, 4));
        // By a repair from the grid, a cell outside named too (ignored).
        let (mut jumps, mut rows) = built.clone();
        changed.push(Cell::new(-1, 500));
        jumps.repair(&g, &changed, usize::MAX).unwrap();
        rows.repair(&g, &changed, usize::MAX).unwrap();
        assert_derived_match(
            &g,
            core::slice::from_ref(&rows),
            core::slice::from_ref(&jumps),
        );
        // From the cells' kinds alone: a cell outside is refused, nothing changed...
        let (mut jumps, mut rows) = built.clone();
        let edits: Vec<(Cell, TileKind)> = changed
            .iter()
            .map(|&c| (c, g.get(c).unwrap_or(TileKind::K0)))
            .collect();
        let outside = GridError::OutOfBounds {
            cell: Cell::new(-1, 500),
        };
        assert_eq!(jumps.catch_up(&edits), Some(Err(outside)));
        assert_eq!(rows.catch_up(&edits), Some(Err(outside)));
        assert!(jumps == built.0 && rows == built.1);
        // ...and with the cells inside, they equal a build here.
        let inside: Vec<_> = edits.into_iter().filter(|&(c, _)| g.contains(c)).collect();
        assert!(matches!(jumps.catch_up(&inside), Some(Ok(_))));
        assert!(matches!(rows.catch_up(&inside), Some(Ok(_))));
        assert_derived_match(
            &g,
            core::slice::from_ref(&rows),
            core::slice::from_ref(&jumps),
        );
        // A grid of another size is refused.
        let other = Grid::new(83, 56).unwrap();
        let mismatch = GridError::Mismatch(GridMismatch {
            expected: (83, 57),
            found: (83, 56),
        });
        assert_eq!(jumps.repair(&other, &[], usize::MAX), Err(mismatch));
        assert_eq!(rows.repair(&other, &[], usize::MAX), Err(mismatch));
    }
}

/// The contract every derived structure keeps: built for a key, then repaired after
/// each batch of random edits (cells set more than once, a rectangle's cells outside
/// the grid named too), it answers as a fresh build of its key on the edited grid
/// (`same`); repaired within a small bound instead, it is settled and the same, or
/// unsettled and `conservative` (then built again); a grid of another size is refused.
/// Returns the batches checked and how many left the bounded one unsettled.
fn check_contract<D: Derived>(
    key: D::Key,
    same: impl Fn(&Grid, &D, &D) -> bool,
    conservative: impl Fn(&Grid, &D, &D) -> bool,
) -> (u32, u32) {
    let mut rand = below(0x5eed_1234);
    let mut g = walled(41, 29, 22, &mut rand);
    let mut exact = D::build(&g, key).unwrap();
    let mut bounded = D::build(&g, key).unwrap();
    assert_eq!(exact.key(), key);
    assert!(exact.memory_bytes() > 0);
    let (mut batches, mut unsettled) = (0, 0);
    for round in 0..40 {
        let changed = random_edits(&mut g, &mut rand, 4, (4, 3));
        exact.repair(&g, &changed, usize::MAX).unwrap();
        bounded.repair(&g, &changed, 8).unwrap();
        let fresh = D::build(&g, key).unwrap();
        assert!(exact.is_settled(), "{key:?} round {round}");
        assert!(same(&g, &exact, &fresh), "{key:?} round {round}");
        if bounded.is_settled() {
            assert!(same(&g, &bounded, &fresh), "{key:?} round {round}: bounded");
        } else {
            unsettled += 1;
            assert!(
                conservative(&g, &bounded, &fresh),
                "{key:?} round {round}: bounded"
            );
            bounded = fresh;
        }
        batches += 1;
    }
    let other = Grid::new(40, 29).unwrap();
    assert!(
        exact.repair(&other, &[], usize::MAX).is_err(),
        "{key:?}: another size"
    );
    (batches, unsettled)
}

/// Every cell's answer by `of`, in index order.
fn each_cell<T: PartialEq>(g: &Grid, of: impl Fn(Cell) -> T) -> Vec<T> {
    (0..g.len()).map(|i| of(g.cell_of(i).unwrap())).collect()
}

/// Whether `a` joins every pair of cells `b` joins (and, with `exact`, no other).
fn joins(g: &Grid, a: &crate::Components, b: &crate::Components, exact: bool) -> bool {
    let cells: Vec<Cell> = (0..g.len()).map(|i| g.cell_of(i).unwrap()).collect();
    cells.iter().step_by(7).all(|&p| {
        cells.iter().step_by(3).all(|&q| {
            let (x, y) = (a.is_reachable(p, q), b.is_reachable(p, q));
            if exact { x == y } else { x || !y }
        })
    })
}

#[test]
fn every_derived_structure_keeps_the_contract() {
    let floor = Mobility::FLOOR_ONLY;
    let kinds = floor.passable_kinds();
    let rows = |g: &Grid, a: &OpenRows, b: &OpenRows| {
        let _ = g;
        a == b
    };
    println!("rows: {:?}", check_contract::<OpenRows>(kinds, rows, rows));
    let jumps = |_: &Grid, a: &JumpDistances, b: &JumpDistances| a == b;
    println!(
        "jumps: {:?}",
        check_contract::<JumpDistances>(kinds, jumps, jumps)
    );
    let clear = |g: &Grid, a: &crate::Clearance, b: &crate::Clearance| {
        each_cell(g, |c| a.get(c)) == each_cell(g, |c| b.get(c))
    };
    println!(
        "clearance: {:?}",
        check_contract::<crate::Clearance>(kinds, clear, clear)
    );
    let mut unsettled = 0;
    for (connectivity, size) in [
        (crate::Connectivity::Four, 1),
        (crate::Connectivity::Eight, 2),
        (crate::Connectivity::Four, 3),
        (crate::Connectivity::Hex(crate::HexLayout::RowOdd), 1),
    ] {
        let key = crate::ReachKey::of(floor, connectivity, size);
        let (batches, u) = check_contract::<crate::Components>(
            key,
            |g, a, b| joins(g, a, b, true),
            |g, a, b| joins(g, a, b, false),
        );
        println!("components {key:?}: {batches} batches, {u} left unsettled by the bound");
        unsettled += u;
    }
    // The bound is met: some repairs were cut short and stayed conservative.
    assert!(unsettled > 0, "no bounded repair was cut short");
}

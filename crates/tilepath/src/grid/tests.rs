//! The grid's unit tests: cells, planes and kept rows, bounds, equality.

use super::*;

#[test]
fn can_step_forbids_corner_cutting() {
    // .#.
    // ...
    let g = Grid::from_fn(3, 2, |c| {
        if c == Cell::new(1, 0) {
            TileKind::K1
        } else {
            TileKind::K0
        }
    })
    .unwrap();
    let l = Mobility::FLOOR_ONLY;
    let from = Cell::new(0, 1);
    assert!(g.can_step(from, Direction8::Right, l));
    assert!(g.can_step(from, Direction8::Down, l));
    assert!(
        !g.can_step(from, Direction8::DownRight, l),
        "(1, 0) is a wall"
    );
    assert!(
        !g.can_step(Cell::new(0, 0), Direction8::Right, l),
        "into the wall"
    );
    assert!(
        !g.can_step(Cell::new(2, 1), Direction8::DownLeft, l),
        "corner"
    );
    assert!(!g.can_step(from, Direction8::Left, l), "off the grid");
    assert!(
        g.can_step(Cell::new(1, 0), Direction8::Up, l),
        "out of a wall"
    );
    assert!(!g.can_step(Cell::new(i32::MAX, 0), Direction8::Right, l));
}

#[test]
fn packs_four_cells_per_byte() {
    let mut g = Grid::new(5, 3).unwrap();
    // 15 cells packed, and 3 rows of two 16-byte plane rows.
    assert_eq!(g.memory_bytes(), 4 + 3 * 2 * 16);
    assert_eq!(g.memory_bytes() as u64, Grid::bytes_for(5, 3));
    for (i, k) in [(0, 1), (1, 2), (2, 3), (3, 1), (4, 2), (14, 3)] {
        let c = g.cell_of(i).unwrap();
        g.set(c, TileKind::new(k).unwrap()).unwrap();
    }
    assert_eq!(g.as_bytes()[0], 0b01_11_10_01);
    assert_eq!(g.as_bytes()[1], 0b10);
    assert_eq!(g.get(Cell::new(4, 2)), Some(TileKind::K3));
    assert_eq!(g.get(Cell::new(3, 2)), Some(TileKind::K0));
    // Every other cell of every byte keeps its value.
    assert_eq!(g.get(Cell::new(0, 0)), Some(TileKind::K1));
    assert_eq!(g.get(Cell::new(3, 0)), Some(TileKind::K1));
}

#[test]
fn outside_reads_blocked_and_writes_fail() {
    let mut g = Grid::new(4, 4).unwrap();
    for c in [
        Cell::new(-1, 0),
        Cell::new(0, -1),
        Cell::new(4, 0),
        Cell::new(0, 4),
    ] {
        assert_eq!(g.get(c), None);
        assert_eq!(g.cost(c, Mobility::ALL_PASSABLE), 0);
        assert_eq!(
            g.set(c, TileKind::K1),
            Err(GridError::OutOfBounds { cell: c })
        );
    }
    assert!(g.as_bytes().iter().all(|&b| b == 0));
}

#[test]
fn empty_and_huge_grids() {
    let g = Grid::new(0, 7).unwrap();
    assert!(g.is_empty());
    assert_eq!(g.get(Cell::new(0, 0)), None);
    assert!(matches!(
        Grid::new(Grid::MAX_SIDE + 1, 1),
        Err(GridError::TooLarge { .. })
    ));
    let big = Grid::new(16_384, 16_384).unwrap();
    assert_eq!(
        big.memory_bytes(),
        16_384 * 16_384 / 4 + 16_384 * 2 * (2048 + 8)
    );
    assert_eq!(big.cost(Cell::new(16_383, 16_383), Mobility::FLOOR_ONLY), 1);
}

#[test]
fn ascii_and_closure_builders() {
    let legend = |c| match c {
        '.' => Some(TileKind::K0),
        '#' => Some(TileKind::K1),
        _ => None,
    };
    let g = Grid::from_ascii(".#.\r\n#..\n", legend).unwrap();
    let f = Grid::from_fn(3, 2, |c| {
        if (c.x, c.y) == (1, 0) || (c.x, c.y) == (0, 1) {
            TileKind::K1
        } else {
            TileKind::K0
        }
    })
    .unwrap();
    assert_eq!(g, f);
    assert_eq!(
        Grid::from_ascii("..\n.", legend),
        Err(GridError::RaggedRow {
            row: 1,
            expected: 2,
            found: 1
        })
    );
    assert!(matches!(
        Grid::from_ascii(".x", legend),
        Err(GridError::UnknownChar { ch: 'x', .. })
    ));
    assert!(Grid::from_ascii("", legend).unwrap().is_empty());
}

#[test]
fn fill_rect_clips() {
    let mut g = Grid::new(4, 4).unwrap();
    assert_eq!(
        g.fill_rect(Cell::new(-2, 2), Cell::new(1, 9), TileKind::K2),
        4
    );
    assert_eq!(g.get(Cell::new(1, 3)), Some(TileKind::K2));
    assert_eq!(g.get(Cell::new(2, 3)), Some(TileKind::K0));
}
/// The planes hold every cell's kind bits, and 0 past the width.
/// Kept rows of some mobilities: the planes check also checks them.
const KEPT: [Mobility; 3] = [
    Mobility::FLOOR_ONLY,
    Mobility::new([0, 2, 0, 5]),
    Mobility::new([1, 1, 1, 0]),
];

fn assert_planes_match(g: &Grid) {
    for mobility in KEPT {
        let Some(rows) = g.open_rows(mobility) else {
            continue;
        };
        if let Some(jumps) = g.jump_distances(mobility) {
            // As repaired, what a grid of the same cells builds afresh.
            let mut fresh = Grid::from_fn(g.width(), g.height(), |c| g.get(c).unwrap()).unwrap();
            fresh.keep_jump_distances(mobility).unwrap();
            let built = fresh.jump_distances(mobility).unwrap();
            for y in 0..i64::from(g.height()) {
                for x in 0..i64::from(g.width()) {
                    assert_eq!(
                        jumps.record(x, y),
                        built.record(x, y),
                        "{mobility:?} ({x}, {y})"
                    );
                }
            }
        }
        let (w, h) = (i64::from(g.width()), i64::from(g.height()));
        for y in -1..=h {
            for x in -64..w + 64 {
                let bit = rows.rows.bit(x, y);
                assert_eq!(rows.columns.bit(y, x), bit);
                let open = g.is_passable(Cell::new(x as i32, y as i32), mobility);
                assert_eq!(bit, open, "{mobility:?} ({x}, {y})");
            }
        }
    }
    let (planes, stride) = g.planes();
    assert_eq!(planes.len(), 2 * stride * g.height() as usize);
    for y in 0..g.height() as usize {
        for x in 0..stride * 8 {
            let bit = |plane: usize| planes[(2 * y + plane) * stride + x / 8] >> (x % 8) & 1;
            let kind = g
                .get(Cell::new(x as i32, y as i32))
                .map_or(0, TileKind::index);
            assert_eq!((bit(0), bit(1)), (kind & 1, kind >> 1), "({x}, {y})");
        }
    }
}

#[test]
fn empty_grids_keep_empty_rows() {
    for mut g in [
        Grid::default(),
        Grid::new(0, 3).unwrap(),
        Grid::new(4, 0).unwrap(),
    ] {
        g.keep_open_rows(Mobility::FLOOR_ONLY).unwrap();
        assert!(g.keeps_open_rows(Mobility::FLOOR_ONLY));
        assert_planes_match(&g);
    }
}

#[test]
fn planes_follow_every_edit() {
    for (w, h) in [
        (0, 3),
        (1, 1),
        (5, 3),
        (8, 2),
        (63, 2),
        (64, 3),
        (65, 2),
        (130, 3),
    ] {
        for kind in TileKind::ALL {
            let mut g = Grid::filled(w, h, kind).unwrap();
            for mobility in KEPT {
                g.keep_open_rows(mobility).unwrap();
                assert!(g.keeps_open_rows(mobility));
            }
            for mobility in [KEPT[0], KEPT[2]] {
                g.keep_jump_distances(mobility).unwrap();
                assert!(g.keeps_jump_distances(mobility));
            }
            assert!(!g.keeps_jump_distances(KEPT[1]));
            assert_eq!(
                g,
                Grid::filled(w, h, kind).unwrap(),
                "rows are no part of the value"
            );
            assert_planes_match(&g);
            if g.is_empty() {
                continue;
            }
            for i in 0..g.len() {
                let k = TileKind::ALL[(i * 7 + i / 3) % 4];
                g.set(g.cell_of(i).unwrap(), k).unwrap();
            }
            assert_planes_match(&g);
            g.fill_rect(Cell::new(1, 0), Cell::new(w as i32 + 3, 1), TileKind::K3);
            assert_planes_match(&g);
            g.fill_rect(Cell::new(-1, -1), Cell::new(2, 9), TileKind::K0);
            assert_planes_match(&g);
        }
        let g = Grid::from_fn(w, h, |c| TileKind::ALL[((c.x * 5 + c.y) % 4) as usize]).unwrap();
        assert_planes_match(&g);
    }
    let g = Grid::from_ascii("0123\n3210\n2301", |c| TileKind::new(c.to_digit(10)? as u8)).unwrap();
    assert_planes_match(&g);
    assert_eq!(g, Grid::from_fn(4, 3, |c| g.get(c).unwrap()).unwrap());
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

#[test]
fn jump_distances_follow_random_edits() {
    let mut rand = below(0x9e37_79b9);
    for walls in [30, 4] {
        let mut g = walled(97, 61, walls, &mut rand);
        g.keep_jump_distances(Mobility::FLOOR_ONLY).unwrap();
        for round in 0..40 {
            let c = Cell::new(rand(97) as i32, rand(61) as i32);
            let kind = if rand(3) == 0 {
                TileKind::K0
            } else {
                TileKind::K3
            };
            if round % 4 == 0 {
                let d = Cell::new(c.x + rand(9) as i32, c.y + rand(5) as i32);
                g.fill_rect(c, d, kind);
            } else {
                g.set(c, kind).unwrap();
            }
            if round % 8 == 7 {
                assert_planes_match(&g);
            }
        }
        assert_planes_match(&g);
    }
    // Sides a distance cannot span are refused, and nothing is kept.
    let mut wide = Grid::new(40_000, 1).unwrap();
    assert_eq!(
        wide.keep_jump_distances(Mobility::FLOOR_ONLY),
        Err(GridError::TooLargeForJumps {
            width: 40_000,
            height: 1
        })
    );
    assert!(!wide.keeps_jump_distances(Mobility::FLOOR_ONLY));
}

#[test]
fn adopted_jump_distances_equal_a_build_here() {
    let mut rand = below(0x2545_f491);
    let floor = Mobility::FLOOR_ONLY;
    for walls in [25, 3] {
        let mut g = walled(83, 57, walls, &mut rand);
        g.keep_open_rows(floor).unwrap();
        let copy = g.copy_cells().unwrap();
        assert!(
            !copy.keeps_open_rows(floor),
            "a copy of the cells keeps nothing"
        );
        assert_eq!(copy, g);
        let built = JumpDistances::new(&copy, floor).unwrap();
        // Edits made while the copy was built, some cells more than once, some set
        // to the kind they had.
        let mut changed = random_edits(&mut g, &mut rand, 5, (6, 4));
        // A cell left out: refused, nothing kept.
        let missed = changed
            .iter()
            .position(|&c| g.get(c) != copy.get(c))
            .unwrap();
        let mut partial = changed.clone();
        partial.remove(missed);
        partial.retain(|&c| c != changed[missed]);
        let mut current = copy.copy_cells().unwrap();
        // (A rectangle may cross the grid's edge: its cells outside are named too.)
        for &c in &changed {
            if let Some(kind) = g.get(c) {
                current.set(c, kind).unwrap();
            }
        }
        assert_eq!(
            g.adopt_jump_distances(built.clone(), &partial),
            Err(GridError::StaleCopy)
        );
        assert!(!g.keeps_jump_distances(floor));
        // Another size: refused.
        let other = Grid::new(83, 56).unwrap();
        assert_eq!(
            g.adopt_jump_distances(JumpDistances::new(&other, floor).unwrap(), &[]),
            Err(GridError::StaleCopy)
        );
        assert_eq!(current, g, "the edits, named");
        // Every edit named (cells outside ignored): the distances are a build's here.
        changed.push(Cell::new(-1, 500));
        g.adopt_jump_distances(built, &changed).unwrap();
        assert!(g.keeps_jump_distances(floor));
        assert_planes_match(&g);
        // And they follow later edits.
        for _ in 0..10 {
            let c = Cell::new(rand(83) as i32, rand(57) as i32);
            g.set(c, [TileKind::K0, TileKind::K3][rand(2) as usize])
                .unwrap();
        }
        assert_planes_match(&g);
    }
}

#[test]
fn lent_jump_distances_come_back_equal_to_a_build_here() {
    let mut rand = below(0x51f1_5eed);
    let floor = Mobility::FLOOR_ONLY;
    for walls in [25, 3] {
        let mut g = walled(90, 47, walls, &mut rand);
        assert!(
            g.lend_jump_distances(floor).unwrap().is_none(),
            "nothing kept"
        );
        g.keep_jump_distances(floor).unwrap();
        let mut lent = g.lend_jump_distances(floor).unwrap().expect("kept");
        assert!(!g.keeps_jump_distances(floor));
        assert!(g.keeps_open_rows(floor), "the grid keeps its rows");
        assert_eq!(lent.size(), (90, 47));
        // Edits on the grid (no repair of the distances there), then on the copy.
        let changed = random_edits(&mut g, &mut rand, 6, (5, 4));
        assert_planes_match(&g);
        for &c in &changed {
            if let Some(kind) = g.get(c) {
                lent.set(c, kind).unwrap();
            }
        }
        g.adopt_jump_distances(lent, &[]).unwrap();
        assert!(g.keeps_jump_distances(floor));
        assert_planes_match(&g);
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

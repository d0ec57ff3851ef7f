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
fn assert_planes_match(g: &Grid) {
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

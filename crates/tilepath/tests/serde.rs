//! Saving and loading through serde (feature `serde`), in a self-describing format
//! (JSON) and a compact binary one (postcard): every value type and random grids come
//! back equal; malformed input (sizes too large or overflowing, truncated or wrong
//! byte counts, set padding bits, paths too long, kinds out of range) is an error,
//! never a panic, and a grid declared huge allocates nothing of its size.

use rand::RngExt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tilepath::{
    Arrival, Cell, Connectivity, Direction, Direction8, Grid, GridError, GridPath, GridPath8,
    HexLayout, Jps, MAX_STEPS, Mobility, PathQuery, PathResult, Region, Solver, TileKind,
};
use tilepath_testkit::*;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// `value` through JSON and through postcard: both give it back.
fn round_trip<T>(value: &T) -> T
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(value).unwrap();
    let from_json: T = serde_json::from_str(&json).unwrap();
    assert_eq!(&from_json, value, "JSON {json}");
    let bytes = postcard::to_allocvec(value).unwrap();
    let from_postcard: T = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(&from_postcard, value, "postcard {bytes:?}");
    from_postcard
}

#[test]
fn value_types_round_trip() {
    for cell in [
        Cell::new(0, 0),
        Cell::new(-3, 7),
        Cell::new(i32::MIN, i32::MAX),
    ] {
        round_trip(&cell);
    }
    for kind in TileKind::ALL {
        round_trip(&kind);
    }
    let mut rng = rng(1);
    for _ in 0..50 {
        round_trip(&random_mobility(&mut rng, 255));
    }
    for m in [
        Mobility::ALL_PASSABLE,
        Mobility::FLOOR_ONLY,
        Mobility::ALL_BLOCKED,
        Mobility::new([255, 0, 17, 1]),
    ] {
        round_trip(&m);
    }
    for d in Direction::ALL {
        round_trip(&d);
    }
    for d in Direction8::ALL {
        round_trip(&d);
    }
    for layout in HexLayout::ALL {
        round_trip(&layout);
        round_trip(&Connectivity::Hex(layout));
    }
    round_trip(&Connectivity::Four);
    round_trip(&Connectivity::Eight);
    round_trip(&Region::new(Cell::new(-2, 3), Cell::new(10, 40)));
}

#[test]
fn readable_forms() {
    // Saved as what the API speaks, not as the packing in memory.
    assert_eq!(
        serde_json::to_string(&Mobility::new([1, 3, 0, 255])).unwrap(),
        "[1,3,0,255]"
    );
    assert_eq!(serde_json::to_string(&TileKind::K2).unwrap(), "2");
    assert_eq!(
        serde_json::to_string(&Cell::new(4, -1)).unwrap(),
        r#"{"x":4,"y":-1}"#
    );
    let mut path = GridPath::from_steps(&[Direction::Right, Direction::Up]).unwrap();
    path.next();
    assert_eq!(
        serde_json::to_string(&path).unwrap(),
        r#"{"steps":["Right","Up"],"position":1}"#
    );
    assert_eq!(
        serde_json::to_string(&Connectivity::Hex(HexLayout::RowOdd)).unwrap(),
        r#"{"Hex":"RowOdd"}"#
    );
}

#[test]
fn kinds_out_of_range_are_errors() {
    assert!(serde_json::from_str::<TileKind>("4").is_err());
    assert!(serde_json::from_str::<TileKind>("255").is_err());
    assert!(postcard::from_bytes::<TileKind>(&[4]).is_err());
    assert!(serde_json::from_str::<Mobility>("[1,2,3]").is_err());
    assert!(serde_json::from_str::<Mobility>("[1,2,3,4,5]").is_err());
    assert!(serde_json::from_str::<Mobility>("[1,2,3,256]").is_err());
    assert!(serde_json::from_str::<Direction>(r#""UpRight""#).is_err());
    assert!(postcard::from_bytes::<Direction8>(&[8]).is_err());
}

/// A random 4-connected path and an 8-connected one, `len` steps long, `taken` of
/// them taken.
fn random_paths(rng: &mut rand::rngs::StdRng, len: usize, taken: usize) -> (GridPath, GridPath8) {
    let steps: Vec<Direction> = (0..len)
        .map(|_| Direction::ALL[rng.random_range(0..4usize)])
        .collect();
    let steps8: Vec<Direction8> = (0..len)
        .map(|_| Direction8::ALL[rng.random_range(0..8usize)])
        .collect();
    let mut path = GridPath::from_steps(&steps).unwrap();
    let mut path8 = GridPath8::from_steps(&steps8).unwrap();
    for _ in 0..taken {
        path.next();
        path8.next();
    }
    (path, path8)
}

#[test]
fn paths_round_trip_with_their_cursor() {
    let mut rng = rng(2);
    for len in 0..=MAX_STEPS {
        for taken in [0, len / 2, len] {
            let (path, path8) = random_paths(&mut rng, len, taken);
            let loaded = round_trip(&path);
            assert_eq!(loaded.len(), len);
            assert_eq!(loaded.position(), taken);
            assert_eq!(loaded.collect::<Vec<_>>(), path.collect::<Vec<_>>());
            let loaded8 = round_trip(&path8);
            assert_eq!(loaded8.position(), taken);
            assert_eq!(loaded8.collect::<Vec<_>>(), path8.collect::<Vec<_>>());
        }
    }
    // A search's result, path and route, as a game may keep it.
    let grid = random_grid(&mut rng, 40, 30, 0.2);
    let (from, to) = (Cell::new(0, 0), Cell::new(39, 29));
    let mut grid = grid;
    grid.set(from, TileKind::K0).unwrap();
    grid.set(to, TileKind::K0).unwrap();
    let result: PathResult = Jps::whole_grid()
        .find(
            &grid,
            PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(Connectivity::Eight),
        )
        .unwrap();
    assert_eq!(round_trip(&result), result);
    for arrival in [
        Arrival::Reached,
        Arrival::OnTheWay,
        Arrival::Closest(Cell::new(3, 4)),
    ] {
        assert_eq!(round_trip(&arrival), arrival);
    }
}

#[test]
fn bad_paths_are_errors() {
    let right = r#""Right""#;
    let steps = |n: usize| vec![right; n].join(",");
    // The most a path holds loads; one more is an error, not a truncated path.
    let full = format!(r#"{{"steps":[{}],"position":0}}"#, steps(MAX_STEPS));
    assert_eq!(
        serde_json::from_str::<GridPath>(&full).unwrap().len(),
        MAX_STEPS
    );
    let over = format!(r#"{{"steps":[{}],"position":0}}"#, steps(MAX_STEPS + 1));
    assert!(serde_json::from_str::<GridPath>(&over).is_err());
    assert!(serde_json::from_str::<GridPath8>(&over).is_err());
    // The cursor within the steps.
    assert!(serde_json::from_str::<GridPath>(r#"{"steps":["Up"],"position":1}"#).is_ok());
    assert!(serde_json::from_str::<GridPath>(r#"{"steps":["Up"],"position":2}"#).is_err());
    assert!(serde_json::from_str::<GridPath>(r#"{"steps":[],"position":256}"#).is_err());
    // Fields missing, repeated or unknown; steps of the other kind.
    for bad in [
        r#"{"steps":["Up"]}"#,
        r#"{"position":0}"#,
        r#"{"steps":[],"steps":[],"position":0}"#,
        r#"{"steps":[],"position":0,"cursor":0}"#,
        r#"{"steps":["UpLeft"],"position":0}"#,
        r#"[["Up"]]"#,
        r#""Up""#,
    ] {
        assert!(serde_json::from_str::<GridPath>(bad).is_err(), "{bad}");
    }
    // Postcard: a declared count of 57 steps, or a huge one, with no steps behind it.
    assert!(postcard::from_bytes::<GridPath>(&[57, 0, 0, 0]).is_err());
    assert!(postcard::from_bytes::<GridPath8>(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]).is_err());
    // Every cut of a valid encoding is an error.
    let (path, path8) = random_paths(&mut rng(3), 30, 7);
    let bytes = postcard::to_allocvec(&path).unwrap();
    let bytes8 = postcard::to_allocvec(&path8).unwrap();
    for cut in 0..bytes.len() {
        assert!(postcard::from_bytes::<GridPath>(&bytes[..cut]).is_err());
    }
    for cut in 0..bytes8.len() {
        assert!(postcard::from_bytes::<GridPath8>(&bytes8[..cut]).is_err());
    }
}

#[test]
fn random_grids_round_trip() {
    let mut rng = rng(4);
    let mut sizes = vec![(0, 0), (0, 5), (5, 0), (1, 1), (3, 1), (1, 7), (4, 4)];
    for _ in 0..40 {
        sizes.push((rng.random_range(1..90), rng.random_range(1..90)));
    }
    for (w, h) in sizes {
        let walls = rng.random_range(0.0..1.0);
        let grid = random_grid(&mut rng, w, h, walls);
        let loaded = round_trip(&grid);
        assert_eq!(loaded.as_bytes(), grid.as_bytes());
        assert_eq!((loaded.width(), loaded.height()), (w, h));
        // The packed bytes as one buffer: postcard adds the sides and a length only.
        let bytes = postcard::to_allocvec(&grid).unwrap();
        assert!(bytes.len() <= grid.as_bytes().len() + 3 * 5, "{w}x{h}");
        assert_eq!(Grid::from_bytes(w, h, grid.as_bytes()).unwrap(), grid);
    }
}

#[test]
fn loaded_grids_search_alike_and_keep_nothing_derived() {
    let mut rng = rng(5);
    for _ in 0..10 {
        let (w, h) = (rng.random_range(5..70), rng.random_range(5..70));
        let grid = random_grid(&mut rng, w, h, 0.3);
        let loaded: Grid = postcard::from_bytes(&postcard::to_allocvec(&grid).unwrap()).unwrap();
        assert_eq!(loaded, grid);
        // The cells read the same through every representation: the searches (which
        // read the bit planes) answer alike, before and after building distances on
        // the loaded grid (derived data is not saved: it is built from the cells).
        let mut a = Jps::whole_grid();
        let mut b = Jps::whole_grid();
        for round in 0..2 {
            // The planes first, then the jump distances.
            let jumps = KeptRows::pick(2 - round, &loaded, Mobility::FLOOR_ONLY);
            for _ in 0..30 {
                let (from, to) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
                for m in [Mobility::FLOOR_ONLY, Mobility::new([1, 2, 5, 0])] {
                    let x = a
                        .find(
                            &grid,
                            PathQuery::new(from, to, m).connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    let query = PathQuery::new(from, to, m).connectivity(Connectivity::Eight);
                    let y = b.find(&loaded, jumps.query(query)).unwrap();
                    assert_eq!(x, y, "{from} -> {to}");
                }
            }
        }
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                assert_eq!(loaded.get(Cell::new(x, y)), grid.get(Cell::new(x, y)));
            }
        }
    }
}

#[test]
fn from_bytes_checks_its_input() {
    assert_eq!(
        Grid::from_bytes(65_537, 1, &[]),
        Err(GridError::TooLarge {
            width: 65_537,
            height: 1
        })
    );
    assert_eq!(
        Grid::from_bytes(u32::MAX, u32::MAX, &[0; 3]),
        Err(GridError::TooLarge {
            width: u32::MAX,
            height: u32::MAX
        })
    );
    assert_eq!(
        Grid::from_bytes(65_536, 65_536, &[0; 3]),
        Err(GridError::BytesLength {
            width: 65_536,
            height: 65_536,
            expected: 1 << 30,
            found: 3
        })
    );
    // 5 cells take 2 bytes: one short, one long.
    assert!(matches!(
        Grid::from_bytes(5, 1, &[0]),
        Err(GridError::BytesLength { expected: 2, .. })
    ));
    assert!(matches!(
        Grid::from_bytes(5, 1, &[0; 3]),
        Err(GridError::BytesLength { expected: 2, .. })
    ));
    assert!(matches!(
        Grid::from_bytes(0, 9, &[0]),
        Err(GridError::BytesLength { expected: 0, .. })
    ));
    // The 5th cell is bits 0..2 of byte 1; any bit above them is padding.
    assert!(Grid::from_bytes(5, 1, &[0xFF, 0b11]).is_ok());
    for bit in 2..8 {
        assert_eq!(
            Grid::from_bytes(5, 1, &[0, 1 << bit]),
            Err(GridError::BytesPadding),
            "bit {bit}"
        );
    }
    // 8 cells fill 2 bytes: no padding to check.
    assert!(Grid::from_bytes(8, 1, &[0xFF, 0xFF]).is_ok());
    assert!(Grid::from_bytes(0, 0, &[]).unwrap().is_empty());
}

/// JSON of a grid of `width x height` whose cells are `cells`.
fn grid_json(width: u64, height: u64, cells: &[u16]) -> String {
    let cells: Vec<String> = cells.iter().map(u16::to_string).collect();
    format!(
        r#"{{"width":{width},"height":{height},"cells":[{}]}}"#,
        cells.join(",")
    )
}

#[test]
fn malformed_grids_are_errors() {
    let json_err = |s: &str| serde_json::from_str::<Grid>(s).unwrap_err().to_string();
    // Sizes: too large, overflowing `width * height`, not a u32, negative.
    assert!(json_err(&grid_json(65_537, 1, &[])).contains("too large"));
    assert!(
        json_err(&grid_json(
            u64::from(u32::MAX),
            u64::from(u32::MAX),
            &[0; 3]
        ))
        .contains("too large")
    );
    assert!(serde_json::from_str::<Grid>(&grid_json(1 << 32, 1, &[])).is_err());
    assert!(serde_json::from_str::<Grid>(r#"{"width":-1,"height":1,"cells":[]}"#).is_err());
    // Byte counts: the message says what was expected.
    let err = json_err(&grid_json(65_536, 65_536, &[1, 2, 3]));
    assert!(err.contains("1073741824 bytes, but 3"), "{err}");
    assert!(serde_json::from_str::<Grid>(&grid_json(5, 1, &[0])).is_err());
    assert!(serde_json::from_str::<Grid>(&grid_json(5, 1, &[0, 0, 0])).is_err());
    // Padding, and numbers that are no bytes.
    assert!(json_err(&grid_json(5, 1, &[0, 4])).contains("past the last cell"));
    assert!(serde_json::from_str::<Grid>(&grid_json(4, 1, &[256])).is_err());
    // Fields in any order load; missing, repeated or unknown ones are errors.
    let reordered = r#"{"cells":[255,3],"height":1,"width":5}"#;
    assert_eq!(
        serde_json::from_str::<Grid>(reordered).unwrap(),
        Grid::from_bytes(5, 1, &[255, 3]).unwrap()
    );
    for bad in [
        r#"{"width":1,"height":1}"#,
        r#"{"width":1,"cells":[0]}"#,
        r#"{"height":1,"cells":[0]}"#,
        r#"{"width":1,"width":1,"height":1,"cells":[0]}"#,
        r#"{"width":1,"height":1,"cells":[0],"cells":[0]}"#,
        r#"{"width":1,"height":1,"cells":[0],"depth":1}"#,
        r#"{"width":1,"height":1,"cells":"AA=="}"#,
        r#"[1,1]"#,
        r#"[1,1,[0],5]"#,
        r#"null"#,
    ] {
        assert!(serde_json::from_str::<Grid>(bad).is_err(), "{bad}");
    }
    assert!(serde_json::from_str::<Grid>(r#"[1,1,[2]]"#).is_ok());

    // Postcard: every cut of a valid encoding, and every wrong length prefix.
    let grid = random_grid(&mut rng(6), 13, 11, 0.3);
    let bytes = postcard::to_allocvec(&grid).unwrap();
    for cut in 0..bytes.len() {
        assert!(
            postcard::from_bytes::<Grid>(&bytes[..cut]).is_err(),
            "cut {cut}"
        );
    }
    let header = postcard::to_allocvec(&(13u32, 11u32)).unwrap();
    let cells = grid.as_bytes();
    for len in 0..cells.len() + 3 {
        let mut wire = header.clone();
        wire.extend(postcard::to_allocvec(&serde_bytes_len(len)).unwrap());
        wire.extend((0..len).map(|i| cells.get(i).copied().unwrap_or(0)));
        let loaded = postcard::from_bytes::<Grid>(&wire);
        assert_eq!(loaded.is_ok(), len == cells.len(), "{len} bytes");
    }
}

/// Postcard writes a byte buffer's length as a varint, as it writes a `u32`.
fn serde_bytes_len(len: usize) -> u32 {
    u32::try_from(len).unwrap()
}

#[test]
fn a_huge_declared_grid_allocates_nothing_of_its_size() {
    const MIB: u64 = 1 << 20;
    // JSON: 65536 x 65536 (a 1 GiB grid) with 3 bytes of cells.
    let json = grid_json(65_536, 65_536, &[1, 2, 3]);
    let peak = peak_bytes_in(|| assert!(serde_json::from_str::<Grid>(&json).is_err()));
    assert!(peak < MIB, "JSON: {peak} bytes");
    // Postcard: the same, and a length prefix declaring the whole 1 GiB with 3 bytes
    // behind it.
    let mut wire = postcard::to_allocvec(&(65_536u32, 65_536u32)).unwrap();
    let short = [wire.clone(), vec![3, 1, 2, 3]].concat();
    wire.extend(postcard::to_allocvec(&(1u32 << 30)).unwrap());
    wire.extend([1, 2, 3]);
    for (what, input) in [("short", &short), ("declared", &wire)] {
        let peak = peak_bytes_in(|| assert!(postcard::from_bytes::<Grid>(input).is_err()));
        assert!(peak < MIB, "postcard {what}: {peak} bytes");
    }
    // Sides over the limit fail before the cells are read.
    let wide = postcard::to_allocvec(&(u32::MAX, u32::MAX)).unwrap();
    let peak = peak_bytes_in(|| assert!(postcard::from_bytes::<Grid>(&wide).is_err()));
    assert!(peak < MIB, "postcard too large: {peak} bytes");
}

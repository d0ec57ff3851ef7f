//! `Reachability` against plain references on seeded random grids: "can this unit get
//! there" and "would it still, were these cells blocked", for one-cell and big units,
//! square and hex maps, from the plugin's kept components and without them.

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, random_grid, seeded, set_cell, ticks};
use rand::RngExt;
use rand::rngs::StdRng;
use tilepath::HexLayout;
use tilepath_testkit::{hex_flood, reference_dijkstra_sized};

/// Runs `ask` on a fresh `Reachability` of `app`.
fn ask<T: Send + 'static>(
    app: &mut App,
    ask: impl Fn(&mut Reachability) -> T + Send + Sync + 'static,
) -> T {
    app.world_mut()
        .run_system_once(move |mut reach: Reachability| ask(&mut reach))
        .unwrap()
}

/// Which cells a walker of `size` (MOBILITY) reaches from `from` on `grid` with
/// `blocked` walls added: a plain Dijkstra over footprints (square), or a flood over
/// the hex neighbours' formulas.
fn oracle(
    grid: &Grid,
    blocked: &[Cell],
    size: u8,
    hex: Option<HexLayout>,
    from: Cell,
) -> Vec<bool> {
    let mut walled = grid.clone();
    for &c in blocked {
        let _ = walled.set(c, TileKind::K1);
    }
    if !walled.fits(from, MOBILITY, size) {
        return vec![false; grid.len()];
    }
    match hex {
        Some(layout) => hex_flood(&walled, MOBILITY, layout, from),
        None => reference_dijkstra_sized(&walled, MOBILITY, size, from, false, |_| true)
            .into_iter()
            .enumerate()
            .map(|(i, d)| d.is_some() && walled.fits(walled.cell_of(i).unwrap(), MOBILITY, size))
            .collect(),
    }
}

fn random_cell(rng: &mut StdRng, grid: &Grid) -> Cell {
    Cell::new(
        rng.random_range(0..grid.width() as i32),
        rng.random_range(0..grid.height() as i32),
    )
}

/// Cells to block: a few scattered ones, or a wall segment (which cuts more often).
fn random_blocked(rng: &mut StdRng, grid: &Grid) -> Vec<Cell> {
    let at = random_cell(rng, grid);
    if rng.random_bool(0.5) {
        (0..rng.random_range(1..6))
            .map(|_| random_cell(rng, grid))
            .collect()
    } else {
        let (dx, dy) = if rng.random_bool(0.5) { (1, 0) } else { (0, 1) };
        (0..rng.random_range(2..14))
            .map(|k| Cell::new(at.x + k * dx, at.y + k * dy))
            .collect()
    }
}

/// An app on `grid` (hex when `hex`), with the components of `size` kept when `kept`
/// (a request of that mobility and size was served).
fn reach_app(grid: &Grid, size: u8, hex: Option<HexLayout>, kept: bool) -> App {
    let mut app = app(Some(grid.clone()), PathingSettings::default());
    if let Some(layout) = hex {
        let map = match layout {
            HexLayout::RowEven => MapLayout::HexRowEven,
            HexLayout::ColumnOdd => MapLayout::HexColumnOdd,
            _ => MapLayout::HexRow,
        };
        app.world_mut().resource_mut::<GridTransform>().layout = map;
    }
    if kept {
        // A request that is searched (its goal fits) builds them.
        let at = (0..grid.len())
            .filter_map(|i| grid.cell_of(i))
            .find(|&c| grid.fits(c, MOBILITY, size))
            .unwrap();
        app.world_mut().spawn((
            GridCell(at),
            PathRequest::to_cell(at)
                .with_mobility(MOBILITY)
                .with_size(size),
        ));
        ticks(&mut app, 1);
    }
    let walker = Walker::new(MOBILITY).with_size(size);
    assert_eq!(ask(&mut app, move |r| r.knows(walker)), kept);
    app
}

/// Checks `can_reach` and `if_blocked` against the oracle on random grids; returns
/// how many pairs the blocked cells cut apart (so that cuts are really tested).
fn check(size: u8, hex: Option<HexLayout>, kept: bool, seed: u64) -> usize {
    let mut rng = seeded(seed);
    let walls = [0.0, 0.3, 0.12, 0.08][usize::from(size)];
    let grid = random_grid(36, 28, walls, &mut rng);
    let mut app = reach_app(&grid, size, hex, kept);
    let walker = Walker::new(MOBILITY).with_size(size);
    let mut cuts = 0;
    for _ in 0..12 {
        let from = random_cell(&mut rng, &grid);
        let tos: Vec<Cell> = (0..40).map(|_| random_cell(&mut rng, &grid)).collect();
        let now = oracle(&grid, &[], size, hex, from);
        let got = {
            let tos = tos.clone();
            ask(&mut app, move |r| {
                tos.iter()
                    .map(|&to| r.can_reach(walker, from, to))
                    .collect::<Vec<_>>()
            })
        };
        for (&to, got) in tos.iter().zip(got) {
            let want = now[grid.index_of(to).unwrap()];
            assert_eq!(got, want, "can_reach {from} -> {to}, size {size}, {hex:?}");
        }

        let blocked = random_blocked(&mut rng, &grid);
        let after = oracle(&grid, &blocked, size, hex, from);
        // The cells beside the blocked ones are where cuts show.
        let mut near: Vec<Cell> = blocked
            .iter()
            .flat_map(|c| {
                [(-1, 0), (1, 0), (0, -1), (0, 1), (-2, 1), (1, -2)]
                    .map(|(dx, dy)| Cell::new(c.x + dx, c.y + dy))
            })
            .filter(|&c| grid.contains(c))
            .collect();
        near.extend(&tos);
        near.extend(blocked.iter().filter(|c| grid.contains(**c)));
        let got = {
            let (near, blocked) = (near.clone(), blocked.clone());
            ask(&mut app, move |r| {
                let answer = r.if_blocked(walker, &blocked);
                near.iter()
                    .map(|&to| (answer.reaches(from, to), answer.reaches(to, from)))
                    .collect::<Vec<_>>()
            })
        };
        for (&to, (there, back)) in near.iter().zip(got) {
            let i = grid.index_of(to).unwrap();
            let want = after[i];
            assert_eq!(
                there, want,
                "if_blocked({blocked:?}) {from} -> {to}, size {size}, {hex:?}, kept {kept}"
            );
            assert_eq!(back, want, "if_blocked({blocked:?}) {to} -> {from}");
            cuts += usize::from(now[i] && !want);
        }
        // Asking changed nothing.
        assert_eq!(app.world().resource::<PathingGrid>().grid(), &grid);
    }
    cuts
}

#[test]
fn answers_match_a_reference_on_random_square_grids() {
    for size in [1, 2, 3] {
        for kept in [true, false] {
            let mut cuts = 0;
            for seed in 0..6 {
                cuts += check(size, None, kept, 900 + seed + 10 * u64::from(size));
            }
            assert!(cuts >= 20, "size {size}: only {cuts} pairs cut apart");
        }
    }
}

#[test]
fn answers_match_a_reference_on_random_hex_grids() {
    for layout in [HexLayout::Axial, HexLayout::RowEven, HexLayout::ColumnOdd] {
        for kept in [true, false] {
            let mut cuts = 0;
            for seed in 0..4 {
                cuts += check(1, Some(layout), kept, 950 + seed);
            }
            assert!(cuts >= 10, "{layout:?}: only {cuts} pairs cut apart");
        }
    }
}

/// Edits since the last pathing tick: the kept components are not used until they are
/// repaired, and the answers are those of the grid as it is.
#[test]
fn edits_since_the_last_tick_are_answered_exactly() {
    let mut grid = Grid::new(20, 10).unwrap();
    grid.fill_rect(Cell::new(10, 0), Cell::new(10, 8), TileKind::K1);
    let mut app = reach_app(&grid, 1, None, true);
    let walker = Walker::new(MOBILITY);
    let (a, b) = (Cell::new(2, 2), Cell::new(17, 2));
    assert!(ask(&mut app, move |r| r.can_reach(walker, a, b)));
    // The door at (10, 9) is the only way: blocking it cuts a from b.
    assert!(!ask(&mut app, move |r| r
        .if_blocked(walker, &[Cell::new(10, 9)])
        .reaches(a, b)));
    assert!(ask(&mut app, move |r| r
        .if_blocked(walker, &[Cell::new(3, 9)])
        .reaches(a, b)));
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(Cell::new(10, 9), TileKind::K1)
        .unwrap();
    assert!(!ask(&mut app, move |r| r.knows(walker)));
    assert!(!ask(&mut app, move |r| r.can_reach(walker, a, b)));
    ticks(&mut app, 1);
    assert!(ask(&mut app, move |r| r.knows(walker)));
    assert!(!ask(&mut app, move |r| r.can_reach(walker, a, b)));
    assert!(ask(&mut app, move |r| r.can_reach(
        walker,
        a,
        Cell::new(9, 9)
    )));
}

/// Bad input answers `false`, never panics.
#[test]
fn bad_input_reaches_nothing() {
    let mut app = reach_app(&Grid::new(8, 8).unwrap(), 1, None, true);
    let (a, b) = (Cell::new(1, 1), Cell::new(6, 6));
    let answers = ask(&mut app, move |r| {
        let w = Walker::new(MOBILITY);
        let gone = Entity::from_raw_u32(4242).unwrap();
        [
            r.can_reach(w, a, b),
            r.can_reach(w.with_size(0), a, b),
            r.can_reach(w.with_size(9), a, b),
            r.can_reach(w.with_size(255), a, b),
            r.can_reach(w, a, Cell::new(-1, 3)),
            r.can_reach(w, Cell::new(i32::MAX, 0), b),
            r.can_reach(w.on_grid(gone), a, b),
            r.if_blocked(w, &[]).reaches(a, b),
            r.if_blocked(w, &[Cell::new(i32::MIN, 5), Cell::new(100, 100)])
                .reaches(a, b),
            r.if_blocked(w, &[a]).reaches(a, b),
            r.if_blocked(w.with_size(0), &[]).reaches(a, b),
            r.if_blocked(w.on_grid(gone), &[]).reaches(a, b),
            r.if_blocked(w, &[]).reaches(a, Cell::new(8, 0)),
        ]
    });
    assert_eq!(
        answers,
        [
            true, false, false, false, false, false, false, true, true, false, false, false, false
        ]
    );
}

/// A wall that cuts a big map in two: the components are not relabelled in the tick
/// (a search of one side, cell by cell) but built again in the background; meanwhile
/// they are not used for answers (`knows` is false) and every answer is still exact,
/// from a search; then they are, cut in two.
#[test]
fn a_cut_of_a_big_map_is_settled_in_the_background() {
    let mut grid = Grid::new(640, 420).unwrap();
    assert!(grid.len() > 1 << 18);
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    let walker = Walker::new(MOBILITY);
    let (left, right) = (Cell::new(5, 200), Cell::new(600, 200));
    let unit = app
        .world_mut()
        .spawn((
            GridCell(left),
            PathRequest::to_cell(right).with_mobility(MOBILITY),
        ))
        .id();
    until_known(&mut app, walker);
    // A wall across the map but one cell, each end growing towards the gap (so that
    // each closing's sides meet round it), then that cell.
    for y in (211..420).rev().chain(0..210) {
        set_cell(&mut app, &mut grid, Cell::new(320, y), TileKind::K1);
    }
    ticks(&mut app, 1);
    assert!(ask(&mut app, move |r| r.knows(walker)
        && r.can_reach(walker, left, right)));
    set_cell(&mut app, &mut grid, Cell::new(320, 210), TileKind::K1);
    ticks(&mut app, 1);
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!(d.components_building, 1, "built again in the background");
    assert!(
        !ask(&mut app, move |r| r.knows(walker)),
        "unsettled: not used"
    );
    assert!(!ask(&mut app, move |r| r.can_reach(walker, left, right)));
    assert!(ask(&mut app, move |r| r.can_reach(
        walker,
        left,
        Cell::new(0, 0)
    )));
    // A request across meanwhile: the closest cell, found by a search.
    app.world_mut()
        .entity_mut(unit)
        .insert(PathRequest::to_cell(Cell::new(601, 201)).with_mobility(MOBILITY));
    until_known(&mut app, walker);
    assert!(!ask(&mut app, move |r| r.can_reach(walker, left, right)));
    assert!(ask(&mut app, move |r| r.can_reach(
        walker,
        right,
        Cell::new(639, 0)
    )));
    let status = *app.world().get::<PathStatus>(unit).unwrap();
    assert_eq!(status, PathStatus::Partial(NoPathReason::Unreachable));
}

/// Ticks until the plugin's components answer for `walker`.
fn until_known(app: &mut App, walker: Walker) {
    let started = std::time::Instant::now();
    while !ask(app, move |r| r.knows(walker)) {
        assert!(
            started.elapsed().as_secs() < 20,
            "the components never ready"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
        ticks(app, 1);
    }
}

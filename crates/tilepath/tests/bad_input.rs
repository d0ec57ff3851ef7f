//! Bad input never panics: each case has a documented, tested result.

use tilepath::{
    AStar, Arrival, Cell, Connectivity, Greedy, Grid, GridPath8, MAX_STEPS, Mobility, PathError,
    PathQuery, Solver, TileKind,
};

fn open(w: u32, h: u32) -> Grid {
    Grid::new(w, h).unwrap()
}

#[test]
fn start_outside_the_grid_is_an_error() {
    let grid = open(10, 10);
    for start in [
        Cell::new(-1, 0),
        Cell::new(0, 10),
        Cell::new(i32::MIN, i32::MAX),
    ] {
        let expected = Err(PathError::StartOutOfBounds {
            start,
            width: 10,
            height: 10,
        });
        let to = Cell::new(5, 5);
        assert_eq!(
            AStar::new().find(&grid, PathQuery::new(start, to, Mobility::FLOOR_ONLY)),
            expected
        );
        assert_eq!(
            AStar::whole_grid().find(&grid, PathQuery::new(start, to, Mobility::FLOOR_ONLY)),
            expected
        );
        assert_eq!(
            Greedy::new().find(&grid, PathQuery::new(start, to, Mobility::FLOOR_ONLY)),
            expected
        );
        assert!(
            AStar::new()
                .find(
                    &grid,
                    PathQuery::new(start, to, Mobility::FLOOR_ONLY)
                        .connectivity(Connectivity::Eight)
                )
                .is_err()
        );
    }
    let e = AStar::new().find(
        &grid,
        PathQuery::new(Cell::new(-1, 0), Cell::new(0, 0), Mobility::FLOOR_ONLY),
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "start cell (-1, 0) is outside the 10x10 grid"
    );
}

#[test]
fn zero_sized_grids_have_no_start() {
    for grid in [open(0, 0), open(0, 5), open(5, 0)] {
        let r = AStar::whole_grid().find(
            &grid,
            PathQuery::new(Cell::new(0, 0), Cell::new(0, 0), Mobility::ALL_PASSABLE),
        );
        assert!(matches!(r, Err(PathError::StartOutOfBounds { .. })));
        let r = Greedy::new().find(
            &grid,
            PathQuery::new(Cell::new(0, 0), Cell::new(1, 0), Mobility::ALL_PASSABLE),
        );
        assert!(matches!(r, Err(PathError::StartOutOfBounds { .. })));
    }
}

#[test]
fn goal_outside_the_grid_gives_a_partial_path_to_the_nearest_cell() {
    let grid = open(10, 10);
    let from = Cell::new(2, 2);
    let to = Cell::new(20, 5);
    let r = AStar::new()
        .find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))
        .unwrap();
    assert!((r.arrival != Arrival::Reached) && r.arrival == Arrival::Closest(Cell::new(9, 5)));
    assert_eq!(r.end, Cell::new(9, 5));
    assert_eq!(r.cost, 10.0);
    let g = Greedy::new()
        .find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))
        .unwrap();
    assert_eq!(
        (g.end, (g.arrival != Arrival::Reached)),
        (Cell::new(9, 5), true)
    );
}

#[test]
fn start_equal_to_goal_is_an_empty_complete_path() {
    let grid = open(4, 4);
    let c = Cell::new(1, 1);
    let r = AStar::new()
        .find(&grid, PathQuery::new(c, c, Mobility::FLOOR_ONLY))
        .unwrap();
    assert_eq!(
        (r.path, r.end, r.cost, (r.arrival != Arrival::Reached)),
        (GridPath8::EMPTY, c, 0.0, false)
    );
    let g = Greedy::new()
        .find(&grid, PathQuery::new(c, c, Mobility::FLOOR_ONLY))
        .unwrap();
    assert_eq!(
        (g.path, (g.arrival != Arrival::Reached)),
        (GridPath8::EMPTY, false)
    );
}

#[test]
fn a_blocked_start_can_be_left() {
    // The unit stands on a cell that just became a wall: it may still walk off it.
    let mut grid = open(5, 1);
    grid.set(Cell::new(0, 0), TileKind::K1).unwrap();
    let r = AStar::new()
        .find(
            &grid,
            PathQuery::new(Cell::new(0, 0), Cell::new(4, 0), Mobility::FLOOR_ONLY),
        )
        .unwrap();
    assert_eq!(
        (r.path.len(), (r.arrival != Arrival::Reached), r.cost),
        (4, false, 4.0)
    );
    // ... but no path leads back onto it.
    let back = AStar::new()
        .find(
            &grid,
            PathQuery::new(Cell::new(4, 0), Cell::new(0, 0), Mobility::FLOOR_ONLY),
        )
        .unwrap();
    assert_eq!(
        (back.end, (back.arrival != Arrival::Reached)),
        (Cell::new(1, 0), true)
    );
}

#[test]
fn a_walled_in_start_gets_an_empty_partial_path() {
    let grid = Grid::from_ascii("#.#\n#.#\n###", |c| {
        Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    })
    .unwrap();
    let from = Cell::new(1, 1);
    let to = Cell::new(1, 2);
    let r = AStar::new()
        .find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))
        .unwrap();
    assert_eq!(
        (r.end, (r.arrival != Arrival::Reached), r.path.len()),
        (from, true, 0)
    );
    let all_blocked = AStar::new()
        .find(
            &grid,
            PathQuery::new(from, Cell::new(0, 0), Mobility::ALL_BLOCKED),
        )
        .unwrap();
    assert_eq!(
        (all_blocked.end, (all_blocked.arrival != Arrival::Reached)),
        (from, true)
    );
}

#[test]
fn goals_beyond_the_window_give_the_first_56_steps() {
    let grid = open(300, 1);
    let from = Cell::new(0, 0);
    let to = Cell::new(200, 0);
    let r = AStar::new()
        .find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))
        .unwrap();
    assert_eq!(
        (r.end, r.path.len(), (r.arrival != Arrival::Reached)),
        (Cell::new(56, 0), 56, true)
    );
    let w = AStar::whole_grid()
        .find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))
        .unwrap();
    assert_eq!(
        (
            w.end,
            w.path.len(),
            (w.arrival != Arrival::Reached),
            (w.route_len as usize > MAX_STEPS)
        ),
        (Cell::new(56, 0), 56, true, true)
    );
    assert_eq!(
        (w.arrival, w.route_len, w.cost),
        (Arrival::OnTheWay, 200, 200.0)
    );
}

#[test]
fn whole_grid_solver_follows_grid_size_changes() {
    let mut s = AStar::whole_grid();
    let small = open(8, 8);
    let large = open(300, 200);
    let r = s
        .find(
            &large,
            PathQuery::new(Cell::new(0, 0), Cell::new(299, 199), Mobility::FLOOR_ONLY),
        )
        .unwrap();
    assert_eq!(r.cost, 498.0);
    let r = s
        .find(
            &small,
            PathQuery::new(Cell::new(0, 0), Cell::new(7, 7), Mobility::FLOOR_ONLY),
        )
        .unwrap();
    assert_eq!((r.cost, (r.arrival != Arrival::Reached)), (14.0, false));
}

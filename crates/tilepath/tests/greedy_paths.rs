//! How long greedy's paths are: on seeded random grids (several wall densities),
//! mazes, the Moving AI and reference maps in `tilepath_testkit/data/`, and U-shaped traps,
//! the mean of (route length / shortest route in the window) of [`Greedy`], beside two
//! plain models: the order greedy used to expand in (strictly nearest first), and the
//! original Go library's greedy (quasilyte/pathing, `GreedyBFS`). The test checks that
//! greedy's routes are no longer than the Go model's: on every trap, and on average on
//! every map family.
//!
//! `cargo test -p tilepath --test greedy_paths -- --nocapture` prints the table.

use rand::RngExt;
use std::collections::{HashMap, VecDeque};
use tilepath::{Arrival, Cell, Greedy, Grid, Mobility, PathQuery, Solver, TileKind};
use tilepath_testkit::*;

/// Mobility of the generated maps: kind 3 is the wall.
const OPEN_BUT_K3: Mobility = Mobility::new([1, 1, 1, 0]);
/// The 4-connected neighbour order of both models and of `Greedy`: right, down, left, up.
const NEIGHBOURS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// The Go library's longest path (steps), which its search stops past.
const GO_MAX_LEN: u32 = 56;

fn open(grid: &Grid, mobility: Mobility, c: Cell) -> bool {
    grid.cost(c, mobility) != 0
}

/// Steps of the shortest route from `from` to `to` inside greedy's window, if any.
fn shortest(grid: &Grid, mobility: Mobility, from: Cell, to: Cell) -> Option<u32> {
    let inside = in_window(from);
    let mut seen = HashMap::from([(from, 0u32)]);
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        let d = seen[&c];
        if c == to {
            return Some(d);
        }
        for (dx, dy) in NEIGHBOURS {
            let n = Cell::new(c.x + dx, c.y + dy);
            if inside(n) && open(grid, mobility, n) && !seen.contains_key(&n) {
                seen.insert(n, d + 1);
                queue.push_back(n);
            }
        }
    }
    None
}

/// Route length by walking the parents back from `to` to `from`.
fn route_len(parents: &HashMap<Cell, Cell>, from: Cell, to: Cell) -> u32 {
    let mut len = 0;
    let mut c = to;
    while c != from {
        c = parents[&c];
        len += 1;
    }
    len
}

/// The order greedy expanded in before it took nearer cells first: 64 LIFO stacks by
/// Manhattan distance to the goal (the goal's alone, then from 57 below the start's,
/// the end stacks taking everything nearer and farther), always the nearest first;
/// neighbours right, down, left, up, inside the window. The route's length if it
/// reaches the goal.
fn nearest_first_model(grid: &Grid, mobility: Mobility, from: Cell, to: Cell) -> Option<u32> {
    let base = from.manhattan(to).saturating_sub(57);
    let bucket = |c: Cell| match c.manhattan(to) {
        0 => 0,
        d => (d - base.min(d)).clamp(1, 63) as usize,
    };
    let inside = in_window(from);
    let mut stacks: Vec<Vec<Cell>> = vec![Vec::new(); 64];
    let mut parents = HashMap::from([(from, from)]);
    stacks[bucket(from)].push(from);
    while let Some(c) = stacks.iter_mut().find_map(Vec::pop) {
        if c == to {
            return Some(route_len(&parents, from, to));
        }
        for (dx, dy) in NEIGHBOURS {
            let n = Cell::new(c.x + dx, c.y + dy);
            if inside(n) && open(grid, mobility, n) && !parents.contains_key(&n) {
                parents.insert(n, c);
                stacks[bucket(n)].push(n);
            }
        }
    }
    None
}

/// A model of the Go library's greedy best-first search, written from its description
/// of the idea: a neighbour nearer the goal than the cell expanded goes on a LIFO
/// list that is always taken from first; the others go in a 64-bucket queue keyed by
/// their distance to the goal modulo 64 (LIFO within a bucket). The start is not
/// marked as reached (a neighbour may queue it again), the goal is recognised when
/// taken, and the search gives up when it takes a cell more than 56 steps from the
/// start (counted along the way it was reached). Cells outside the grid are skipped;
/// the Go search box is not modelled, as no cell it would alias is ever expanded.
fn go_model(grid: &Grid, mobility: Mobility, from: Cell, to: Cell) -> Option<u32> {
    if from == to {
        return Some(0);
    }
    let mut hot = vec![(from, 0u32)];
    let mut buckets: Vec<Vec<(Cell, u32)>> = vec![Vec::new(); 64];
    let mut parents: HashMap<Cell, Cell> = HashMap::new();
    loop {
        let (c, steps) = match hot.pop() {
            Some(e) => e,
            None => buckets.iter_mut().find_map(Vec::pop)?,
        };
        if c == to {
            return Some(route_len(&parents, from, to));
        }
        if steps > GO_MAX_LEN {
            return None;
        }
        let d = c.manhattan(to);
        for (dx, dy) in NEIGHBOURS {
            let n = Cell::new(c.x + dx, c.y + dy);
            if !grid.contains(n) || !open(grid, mobility, n) || parents.contains_key(&n) {
                continue;
            }
            parents.insert(n, c);
            let nd = n.manhattan(to);
            if nd < d {
                hot.push((n, steps + 1));
            } else {
                buckets[(nd & 63) as usize].push((n, steps + 1));
            }
        }
    }
}

/// Sums of length / shortest for one map family.
#[derive(Default)]
struct Tally {
    queries: usize,
    /// Queries every variant completed (the means are over these).
    common: usize,
    sums: [f64; 3],
    worst: [f64; 3],
    /// Routes found, by variant.
    found: [usize; 3],
    /// Common queries where greedy's route is as long as each model's.
    same: [usize; 2],
}

impl Tally {
    /// Records one query; returns the three lengths if all completed.
    fn add(
        &mut self,
        greedy: &mut Greedy,
        grid: &Grid,
        mobility: Mobility,
        from: Cell,
        to: Cell,
    ) -> Option<[u32; 3]> {
        let best = shortest(grid, mobility, from, to)?;
        self.queries += 1;
        let r = greedy
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        let ours = (!matches!(r.arrival, Arrival::Closest(_))).then_some(r.route_len);
        let lens = [
            nearest_first_model(grid, mobility, from, to),
            ours,
            go_model(grid, mobility, from, to),
        ];
        for (found, len) in self.found.iter_mut().zip(lens) {
            *found += usize::from(len.is_some());
        }
        let [Some(a), Some(b), Some(c)] = lens else {
            return None;
        };
        if best > 0 {
            self.common += 1;
            self.same[0] += usize::from(a == b);
            self.same[1] += usize::from(c == b);
            for ((sum, worst), len) in self.sums.iter_mut().zip(&mut self.worst).zip([a, b, c]) {
                let ratio = f64::from(len) / f64::from(best);
                *sum += ratio;
                *worst = worst.max(ratio);
            }
        }
        Some([a, b, c])
    }

    fn mean(&self, variant: usize) -> f64 {
        self.sums[variant] / self.common.max(1) as f64
    }

    fn print(&self, family: &str) {
        println!(
            "{family:<24} {:>5} {:>5} | {:>6.3} {:>6.3} {:>6.3} | {:>5.2} {:>5.2} {:>5.2} | {:>5} {:>5} {:>5} | {:>5} {:>5}",
            self.queries,
            self.common,
            self.mean(0),
            self.mean(1),
            self.mean(2),
            self.worst[0],
            self.worst[1],
            self.worst[2],
            self.found[0],
            self.found[1],
            self.found[2],
            self.same[0],
            self.same[1],
        );
    }

    /// Whether greedy's mean is no worse than the Go model's; if not, why.
    fn check(&self, family: &str, problems: &mut Vec<String>) {
        if self.common == 0 {
            problems.push(format!("{family}: no query compared"));
        } else if self.mean(1) > self.mean(2) + 1e-9 {
            problems.push(format!(
                "{family}: greedy's mean length/shortest {:.4} exceeds the Go model's {:.4}",
                self.mean(1),
                self.mean(2)
            ));
        }
    }
}

fn header() {
    println!(
        "{:<24} {:>5} {:>5} | {:>6} {:>6} {:>6} | {:>5} {:>5} {:>5} | {:>5} {:>5} {:>5} | {:>5} {:>5}",
        "family",
        "pairs",
        "comp.",
        "mean:n",
        "greedy",
        "Go",
        "max:n",
        "grdy",
        "Go",
        "fnd:n",
        "grdy",
        "Go",
        "=n",
        "=Go"
    );
}

/// Random pairs of open cells at most 40 steps apart (Manhattan) on `grid`.
fn random_pairs(
    rng: &mut rand::rngs::StdRng,
    grid: &Grid,
    mobility: Mobility,
    count: usize,
) -> Vec<(Cell, Cell)> {
    let mut pairs = Vec::new();
    let mut tries = 0;
    while pairs.len() < count && tries < 100 * count {
        tries += 1;
        let from = random_cell(rng, grid);
        let to = Cell::new(
            from.x + rng.random_range(-40..=40),
            from.y + rng.random_range(-40..=40),
        );
        if from != to
            && from.manhattan(to) <= 40
            && open(grid, mobility, from)
            && open(grid, mobility, to)
        {
            pairs.push((from, to));
        }
    }
    pairs
}

/// An open `side x side` grid with a U-shaped wall whose inside is `depth` deep and
/// `width` wide, open to the left; the goal is `gap` columns right of its back wall,
/// `offset` rows off its middle. Starts: inside the U against its back wall, and
/// `gap` columns left of its opening. All of it seen through `symmetry` (0..8: the
/// square's rotations and reflections), so that the trap faces every way.
fn u_trap(depth: i32, width: i32, gap: i32, offset: i32, symmetry: u8) -> (Grid, [Cell; 2], Cell) {
    const SIDE: i32 = 72;
    let see = |x: i32, y: i32| {
        let (x, y) = if symmetry & 1 != 0 { (y, x) } else { (x, y) };
        let x = if symmetry & 2 != 0 { SIDE - 1 - x } else { x };
        let y = if symmetry & 4 != 0 { SIDE - 1 - y } else { y };
        Cell::new(x, y)
    };
    // The inside: columns x0..x0 + depth, rows y0..y0 + width.
    let (x0, y0) = (SIDE / 2 - depth, SIDE / 2 - width / 2);
    let mut grid = Grid::filled(SIDE as u32, SIDE as u32, TileKind::K0).unwrap();
    let mut wall = |x: i32, y: i32| {
        grid.set(see(x, y), TileKind::K3).unwrap();
    };
    for y in y0 - 1..=y0 + width {
        wall(x0 + depth, y);
    }
    for x in x0..x0 + depth {
        wall(x, y0 - 1);
        wall(x, y0 + width);
    }
    let middle = y0 + width / 2;
    let goal = see(x0 + depth + gap, middle + offset);
    let starts = [see(x0 + depth - 1, middle), see(x0 - gap, middle)];
    (grid, starts, goal)
}

#[test]
fn greedy_routes_are_no_longer_than_the_go_librarys() {
    let mut greedy = Greedy::new();
    // Checked once the whole table is printed.
    let mut problems = Vec::new();
    header();
    // U-shaped traps facing away from the goal: each no longer than the Go model's.
    let mut traps = Tally::default();
    let mut longer = Vec::new();
    for depth in [3, 6, 12, 20] {
        for width in [3, 8, 15] {
            for offset in [0, 3] {
                for symmetry in 0..8 {
                    let (grid, starts, goal) = u_trap(depth, width, 6, offset, symmetry);
                    for from in starts {
                        if let Some([_, ours, go]) =
                            traps.add(&mut greedy, &grid, OPEN_BUT_K3, from, goal)
                            && ours > go
                        {
                            longer.push((depth, width, offset, symmetry, from, ours, go));
                        }
                    }
                }
            }
        }
    }
    traps.print("U traps");
    if !longer.is_empty() {
        problems.push(format!(
            "greedy longer than the Go model on traps \
             (depth, width, offset, symmetry, start, greedy, Go): {longer:?}"
        ));
    }
    traps.check("U traps", &mut problems);
    if traps.found[1] != traps.queries {
        problems.push("greedy should complete every trap".into());
    }
    if traps.mean(1) >= traps.mean(0) {
        problems.push("taking nearer cells first should shorten the traps' routes".into());
    }

    // Seeded random grids, several wall densities.
    for walls in [0.05, 0.15, 0.25, 0.35] {
        let mut tally = Tally::default();
        for seed in 0..30 {
            let mut rng = rng(1000 + seed);
            let grid = random_grid(&mut rng, 90, 90, walls);
            for (from, to) in random_pairs(&mut rng, &grid, OPEN_BUT_K3, 20) {
                tally.add(&mut greedy, &grid, OPEN_BUT_K3, from, to);
            }
        }
        let family = format!("random {:.0}% walls", walls * 100.0);
        tally.print(&family);
        tally.check(&family, &mut problems);
    }
    // Mazes with a few loops.
    let mut mazes = Tally::default();
    for seed in 0..20 {
        let mut rng = rng(2000 + seed);
        let grid = maze_grid(&mut rng, 30, 30, 0.1);
        for (from, to) in random_pairs(&mut rng, &grid, OPEN_BUT_K3, 20) {
            mazes.add(&mut greedy, &grid, OPEN_BUT_K3, from, to);
        }
    }
    mazes.print("mazes, 10% loops");
    mazes.check("mazes, 10% loops", &mut problems);
    // Moving AI maps: random pairs (their scenarios are 8-connected and mostly long).
    let mut all_movingai = Tally::default();
    for map in MOVING_AI_MAPS {
        let grid = load_movingai(map);
        let mut rng = rng(3000);
        let mut tally = Tally::default();
        for (from, to) in random_pairs(&mut rng, &grid, Mobility::FLOOR_ONLY, 150) {
            tally.add(&mut greedy, &grid, Mobility::FLOOR_ONLY, from, to);
        }
        tally.print(map);
        all_movingai.queries += tally.queries;
        all_movingai.common += tally.common;
        for v in 0..3 {
            all_movingai.sums[v] += tally.sums[v];
            all_movingai.worst[v] = all_movingai.worst[v].max(tally.worst[v]);
            all_movingai.found[v] += tally.found[v];
        }
        for v in 0..2 {
            all_movingai.same[v] += tally.same[v];
        }
    }
    all_movingai.print("Moving AI, all");
    all_movingai.check("Moving AI maps", &mut problems);
    // The reference maps' own queries.
    for name in ["no_walls", "simple_wall", "pocket_wall", "multi_wall"] {
        let (grid, from, to) = load_reference(name);
        let mut tally = Tally::default();
        tally.add(&mut greedy, &grid, Mobility::FLOOR_ONLY, from, to);
        tally.print(name);
        tally.check(name, &mut problems);
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

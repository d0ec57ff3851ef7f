//! The searches behind [`Reachability`](super::Reachability): what blocking some cells
//! cuts off, around them when the components are kept, and a flood of the grid when
//! they are not.

use std::collections::{HashMap, HashSet, VecDeque};

use tilepath::{Cell, Components, Direction8, Grid, HexLayout, Mobility};

use crate::MapLayout;

/// How a walker moves on its grid: where it may stand, and its steps.
#[derive(Clone, Copy)]
pub(super) struct Lattice {
    pub(super) mobility: Mobility,
    pub(super) size: u8,
    /// Its hex layout, on hex maps (its 6 steps); otherwise its 4 straight steps join
    /// the same cells as its 8 (a diagonal step needs both straight ones beside it).
    pub(super) hex: Option<HexLayout>,
    /// The map's layout, whose holes no request starts or ends in.
    pub(super) holes: MapLayout,
}

impl Lattice {
    /// Whether the walker can stand at `c` (its footprint anchored there fits).
    fn fits(&self, grid: &Grid, c: Cell) -> bool {
        grid.fits(c, self.mobility, self.size)
    }

    /// Whether `c` may be asked about: inside the grid, and not in a hole of its map.
    pub(super) fn holds(&self, grid: &Grid, c: Cell) -> bool {
        self.holes.holds(c, grid.width(), grid.height())
    }

    /// The cells one step from `c` (some perhaps outside the grid).
    fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> + use<> {
        let dirs = match self.hex {
            Some(layout) => layout.directions(c).map(Some),
            None => [
                Some(Direction8::Right),
                Some(Direction8::Up),
                Some(Direction8::Left),
                Some(Direction8::Down),
                None,
                None,
            ],
        };
        dirs.into_iter().flatten().map(move |d| c.step(d))
    }
}

/// No label: blocked, or not reached.
const NONE: u32 = u32::MAX;

/// One search started beside the blocked cells.
#[derive(Default)]
struct Side {
    /// The side it joined (itself while it has joined none).
    parent: u32,
    /// Cells reached and not looked around yet.
    queue: VecDeque<u32>,
    /// It ran out of cells: it is all of a part cut off from the rest.
    closed: bool,
}

/// Scratch kept between questions (a [`Local`](bevy::prelude::Local)).
#[derive(Default)]
pub(crate) struct Scratch {
    /// Anchors the blocked cells close (their footprints cover one).
    blocked: HashSet<u32>,
    /// Cells the searches beside the blocked cells reached, with the side that did.
    reached: HashMap<u32, u32>,
    sides: Vec<Side>,
    /// Sides still searching.
    active: Vec<u32>,
    /// Per cell, when the grid is flooded whole: its part's label, or [`NONE`].
    labels: Vec<u32>,
    queue: VecDeque<u32>,
}

/// The answer of [`Reachability::if_blocked`](super::Reachability::if_blocked): what
/// the walker could reach were the cells blocked. The grid is not changed.
///
/// # Cost
/// Made once for any number of questions. With the plugin's components in step with
/// the grid, a search starts from every cell beside the blocked ones (the cells a
/// blocked footprint could step to), all advancing one cell in turn, and stops as soon
/// as at most one of them, in each component, is still going: those that meet are
/// one; those that run out of cells are parts cut off. When the blocked cells cut
/// nothing off, that is about the ring of cells around them, however large the map;
/// when they do, at most the number of starting cells times the cells of every part
/// but the largest. Without components the grid is flooded whole: every cell, each
/// read `size²` times. Each [`reaches`](Self::reaches) is then `O(log n)`.
pub struct IfBlocked<'a> {
    answer: Option<Answer<'a>>,
}

struct Answer<'a> {
    grid: &'a Grid,
    lattice: Lattice,
    scratch: &'a Scratch,
    /// The components before blocking, when kept; `None`: `scratch.labels` holds the
    /// parts after it.
    parts: Option<&'a Components>,
}

impl IfBlocked<'_> {
    /// Nothing reaches anything (no grid, a walker that cannot walk there).
    pub(super) fn nowhere() -> Self {
        Self { answer: None }
    }

    /// Whether the walker could still walk from `from` to `to` with the cells
    /// blocked: both are cells it could stand on (no blocked cell under its footprint
    /// there), joined by steps it could take.
    #[must_use]
    pub fn reaches(&self, from: Cell, to: Cell) -> bool {
        let Some(a) = &self.answer else {
            return false;
        };
        let (grid, s) = (a.grid, a.scratch);
        let index = |c: Cell| {
            a.lattice
                .holds(grid, c)
                .then(|| grid.index_of(c))
                .flatten()
                .map(|i| i as u32)
        };
        let (Some(i), Some(j)) = (index(from), index(to)) else {
            return false;
        };
        if s.blocked.contains(&i) || s.blocked.contains(&j) {
            return false;
        }
        match a.parts {
            None => {
                let (x, y) = (s.labels[i as usize], s.labels[j as usize]);
                x != NONE && x == y
            }
            // In one component before, and in the same part after: a part cut off
            // is known whole; the rest of the component is one part.
            Some(parts) => parts.is_reachable(from, to) && s.part(i) == s.part(j),
        }
    }
}

impl Scratch {
    /// The side `k` joined, in the end.
    fn root(&self, mut k: u32) -> u32 {
        while self.sides[k as usize].parent != k {
            k = self.sides[k as usize].parent;
        }
        k
    }

    /// The part cut off that cell `i` is in, or `None` for the rest of its component.
    fn part(&self, i: u32) -> Option<u32> {
        let k = self.root(*self.reached.get(&i)?);
        self.sides[k as usize].closed.then_some(k)
    }

    /// Whether a flood from `from` reaches `to` on `grid` (no cell blocked).
    pub(super) fn flood_reaches(
        &mut self,
        grid: &Grid,
        lattice: &Lattice,
        from: Cell,
        to: Cell,
    ) -> bool {
        if !lattice.holds(grid, from)
            || !lattice.holds(grid, to)
            || !lattice.fits(grid, from)
            || !lattice.fits(grid, to)
        {
            return false;
        }
        self.blocked.clear();
        self.label(grid, lattice, Some(from));
        let (Some(i), Some(j)) = (grid.index_of(from), grid.index_of(to)) else {
            return false;
        };
        self.labels[i] == self.labels[j]
    }

    /// Labels the cells the walker can stand on, the blocked anchors excluded, by
    /// the part they are in: only `from`'s part when given, else every part.
    fn label(&mut self, grid: &Grid, lattice: &Lattice, from: Option<Cell>) {
        self.labels.clear();
        self.labels.resize(grid.len(), NONE);
        let seeds = match from {
            Some(c) => grid.index_of(c).map_or(0..0, |i| i..i + 1),
            None => 0..grid.len(),
        };
        let mut next = 0;
        for seed in seeds {
            let cell = grid.cell_of(seed).unwrap_or_default();
            if self.labels[seed] != NONE
                || self.blocked.contains(&(seed as u32))
                || !lattice.fits(grid, cell)
            {
                continue;
            }
            self.labels[seed] = next;
            self.queue.clear();
            self.queue.push_back(seed as u32);
            while let Some(i) = self.queue.pop_front() {
                let c = grid.cell_of(i as usize).unwrap_or_default();
                for n in lattice.neighbours(c) {
                    let Some(j) = grid.index_of(n) else { continue };
                    if self.labels[j] == NONE
                        && !self.blocked.contains(&(j as u32))
                        && lattice.fits(grid, n)
                    {
                        self.labels[j] = next;
                        self.queue.push_back(j as u32);
                    }
                }
            }
            next += 1;
        }
    }

    /// Works out what blocking `cells` cuts off (see [`IfBlocked`]).
    pub(super) fn if_blocked<'a>(
        &'a mut self,
        grid: &'a Grid,
        lattice: Lattice,
        parts: Option<&'a Components>,
        cells: &[Cell],
    ) -> IfBlocked<'a> {
        // The anchors whose footprint covers a blocked cell.
        self.blocked.clear();
        let n = i32::from(lattice.size);
        for c in cells.iter().filter(|c| grid.contains(**c)) {
            for dy in 0..n {
                for dx in 0..n {
                    let a = Cell::new(c.x.saturating_sub(dx), c.y.saturating_sub(dy));
                    if let Some(i) = grid.index_of(a) {
                        self.blocked.insert(i as u32);
                    }
                }
            }
        }
        match parts {
            None => self.label(grid, &lattice, None),
            Some(parts) => self.search_sides(grid, &lattice, parts),
        }
        IfBlocked {
            answer: Some(Answer {
                grid,
                lattice,
                scratch: self,
                parts,
            }),
        }
    }

    /// Searches from every cell beside the blocked anchors until, in each component,
    /// at most one search is still going (see [`IfBlocked`]).
    fn search_sides(&mut self, grid: &Grid, lattice: &Lattice, parts: &Components) {
        self.reached.clear();
        self.sides.clear();
        // The starting cells, by component.
        let mut starts: Vec<(u32, u32)> = Vec::new();
        for &b in &self.blocked {
            let c = grid.cell_of(b as usize).unwrap_or_default();
            for n in lattice.neighbours(c) {
                let Some(j) = grid.index_of(n).map(|j| j as u32) else {
                    continue;
                };
                if !self.blocked.contains(&j)
                    && let Some(component) = parts.component(n)
                {
                    starts.push((component, j));
                }
            }
        }
        starts.sort_unstable();
        starts.dedup();
        for group in starts.chunk_by(|a, b| a.0 == b.0) {
            self.active.clear();
            for &(_, j) in group {
                let k = self.sides.len() as u32;
                self.sides.push(Side {
                    parent: k,
                    queue: VecDeque::from([j]),
                    closed: false,
                });
                self.reached.insert(j, k);
                self.active.push(k);
            }
            self.advance(grid, lattice);
        }
    }

    /// Advances the active sides a cell each in turn until at most one is left.
    fn advance(&mut self, grid: &Grid, lattice: &Lattice) {
        let mut turn = 0;
        while self.active.len() > 1 {
            if turn >= self.active.len() {
                turn = 0;
            }
            let k = self.active[turn];
            let Some(i) = self.sides[k as usize].queue.pop_front() else {
                // Ran out of cells: a part cut off, known whole.
                self.sides[k as usize].closed = true;
                self.active.swap_remove(turn);
                continue;
            };
            let c = grid.cell_of(i as usize).unwrap_or_default();
            for n in lattice.neighbours(c) {
                let Some(j) = grid.index_of(n).map(|j| j as u32) else {
                    continue;
                };
                if self.blocked.contains(&j) || !lattice.fits(grid, n) {
                    continue;
                }
                match self.reached.get(&j) {
                    None => {
                        self.reached.insert(j, k);
                        self.sides[k as usize].queue.push_back(j);
                    }
                    Some(&other) => {
                        let other = self.root(other);
                        if other != k {
                            self.join(k, other);
                        }
                    }
                }
            }
            turn += 1;
        }
    }

    /// Side `other` met side `k`: `k` carries on for both.
    fn join(&mut self, k: u32, other: u32) {
        let mut queue = core::mem::take(&mut self.sides[other as usize].queue);
        let mine = &mut self.sides[k as usize].queue;
        if queue.len() > mine.len() {
            core::mem::swap(&mut queue, mine);
        }
        mine.append(&mut queue);
        self.sides[other as usize].parent = k;
        if let Some(at) = self.active.iter().position(|&a| a == other) {
            self.active.swap_remove(at);
        }
    }
}

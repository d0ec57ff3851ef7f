//! Dead-end branches: the parts of a map that hang off the rest by a single cell
//! (corridors that end, rooms with one door, whole tree-shaped mazes).
//!
//! Peeling every cell with at most one neighbour, again and again, leaves the map's
//! *core* (its 2-core: the cells on a loop or between loops). What was peeled is a
//! forest of trees, each hanging from one core cell or, for a component with no loop
//! at all, from nothing. No cheapest path between two other cells runs through a
//! branch, and a path from or into one is forced (a tree has one path between two
//! cells), so the pair table holds only the core. A branch cell instead gets a number
//! in depth-first preorder, which makes "is `t` below `x`" two comparisons: a query
//! touching a branch stays O(1) and needs no pair entries at all.

use super::NONE;

/// A padded cell that is blocked (or the border).
pub(super) const CLOSED: u8 = u8::MAX;
/// A padded cell of the core.
pub(super) const CORE: u8 = u8::MAX - 1;
/// A branch cell with no parent: the root of a tree with no core to hang from.
pub(super) const ROOT: u8 = u8::MAX - 2;

/// The padded cell one step `dir` (a `Direction8` code) from `p` over `costs`, if that
/// step is legal: open, and for a diagonal both orthogonal cells beside it open.
#[inline(always)]
pub(super) fn legal_step(costs: &[u8], deltas: &[isize; 8], p: usize, dir: usize) -> Option<usize> {
    let q = p.wrapping_add_signed(deltas[dir]);
    if costs[q] == 0 {
        return None;
    }
    if dir & 1 == 1 {
        let a = p.wrapping_add_signed(deltas[dir - 1]);
        let b = p.wrapping_add_signed(deltas[(dir + 1) & 7]);
        if costs[a] == 0 || costs[b] == 0 {
            return None;
        }
    }
    Some(q)
}

/// Each padded cell's role: [`CLOSED`], [`CORE`], [`ROOT`], or for a branch cell the
/// direction (a `Direction8` code) to its parent. `dirs` are the directions moved in.
pub(super) fn peel(costs: &[u8], deltas: &[isize; 8], dirs: &[usize]) -> Vec<u8> {
    let n = costs.len();
    let mut role = vec![CLOSED; n];
    let mut degree = vec![0u8; n];
    let mut stack = Vec::new();
    for p in 0..n {
        if costs[p] == 0 {
            continue;
        }
        role[p] = CORE;
        degree[p] = dirs
            .iter()
            .filter(|&&d| legal_step(costs, deltas, p, d).is_some())
            .count() as u8;
        if degree[p] <= 1 {
            stack.push(p);
        }
    }
    // A cell is pushed once its degree falls to 1 (or starts at most 1), and its
    // degree only falls: when popped it has at most one neighbour left, its parent.
    while let Some(v) = stack.pop() {
        if role[v] != CORE {
            continue;
        }
        let mut up = ROOT;
        for &d in dirs {
            if let Some(q) = legal_step(costs, deltas, v, d)
                && role[q] == CORE
            {
                up = d as u8;
                degree[q] -= 1;
                if degree[q] == 1 {
                    stack.push(q);
                }
            }
        }
        role[v] = up;
    }
    role
}

/// A branch cell's way around its tree, for a query in a few comparisons and no
/// unpredictable branch.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// One past the last number of its subtree.
    end: u32,
    /// Where the subtrees of its 2nd, 3rd and 4th children start (`u32::MAX`: none).
    split: [u32; 3],
    /// 3 bits each, the orthogonal direction (`Direction` code) up (entry 0) and to
    /// its children in order (entries 1 to 4); [`NO_WAY`] for none.
    ways: u16,
}

/// A `Node::ways` entry for no direction.
const NO_WAY: u16 = 4;

impl Node {
    const EMPTY: Self = Self {
        end: 0,
        split: [u32::MAX; 3],
        ways: 0o44444,
    };

    fn set_way(&mut self, entry: u32, dir: u16) {
        self.ways = (self.ways & !(7 << (3 * entry))) | (dir << (3 * entry));
    }

    fn way(&self, entry: u32) -> u16 {
        (self.ways >> (3 * entry)) & 7
    }
}

/// The branch cells of a table, numbered in depth-first preorder.
#[derive(Clone, Debug, Default)]
pub(super) struct Branches {
    /// Per padded cell: its number, or `NONE`. Empty when there is no branch cell.
    number: Vec<u32>,
    /// Per number: the padded cell.
    cell: Vec<u32>,
    /// Per number: its subtree and the ways out of it (up first: to its parent, a
    /// branch cell or the core cell its tree hangs from).
    nodes: Vec<Node>,
    /// Per number: the core cell its tree hangs from, or `NONE`.
    anchor: Vec<u32>,
    /// Per number: its mobility cost, 0 once blocked.
    pub(super) cost: Vec<u8>,
    /// Per number: its component, `NONE` while blocked.
    pub(super) component: Vec<u32>,
}

impl Branches {
    /// The branches described by `role` (from [`peel`]) over `costs`.
    pub(super) fn new(costs: &[u8], role: &[u8], deltas: &[isize; 8], dirs: &[usize]) -> Self {
        let mut b = Self::default();
        if !role.iter().any(|&r| r < CORE) {
            return b;
        }
        b.number = vec![NONE; role.len()];
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..role.len() {
            let r = role[root];
            let anchor = match r {
                ROOT => NONE,
                d if d < 8 => {
                    let a = root.wrapping_add_signed(deltas[usize::from(d)]);
                    if role[a] != CORE {
                        continue;
                    }
                    a as u32
                }
                _ => continue,
            };
            // Depth first; children in direction order.
            b.enter(root, r, anchor, costs[root]);
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (p, next) = *top;
                let child = dirs[next.min(dirs.len())..].iter().position(|&d| {
                    let q = p.wrapping_add_signed(deltas[d]);
                    usize::from(role[q]) == (d + 4) & 7
                });
                match child {
                    Some(i) => {
                        let d = dirs[next + i];
                        top.1 = next + i + 1;
                        let q = p.wrapping_add_signed(deltas[d]);
                        b.add_child(b.number[p] as usize, d);
                        b.enter(q, role[q], anchor, costs[q]);
                        stack.push((q, 0));
                    }
                    None => {
                        b.nodes[b.number[p] as usize].end = b.cell.len() as u32;
                        stack.pop();
                    }
                }
            }
        }
        b.cell.shrink_to_fit();
        b.nodes.shrink_to_fit();
        b.anchor.shrink_to_fit();
        b.cost.shrink_to_fit();
        b.component.shrink_to_fit();
        b
    }

    fn enter(&mut self, p: usize, up: u8, anchor: u32, cost: u8) {
        self.number[p] = self.cell.len() as u32;
        self.cell.push(p as u32);
        let mut node = Node::EMPTY;
        if up < 8 {
            debug_assert!(up.is_multiple_of(2), "a tree edge is never diagonal");
            node.set_way(0, u16::from(up) / 2);
        }
        self.nodes.push(node);
        self.anchor.push(anchor);
        self.cost.push(cost);
        self.component.push(NONE);
    }

    /// Records that the next cell entered is a child of number `parent`, in direction
    /// `dir` from it. A tree edge is never diagonal (a diagonal step needs both cells
    /// beside it open, which closes a loop), so a node has at most 4 children.
    fn add_child(&mut self, parent: usize, dir: usize) {
        let child = self.cell.len() as u32;
        let node = &mut self.nodes[parent];
        let entry = (1..=4).find(|&e| node.way(e) == NO_WAY).unwrap_or(4);
        if entry > 1 {
            node.split[entry as usize - 2] = child;
        }
        node.set_way(entry, (dir / 2) as u16);
    }

    /// Branch cells.
    pub(super) fn len(&self) -> usize {
        self.cell.len()
    }

    /// The number of padded cell `p`, or `NONE`.
    #[inline(always)]
    pub(super) fn number(&self, p: usize) -> u32 {
        self.number.get(p).copied().unwrap_or(NONE)
    }

    /// Bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        (self.number.capacity() + self.cell.capacity()) * 4
            + self.nodes.capacity() * size_of::<Node>()
            + (self.anchor.capacity() + self.component.capacity()) * 4
            + self.cost.capacity()
    }

    /// Bytes a forest of `cells` branch cells over `padded` padded cells takes.
    pub(super) fn bytes_for(cells: u64, padded: u64) -> u64 {
        if cells == 0 {
            0
        } else {
            padded * 4 + cells * (size_of::<Node>() as u64 + 13)
        }
    }

    /// Labels the open branch cells' components: a cell joins its parent's (a core
    /// parent's from `core_component`, `NONE` if blocked); one whose parent is blocked
    /// or missing starts a new component. Parents come first in preorder.
    pub(super) fn label(
        &mut self,
        deltas: &[isize; 8],
        core_component: impl Fn(usize) -> u32,
        component_len: &mut Vec<u32>,
    ) {
        for i in 0..self.cell.len() {
            if self.cost[i] == 0 {
                self.component[i] = NONE;
                continue;
            }
            let mut c = NONE;
            let up = self.up(i as u32);
            if up < 8 {
                let q = (self.cell[i] as usize).wrapping_add_signed(deltas[usize::from(up)]);
                let n = self.number[q];
                c = if n == NONE {
                    core_component(q)
                } else {
                    self.component[n as usize]
                };
            }
            if c == NONE {
                c = component_len.len() as u32;
                component_len.push(0);
            }
            self.component[i] = c;
            component_len[c as usize] += 1;
        }
    }

    /// Whether branch number `t` is in the subtree of branch number `x` (itself
    /// included).
    #[inline(always)]
    pub(super) fn below(&self, t: u32, x: u32) -> bool {
        x <= t && t < self.nodes[x as usize].end
    }

    /// The first step (a `Direction8` code) from branch number `x` to branch number
    /// `t`: `None` if they are the same cell or not connected (blocked, or in
    /// different components).
    #[inline(always)]
    pub(super) fn same_tree_step(&self, x: u32, t: u32) -> Option<u8> {
        let (x, t) = (x as usize, t as usize);
        assert!(x.max(t) < self.component.len());
        let c = self.component[x];
        if x == t || c == NONE || c != self.component[t] {
            return None;
        }
        // Connected branch cells are in one tree.
        self.step(x as u32, t as u32)
    }

    /// The first step (a `Direction8` code) from branch number `x` to branch number
    /// `t` of the same tree (`x != t`): into the child whose subtree holds `t`, else
    /// up. Selected arithmetically: which case applies is what a query asks.
    #[inline(always)]
    pub(super) fn step(&self, x: u32, t: u32) -> Option<u8> {
        let n = &self.nodes[x as usize];
        let below = x < t && t < n.end;
        let child =
            u32::from(t >= n.split[0]) + u32::from(t >= n.split[1]) + u32::from(t >= n.split[2]);
        let way = n.way(if below { 1 + child } else { 0 });
        (way != NO_WAY).then_some((way * 2) as u8)
    }

    /// The core cell the tree of branch number `t` hangs from, or `NONE`.
    #[inline(always)]
    pub(super) fn anchor(&self, t: u32) -> u32 {
        self.anchor[t as usize]
    }

    /// The direction from branch number `x` to its parent, or [`ROOT`].
    #[inline(always)]
    pub(super) fn up(&self, x: u32) -> u8 {
        match self.nodes[x as usize].way(0) {
            NO_WAY => ROOT,
            way => (way * 2) as u8,
        }
    }

    /// The direction from padded cell `p` (a branch cell or a core cell) to its open
    /// child whose subtree holds branch number `t`.
    #[inline]
    pub(super) fn child_towards(
        &self,
        p: usize,
        t: u32,
        deltas: &[isize; 8],
        dirs: &[usize],
    ) -> Option<u8> {
        dirs.iter().find_map(|&d| {
            let n = self.number(p.wrapping_add_signed(deltas[d]));
            (n != NONE
                && usize::from(self.up(n)) == (d + 4) & 7
                && self.cost[n as usize] != 0
                && self.below(t, n))
            .then_some(d as u8)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A padded 5x3 area (stride 7): `#` blocked.
    fn costs(rows: [&str; 3]) -> Vec<u8> {
        let mut c = vec![0u8; 7 * 5];
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                c[(y + 1) * 7 + x + 1] = u8::from(ch != '#');
            }
        }
        c
    }

    const DELTAS: [isize; 8] = [1, 8, 7, 6, -1, -8, -7, -6];
    const FOUR: [usize; 4] = [0, 2, 4, 6];

    #[test]
    fn a_loop_is_core_and_its_tails_are_branches() {
        // A 2x2 loop at the left with a tail to the right and one cell below.
        let c = costs(["..###", "....#", "#.###"]);
        let role = peel(&c, &DELTAS, &FOUR);
        let at = |x: usize, y: usize| role[(y + 1) * 7 + x + 1];
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert_eq!(at(x, y), CORE, "({x},{y})");
        }
        assert_eq!(at(2, 1), 4, "(2,1) hangs left of it");
        assert_eq!(at(3, 1), 4);
        assert_eq!(at(1, 2), 6, "(1,2) hangs above it");
        assert_eq!(at(2, 0), CLOSED);
        let b = Branches::new(&c, &role, &DELTAS, &FOUR);
        assert_eq!(b.len(), 3);
        // The tail (2,1)-(3,1) is one tree: (3,1) is below (2,1).
        let n = |x: usize, y: usize| b.number((y + 1) * 7 + x + 1);
        assert!(b.below(n(3, 1), n(2, 1)));
        assert!(!b.below(n(2, 1), n(3, 1)));
        assert!(!b.below(n(1, 2), n(2, 1)));
        assert_eq!(b.anchor(n(3, 1)) as usize, 2 * 7 + 2);
        assert_eq!(b.child_towards(2 * 7 + 2, n(3, 1), &DELTAS, &FOUR), Some(0));
        assert_eq!(b.child_towards(2 * 7 + 2, n(1, 2), &DELTAS, &FOUR), Some(2));
        let mut lens = vec![4];
        let mut b = b;
        b.label(&DELTAS, |_| 0, &mut lens);
        assert_eq!(lens, [7]);
    }

    #[test]
    fn a_tree_with_no_loop_hangs_from_nothing() {
        let c = costs([".....", "#.#.#", "#####"]);
        let role = peel(&c, &DELTAS, &FOUR);
        assert!(role.iter().all(|&r| r != CORE));
        assert_eq!(role.iter().filter(|&&r| r == ROOT).count(), 1);
        let mut b = Branches::new(&c, &role, &DELTAS, &FOUR);
        assert_eq!(b.len(), 7);
        let root = (0..b.len() as u32).find(|&i| b.up(i) == ROOT).unwrap();
        assert!((0..b.len() as u32).all(|i| b.below(i, root)));
        // Blocking (1,0) splits the tree in three.
        let mid = b.number(7 + 2) as usize;
        b.cost[mid] = 0;
        let mut lens = Vec::new();
        b.label(&DELTAS, |_| NONE, &mut lens);
        lens.sort_unstable();
        assert_eq!(lens, [1, 1, 4]);
    }
}

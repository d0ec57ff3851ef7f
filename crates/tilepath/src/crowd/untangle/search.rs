//! The search over configurations (LaCAM's high level): depth first over where every
//! agent stands, each configuration trying its constraints breadth first.

use std::collections::{HashMap, VecDeque};

use super::successor::MOST_MOVES;
use super::{NONE, Untangle};
use crate::Grid;
use crate::crowd::{Guidance, mix};

/// The most memory the search's configurations take (about 12 bytes an agent a
/// configuration: it, its key in the set of those seen, and its order); past it the
/// search gives up.
const MOST_SEARCH_BYTES: usize = 256 << 20;

/// One configuration of the search: where every agent stands, and how to go on.
pub(super) struct High {
    /// Each agent's cell index (agents in [`Untangle`]'s order).
    pub(super) config: Box<[u32]>,
    /// The node it was reached from (`NONE`: the start).
    pub(super) parent: u32,
    /// The agents in order of priority, highest first.
    pub(super) order: Vec<u32>,
    /// Constraints still to try ([`Low`] indices).
    pub(super) low: VecDeque<u32>,
}

/// A constraint: `who` (an agent of the order) steps to `at`, on top of its parent's.
#[derive(Clone, Copy)]
pub(super) struct Low {
    pub(super) parent: u32,
    pub(super) who: u32,
    pub(super) at: u32,
    pub(super) depth: u32,
}

impl Untangle {
    /// The search itself, over the agents in `self.ids` from `start` (their cells),
    /// exploring at most `most_nodes` configurations: keeps the plan if it finds one.
    pub(super) fn search<G: Guidance + ?Sized>(
        &mut self,
        grid: &Grid,
        guidance: &G,
        start: Vec<u32>,
        most_nodes: usize,
    ) -> bool {
        let n = self.ids.len();
        let most_nodes = self.explored + most_nodes.min(MOST_SEARCH_BYTES / (12 * n.max(1)));
        self.next.clear();
        self.next.resize(n, NONE);
        let goal: Box<[u32]> = self.goal.clone().into_boxed_slice();
        let mut highs: Vec<High> = Vec::new();
        let mut lows: Vec<Low> = Vec::new();
        let mut seen: HashMap<Box<[u32]>, u32> = HashMap::new();
        let start: Box<[u32]> = start.into_boxed_slice();
        let root = self.node(grid, guidance, start, NONE, &mut highs, &mut lows);
        seen.insert(highs[root as usize].config.clone(), root);
        let mut open: Vec<u32> = vec![root];
        let mut config = vec![0_u32; n];
        while let Some(&top) = open.last() {
            if highs[top as usize].config == goal {
                self.keep(grid, &highs, top);
                return true;
            }
            if self.explored >= most_nodes {
                return false;
            }
            let Some(c) = highs[top as usize].low.pop_front() else {
                open.pop();
                continue;
            };
            let low = lows[c as usize];
            let h = &highs[top as usize];
            if (low.depth as usize) < n {
                // One agent deeper: each of its cells next, staying first.
                let who = h.order[low.depth as usize];
                let at = h.config[who as usize];
                let mut cands = [NONE; MOST_MOVES];
                let len = self.moves(grid, who as usize, at, &mut cands);
                for &to in &cands[..len] {
                    let l = lows.len() as u32;
                    lows.push(Low {
                        parent: c,
                        who,
                        at: to,
                        depth: low.depth + 1,
                    });
                    highs[top as usize].low.push_back(l);
                }
            }
            self.explored += 1;
            self.salt = mix(self.salt ^ self.explored as u64);
            let from = highs[top as usize].config.clone();
            let order = highs[top as usize].order.clone();
            if !self.successor(grid, guidance, &from, &order, &lows, c, &mut config) {
                continue;
            }
            if let Some(&known) = seen.get(config.as_slice()) {
                open.push(known);
                continue;
            }
            let config: Box<[u32]> = config.clone().into_boxed_slice();
            let node = self.node(grid, guidance, config.clone(), top, &mut highs, &mut lows);
            seen.insert(config, node);
            open.push(node);
        }
        false
    }

    /// Adds a node for `config`, reached from `parent`: agents away from their goals
    /// first, the farthest first.
    fn node<G: Guidance + ?Sized>(
        &self,
        grid: &Grid,
        guidance: &G,
        config: Box<[u32]>,
        parent: u32,
        highs: &mut Vec<High>,
        lows: &mut Vec<Low>,
    ) -> u32 {
        let mut order: Vec<u32> = (0..config.len() as u32).collect();
        let key = |k: u32| {
            let k = k as usize;
            let away = config[k] != self.goal[k];
            let cost = self.cost(grid, guidance, k, config[k]);
            (core::cmp::Reverse(away), core::cmp::Reverse(cost), k)
        };
        order.sort_by_cached_key(|&k| key(k));
        let root = lows.len() as u32;
        lows.push(Low {
            parent: NONE,
            who: NONE,
            at: NONE,
            depth: 0,
        });
        highs.push(High {
            config,
            parent,
            order,
            low: VecDeque::from([root]),
        });
        (highs.len() - 1) as u32
    }

    /// Keeps the configurations from the start to `end` as the plan.
    fn keep(&mut self, grid: &Grid, highs: &[High], end: u32) {
        let mut chain = Vec::new();
        let mut at = end;
        while highs[at as usize].parent != NONE {
            chain.push(at);
            at = highs[at as usize].parent;
        }
        let mut before = &highs[at as usize].config;
        for &h in chain.iter().rev() {
            let config = &highs[h as usize].config;
            let moves = (0..config.len())
                .filter(|&k| config[k] != before[k])
                .filter_map(|k| Some((self.ids[k], grid.cell_of(config[k] as usize)?)))
                .collect();
            self.plan.push_back(moves);
            before = config;
        }
    }
}

//! Which agents an untangling moves and where each ends: agents that are not
//! pinned, each to its goal if it has a way there and no other ends on it, else back
//! to where it stands.

use super::{Movable, NONE, Untangle, oom};
use crate::crowd::moves::{can_step_as, directions, untangling};
use crate::crowd::{Crowd, CrowdError, Guidance, footprint};
use crate::{AgentSpec, Cell, Connectivity, Grid, Mobility};

impl Untangle {
    /// The agents it may move, with their ends; marks the cells of the agents that
    /// stay in `self.fixed`.
    pub(super) fn movable<G: Guidance + ?Sized>(
        &mut self,
        grid: &Grid,
        crowd: &Crowd,
        guidance: &G,
    ) -> Result<Vec<Movable>, CrowdError> {
        let cells = grid.len();
        // Agents it may move: those not pinned, with their cells and goals (one
        // without a goal, or whose goal the guidance gives no way to: where it stands).
        let index = |c: Cell| grid.index_of(c).map(|i| i as u32);
        let mut movable: Vec<Movable> = Vec::new();
        for (id, spec) in crowd.agents() {
            if crowd.is_pinned(id) {
                continue;
            }
            let Some(at) = index(spec.cell) else { continue };
            let goal = spec
                .goal
                .filter(|_| guidance.cost_to_go(id, spec.cell).is_some())
                .and_then(index)
                .unwrap_or(at);
            movable.push(Movable {
                id,
                mobility: spec.mobility,
                size: spec.size,
                connectivity: untangling(spec.connectivity),
                at,
                goal,
            });
        }
        // Cells held by agents that stay (pinned), and the rooms the rest of the floor
        // makes for each mobility, size and way of moving: an agent whose goal is in
        // another room than it (or under an agent that stays) has no way there, and
        // stays where it is, instead of sending the search through every
        // configuration to find that out.
        self.fixed.clear();
        self.fixed
            .try_reserve_exact(cells)
            .map_err(|_| oom(cells))?;
        self.fixed.resize(cells, false);
        for (id, spec) in crowd.agents() {
            if crowd.is_pinned(id) {
                self.hold(grid, spec);
            }
        }
        let mut rooms: Vec<((Mobility, u8, Connectivity), Vec<u32>)> = Vec::new();
        for m in &mut movable {
            if m.at == m.goal {
                continue;
            }
            let class = (m.mobility, m.size, m.connectivity);
            let k = match rooms.iter().position(|r| r.0 == class) {
                Some(k) => k,
                None => {
                    let mut room = Vec::new();
                    room.try_reserve_exact(cells).map_err(|_| oom(cells * 4))?;
                    room.resize(cells, NONE);
                    self.label_rooms(grid, class, &mut room);
                    rooms.push((class, room));
                    rooms.len() - 1
                }
            };
            let room = &rooms[k].1;
            if room[m.at as usize] == NONE || room[m.at as usize] != room[m.goal as usize] {
                m.goal = m.at;
            }
        }
        // One agent a cell at the end: where two would end on one cell (two goals
        // alike or overlapping, or a goal where an agent that goes nowhere stands),
        // one away from its goal stays instead, until no two are left.
        let mut end = core::mem::take(&mut self.now);
        loop {
            let mut clash = None;
            'agents: for (k, m) in movable.iter().enumerate() {
                for i in cells_of(grid, m.goal, m.size) {
                    let other = end[i];
                    if other == NONE {
                        end[i] = k as u32;
                    } else {
                        let o = &movable[other as usize];
                        clash = Some(if o.at != o.goal { other as usize } else { k });
                        break 'agents;
                    }
                }
            }
            for m in &movable {
                for i in cells_of(grid, m.goal, m.size) {
                    end[i] = NONE;
                }
            }
            let Some(k) = clash else { break };
            movable[k].goal = movable[k].at;
        }
        self.now = end;
        Ok(movable)
    }

    /// Whether agent `k` standing at cell index `at` would stand on a cell of an
    /// agent that stays.
    pub(super) fn on_fixed(&self, grid: &Grid, k: usize, at: u32) -> bool {
        cells_of(grid, at, self.size[k]).any(|i| self.fixed[i])
    }

    /// Marks the cells of `spec`'s footprint as held by an agent that stays.
    pub(super) fn hold(&mut self, grid: &Grid, spec: AgentSpec) {
        for c in footprint(spec.cell, spec.size) {
            if let Some(i) = grid.index_of(c) {
                self.fixed[i] = true;
            }
        }
    }

    /// Labels the rooms of the anchors where an agent of `mobility` and `size` fits
    /// on no cell of an agent that stays, joined by the steps of `connectivity`
    /// (`NONE` elsewhere), into `room`.
    fn label_rooms(
        &self,
        grid: &Grid,
        (mobility, size, connectivity): (Mobility, u8, Connectivity),
        room: &mut [u32],
    ) {
        let mut queue: Vec<u32> = Vec::new();
        let mut label = 0;
        let free = |i: usize| !cells_of(grid, i as u32, size).any(|j| self.fixed[j]);
        for start in 0..room.len() {
            let open = |i: usize| {
                free(i)
                    && grid
                        .cell_of(i)
                        .is_some_and(|c| grid.fits(c, mobility, size))
            };
            if room[start] != NONE || !open(start) {
                continue;
            }
            room[start] = label;
            queue.push(start as u32);
            while let Some(i) = queue.pop() {
                let Some(c) = grid.cell_of(i as usize) else {
                    continue;
                };
                for d in directions(connectivity, c) {
                    if can_step_as(grid, c, d, mobility, size, connectivity)
                        && let Some(j) = grid.index_of(c.step(d))
                        && room[j] == NONE
                        && free(j)
                    {
                        room[j] = label;
                        queue.push(j as u32);
                    }
                }
            }
            label += 1;
        }
    }
}

/// The cell indices of the `size x size` footprint anchored at cell index `at`
/// (those inside the grid).
pub(super) fn cells_of(grid: &Grid, at: u32, size: u8) -> impl Iterator<Item = usize> + '_ {
    grid.cell_of(at as usize)
        .into_iter()
        .flat_map(move |c| footprint(c, size))
        .filter_map(|c| grid.index_of(c))
}

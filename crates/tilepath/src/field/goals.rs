//! Goals and their start values.

use super::*;

impl DistanceField {
    /// Adds a goal at `cell` whose value starts at `start` (cost units): lower pulls
    /// harder. A goal already at `cell` gets the new start value (the last one added
    /// wins). A [`Ready`](FieldState::Ready) chase field is updated at once, locally
    /// (see [`repair`](Self::repair)); a flee field becomes
    /// [`Stale`](FieldState::Stale) and must be computed again. Goals outside the
    /// region are dropped. A start value past the field's range makes the next
    /// computation fail with [`FieldError::DistanceOverflow`].
    ///
    /// Goals on blocked cells are kept but seed nothing (they count as ignored in
    /// [`FieldStats`]); they take effect when their cell opens.
    ///
    /// Cost: O(1) amortized on a field that is not ready (goals are sorted and
    /// deduplicated when it is computed, in O(g log g) for g goals); on a ready
    /// chase field, O(g) plus the local repair.
    pub fn add_goal(&mut self, cell: Cell, start: u32) {
        let Some(index) = self.index(cell) else {
            return;
        };
        let index = index as u32;
        self.max_goal_start = self.max_goal_start.max(start);
        if self.state == FieldState::Ready && self.flee.is_none() {
            self.sort_goals();
            match self.goals.binary_search_by_key(&index, |g| g.index) {
                Ok(i) => self.goals[i].start = start,
                Err(i) => self.goals.insert(
                    i,
                    Goal {
                        index,
                        start,
                        seq: 0,
                    },
                ),
            }
            self.repair_goal(index);
            return;
        }
        if self.goals.last().is_some_and(|g| g.index >= index) {
            self.goals_sorted = false;
        }
        let seq = self.goals.len() as u32;
        self.goals.push(Goal { index, start, seq });
        self.invalidate();
    }

    /// Removes the goal at `cell`, if any (a ready chase field is updated locally,
    /// a flee field becomes [`Stale`](FieldState::Stale)). Cost: O(g) for g goals.
    pub fn remove_goal(&mut self, cell: Cell) {
        let Some(index) = self.index(cell) else {
            return;
        };
        let index = index as u32;
        self.sort_goals();
        if let Ok(i) = self.goals.binary_search_by_key(&index, |g| g.index) {
            self.goals.remove(i);
            if self.state == FieldState::Ready && self.flee.is_none() {
                self.repair_goal(index);
            } else {
                self.invalidate();
            }
        }
    }

    /// The local repair after the goal at `index` changed on a ready chase field.
    pub(super) fn repair_goal(&mut self, index: u32) {
        self.clipped = false;
        // A goal's repair has no grid to compute again from: it goes to the end.
        let _ = self.repair_indices(&[index], usize::MAX);
        if self.overflowed() || self.goal_overflow() {
            self.set_state(FieldState::Overflowed);
        }
    }

    /// Whether an open goal that starts past the field's range (which seeds nothing)
    /// was left unreached: no other goal gives its cell a value in range, so its
    /// distance, its start value, does not fit.
    pub(super) fn goal_overflow(&self) -> bool {
        self.max_units == MAX_UNITS
            && u64::from(self.max_goal_start) * self.scale() > u64::from(MAX_UNITS)
            && self.goals.iter().any(|g| {
                let i = g.index as usize;
                self.costs[i] != 0
                    && self.values[i] == UNREACHED
                    && u64::from(g.start) * self.scale() > u64::from(MAX_UNITS)
            })
    }

    /// Sorts the goals by cell and keeps the last value added for each.
    pub(super) fn sort_goals(&mut self) {
        if self.goals_sorted {
            return;
        }
        self.goals.sort_unstable_by_key(|g| (g.index, g.seq));
        self.goals.dedup_by(|later, kept| {
            let same = later.index == kept.index;
            if same {
                kept.start = later.start;
            }
            same
        });
        for (i, g) in self.goals.iter_mut().enumerate() {
            g.seq = i as u32;
        }
        self.goals_sorted = true;
    }

    /// Removes every goal. A computed field becomes [`Stale`](FieldState::Stale):
    /// its queries answer `None` until it is computed again.
    pub fn clear_goals(&mut self) {
        self.goals.clear();
        self.goals_sorted = true;
        self.max_goal_start = 0;
        self.invalidate();
    }

    /// The goals, as `(cell, start value)`: in row-major order of their cells, one
    /// per cell, once the field has been computed (or a goal removed); goals added
    /// since follow in the order they were added, each as added.
    pub fn goals(&self) -> impl Iterator<Item = (Cell, u32)> + '_ {
        self.goals
            .iter()
            .map(|g| (self.cell_of(g.index as usize), g.start))
    }

    #[inline]
    pub(super) fn goal_start_units(&self, index: usize) -> Option<u64> {
        debug_assert!(self.goals_sorted, "goal lookup on unsorted goals");
        self.goals
            .binary_search_by_key(&(index as u32), |g| g.index)
            .ok()
            .map(|i| u64::from(self.goals[i].start) * self.scale())
    }

    // ----- computing -----
}

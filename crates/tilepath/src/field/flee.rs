//! Flee fields: the chase values scaled by a negative factor and rescanned.

use super::*;

impl DistanceField {
    /// Turns this field into a flee field: every chase value is multiplied by
    /// `-factor` (1.2 is a good start: greater runs farther) and the field is
    /// rescanned, so walking downhill leads away from the goals along real routes,
    /// through open doors rather than into dead ends. Later
    /// [`compute`](Self::compute) calls build the flee field again;
    /// [`repair`](Self::repair) recomputes it in full.
    ///
    /// Always from the chase values: on a field that is already a flee field (or is
    /// not [`Ready`](FieldState::Ready)) the chase field is computed again first, so
    /// calling `flee` twice with the same factor gives the same field, and another
    /// factor gives what it would give on the chase field. On a ready chase field
    /// only the rescan runs.
    ///
    /// A goal that has been completed can become a repeller by moving it from a chase
    /// field into a flee field.
    ///
    /// # Errors
    /// [`FieldError::InvalidFleeFactor`] unless `factor` is finite and greater than 0,
    /// [`FieldError::GridMismatch`] if `grid` is not the size the field was made for
    /// (in both cases nothing is changed); [`FieldError::DistanceOverflow`] if the
    /// scaled values exceed the field's range (as for [`compute`](Self::compute)).
    pub fn flee(&mut self, grid: &Grid, factor: f32) -> Result<FieldStats, FieldError> {
        if !(factor.is_finite() && factor > 0.0) {
            return Err(FieldError::InvalidFleeFactor);
        }
        self.check(grid)?;
        let chase_ready = self.state == FieldState::Ready && self.flee.is_none();
        self.flee = Some(factor);
        if !chase_ready {
            return self.compute(grid);
        }
        let reached = self.apply_flee(factor)?;
        Ok(FieldStats {
            cells_updated: reached,
            ..FieldStats::default()
        })
    }

    /// Whether this is a flee field.
    #[must_use]
    pub fn is_flee(&self) -> bool {
        self.flee.is_some()
    }

    /// Turns the ready chase values into flee values; returns the cells rescanned.
    pub(super) fn apply_flee(&mut self, factor: f32) -> Result<usize, FieldError> {
        let max = self
            .values
            .iter()
            .filter(|&&v| v != BLOCKED && v != UNREACHED)
            .map(|&v| v - 1)
            .max()
            .unwrap_or(0);
        let bias = (f64::from(max) * f64::from(factor)).ceil();
        if bias > f64::from(MAX_UNITS) {
            return Err(self.overflow_error());
        }
        let bias = bias as u32;
        self.bias = bias;
        self.queues.clear();
        for p in 0..self.values.len() {
            let v = self.values[p];
            if v == BLOCKED || v == UNREACHED {
                continue;
            }
            let scaled = (f64::from(v - 1) * f64::from(factor)).round() as u32;
            let nv = bias - scaled.min(bias) + 1;
            self.values[p] = nv;
            self.queues.seed(nv, p as u32);
        }
        // Every reached cell is seeded at or below `bias + 1`, which the rescan only
        // lowers: no value can pass the range.
        let limit = self.max_units;
        self.max_units = MAX_UNITS;
        let n = self.dijkstra();
        self.max_units = limit;
        self.clipped = false;
        Ok(n)
    }

    // ----- repair -----
}

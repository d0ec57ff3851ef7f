//! What a test's jump point searches read besides the grid: a mobility's bit rows or
//! jump distances, repaired after every edit as the derived-data contract says.

use tilepath::{Cell, Derived, Grid, JumpDistances, Mobility, OpenRows, PathQuery};

/// A mobility's [`OpenRows`] or [`JumpDistances`] (or neither), kept in step with a
/// grid by its test.
#[derive(Default)]
pub struct KeptRows {
    /// The bit rows, if kept.
    pub rows: Option<OpenRows>,
    /// The jump distances, if kept.
    pub jumps: Option<JumpDistances>,
}

impl KeptRows {
    /// By `pick`: 0 the rows of `mobility` on `grid`, 1 its jump distances, else
    /// neither (searches read the grid's planes).
    #[must_use]
    pub fn pick(pick: u64, grid: &Grid, mobility: Mobility) -> Self {
        match pick {
            0 => Self {
                rows: Some(OpenRows::new(grid, mobility).expect("rows")),
                jumps: None,
            },
            1 => Self {
                rows: None,
                jumps: Some(JumpDistances::new(grid, mobility).expect("jump distances")),
            },
            _ => Self::default(),
        }
    }

    /// `query` reading what is kept.
    pub fn query<'a>(&'a self, query: PathQuery<'a>) -> PathQuery<'a> {
        let query = match &self.rows {
            Some(rows) => query.rows(rows),
            None => query,
        };
        match &self.jumps {
            Some(jumps) => query.jumps(jumps),
            None => query,
        }
    }

    /// Repairs what is kept after the cells `changed` of `grid` were edited.
    ///
    /// # Panics
    /// If a repair fails (a grid of another size).
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) {
        if let Some(rows) = &mut self.rows {
            rows.repair(grid, changed, usize::MAX)
                .expect("rows repaired");
        }
        if let Some(jumps) = &mut self.jumps {
            jumps
                .repair(grid, changed, usize::MAX)
                .expect("distances repaired");
        }
    }
}

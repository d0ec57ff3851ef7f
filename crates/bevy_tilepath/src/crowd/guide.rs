//! What guides a solid unit's next step: the shared distance field of its goal when
//! the plugin keeps one, else the next cells of its path.
//!
//! A field measures the way to the goal itself, round walls and from every side, so
//! units sharing a goal compare their distances truly: they fill the cells round it
//! from every side, each as near as it gets. A path's next cells measure the way to
//! the last of them only, which serves a unit stepping round another and back onto
//! its path.

use tilepath::{
    AgentId, Cell, Connectivity, DistanceField, Guidance, OCTILE_DIAGONAL, OCTILE_STRAIGHT,
};

use crate::UnitPath;
use crate::plan::{FieldCache, FieldKey, FieldRef};

/// Path cells a unit is guided by: where its path is now and the cells after it.
/// Enough to step round a unit in the way and back onto the path; a unit pushed
/// further off is planned again from where it stands.
const AHEAD: usize = 6;

/// One unit's guide: the next cells of its path, with the cost of the path from each
/// to the last of them, measured as the unit moves.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Route {
    cells: [Cell; AHEAD],
    rest: [u32; AHEAD],
    len: u8,
    connectivity: Connectivity,
    /// The cost of the whole route from where the path starts, in the same
    /// fixed-point costs (`u32::MAX`: not known).
    whole: u32,
}

impl Route {
    /// A unit that heads nowhere: every cell costs the same, so it stays unless asked
    /// to make room.
    pub(crate) const NONE: Self = Self {
        cells: [Cell::new(0, 0); AHEAD],
        rest: [0; AHEAD],
        len: 0,
        connectivity: Connectivity::Four,
        whole: u32::MAX,
    };

    /// The guide of a unit following `path`, moving by `connectivity` (4- or
    /// 8-connected, or a hex layout's steps).
    pub(crate) fn of_path(path: &UnitPath, connectivity: Connectivity) -> Self {
        let whole = path.route_cost * STRAIGHT as f32;
        let mut r = Self {
            connectivity,
            whole: if whole.is_finite() && whole >= 0.0 {
                whole.min((u32::MAX - 1) as f32) as u32
            } else {
                u32::MAX
            },
            ..Self::NONE
        };
        r.cells[0] = path.at;
        r.len = 1;
        for cell in path.cells_ahead().take(AHEAD - 1) {
            r.cells[usize::from(r.len)] = cell;
            r.len += 1;
        }
        // The cost from each cell to the last, summed backwards.
        let n = usize::from(r.len);
        for k in (0..n - 1).rev() {
            r.rest[k] = r.rest[k + 1] + distance(r.cells[k], r.cells[k + 1], connectivity);
        }
        r
    }

    /// The estimated cost from `cell` to the end of the route. A cell of the route:
    /// the route's own cost from there. A cell beside the route (a straight step off
    /// it; on a hex map any hex step): that step back, then along the route. Farther
    /// off: to the route cell that is cheapest to join in a straight line, then along
    /// the route.
    ///
    /// The distances do not see walls, so a route cell must not take a shorter way
    /// to a later one: where the route goes round a wall, the cell before the wall
    /// would then cost less than the next cell of the route, and a unit there would
    /// never step on (the step that looks better goes through the wall).
    fn cost(&self, cell: Cell) -> Option<u32> {
        let n = usize::from(self.len);
        if let Some(k) = (0..n).find(|&k| self.cells[k] == cell) {
            return Some(self.rest[k]);
        }
        let back = (0..n)
            .filter(|&k| distance(cell, self.cells[k], self.straight()) == STRAIGHT)
            .map(|k| STRAIGHT.saturating_add(self.rest[k]))
            .min();
        back.or_else(|| {
            (0..n)
                .map(|k| {
                    distance(cell, self.cells[k], self.connectivity).saturating_add(self.rest[k])
                })
                .min()
        })
    }

    /// The moves whose every step is straight (costs [`STRAIGHT`]): orthogonal ones
    /// on squares, all 6 on a hex map.
    fn straight(&self) -> Connectivity {
        match self.connectivity {
            Connectivity::Hex(_) => self.connectivity,
            Connectivity::Four | Connectivity::Eight => Connectivity::Four,
        }
    }
}

/// A straight and a diagonal step in the core's fixed-point costs (both fit a `u32`).
const STRAIGHT: u32 = OCTILE_STRAIGHT as u32;
const DIAGONAL: u32 = OCTILE_DIAGONAL as u32;

/// The distance on an open map for `connectivity`'s moves, in the core's
/// fixed-point costs: octile (8-connected), Manhattan (4-connected), or hex steps
/// ([`HexLayout::distance`](tilepath::HexLayout::distance), each step straight).
fn distance(a: Cell, b: Cell, connectivity: Connectivity) -> u32 {
    let dx = a.x.abs_diff(b.x);
    let dy = a.y.abs_diff(b.y);
    match connectivity {
        Connectivity::Eight => {
            let (lo, hi) = (dx.min(dy), dx.max(dy));
            lo.saturating_mul(DIAGONAL)
                .saturating_add((hi - lo).saturating_mul(STRAIGHT))
        }
        Connectivity::Four => dx.saturating_add(dy).saturating_mul(STRAIGHT),
        Connectivity::Hex(layout) => layout.distance(a, b).saturating_mul(STRAIGHT),
    }
}

/// The field one agent is guided by, kept with its route across ticks.
#[derive(Clone, Copy, Debug)]
struct FieldGuide {
    /// The field its path heads for, if it heads for its goal itself.
    want: Option<FieldKey>,
    /// That field where it was found kept ([`FieldRef::NONE`]: not found).
    found: FieldRef,
    /// The [`FieldCache::latest`] serial when it was last looked for: while it is the
    /// same, a field not found then is still not kept.
    looked: u32,
    /// The factor that brings the field's units to the routes' fixed-point costs.
    scale: u32,
}

impl FieldGuide {
    const NONE: Self = Self {
        want: None,
        found: FieldRef::NONE,
        looked: 0,
        scale: 0,
    };

    /// Looks for the field wanted again if the one found is no longer kept (its entry
    /// reused, or the grid changed under it) or one may have been kept since.
    fn refresh(&mut self, fields: Option<&FieldCache>) {
        let (Some(want), Some(fields)) = (self.want, fields) else {
            self.found = FieldRef::NONE;
            return;
        };
        if fields.get(self.found).is_some() || self.looked == fields.latest() {
            return;
        }
        self.looked = fields.latest();
        self.found = fields.find(&want).unwrap_or(FieldRef::NONE);
    }
}

/// Every agent's [`Route`] and shared field, by the agent's slot. Each is set when its
/// unit's path or status changes (its path does whenever it walks a cell), and kept
/// between: a
/// field found is looked for again only when its entry no longer holds it
/// ([`refresh`](Self::refresh)).
#[derive(Debug, Default)]
pub(crate) struct PathGuide {
    pub(crate) routes: Vec<Route>,
    fields: Vec<FieldGuide>,
}

impl PathGuide {
    /// Sets the route of `agent` and the field it is guided by (`want`: the key of
    /// the field its path heads for, if any), found in `fields`; growing the tables
    /// only while the crowd grows.
    pub(crate) fn set(
        &mut self,
        agent: AgentId,
        route: Route,
        want: Option<FieldKey>,
        fields: Option<&FieldCache>,
    ) {
        let i = agent.index();
        if self.routes.len() <= i {
            self.routes.resize(i + 1, Route::NONE);
            self.fields.resize(i + 1, FieldGuide::NONE);
        }
        self.routes[i] = route;
        let f = &mut self.fields[i];
        if f.want != want {
            *f = FieldGuide {
                want,
                // An 8-connected field counts in the octile fixed point already.
                scale: if want.is_some_and(|k| k.connectivity == Connectivity::Eight) {
                    1
                } else {
                    STRAIGHT
                },
                ..FieldGuide::NONE
            };
        }
        f.refresh(fields);
    }

    /// Looks again for every field no longer found where it was, or not found yet
    /// while new fields were kept: before each step, so that a unit that has stood
    /// still since its field was computed, or moved, is guided by it.
    pub(crate) fn refresh(&mut self, fields: Option<&FieldCache>) {
        for f in &mut self.fields {
            if f.want.is_some() {
                f.refresh(fields);
            }
        }
    }

    /// The guidance of one step: the routes, and the fields of the grid's plan.
    pub(crate) fn with<'a>(&'a self, fields: Option<&'a FieldCache>) -> Guide<'a> {
        Guide {
            paths: self,
            fields,
        }
    }
}

/// The key of the field a unit following `path`, moving as `connectivity`, is guided
/// by: its goal, and the class it moves as.
pub(crate) fn field_key(path: &UnitPath, connectivity: Connectivity) -> FieldKey {
    FieldKey {
        goal: path.goal,
        mobility: path.mobility,
        connectivity,
        size: path.size,
    }
}

/// A crowd step's [`Guidance`]: each unit's field where it has one, else its route.
pub(crate) struct Guide<'a> {
    paths: &'a PathGuide,
    fields: Option<&'a FieldCache>,
}

impl Guide<'_> {
    /// The field `agent` is guided by, if it is kept, with its scale.
    #[inline]
    fn field(&self, i: usize) -> Option<(&DistanceField, u32)> {
        let f = self.paths.fields.get(i)?;
        Some((self.fields?.get(f.found)?, f.scale))
    }
}

impl Guidance for Guide<'_> {
    fn cost_to_go(&self, agent: AgentId, cell: Cell) -> Option<u32> {
        let i = agent.index();
        match self.field(i) {
            Some((field, scale)) => Some(
                u32::try_from(field.units(cell)?.max(0))
                    .unwrap_or(u32::MAX)
                    .saturating_mul(scale)
                    .min(u32::MAX - 1),
            ),
            None => self.paths.routes.get(i)?.cost(cell),
        }
    }

    /// A unit guided by its path: the whole route's cost. One guided by a shared
    /// field shares its goal: none.
    fn set_off_distance(&self, agent: AgentId, _: Cell) -> Option<u32> {
        let i = agent.index();
        if self.field(i).is_some() {
            return None;
        }
        let whole = self.paths.routes.get(i)?.whole;
        (whole != u32::MAX).then_some(whole)
    }

    /// A unit guided by a field: the field's values round `cell`.
    fn prefetch(&self, agent: AgentId, cell: Cell) {
        if let Some((field, _)) = self.field(agent.index()) {
            field.prefetch(cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilepath::{Direction8, GridPath8};

    /// A unit's path from (0, 0) taking `dirs`.
    fn path_of(dirs: &[Direction8]) -> UnitPath {
        let mut steps = GridPath8::EMPTY;
        for &dir in dirs {
            assert!(steps.push(dir));
        }
        UnitPath {
            steps,
            at: Cell::new(0, 0),
            ..Default::default()
        }
    }

    #[test]
    fn a_route_prefers_cells_along_the_path() {
        let path = path_of(&[Direction8::Right; 4]);
        let r = Route::of_path(&path, Connectivity::Eight);
        let cost = |x, y| r.cost(Cell::new(x, y)).unwrap();
        // Along the path each step ahead is one straight step cheaper.
        assert_eq!(cost(0, 0) - cost(1, 0), STRAIGHT);
        // Stepping aside costs more than going on, less than going back.
        assert!(cost(1, 1) > cost(1, 0) && cost(1, 1) < cost(0, 0) + STRAIGHT);
        assert!(cost(0, 1) > cost(0, 0));
        assert_eq!(Route::NONE.cost(Cell::new(3, 3)), None);
    }

    /// A route round a pillar at (1, 0): up, right, right, down. From the start the
    /// straight line to the route's last cell is shorter (through the pillar), but the
    /// next cell of the route must still cost less than the start.
    #[test]
    fn the_next_cell_of_a_route_round_a_wall_costs_less() {
        let path = path_of(&[
            Direction8::Up,
            Direction8::Right,
            Direction8::Right,
            Direction8::Down,
        ]);
        let hex = tilepath::HexLayout::ALL.map(Connectivity::Hex);
        for connectivity in [Connectivity::Four, Connectivity::Eight]
            .into_iter()
            .chain(hex)
        {
            let r = Route::of_path(&path, connectivity);
            let cost = |x, y| r.cost(Cell::new(x, y)).unwrap();
            assert!(cost(0, 1) < cost(0, 0), "{connectivity:?}");
            assert!(cost(1, 1) < cost(0, 1) && cost(2, 1) < cost(1, 1));
            assert!(cost(2, 0) < cost(2, 1));
        }
    }

    /// On a hex map every hex step off the route is a straight one: from (1, 1) in
    /// `RowOdd` (odd rows shifted right) the route along x is a step away at (1, 0)
    /// and at (2, 0), the nearer its end; a 4-connected unit there steps back to (1, 0).
    #[test]
    fn a_hex_route_counts_hex_steps() {
        let path = path_of(&[Direction8::Right; 4]);
        let hex = Route::of_path(&path, Connectivity::Hex(tilepath::HexLayout::RowOdd));
        let four = Route::of_path(&path, Connectivity::Four);
        let cost = |r: &Route, x, y| r.cost(Cell::new(x, y)).unwrap();
        assert_eq!(cost(&hex, 0, 0) - cost(&hex, 1, 0), STRAIGHT);
        assert_eq!(cost(&hex, 1, 1), STRAIGHT + cost(&hex, 2, 0));
        assert_eq!(cost(&four, 1, 1), STRAIGHT + cost(&four, 1, 0));
        // Farther off: the hex distance to the cheapest route cell to join.
        assert_eq!(cost(&hex, 4, 3), 3 * STRAIGHT);
    }
}

//! The distance-field part of an episode: a model of what the field should be, and
//! its operations checked against the reference.

use super::*;

/// A field and what it should be.
pub(crate) struct FieldModel {
    pub(crate) field: DistanceField,
    pub(crate) connectivity: Connectivity,
    pub(crate) mobility: Mobility,
    /// The region asked for (unclipped).
    pub(crate) region: Region,
    pub(crate) max_units: u32,
    pub(crate) goals: BTreeMap<Cell, u32>,
    pub(crate) flee: Option<f32>,
    /// Cells edited since the field last computed or repaired.
    pub(crate) changed: Vec<Cell>,
}

impl FieldModel {
    pub(crate) fn scale(&self) -> u64 {
        match self.connectivity {
            Connectivity::Four | Connectivity::Hex(_) => 1,
            Connectivity::Eight => OCTILE_STRAIGHT,
        }
    }

    /// The region clipped to the grid, or `None` if it misses it.
    pub(crate) fn clipped(&self, grid: &Grid) -> Option<Region> {
        let r = self.region;
        let x0 = r.min.x.max(0);
        let y0 = r.min.y.max(0);
        let x1 = i64::from(r.max.x).min(i64::from(grid.width()) - 1);
        let y1 = i64::from(r.max.y).min(i64::from(grid.height()) - 1);
        (i64::from(x0) <= x1 && i64::from(y0) <= y1)
            .then(|| Region::new(Cell::new(x0, y0), Cell::new(x1 as i32, y1 as i32)))
    }
}

/// The field's expected units per grid cell, or `None` if the field must overflow.
pub(crate) fn expected_field(m: &FieldModel, grid: &Grid) -> Option<Vec<Option<i64>>> {
    let Some(region) = m.clipped(grid) else {
        return Some(vec![None; grid.len()]);
    };
    let inside = |c: Cell| region.contains(c);
    let eight = m.connectivity == Connectivity::Eight;
    let units = (OCTILE_STRAIGHT, OCTILE_DIAGONAL);
    let units = if eight { units } else { (1, 1) };
    let scale = m.scale();
    let sources: Vec<(Cell, u64)> = m
        .goals
        .iter()
        .filter(|&(&c, _)| inside(c) && grid.is_passable(c, m.mobility))
        .map(|(&c, &start)| (c, u64::from(start) * scale))
        .collect();
    // Hex maps: the plain hex reference, costs of walking to the sources.
    let reference = |sources: &[(Cell, u64)]| match m.connectivity {
        Connectivity::Hex(layout) => {
            let open: Vec<(Cell, u64)> = sources
                .iter()
                .copied()
                .filter(|&(c, _)| grid.is_passable(c, m.mobility) && inside(c))
                .collect();
            reference_hex(grid, m.mobility, layout, &open, true, inside)
        }
        _ => reference_field_units(grid, m.mobility, sources, eight, units, inside),
    };
    let chase = reference(&sources);
    let natural = m.max_units == DistanceField::MAX_UNITS;
    let max = u64::from(DistanceField::MAX_UNITS);
    if natural && chase.iter().flatten().any(|&u| u > max) {
        return None;
    }
    let chase: Vec<Option<u64>> = chase
        .into_iter()
        .map(|u| u.filter(|&u| u <= u64::from(m.max_units)))
        .collect();
    let Some(factor) = m.flee else {
        return Some(chase.iter().map(|u| u.map(|u| u as i64)).collect());
    };
    let top = chase.iter().flatten().copied().max().unwrap_or(0);
    let bias = (top as f64 * f64::from(factor)).ceil();
    if bias > max as f64 {
        return None;
    }
    let bias = bias as u64;
    let seeds: Vec<(Cell, u64)> = (0..grid.len())
        .filter_map(|i| {
            let u = chase[i]?;
            let scaled = (u as f64 * f64::from(factor)).round() as u64;
            Some((grid.cell_of(i).unwrap(), bias - scaled.min(bias)))
        })
        .collect();
    let flee = reference(&seeds);
    Some(
        flee.iter()
            .map(|u| u.map(|u| u as i64 - bias as i64))
            .collect(),
    )
}

/// The cost of a legal step from `c` in `d` inside `region` in field units, if legal.
pub(crate) fn field_step(
    m: &FieldModel,
    grid: &Grid,
    region: Region,
    c: Cell,
    d: Direction8,
) -> Option<u64> {
    let open = |c: Cell| region.contains(c) && grid.is_passable(c, m.mobility);
    let n = c.step(d);
    if !open(n) {
        return None;
    }
    let cost = u64::from(grid.cost(n, m.mobility));
    if let Connectivity::Hex(layout) = m.connectivity {
        // The reference's neighbours, from the axial formulas.
        return hex_neighbours(layout, c).contains(&n).then_some(cost);
    }
    if d.is_diagonal() {
        let (dx, dy) = d.offset();
        if !open(Cell::new(c.x + dx, c.y)) || !open(Cell::new(c.x, c.y + dy)) {
            return None;
        }
        return Some(cost * OCTILE_DIAGONAL);
    }
    Some(cost * m.scale())
}

/// Checks a computed field against the reference, value by value, and its walks.
pub(crate) fn check_field(
    m: &FieldModel,
    grid: &Grid,
    result: Result<(), FieldError>,
    covered: &mut Covered,
) {
    covered.field_checks += 1;
    let f = &m.field;
    let Some(expected) = expected_field(m, grid) else {
        assert_eq!(
            result,
            Err(FieldError::DistanceOverflow {
                max_units: DistanceField::MAX_UNITS
            })
        );
        assert_eq!(f.state(), FieldState::Overflowed);
        assert_none_everywhere(f, grid);
        covered.errors_checked += 1;
        return;
    };
    if result.is_err() {
        eprintln!(
            "field model: goals={:?} field goals={:?} kinds={:?}",
            m.goals,
            f.goals().collect::<Vec<_>>(),
            m.goals.keys().map(|&c| grid.get(c)).collect::<Vec<_>>()
        );
    }
    assert_eq!(result, Ok(()));
    assert_eq!(f.state(), FieldState::Ready);
    assert_eq!(f.is_flee(), m.flee.is_some());
    for (i, want) in expected.iter().enumerate() {
        let c = grid.cell_of(i).unwrap();
        let got = f.units(c);
        // A field gives no value to a blocked cell.
        let want = want.filter(|_| grid.is_passable(c, m.mobility));
        if got != want {
            eprintln!(
                "field model: flee={:?} conn={:?} mobility={:?} region={:?} max={} goals={:?}\n{grid:?}",
                m.flee, m.connectivity, m.mobility, m.region, m.max_units, m.goals
            );
        }
        assert_eq!(got, want, "units at {c}");
    }
    let Some(region) = m.clipped(grid) else {
        return;
    };
    let eight = m.connectivity != Connectivity::Four;
    for i in 0..grid.len() {
        let c = grid.cell_of(i).unwrap();
        let Some(here) = f.units(c) else { continue };
        let offers = Direction8::ALL
            .into_iter()
            .filter(|d| eight || !d.is_diagonal())
            .filter_map(|d| {
                let step = field_step(m, grid, region, c, d)?;
                Some((d, f.units(c.step(d))? + step as i64))
            });
        let best = offers.clone().map(|(_, v)| v).min();
        match f.next_step(c) {
            Some(d) => {
                let total = offers
                    .clone()
                    .find(|&(o, _)| o == d)
                    .map(|(_, v)| v)
                    .expect("next_step takes an illegal step");
                assert!(total <= here, "next_step at {c} goes uphill");
                assert_eq!(Some(total), best, "next_step at {c} is not the best");
            }
            None => assert!(
                best.is_none_or(|b| b > here),
                "next_step at {c} stays although {best:?} <= {here}"
            ),
        }
        if eight {
            let p = f.path8(c);
            assert_eq!(p.peek(), f.next_step(c));
        } else {
            let p = f.path(c);
            assert_eq!(p.peek().map(Direction8::from), f.next_step(c));
        }
    }
}

pub(crate) fn assert_none_everywhere(f: &DistanceField, grid: &Grid) {
    for i in 0..grid.len() {
        let c = grid.cell_of(i).unwrap();
        assert_eq!(
            f.units(c),
            None,
            "a field that must not answer answered at {c}"
        );
        assert_eq!(f.next_step(c), None);
    }
}

pub(crate) fn field_op(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    slot: &mut Option<FieldModel>,
    covered: &mut Covered,
    op: &mut String,
) {
    let Some(m) = slot else {
        let connectivity = match rng.random_range(0..3) {
            0 => Connectivity::Eight,
            1 => Connectivity::Four,
            _ => Connectivity::Hex(random_layout(rng)),
        };
        let region = if rng.random_bool(0.6) {
            Region::new(
                Cell::new(0, 0),
                Cell::new(grid.width() as i32 - 1, grid.height() as i32 - 1),
            )
        } else {
            let c = any_cell(rng, grid);
            Region::around(c, rng.random_range(0..20))
        };
        let _ = write!(
            op,
            "DistanceField::bounded({region:?}, {connectivity:?}, {mobility:?})"
        );
        let field = DistanceField::try_bounded(grid, mobility, connectivity, region).unwrap();
        assert_eq!(field.state(), FieldState::NotComputed);
        assert_none_everywhere(&field, grid);
        *slot = Some(FieldModel {
            field,
            connectivity,
            mobility,
            region,
            max_units: DistanceField::MAX_UNITS,
            goals: BTreeMap::new(),
            flee: None,
            changed: Vec::new(),
        });
        return;
    };
    let ready = m.field.state() == FieldState::Ready;
    match rng.random_range(0..100) {
        0..25 => {
            let c = any_cell(rng, grid);
            let start = match rng.random_range(0..20) {
                0 => u32::MAX - rng.random_range(0..3),
                1 => DistanceField::MAX_UNITS / m.scale() as u32 - rng.random_range(0..5000),
                _ => rng.random_range(0..30),
            };
            let _ = write!(op, "add_goal({c}, {start})");
            let state = m.field.state();
            m.field.add_goal(c, start);
            if m.clipped(grid).is_some_and(|r| r.contains(c)) {
                m.goals.insert(c, start);
                after_goal_change(m, grid, ready, covered);
            } else {
                // Outside the region: dropped, nothing changes.
                assert_eq!(m.field.state(), state);
            }
        }
        25..35 => {
            let c = if rng.random_bool(0.7) && !m.goals.is_empty() {
                *m.goals
                    .keys()
                    .nth(rng.random_range(0..m.goals.len()))
                    .unwrap()
            } else {
                any_cell(rng, grid)
            };
            let _ = write!(op, "remove_goal({c})");
            m.field.remove_goal(c);
            let had = m.goals.remove(&c).is_some();
            if had {
                after_goal_change(m, grid, ready, covered);
            } else if ready && m.changed.is_empty() {
                check_field(m, grid, Ok(()), covered);
            }
        }
        35..40 => {
            let _ = write!(op, "clear_goals");
            m.field.clear_goals();
            m.goals.clear();
            if ready {
                assert_eq!(m.field.state(), FieldState::Stale);
            }
            if m.field.state() != FieldState::Ready {
                assert_none_everywhere(&m.field, grid);
            }
        }
        40..60 => {
            let _ = write!(op, "compute (goals {:?})", m.goals);
            let r = m.field.compute(grid).map(|_| ());
            m.changed.clear();
            check_field(m, grid, r, covered);
        }
        60..75 => {
            let mut changed = std::mem::take(&mut m.changed);
            if rng.random_bool(0.3) {
                changed.push(any_cell(rng, grid));
            }
            let _ = write!(op, "repair({changed:?})");
            let r = m.field.repair(grid, &changed).map(|_| ());
            check_field(m, grid, r, covered);
        }
        75..85 => {
            let factor = match rng.random_range(0..10) {
                0 => [0.0, -1.2, f32::NAN, f32::INFINITY, -0.0][rng.random_range(0..5usize)],
                _ => rng.random_range(0.1..3.0),
            };
            let _ = write!(op, "flee({factor})");
            let before: Vec<_> = (0..grid.len())
                .map(|i| m.field.units(grid.cell_of(i).unwrap()))
                .collect();
            let state = m.field.state();
            let r = m.field.flee(grid, factor);
            if !(factor.is_finite() && factor > 0.0) {
                assert_eq!(r, Err(FieldError::InvalidFleeFactor));
                assert_eq!(m.field.state(), state);
                let after: Vec<_> = (0..grid.len())
                    .map(|i| m.field.units(grid.cell_of(i).unwrap()))
                    .collect();
                assert_eq!(after, before, "a refused flee changed the field");
                covered.errors_checked += 1;
                return;
            }
            m.flee = Some(factor);
            if m.changed.is_empty() || !ready {
                m.changed.clear();
                check_field(m, grid, r.map(|_| ()), covered);
            } else {
                // Flee of a ready chase field rescans its values without reading the
                // grid: bring it up to date first, as a user would, then compare.
                let changed = std::mem::take(&mut m.changed);
                let r = m.field.repair(grid, &changed).map(|_| ());
                check_field(m, grid, r, covered);
            }
        }
        85..93 => {
            let max_cost = match rng.random_range(0..6) {
                0 => f64::INFINITY,
                1 => -3.0,
                2 => f64::NAN,
                _ => rng.random_range(0.0..40.0),
            };
            let _ = write!(op, "with_max_distance({max_cost})");
            let field = std::mem::replace(
                &mut m.field,
                DistanceField::new(&Grid::default(), mobility, m.connectivity),
            );
            m.field = field.with_max_distance(max_cost);
            let units = (max_cost.max(0.0) * m.scale() as f64).floor();
            let new = if units.is_nan() || units >= f64::from(DistanceField::MAX_UNITS) {
                DistanceField::MAX_UNITS
            } else {
                units as u32
            };
            if ready && new != m.max_units {
                assert_eq!(m.field.state(), FieldState::Stale);
                assert_none_everywhere(&m.field, grid);
            }
            m.max_units = new;
        }
        93..96 => {
            let _ = write!(op, "compute on a grid of another size");
            let other = Grid::new(grid.width() + 1, grid.height()).unwrap();
            assert!(matches!(
                m.field.compute(&other),
                Err(FieldError::GridMismatch(_))
            ));
            assert!(matches!(
                m.field.repair(&other, &[]),
                Err(FieldError::GridMismatch(_))
            ));
            covered.errors_checked += 1;
        }
        _ => {
            let cell = extreme_cell(rng, grid);
            let _ = write!(op, "combined_next_step({cell})");
            let step = combined_next_step(&[(&m.field, 1.0), (&m.field, 0.5)], cell);
            // A unit anywhere, even outside the field, may only be sent to a reached
            // neighbour that improves on where it stands.
            if let Some(d) = step {
                let n = cell.step(d);
                let there = m.field.distance(n).expect("sent to an unreached cell");
                if let Some(here) = m.field.distance(cell) {
                    assert!(there < here, "combined_next_step goes uphill at {cell}");
                }
            }
            if rng.random_bool(0.3) {
                *slot = None;
            }
        }
    }
}

/// After a goal changed: a ready chase field is up to date at once (when the grid
/// has not changed under it); any other field that was ready is stale.
pub(crate) fn after_goal_change(
    m: &mut FieldModel,
    grid: &Grid,
    ready: bool,
    covered: &mut Covered,
) {
    if !ready {
        assert_ne!(m.field.state(), FieldState::Ready);
        return;
    }
    if m.flee.is_some() {
        assert_eq!(m.field.state(), FieldState::Stale);
        assert_none_everywhere(&m.field, grid);
    } else if m.changed.is_empty() {
        let result = match m.field.state() {
            FieldState::Overflowed => Err(FieldError::DistanceOverflow {
                max_units: DistanceField::MAX_UNITS,
            }),
            _ => Ok(()),
        };
        check_field(m, grid, result, covered);
    }
}

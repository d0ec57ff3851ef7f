//! The hostile moves made every tick, and the unkind moves of issue 36.

use super::*;

/// One tick of hostile moves.
pub(crate) fn hostile_tick(app: &mut App, g: &mut Game) {
    let n = g.rng.random_range(0..12);
    for _ in 0..n {
        let roll = g.rng.random_range(0..100);
        let asked_now = |app: &mut App, e: Entity| {
            let mut w = app.world_mut().resource_mut::<Watch>();
            let t = w.tick;
            w.asked.entry(e).or_insert(t);
        };
        match roll {
            // Units come and go.
            0..=14 if g.units.len() < 2_000 => {
                for _ in 0..g.rng.random_range(1..40) {
                    let cell = g.random_cell(40);
                    // Some on a map with a grid of its own.
                    let on = if !g.grid_maps.is_empty() && g.rng.random_bool(0.35) {
                        Some(g.grid_maps[g.rng.random_range(0..g.grid_maps.len())])
                    } else {
                        None
                    };
                    let hex = on
                        .and_then(|m| app.world().get::<PathingMap>(m))
                        .is_some_and(|m| m.transform.layout.hex().is_some());
                    let request = g.random_request(on, hex);
                    app.world_mut().resource_mut::<Watch>().cover.sizes
                        [usize::from(request.size - 1)] += 1;
                    let mut e = app.world_mut().spawn((GridCell(cell), request));
                    if let Some(m) = on {
                        e.insert(OnGrid(m));
                    }
                    if g.rng.random_bool(0.6) {
                        e.insert(PathFollower::new(g.rng.random_range(1.0..30.0)));
                    }
                    let e = e.id();
                    g.units.push(e);
                    asked_now(app, e);
                }
            }
            15..=19 if !g.units.is_empty() => {
                let e = g.units.swap_remove(g.rng.random_range(0..g.units.len()));
                app.world_mut().despawn(e);
                app.world_mut().resource_mut::<Watch>().asked.remove(&e);
            }
            // Requests removed and put back, changed; cells removed and put back.
            20..=27 if !g.units.is_empty() => {
                let e = g.units[g.rng.random_range(0..g.units.len())];
                if let Some(r) = app.world_mut().entity_mut(e).take::<PathRequest>() {
                    g.removed.push((e, r));
                    app.world_mut().resource_mut::<Watch>().asked.remove(&e);
                }
            }
            28..=33 if !g.removed.is_empty() => {
                let (e, r) = g
                    .removed
                    .swap_remove(g.rng.random_range(0..g.removed.len()));
                if app.world().get_entity(e).is_ok() && g.units.contains(&e) {
                    app.world_mut().entity_mut(e).insert(r);
                    if app.world().get::<GridCell>(e).is_some() {
                        asked_now(app, e);
                    }
                }
            }
            34..=39 if !g.units.is_empty() => {
                let e = g.units[g.rng.random_range(0..g.units.len())];
                let (on, hex) = Game::unit_grid(app, e)
                    .map_or((None, false), |(k, _, l)| (k, l.hex().is_some()));
                let r = g.random_request(on, hex);
                if app.world().get::<PathRequest>(e).is_some() {
                    app.world_mut().entity_mut(e).insert(r);
                    if app.world().get::<GridCell>(e).is_some() {
                        asked_now(app, e);
                    }
                }
            }
            40..=43 if !g.units.is_empty() => {
                let e = g.units[g.rng.random_range(0..g.units.len())];
                if let Some(GridCell(c)) = app.world_mut().entity_mut(e).take::<GridCell>() {
                    g.cellless.push((e, c));
                    app.world_mut().resource_mut::<Watch>().asked.remove(&e);
                }
            }
            44..=47 if !g.cellless.is_empty() => {
                let (e, was) = g
                    .cellless
                    .swap_remove(g.rng.random_range(0..g.cellless.len()));
                if g.units.contains(&e) {
                    // Half the time where it was: the grid may have changed meanwhile.
                    let c = if g.rng.random_bool(0.5) {
                        was
                    } else {
                        g.random_cell(40)
                    };
                    app.world_mut().entity_mut(e).insert(GridCell(c));
                    app.world_mut().resource_mut::<Watch>().teleported.push(e);
                }
            }
            48..=51 if !g.units.is_empty() => {
                let e = g.units[g.rng.random_range(0..g.units.len())];
                let c = g.random_cell(40);
                if let Some(mut cell) = app.world_mut().get_mut::<GridCell>(e) {
                    cell.0 = c;
                    app.world_mut().resource_mut::<Watch>().teleported.push(e);
                }
            }
            // Targets come, move and go.
            52..=55 => {
                let c = g.random_cell(40);
                let mut t = app.world_mut().spawn(GridCell(c));
                let on = if !g.grid_maps.is_empty() && g.rng.random_bool(0.3) {
                    let m = g.grid_maps[g.rng.random_range(0..g.grid_maps.len())];
                    t.insert(OnGrid(m));
                    Some(m)
                } else {
                    None
                };
                g.targets.push((t.id(), on));
            }
            56..=63 if !g.targets.is_empty() => {
                let t = g.targets[g.rng.random_range(0..g.targets.len())].0;
                let c = g.random_cell(40);
                app.world_mut().get_mut::<GridCell>(t).unwrap().0 = c;
            }
            64..=65 if !g.targets.is_empty() => {
                let (t, _) = g
                    .targets
                    .swap_remove(g.rng.random_range(0..g.targets.len()));
                app.world_mut().despawn(t);
            }
            // Tiles: retexture, mark, unmark, despawn, move.
            66..=79 if !g.tiles.is_empty() => {
                let t = g.tiles[g.rng.random_range(0..g.tiles.len())];
                let mut e = app.world_mut().entity_mut(t);
                match g.rng.random_range(0..5) {
                    0 => {
                        e.insert(TileTextureIndex(g.rng.random_range(0..4)));
                    }
                    1 => {
                        e.insert(PathTile(TileKind::new(g.rng.random_range(0..4)).unwrap()));
                    }
                    2 => {
                        e.remove::<PathTile>();
                    }
                    3 => {
                        let pos =
                            TilePos::new(g.rng.random_range(0..40), g.rng.random_range(0..40));
                        e.insert(pos);
                    }
                    _ => {
                        e.despawn();
                        g.tiles.retain(|&x| x != t);
                    }
                }
            }
            // Maps: resize, move, move a tile to another map, despawn, spawn.
            // Mostly every map together (their layers keep agreeing), else one alone.
            80..=82 if !g.maps.is_empty() => {
                let size = random_size(&mut g.rng);
                if g.rng.random_bool(0.9) {
                    g.shape.size = size;
                    reshape_all(app, g);
                } else {
                    let m = g.maps[g.rng.random_range(0..g.maps.len())];
                    app.world_mut()
                        .entity_mut(m)
                        .insert((size, TileStorage::empty(size)));
                }
            }
            83..=85 if !g.maps.is_empty() => {
                let x = g.rng.random_range(-100.0..100.0);
                let transform = Transform::from_xyz(x, 3.0, 0.0);
                if g.rng.random_bool(0.9) {
                    g.shape.transform = transform;
                    reshape_all(app, g);
                } else {
                    let m = g.maps[g.rng.random_range(0..g.maps.len())];
                    app.world_mut().entity_mut(m).insert(transform);
                }
            }
            86..=87 if !g.maps.is_empty() && !g.tiles.is_empty() => {
                let m = g.maps[g.rng.random_range(0..g.maps.len())];
                let t = g.tiles[g.rng.random_range(0..g.tiles.len())];
                app.world_mut().entity_mut(t).insert(TilemapId(m));
            }
            88 if !g.maps.is_empty() && g.rng.random_bool(0.3) => {
                let m = g.maps.swap_remove(g.rng.random_range(0..g.maps.len()));
                app.world_mut().despawn(m);
            }
            89 if g.maps.len() < 3 => {
                let m = spawn_map(app, &mut g.rng, &mut g.tiles, g.shape);
                g.maps.push(m);
            }
            // The system between `Collect` and `Solve` edits a cell next tick.
            90..=95 => {
                let c = g.random_cell(40);
                let k = TileKind::new(g.rng.random_range(0..4)).unwrap();
                let key = if !g.grid_maps.is_empty() && g.rng.random_bool(0.5) {
                    Some(g.grid_maps[g.rng.random_range(0..g.grid_maps.len())])
                } else {
                    None
                };
                app.world_mut()
                    .resource_mut::<Watch>()
                    .between
                    .push((key, c, k));
            }
            _ => {}
        }
    }
    for _ in 0..g.rng.random_range(0..6) {
        unkind_move(app, g);
    }
    // Maps with grids of their own come (taking the layouts in turn) and go.
    g.tick += 1;
    if g.tick.is_multiple_of(g.map_period) {
        spawn_next_grid_map(app, g);
        if g.grid_maps.len() > MAX_GRID_MAPS {
            let m = g.grid_maps.remove(0);
            app.world_mut().despawn(m);
        }
    }
    let s = random_settings(&mut g.rng);
    app.insert_resource(s);
}

/// Spawns a map of the next layout with a grid of its own.
pub(crate) fn spawn_next_grid_map(app: &mut App, g: &mut Game) {
    let map_type = MAP_TYPES[g.next_type % MAP_TYPES.len()];
    g.next_type += 1;
    let m = spawn_grid_map(app, &mut g.rng, &mut g.tiles, map_type);
    g.grid_maps.push(m);
    let layout = MapLayout::from(map_type);
    *app.world_mut()
        .resource_mut::<Watch>()
        .cover
        .maps_by_layout
        .entry(format!("{layout:?}"))
        .or_default() += 1;
}

/// One of the unkind moves of issue 36, on a unit it applies to (if one is found).
pub(crate) fn unkind_move(app: &mut App, g: &mut Game) {
    let moving = |app: &App, e: Entity| {
        app.world()
            .get::<PathFollower>(e)
            .is_some_and(PathFollower::is_moving)
            && app.world().get::<GridCell>(e).is_some()
    };
    match g.rng.random_range(0..5) {
        // A wall on a corner cell of a unit's next diagonal step, a step legal until
        // now: beside the footprint, under the footprint of one of the two orthogonal
        // steps the diagonal needs, not under the footprint it enters.
        0 | 1 => {
            let next_diagonal = |app: &App, e: Entity| {
                let w = app.world();
                let (Some(cell), Some(path)) = (w.get::<GridCell>(e), w.get::<UnitPath>(e)) else {
                    return false;
                };
                let Some((_, grid, layout)) = Game::unit_grid(app, e) else {
                    return false;
                };
                w.get::<PathFollower>(e).is_some()
                    && path.at == cell.0
                    && layout.hex().is_none()
                    && wall_for(path.mobility).is_some()
                    && path.steps.peek().is_some_and(|d| {
                        d.is_diagonal()
                            && layout.can_step(grid.grid(), path.at, d, path.mobility, path.size)
                    })
            };
            let Some(e) = g.pick_unit(app, next_diagonal) else {
                return;
            };
            let path = *app.world().get::<UnitPath>(e).unwrap();
            let (key, _, _) = Game::unit_grid(app, e).unwrap();
            let (dx, dy) = path.steps.peek().unwrap().offset();
            let (at, s) = (path.at, i32::from(path.size.max(1)));
            // Past the footprint's side in x (resp. y), on its row (column) the step
            // leaves.
            let (x_side, x_row) = (
                if dx > 0 { at.x + s } else { at.x - 1 },
                if dy > 0 { at.y } else { at.y + s - 1 },
            );
            let (y_col, y_side) = (
                if dx > 0 { at.x } else { at.x + s - 1 },
                if dy > 0 { at.y + s } else { at.y - 1 },
            );
            let corner = if g.rng.random_bool(0.5) {
                Cell::new(x_side, x_row)
            } else {
                Cell::new(y_col, y_side)
            };
            let wall = wall_for(path.mobility).unwrap();
            if g.set_cell(app, key, corner, wall) {
                app.world_mut().resource_mut::<Watch>().cover.corner_walls += 1;
            }
        }
        // A follower picked up between two cells and put next door or anywhere.
        2 => {
            let Some(e) = g.pick_unit(app, moving) else {
                return;
            };
            let at = app.world().get::<GridCell>(e).unwrap().0;
            let to = if g.rng.random_bool(0.5) {
                at.step(Direction8::ALL[g.rng.random_range(0..8)])
            } else {
                g.random_cell(40)
            };
            app.world_mut().get_mut::<GridCell>(e).unwrap().0 = to;
            let mut w = app.world_mut().resource_mut::<Watch>();
            w.teleported.push(e);
            w.cover.mid_step_moves += 1;
        }
        // A wall under a unit bigger than one cell.
        3 => {
            let big = |app: &App, e: Entity| {
                let w = app.world();
                w.get::<GridCell>(e).is_some()
                    && w.get::<UnitPath>(e)
                        .is_some_and(|p| p.size > 1 && wall_for(p.mobility).is_some())
                    && Game::unit_grid(app, e).is_some()
            };
            let Some(e) = g.pick_unit(app, big) else {
                return;
            };
            let at = app.world().get::<GridCell>(e).unwrap().0;
            let path = *app.world().get::<UnitPath>(e).unwrap();
            let (key, _, _) = Game::unit_grid(app, e).unwrap();
            let s = i32::from(path.size);
            let under = Cell::new(
                at.x + g.rng.random_range(0..s),
                at.y + g.rng.random_range(0..s),
            );
            if g.set_cell(app, key, under, wall_for(path.mobility).unwrap()) {
                app.world_mut()
                    .resource_mut::<Watch>()
                    .cover
                    .walls_under_big += 1;
            }
        }
        // A unit put on another grid (or taken off its map), mid-step half the time;
        // now and then on an entity with no grid.
        _ => {
            let mid_step = g.rng.random_bool(0.5);
            let e = if mid_step {
                g.pick_unit(app, moving)
            } else {
                g.pick_unit(app, |app, e| app.world().get::<GridCell>(e).is_some())
            };
            let Some(e) = e else {
                return;
            };
            let now = app.world().get::<OnGrid>(e).map(|o| o.0);
            let to = match g.rng.random_range(0..10) {
                0 if !g.targets.is_empty() => {
                    Some(g.targets[g.rng.random_range(0..g.targets.len())].0)
                }
                1..=3 => None,
                _ if !g.grid_maps.is_empty() => {
                    Some(g.grid_maps[g.rng.random_range(0..g.grid_maps.len())])
                }
                _ => None,
            };
            if to == now {
                return;
            }
            let mut unit = app.world_mut().entity_mut(e);
            match to {
                Some(m) => {
                    unit.insert(OnGrid(m));
                }
                None => {
                    unit.remove::<OnGrid>();
                }
            }
            let mut w = app.world_mut().resource_mut::<Watch>();
            w.cover.grid_changes += 1;
            w.cover.grid_changes_mid_step += u64::from(mid_step);
        }
    }
}

//! Every bevy_ecs_tilemap layout: cells, neighbours and world positions agree with
//! bevy_ecs_tilemap's own helpers, the mirror writes every layout, and units find
//! optimal paths over each layout's neighbours.

mod common;

use std::collections::{BTreeSet, BinaryHeap};

use bevy::prelude::*;
use bevy_ecs_tilemap::helpers::hex_grid::neighbors::HexNeighbors;
use bevy_ecs_tilemap::helpers::square_grid::neighbors::Neighbors;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use bevy_tilepath::{cell_to_tile_pos, tile_pos_to_cell};
use common::{app, seeded, ticks};
use rand::RngExt;
use rand::rngs::StdRng;

const TYPES: [TilemapType; 9] = [
    TilemapType::Square,
    TilemapType::Hexagon(HexCoordSystem::Row),
    TilemapType::Hexagon(HexCoordSystem::RowEven),
    TilemapType::Hexagon(HexCoordSystem::RowOdd),
    TilemapType::Hexagon(HexCoordSystem::Column),
    TilemapType::Hexagon(HexCoordSystem::ColumnEven),
    TilemapType::Hexagon(HexCoordSystem::ColumnOdd),
    TilemapType::Isometric(IsoCoordSystem::Diamond),
    TilemapType::Isometric(IsoCoordSystem::Staggered),
];

const ANCHORS: [TilemapAnchor; 3] = [
    TilemapAnchor::Center,
    TilemapAnchor::BottomLeft,
    TilemapAnchor::TopRight,
];

/// K0 costs 1, K1 is a wall, K2 costs 3, K3 costs 2.
const MOBILITY: Mobility = Mobility::new([1, 0, 3, 2]);

fn kind_of(t: TileTextureIndex) -> TileKind {
    TileKind::new((t.0 % 4) as u8).unwrap()
}

/// A random map of `map_type`: its size, grid size, anchor and transform drawn from
/// `rng`, every tile present with a random kind (walls with probability `walls`).
struct Map {
    entity: Entity,
    size: TilemapSize,
    grid_size: TilemapGridSize,
    tile_size: TilemapTileSize,
    map_type: TilemapType,
    anchor: TilemapAnchor,
    transform: Transform,
    kinds: Vec<TileKind>,
}

impl Map {
    fn spawn(app: &mut App, map_type: TilemapType, rng: &mut StdRng, walls: f64) -> Map {
        let size = TilemapSize::new(rng.random_range(3..14), rng.random_range(3..14));
        let grid_size = TilemapGridSize {
            x: rng.random_range(8.0..40.0),
            y: rng.random_range(8.0..40.0),
        };
        let tile_size = TilemapTileSize {
            x: grid_size.x,
            y: grid_size.y,
        };
        let anchor = ANCHORS[rng.random_range(0..ANCHORS.len())];
        let transform = Transform::from_xyz(
            rng.random_range(-300.0..300.0),
            rng.random_range(-300.0..300.0),
            0.0,
        )
        .with_scale(Vec3::new(
            rng.random_range(0.5..2.0),
            rng.random_range(0.5..2.0),
            1.0,
        ));
        let entity = app
            .world_mut()
            .spawn((
                size,
                grid_size,
                tile_size,
                map_type,
                anchor,
                TileStorage::empty(size),
                transform,
                // Holes of staggered maps' grids are walls.
                PathingTilemap::new(kind_of).with_missing(TileKind::K1),
            ))
            .id();
        let mut kinds = Vec::new();
        for y in 0..size.y {
            for x in 0..size.x {
                let texture = if rng.random_bool(walls) {
                    1
                } else {
                    [0, 0, 0, 2, 3][rng.random_range(0..5)]
                };
                kinds.push(kind_of(TileTextureIndex(texture)));
                app.world_mut().spawn(TileBundle {
                    position: TilePos::new(x, y),
                    texture_index: TileTextureIndex(texture),
                    tilemap_id: TilemapId(entity),
                    ..default()
                });
            }
        }
        ticks(app, 1);
        Map {
            entity,
            size,
            grid_size,
            tile_size,
            map_type,
            anchor,
            transform,
            kinds,
        }
    }

    fn layout(&self) -> MapLayout {
        MapLayout::from(self.map_type)
    }

    /// Where bevy_ecs_tilemap draws `pos`, in the world.
    fn centre(&self, pos: TilePos) -> Vec2 {
        let local = pos.center_in_world(
            &self.size,
            &self.grid_size,
            &self.tile_size,
            &self.map_type,
            &self.anchor,
        );
        local * self.transform.scale.truncate() + self.transform.translation.truncate()
    }

    /// The tile bevy_ecs_tilemap finds at world position `world`.
    fn tile_at(&self, world: Vec2) -> Option<TilePos> {
        let local =
            (world - self.transform.translation.truncate()) / self.transform.scale.truncate();
        TilePos::from_world_pos(
            &local,
            &self.size,
            &self.grid_size,
            &self.tile_size,
            &self.map_type,
            &self.anchor,
        )
    }

    /// bevy_ecs_tilemap's neighbours of `pos` (diagonals too when `eight`, on square
    /// and isometric maps).
    fn neighbours(&self, pos: TilePos, eight: bool) -> BTreeSet<(u32, u32)> {
        let list: Vec<TilePos> = match self.map_type {
            TilemapType::Hexagon(sys) => {
                HexNeighbors::get_neighboring_positions(&pos, &self.size, &sys)
                    .iter()
                    .copied()
                    .collect()
            }
            TilemapType::Isometric(IsoCoordSystem::Staggered) => {
                Neighbors::get_staggered_neighboring_positions(&pos, &self.size, eight)
                    .iter()
                    .copied()
                    .collect()
            }
            _ => Neighbors::get_square_neighboring_positions(&pos, &self.size, eight)
                .iter()
                .copied()
                .collect(),
        };
        list.into_iter().map(|p| (p.x, p.y)).collect()
    }

    fn kind(&self, pos: TilePos) -> TileKind {
        self.kinds[(pos.y * self.size.x + pos.x) as usize]
    }
}

/// Our neighbours of `pos`: the steps the layout allows from its cell, mapped back to
/// tiles of the map.
fn our_neighbours(map: &Map, pos: TilePos, connectivity: Connectivity) -> BTreeSet<(u32, u32)> {
    let layout = map.layout();
    let moving = layout.connectivity(connectivity);
    let cell = tile_pos_to_cell(pos, layout);
    (0..8)
        .map(Direction8::from_bits)
        .filter(|&d| moving.allows(cell, d))
        .filter_map(|d| cell_to_tile_pos(cell.step(d), map.size, layout))
        .map(|p| (p.x, p.y))
        .collect()
}

#[test]
fn neighbours_are_bevy_ecs_tilemaps() {
    let mut rng = seeded(71);
    for map_type in TYPES {
        for _ in 0..4 {
            let mut app = app(None, PathingSettings::default());
            let map = Map::spawn(&mut app, map_type, &mut rng, 0.0);
            for y in 0..map.size.y {
                for x in 0..map.size.x {
                    let pos = TilePos::new(x, y);
                    for (connectivity, eight) in
                        [(Connectivity::Four, false), (Connectivity::Eight, true)]
                    {
                        assert_eq!(
                            our_neighbours(&map, pos, connectivity),
                            map.neighbours(pos, eight),
                            "{map_type:?} {:?} at {pos:?} {connectivity:?}",
                            map.size
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn world_positions_are_bevy_ecs_tilemaps() {
    let mut rng = seeded(72);
    for map_type in TYPES {
        for _ in 0..6 {
            let mut app = app(None, PathingSettings::default());
            let map = Map::spawn(&mut app, map_type, &mut rng, 0.0);
            let world = *app.world().resource::<GridTransform>();
            assert_eq!(world.layout, map.layout());
            let scale = map.grid_size.x.max(map.grid_size.y) * 2.0;
            for y in 0..map.size.y {
                for x in 0..map.size.x {
                    let pos = TilePos::new(x, y);
                    let ours = world.cell_to_world(tile_pos_to_cell(pos, map.layout()));
                    let theirs = map.centre(pos);
                    assert!(
                        ours.distance(theirs) < 1e-3 * scale,
                        "{map_type:?} {pos:?}: {ours} vs {theirs}"
                    );
                }
            }
            // Random points, inside and around the map: the same tile, or none.
            let (lo, hi) = (
                map.centre(TilePos::new(0, 0)),
                map.centre(TilePos::new(map.size.x - 1, map.size.y - 1)),
            );
            let (min, max) = (lo.min(hi) - scale, lo.max(hi) + scale);
            for _ in 0..2000 {
                let p = Vec2::new(
                    rng.random_range(min.x..max.x),
                    rng.random_range(min.y..max.y),
                );
                let ours = cell_to_tile_pos(world.world_to_cell(p), map.size, map.layout());
                assert_eq!(ours, map.tile_at(p), "{map_type:?} at {p}");
            }
        }
    }
}

#[test]
fn the_mirror_writes_every_layout() {
    let mut rng = seeded(73);
    for map_type in TYPES {
        let mut app = app(None, PathingSettings::default());
        let map = Map::spawn(&mut app, map_type, &mut rng, 0.3);
        let layout = map.layout();
        let grid = app.world().resource::<PathingGrid>().grid().clone();
        let (w, h) = layout.grid_size(map.size.x, map.size.y).unwrap();
        assert_eq!((grid.width(), grid.height()), (w, h), "{map_type:?}");
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                let cell = Cell::new(x, y);
                let want =
                    cell_to_tile_pos(cell, map.size, layout).map_or(TileKind::K1, |p| map.kind(p));
                assert_eq!(grid.get(cell), Some(want), "{map_type:?} {cell:?}");
            }
        }
        // An edit reaches its own cell.
        let pos = TilePos::new(map.size.x - 1, map.size.y - 1);
        let tile = app
            .world_mut()
            .query::<(Entity, &TilePos)>()
            .iter(app.world())
            .find(|(_, p)| **p == pos)
            .unwrap()
            .0;
        app.world_mut()
            .entity_mut(tile)
            .insert(PathTile(TileKind::K2));
        ticks(&mut app, 1);
        let grid = app.world().resource::<PathingGrid>();
        assert_eq!(grid.get(tile_pos_to_cell(pos, layout)), Some(TileKind::K2));
    }
}

/// Cheapest costs from `from` over bevy_ecs_tilemap's neighbours (entering costs;
/// on square and isometric maps diagonals cost `sqrt(2)` times and need both cells
/// beside their corner open).
fn reference(map: &Map, from: TilePos, eight: bool) -> Vec<Option<f64>> {
    let n = (map.size.x * map.size.y) as usize;
    let index = |p: TilePos| (p.y * map.size.x + p.x) as usize;
    let mut best = vec![None; n];
    let mut heap = BinaryHeap::new();
    best[index(from)] = Some(0.0);
    heap.push((std::cmp::Reverse(0u64), from.x, from.y));
    let open = |p: TilePos| MOBILITY.cost(map.kind(p)) != 0;
    while let Some((std::cmp::Reverse(g), x, y)) = heap.pop() {
        let pos = TilePos::new(x, y);
        // The heap's keys are rounded to 1e-6: an entry more than that above the best
        // cost is stale.
        let Some(g) = best[index(pos)].filter(|&b| g as f64 / 1e6 <= b + 1e-5) else {
            continue;
        };
        let steps: Vec<(TilePos, f64)> = match map.map_type {
            TilemapType::Hexagon(sys) => {
                HexNeighbors::get_neighboring_positions(&pos, &map.size, &sys)
                    .iter()
                    .map(|&p| (p, 1.0))
                    .collect()
            }
            _ => {
                let all = if map.map_type == TilemapType::Isometric(IsoCoordSystem::Staggered) {
                    Neighbors::get_staggered_neighboring_positions(&pos, &map.size, true)
                } else {
                    Neighbors::get_square_neighboring_positions(&pos, &map.size, true)
                };
                let dirs = bevy_ecs_tilemap::helpers::square_grid::neighbors::SQUARE_DIRECTIONS;
                dirs.iter()
                    .enumerate()
                    .filter(|(i, _)| eight || i % 2 == 0)
                    .filter_map(|(i, d)| {
                        let p = *all.get(*d)?;
                        if i % 2 == 1 {
                            // The corner rule: both sides of the corner open.
                            let side =
                                |j: usize| all.get(dirs[j % 8]).copied().filter(|&q| open(q));
                            side(i + 7)?;
                            side(i + 1)?;
                            Some((p, std::f64::consts::SQRT_2))
                        } else {
                            Some((p, 1.0))
                        }
                    })
                    .collect()
            }
        };
        for (p, w) in steps {
            let c = MOBILITY.cost(map.kind(p));
            if c == 0 {
                continue;
            }
            let ng = g + w * f64::from(c);
            if best[index(p)].is_none_or(|b| ng < b - 1e-9) {
                best[index(p)] = Some(ng);
                heap.push((std::cmp::Reverse((ng * 1e6).round() as u64), p.x, p.y));
            }
        }
    }
    best
}

/// Units on random maps of every layout, 4- and 8-connected where it applies: a path
/// is found exactly when the reference reaches the goal, at the reference's cost, and
/// every step joins neighbours as bevy_ecs_tilemap defines them.
#[test]
fn paths_are_optimal_over_every_layout() {
    let mut rng = seeded(74);
    let mut checked = 0;
    for map_type in TYPES {
        for round in 0..6 {
            // The grid paths themselves (pulled straight, a path ends at its
            // eighth turn: tests/straight.rs checks those), every one served in the
            // ticks below however slow the build (no time cap).
            let settings = PathingSettings {
                straight_routes: false,
                time_cap: None,
                ..default()
            };
            let mut app = app(None, settings);
            let map = Map::spawn(&mut app, map_type, &mut rng, 0.25);
            let layout = map.layout();
            let eight = round % 2 == 1;
            let connectivity = if eight {
                Connectivity::Eight
            } else {
                Connectivity::Four
            };
            let mut units = Vec::new();
            for _ in 0..12 {
                let pick = |rng: &mut StdRng| loop {
                    let p = TilePos::new(
                        rng.random_range(0..map.size.x),
                        rng.random_range(0..map.size.y),
                    );
                    if MOBILITY.cost(map.kind(p)) != 0 {
                        break p;
                    }
                };
                let (from, to) = (pick(&mut rng), pick(&mut rng));
                let unit = app
                    .world_mut()
                    .spawn((
                        GridCell(tile_pos_to_cell(from, layout)),
                        PathRequest::to_cell(tile_pos_to_cell(to, layout))
                            .with_mobility(MOBILITY)
                            .with_connectivity(connectivity),
                    ))
                    .id();
                units.push((unit, from, to));
            }
            ticks(&mut app, 2);
            for (unit, from, to) in units {
                let costs = reference(&map, from, eight);
                let want = costs[(to.y * map.size.x + to.x) as usize];
                let e = app.world().entity(unit);
                let status = e.get::<PathStatus>().unwrap();
                let path = e.get::<UnitPath>().unwrap();
                let hex = matches!(map_type, TilemapType::Hexagon(_));
                match want {
                    Some(cost) => {
                        // A unit spawned on its goal has arrived.
                        let served = if from == to {
                            PathStatus::Arrived
                        } else {
                            PathStatus::Found
                        };
                        assert_eq!(*status, served, "{map_type:?} {from:?}->{to:?}");
                        assert!(
                            (f64::from(path.route_cost) - cost).abs() < 1e-3 * cost.max(1.0),
                            "{map_type:?} {from:?}->{to:?}: {} vs {cost}",
                            path.route_cost
                        );
                        let mut at = from;
                        for cell in path.cells_ahead() {
                            let next = cell_to_tile_pos(cell, map.size, layout).unwrap();
                            assert!(
                                map.neighbours(at, eight && !hex)
                                    .contains(&(next.x, next.y)),
                                "{map_type:?}: {at:?} -> {next:?} is not a step"
                            );
                            at = next;
                        }
                        assert_eq!(at, to);
                        checked += 1;
                    }
                    None => assert_ne!(*status, PathStatus::Found, "{map_type:?}"),
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} reachable goals checked");
}

/// A staggered map's grid has holes between the tiles' edges: a goal there is outside
/// the map, as is a start.
#[test]
fn holes_of_staggered_maps_are_outside() {
    let mut rng = seeded(75);
    let mut app = app(None, common::uncapped());
    let map = Map::spawn(
        &mut app,
        TilemapType::Isometric(IsoCoordSystem::Staggered),
        &mut rng,
        0.0,
    );
    let layout = map.layout();
    let hole = Cell::new(1, 0);
    assert_eq!(cell_to_tile_pos(hole, map.size, layout), None);
    let inside = tile_pos_to_cell(TilePos::new(0, 0), layout);
    let to_hole = app
        .world_mut()
        .spawn((GridCell(inside), PathRequest::to_cell(hole)))
        .id();
    let from_hole = app
        .world_mut()
        .spawn((GridCell(hole), PathRequest::to_cell(inside)))
        .id();
    ticks(&mut app, 1);
    let status = |e: Entity| *app.world().get::<PathStatus>(e).unwrap();
    assert_eq!(
        status(to_hole),
        PathStatus::NoPath(NoPathReason::GoalOutsideGrid)
    );
    assert_eq!(
        status(from_hole),
        PathStatus::NoPath(NoPathReason::StartOutsideGrid)
    );
}

/// Crowds heading for one cell of a hex map share a distance field: the same optimal
/// costs as the reference, over hex steps.
#[test]
fn hex_crowds_share_a_field_at_the_reference_cost() {
    let mut rng = seeded(76);
    for sys in [
        HexCoordSystem::RowEven,
        HexCoordSystem::ColumnOdd,
        HexCoordSystem::Row,
    ] {
        let mut app = app(None, common::uncapped());
        let map = Map::spawn(&mut app, TilemapType::Hexagon(sys), &mut rng, 0.2);
        let open: Vec<TilePos> = (0..map.size.y)
            .flat_map(|y| (0..map.size.x).map(move |x| TilePos::new(x, y)))
            .filter(|&p| MOBILITY.cost(map.kind(p)) != 0)
            .collect();
        let goal = open[rng.random_range(0..open.len())];
        let costs = reference(&map, goal, false);
        let units: Vec<(Entity, TilePos)> = (0..40)
            .map(|_| {
                let from = open[rng.random_range(0..open.len())];
                let unit = app
                    .world_mut()
                    .spawn((
                        GridCell(tile_pos_to_cell(from, MapLayout::from(map.map_type))),
                        PathRequest::to_cell(tile_pos_to_cell(goal, map.layout()))
                            .with_mobility(MOBILITY),
                    ))
                    .id();
                (unit, from)
            })
            .collect();
        ticks(&mut app, 1);
        let diag = *app.world().resource::<PathingDiagnostics>();
        assert!(
            diag.fields_built > 0 && diag.served_by_field >= 30,
            "{sys:?}: {diag:?}"
        );
        for (unit, from) in units {
            // Hex steps are symmetric: the cost from `from` to the goal is the cost
            // from the goal to `from` less the goal's cost plus `from`'s.
            let back = costs[(from.y * map.size.x + from.x) as usize];
            let e = app.world().entity(unit);
            let path = e.get::<UnitPath>().unwrap();
            match back {
                Some(c) => {
                    let enter = |p: TilePos| f64::from(MOBILITY.cost(map.kind(p)));
                    let want = c - enter(from) + enter(goal);
                    assert!(
                        (f64::from(path.route_cost) - want).abs() < 1e-3,
                        "{sys:?} {from:?}: {} vs {want}",
                        path.route_cost
                    );
                }
                None => assert_ne!(*e.get::<PathStatus>().unwrap(), PathStatus::Found),
            }
        }
    }
}

/// Units bigger than one cell have no footprint on hex maps yet: a clear failure.
#[test]
fn sized_units_on_hex_maps_fail_with_a_reason() {
    let mut rng = seeded(77);
    let mut app = app(None, PathingSettings::default());
    let map = Map::spawn(
        &mut app,
        TilemapType::Hexagon(HexCoordSystem::RowOdd),
        &mut rng,
        0.0,
    );
    let layout = map.layout();
    let unit = app
        .world_mut()
        .spawn((
            GridCell(tile_pos_to_cell(TilePos::new(0, 0), layout)),
            PathRequest::to_cell(tile_pos_to_cell(TilePos::new(2, 2), layout)).with_size(2),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(
        *app.world().get::<PathStatus>(unit).unwrap(),
        PathStatus::NoPath(NoPathReason::UnitSize)
    );
}

/// On every hex and isometric layout a follower walks its path tile centre to tile
/// centre: it ends where bevy_ecs_tilemap draws the goal tile, having passed only
/// through tiles of the path; greedy requests give valid paths too.
#[test]
fn followers_walk_tile_centres_on_every_layout() {
    let mut rng = seeded(78);
    for map_type in TYPES {
        for mode in [SearchMode::Auto, SearchMode::Greedy] {
            let mut app = app(None, PathingSettings::default());
            let map = Map::spawn(&mut app, map_type, &mut rng, 0.0);
            let layout = map.layout();
            let (from, to) = (
                TilePos::new(0, 0),
                TilePos::new(map.size.x - 1, map.size.y - 1),
            );
            let unit = app
                .world_mut()
                .spawn((
                    GridCell(tile_pos_to_cell(from, layout)),
                    PathRequest::to_cell(tile_pos_to_cell(to, layout))
                        .with_mobility(MOBILITY)
                        .with_mode(mode),
                    PathFollower::new(6.0),
                    Transform::default(),
                ))
                .id();
            ticks(&mut app, 1);
            // The follower has already set out: the path's cells ahead start after
            // the cell it is entering.
            let path = *app.world().get::<UnitPath>(unit).unwrap();
            let planned: Vec<Cell> = path.cells_ahead().collect();
            assert!(!planned.is_empty(), "{map_type:?} {mode:?}");
            let mut at = cell_to_tile_pos(path.at, map.size, layout).unwrap();
            for cell in &planned {
                let next = cell_to_tile_pos(*cell, map.size, layout).unwrap();
                let hex = matches!(map_type, TilemapType::Hexagon(_));
                assert!(
                    map.neighbours(at, !hex).contains(&(next.x, next.y)),
                    "{map_type:?} {mode:?}: {at:?} -> {next:?}"
                );
                at = next;
            }
            let mut seen = vec![tile_pos_to_cell(from, layout)];
            for _ in 0..600 {
                ticks(&mut app, 1);
                let c = app.world().get::<GridCell>(unit).unwrap().0;
                if seen.last() != Some(&c) {
                    seen.push(c);
                }
            }
            assert_eq!(
                seen.last(),
                Some(&tile_pos_to_cell(to, layout)),
                "{map_type:?}"
            );
            // Cell to neighbouring cell all the way (a later segment or re-plan may
            // take other cells than the first plan).
            let hex = matches!(map_type, TilemapType::Hexagon(_));
            for pair in seen.windows(2) {
                let [a, b] =
                    [pair[0], pair[1]].map(|c| cell_to_tile_pos(c, map.size, layout).unwrap());
                assert!(
                    map.neighbours(a, !hex).contains(&(b.x, b.y)),
                    "{map_type:?} {mode:?}: walked {a:?} -> {b:?}"
                );
            }
            let end = app
                .world()
                .get::<Transform>(unit)
                .unwrap()
                .translation
                .truncate();
            let want = map.centre(to);
            assert!(
                end.distance(want) < 1e-3 * map.grid_size.x.max(map.grid_size.y),
                "{map_type:?}: ends at {end}, the tile is drawn at {want}"
            );
        }
    }
}

/// A tile outside its map's size is ignored, as bevy_ecs_tilemap ignores it, on every
/// layout: on a staggered map such a tile's diamond position can lie inside the grid,
/// and it still must not be written there.
#[test]
fn tiles_outside_their_map_are_ignored() {
    let mut rng = seeded(79);
    for map_type in TYPES {
        let mut app = app(None, PathingSettings::default());
        let map = Map::spawn(&mut app, map_type, &mut rng, 0.0);
        let before = app.world().resource::<PathingGrid>().grid().clone();
        for pos in [
            TilePos::new(0, map.size.y),
            TilePos::new(map.size.x, 0),
            TilePos::new(1, map.size.y + 1),
            TilePos::new(u32::MAX, u32::MAX),
        ] {
            app.world_mut().spawn(TileBundle {
                position: pos,
                // Floor, where the grid's holes are walls.
                texture_index: TileTextureIndex(0),
                tilemap_id: TilemapId(map.entity),
                ..default()
            });
        }
        ticks(&mut app, 1);
        assert_eq!(
            app.world().resource::<PathingGrid>().grid(),
            &before,
            "{map_type:?}"
        );
    }
}

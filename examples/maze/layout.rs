//! The maze's layout: generation (a maze, or rooms and open areas), walls and floors,
//! the tile textures that draw them.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use rand::RngExt;
use rand::rngs::StdRng;

/// Texture indices in `assets/maze_tiles.png`: three floors, two walls.
pub(crate) const FLOORS: [u32; 3] = [0, 1, 2];
pub(crate) const WALLS: [u32; 2] = [3, 4];

pub(crate) fn kind_of(texture: TileTextureIndex) -> TileKind {
    if WALLS.contains(&texture.0) {
        TileKind::K1
    } else {
        TileKind::K0
    }
}

/// Which kind of map `--map` generates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum MapKind {
    /// Corridors one cell wide with a few loops: the classic maze.
    #[default]
    Maze,
    /// Rooms joined by doors and corridors, and open areas strewn with pillars.
    Rooms,
    /// Rooms and open areas joined by corridors one, two or three cells wide, without
    /// pillars: the map for units of several sizes.
    Halls,
}

impl MapKind {
    /// The side of the chaser spawned `i`-th: on halls, one in five is 2x2 and one in
    /// ten 3x3; elsewhere all are 1x1.
    pub(crate) fn unit_size(self, i: usize) -> u8 {
        match (self, i % 10) {
            (Self::Halls, 0) => 3,
            (Self::Halls, 1 | 2) => 2,
            _ => 1,
        }
    }
}

/// The maze layout: `true` = wall. Row-major, `y` up (tile positions).
#[derive(Resource, Clone, Debug)]
pub(crate) struct Maze {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) walls: Vec<bool>,
    /// The kind of map it is.
    pub(crate) kind: MapKind,
}

impl Maze {
    /// A map of `kind`, `width` x `height` cells, walled all round, every floor cell
    /// reachable from every other.
    pub(crate) fn new(kind: MapKind, width: u32, height: u32, rng: &mut StdRng) -> Self {
        let mut map = match kind {
            MapKind::Maze => Self::generate(width, height, rng),
            MapKind::Rooms => Self::rooms(width, height, rng, false),
            MapKind::Halls => Self::rooms(width, height, rng, true),
        };
        map.kind = kind;
        map
    }

    /// A maze carved by a randomised depth-first search on the odd cells, with one wall
    /// in ten between two corridors knocked down so that there are loops to flank by.
    pub(crate) fn generate(width: u32, height: u32, rng: &mut StdRng) -> Self {
        let (w, h) = (width as i32, height as i32);
        let mut walls = vec![true; (width * height) as usize];
        let idx = |x: i32, y: i32| (y * w + x) as usize;
        let mut stack = vec![(1, 1)];
        walls[idx(1, 1)] = false;
        while let Some(&(x, y)) = stack.last() {
            let mut options = [(2, 0), (-2, 0), (0, 2), (0, -2)];
            let mut n = 0;
            for (dx, dy) in options {
                let (nx, ny) = (x + dx, y + dy);
                if nx > 0 && ny > 0 && nx < w - 1 && ny < h - 1 && walls[idx(nx, ny)] {
                    options[n] = (dx, dy);
                    n += 1;
                }
            }
            if n == 0 {
                stack.pop();
                continue;
            }
            let (dx, dy) = options[rng.random_range(0..n)];
            walls[idx(x + dx / 2, y + dy / 2)] = false;
            walls[idx(x + dx, y + dy)] = false;
            stack.push((x + dx, y + dy));
        }
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                let between_h = !walls[idx(x - 1, y)] && !walls[idx(x + 1, y)];
                let between_v = !walls[idx(x, y - 1)] && !walls[idx(x, y + 1)];
                if walls[idx(x, y)] && (between_h != between_v) && rng.random_range(0..10) == 0 {
                    walls[idx(x, y)] = false;
                }
            }
        }
        Self {
            kind: MapKind::Maze,
            width,
            height,
            walls,
        }
    }

    /// Rooms and open areas, as on a strategy game's map: the map is cut into blocks of
    /// 16x16 cells; a block holds a room of random size, or (one in four) is open
    /// ground, merging with open neighbours (blocks touch) into larger areas strewn
    /// with pillars.
    /// Neighbouring blocks are joined along a random spanning tree plus one pair in
    /// four besides (loops to go round by), by corridors one or two cells wide.
    pub(crate) fn rooms(width: u32, height: u32, rng: &mut StdRng, halls: bool) -> Self {
        let (w, h) = (width as i32, height as i32);
        let mut walls = vec![true; (width * height) as usize];
        let idx = |x: i32, y: i32| (y * w + x) as usize;
        let carve = |walls: &mut [bool], x0: i32, y0: i32, x1: i32, y1: i32| {
            for y in y0.max(1)..=y1.min(h - 2) {
                for x in x0.max(1)..=x1.min(w - 2) {
                    walls[idx(x, y)] = false;
                }
            }
        };
        // Blocks of `b` cells inside the border; the last row and column take the rest.
        let b = 16.min(w - 2).min(h - 2);
        let (bw, bh) = (((w - 2) / b).max(1), ((h - 2) / b).max(1));
        let block = |bx: i32, by: i32| {
            let x1 = if bx == bw - 1 {
                w - 2
            } else {
                1 + (bx + 1) * b - 1
            };
            let y1 = if by == bh - 1 {
                h - 2
            } else {
                1 + (by + 1) * b - 1
            };
            (1 + bx * b, 1 + by * b, x1, y1)
        };
        let mut centres = vec![Cell::default(); (bw * bh) as usize];
        let mut open = vec![false; (bw * bh) as usize];
        for by in 0..bh {
            for bx in 0..bw {
                let (x0, y0, x1, y1) = block(bx, by);
                let i = (by * bw + bx) as usize;
                if rng.random_range(0..4) == 0 {
                    open[i] = true;
                    carve(&mut walls, x0, y0, x1, y1);
                    centres[i] = Cell::new((x0 + x1) / 2, (y0 + y1) / 2);
                } else {
                    // A room with a wall of at least one cell to the block's edges.
                    let (room_w, room_h) = (x1 - x0 - 1, y1 - y0 - 1);
                    let rw = rng.random_range(room_w.clamp(1, 4)..=room_w.max(1));
                    let rh = rng.random_range(room_h.clamp(1, 4)..=room_h.max(1));
                    let rx = x0 + 1 + rng.random_range(0..=(room_w - rw).max(0));
                    let ry = y0 + 1 + rng.random_range(0..=(room_h - rh).max(0));
                    carve(&mut walls, rx, ry, rx + rw - 1, ry + rh - 1);
                    centres[i] = Cell::new(rx + rw / 2, ry + rh / 2);
                }
            }
        }
        // Pillars on the open ground (one cell in 30), before the corridors, which cut
        // through them: every block's centre is on a corridor.
        for by in 0..bh {
            for bx in 0..bw {
                if halls || !open[(by * bw + bx) as usize] {
                    continue;
                }
                let (x0, y0, x1, y1) = block(bx, by);
                for y in y0 + 1..y1 {
                    for x in x0 + 1..x1 {
                        if rng.random_range(0..30) == 0 {
                            walls[idx(x, y)] = true;
                        }
                    }
                }
            }
        }
        for c in &centres {
            walls[idx(c.x, c.y)] = false;
        }
        // A random spanning tree of the blocks (depth-first), plus extra links.
        let mut links = Vec::new();
        let mut seen = vec![false; (bw * bh) as usize];
        let mut stack = vec![(0, 0)];
        seen[0] = true;
        while let Some(&(bx, by)) = stack.last() {
            let mut next = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            let mut n = 0;
            for (dx, dy) in next {
                let (nx, ny) = (bx + dx, by + dy);
                if (0..bw).contains(&nx) && (0..bh).contains(&ny) && !seen[(ny * bw + nx) as usize]
                {
                    next[n] = (nx, ny);
                    n += 1;
                }
            }
            if n == 0 {
                stack.pop();
                continue;
            }
            let (nx, ny) = next[rng.random_range(0..n)];
            seen[(ny * bw + nx) as usize] = true;
            links.push(((bx, by), (nx, ny)));
            stack.push((nx, ny));
        }
        for by in 0..bh {
            for bx in 0..bw {
                if bx + 1 < bw && rng.random_range(0..4) == 0 {
                    links.push(((bx, by), (bx + 1, by)));
                }
                if by + 1 < bh && rng.random_range(0..4) == 0 {
                    links.push(((bx, by), (bx, by + 1)));
                }
            }
        }
        // Each link: a corridor from one centre to the other, first along x, then y.
        for ((ax, ay), (cx, cy)) in links {
            let (a, c) = (
                centres[(ay * bw + ax) as usize],
                centres[(cy * bw + cx) as usize],
            );
            // Rooms: one corridor in three is 2 cells wide; halls: 1, 2 or 3.
            let extra = if halls {
                rng.random_range(0..3)
            } else {
                i32::from(rng.random_range(0..3) == 0)
            };
            carve(
                &mut walls,
                a.x.min(c.x),
                a.y,
                a.x.max(c.x) + extra,
                a.y + extra,
            );
            carve(
                &mut walls,
                c.x,
                a.y.min(c.y),
                c.x + extra,
                a.y.max(c.y) + extra,
            );
        }
        let mut map = Self {
            kind: MapKind::Rooms,
            width,
            height,
            walls,
        };
        // Every floor cell reachable: wall in whatever the pillars closed off.
        let d = map.distances(centres[0]);
        for (wall, d) in map.walls.iter_mut().zip(d) {
            *wall |= d == u32::MAX;
        }
        map
    }

    pub(crate) fn contains(&self, c: Cell) -> bool {
        c.x >= 0 && c.y >= 0 && (c.x as u32) < self.width && (c.y as u32) < self.height
    }

    pub(crate) fn is_wall(&self, c: Cell) -> bool {
        !self.contains(c) || self.walls[(c.y as u32 * self.width + c.x as u32) as usize]
    }

    pub(crate) fn texture(&self, c: Cell) -> TileTextureIndex {
        let hash = (c.x as u32).wrapping_mul(73_856_093) ^ (c.y as u32).wrapping_mul(19_349_663);
        if self.is_wall(c) {
            // The lit variant where the wall has floor in front of it (below on screen).
            let front = !self.is_wall(Cell::new(c.x, c.y - 1));
            TileTextureIndex(if front { WALLS[0] } else { WALLS[1] })
        } else {
            TileTextureIndex(FLOORS[[0, 1, 0, 1, 2][(hash >> 7) as usize % 5]])
        }
    }

    /// Breadth-first distances from `from` over floor cells (`u32::MAX`: unreachable).
    pub(crate) fn distances(&self, from: Cell) -> Vec<u32> {
        let mut d = vec![u32::MAX; self.walls.len()];
        let mut queue = std::collections::VecDeque::new();
        if !self.is_wall(from) {
            d[(from.y as u32 * self.width + from.x as u32) as usize] = 0;
            queue.push_back(from);
        }
        while let Some(c) = queue.pop_front() {
            let here = d[(c.y as u32 * self.width + c.x as u32) as usize];
            for dir in [
                Direction::Right,
                Direction::Up,
                Direction::Left,
                Direction::Down,
            ] {
                let n = c.step(dir);
                if !self.is_wall(n) {
                    let i = (n.y as u32 * self.width + n.x as u32) as usize;
                    if d[i] == u32::MAX {
                        d[i] = here + 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        d
    }

    pub(crate) fn floor_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height as i32)
            .flat_map(move |y| (0..self.width as i32).map(move |x| Cell::new(x, y)))
            .filter(|&c| !self.is_wall(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn maze_is_connected_with_walls_around() {
        let mut rng = StdRng::seed_from_u64(3);
        let maze = Maze::generate(41, 31, &mut rng);
        let d = maze.distances(Cell::new(1, 1));
        assert!(
            maze.floor_cells()
                .all(|c| d[(c.y as u32 * 41 + c.x as u32) as usize] != u32::MAX)
        );
        assert!((0..41).all(|x| maze.is_wall(Cell::new(x, 0)) && maze.is_wall(Cell::new(x, 30))));
    }

    /// Rooms maps of any size are connected, walled all round, and mostly floor, with
    /// open areas (a 5x5 square of floor) somewhere.
    #[test]
    fn rooms_are_connected_with_walls_around() {
        for (w, h, seed) in [(96, 96, 1), (8, 8, 2), (41, 23, 3), (130, 70, 4)] {
            let mut rng = StdRng::seed_from_u64(seed);
            let map = Maze::new(MapKind::Rooms, w, h, &mut rng);
            let floor: Vec<Cell> = map.floor_cells().collect();
            assert!(!floor.is_empty());
            let d = map.distances(floor[0]);
            assert!(
                floor
                    .iter()
                    .all(|c| d[(c.y as u32 * w + c.x as u32) as usize] != u32::MAX),
                "{w}x{h}: a floor cell is cut off"
            );
            let (wi, hi) = (w as i32, h as i32);
            assert!(
                (0..wi).all(|x| map.is_wall(Cell::new(x, 0)) && map.is_wall(Cell::new(x, hi - 1)))
            );
            assert!(
                (0..hi).all(|y| map.is_wall(Cell::new(0, y)) && map.is_wall(Cell::new(wi - 1, y)))
            );
            if w >= 96 {
                assert!(
                    floor.len() * 3 > (w * h) as usize,
                    "{w}x{h}: too little floor"
                );
                let open = floor.iter().any(|c| {
                    (0..5).all(|dy| (0..5).all(|dx| !map.is_wall(Cell::new(c.x + dx, c.y + dy))))
                });
                assert!(open, "{w}x{h}: no open area");
            }
        }
    }
}

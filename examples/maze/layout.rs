//! The maze's layout: generation, walls and floors, the tile textures that draw them.

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

/// The maze layout: `true` = wall. Row-major, `y` up (tile positions).
#[derive(Resource, Clone, Debug)]
pub(crate) struct Maze {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) walls: Vec<bool>,
}

impl Maze {
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
            width,
            height,
            walls,
        }
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
}

//! Profiling driver (temporary).
#[path = "../benches/support/mod.rs"]
mod support;
use tilepath::*;
fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let map = std::env::args().nth(2).unwrap_or("simple_wall".into());
    let (grid, from, to, _) = support::reference(&map, 0);
    let mut g = Greedy::new();
    let mut a = AStar::new();
    let mut s = 0usize;
    for _ in 0..std::env::var("N").map_or(300_000, |n| n.parse().unwrap()) {
        s += if which == "greedy" {
            g.build_path(&grid, std::hint::black_box(from), to, GridLayer::FLOOR_ONLY).unwrap().path.len()
        } else {
            a.build_path(&grid, std::hint::black_box(from), to, GridLayer::FLOOR_ONLY).unwrap().path.len()
        };
    }
    let a8 = a.build_path(&grid, from, to, GridLayer::FLOOR_ONLY).unwrap(); let g8 = g.build_path(&grid, from, to, GridLayer::FLOOR_ONLY).unwrap(); println!("{s} astar exp {} greedy exp {} len {} {}", a8.expanded, g8.expanded, a8.route.len, g8.route.len);
}

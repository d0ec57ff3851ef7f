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
    for _ in 0..300_000 {
        s += if which == "greedy" {
            g.build_path(&grid, std::hint::black_box(from), to, GridLayer::FLOOR_ONLY).unwrap().path.len()
        } else {
            a.build_path(&grid, std::hint::black_box(from), to, GridLayer::FLOOR_ONLY).unwrap().path.len()
        };
    }
    println!("{s}");
}

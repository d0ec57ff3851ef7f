//! The all-pairs next-hop table side by side with the `bit_gossip` crate, in the same
//! run on the same graphs.
//!
//! `cargo bench -p tilepath-benches --bench next_hop`. Graphs: `open32`, `open64`, `open100` (open
//! 4-connected grids) and `maze80`: bit_gossip's own 80x80 maze generator (seed 0).
//! bit_gossip gets the maze as its 6,400-room graph with passages as edges;
//! tilepath gets the same maze drawn as tiles, 159x159 with rooms at even
//! coordinates and passages between them (12,799 open cells: twice the nodes, four
//! times the pairs). Build with 1 thread and with all threads (rayon's pool for
//! bit_gossip), a query (first step of 1,024 random pairs per iteration), and the
//! repair of a single-cell edit (a cell blocked then reopened: two edits an
//! iteration). Memory, counted by this binary's global allocator, is printed to
//! stderr.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;
use tilepath::{Cell, Grid, Mobility, NextHopTable, TableCells, TileKind};

/// Live heap bytes.
struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

#[expect(unsafe_code, reason = "a GlobalAlloc impl is unsafe by definition")]
// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `f()` and the heap bytes its result keeps.
fn kept<T>(f: impl FnOnce() -> T) -> (T, isize) {
    let before = LIVE.load(Ordering::Relaxed);
    let value = f();
    (value, LIVE.load(Ordering::Relaxed) - before)
}

const MOBILITY: Mobility = Mobility::FLOOR_ONLY;

/// One benchmark graph in both libraries' forms.
struct Case {
    name: &'static str,
    grid: Grid,
    /// bit_gossip's nodes and edges.
    nodes: usize,
    edges: Vec<(u16, u16)>,
    /// Maps a tilepath cell to a bit_gossip node (rooms only for the maze).
    node_of: fn(&Grid, Cell) -> Option<u16>,
}

fn open(name: &'static str, side: u32) -> Case {
    let mut edges = Vec::new();
    for y in 0..side {
        for x in 0..side {
            let n = (y * side + x) as u16;
            if x + 1 < side {
                edges.push((n, n + 1));
            }
            if y + 1 < side {
                edges.push((n, n + side as u16));
            }
        }
    }
    Case {
        name,
        grid: Grid::new(side, side).unwrap(),
        nodes: (side * side) as usize,
        edges,
        node_of: |g, c| Some((c.y as u32 * g.width() + c.x as u32) as u16),
    }
}

fn maze80() -> Case {
    const W: u16 = 80;
    let edges: Vec<(u16, u16)> = bit_gossip::maze::build_maze_from_seed(W, W, [0; 32]);
    let mut grid = Grid::filled(2 * W as u32 - 1, 2 * W as u32 - 1, TileKind::K3).unwrap();
    let room = |n: u16| Cell::new(2 * i32::from(n % W), 2 * i32::from(n / W));
    for n in 0..W * W {
        grid.set(room(n), TileKind::K0).unwrap();
    }
    for &(a, b) in &edges {
        let (ra, rb) = (room(a), room(b));
        grid.set(
            Cell::new((ra.x + rb.x) / 2, (ra.y + rb.y) / 2),
            TileKind::K0,
        )
        .unwrap();
    }
    Case {
        name: "maze80",
        grid,
        nodes: usize::from(W) * usize::from(W),
        edges,
        node_of: |_, c| {
            (c.x % 2 == 0 && c.y % 2 == 0).then(|| (c.y as u16 / 2) * W + c.x as u16 / 2)
        },
    }
}

fn gossip(case: &Case, multi_threaded: bool) -> bit_gossip::Graph {
    let mut b = bit_gossip::Graph::builder(case.nodes).multi_threaded(multi_threaded);
    for &(a, c) in &case.edges {
        b.connect(a, c);
    }
    b.build()
}

fn ours(case: &Case, threads: usize) -> NextHopTable {
    NextHopTable::builder(MOBILITY)
        .threads(threads)
        .build(&case.grid)
        .unwrap()
}

fn cases() -> Vec<Case> {
    vec![
        open("open32", 32),
        open("open64", 64),
        open("open100", 100),
        maze80(),
    ]
}

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("next_hop/build");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    for case in cases() {
        let (t, bytes) = kept(|| ours(&case, 0));
        let (graph, gossip_bytes) = kept(|| gossip(&case, false));
        eprintln!(
            "memory {}: tilepath {} bytes ({} slots, {:?}), bit_gossip {} bytes ({} nodes, {} edges)",
            case.name,
            bytes,
            t.table_cells(),
            t.encoding(),
            gossip_bytes,
            case.nodes,
            graph.edges_len()
        );
        drop((t, graph));
        for threads in [1, 0] {
            let label = if threads == 1 {
                "1_thread"
            } else {
                "all_threads"
            };
            g.bench_function(
                BenchmarkId::new(format!("tilepath/{label}"), case.name),
                |b| {
                    b.iter(|| ours(&case, threads));
                },
            );
            g.bench_function(
                BenchmarkId::new(format!("bit_gossip/{label}"), case.name),
                |b| {
                    b.iter(|| gossip(&case, threads != 1));
                },
            );
        }
    }
    g.finish();
}

fn query(c: &mut Criterion) {
    let mut g = c.benchmark_group("next_hop/query");
    const N: usize = 1024;
    g.throughput(Throughput::Elements(N as u64));
    for case in cases() {
        let table = ours(&case, 0);
        let graph = gossip(&case, true);
        let mut rng = StdRng::seed_from_u64(9);
        // Pairs of rooms (for the maze) so that both answer the same question.
        let mut pairs = Vec::with_capacity(N);
        while pairs.len() < N {
            let cell = |rng: &mut StdRng| {
                Cell::new(
                    rng.random_range(0..case.grid.width() as i32),
                    rng.random_range(0..case.grid.height() as i32),
                )
            };
            let (s, t) = (cell(&mut rng), cell(&mut rng));
            if let (Some(a), Some(b)) =
                ((case.node_of)(&case.grid, s), (case.node_of)(&case.grid, t))
            {
                pairs.push((s, t, a, b));
            }
        }
        g.bench_function(BenchmarkId::new("tilepath", case.name), |b| {
            b.iter(|| {
                let mut n = 0;
                for &(s, t, _, _) in &pairs {
                    n += table
                        .next_step(black_box(s), black_box(t))
                        .map_or(0, |d| d as usize);
                }
                n
            });
        });
        g.bench_function(BenchmarkId::new("bit_gossip", case.name), |b| {
            b.iter(|| {
                let mut n = 0;
                for &(_, _, a, c) in &pairs {
                    n += graph
                        .neighbor_to(black_box(a), black_box(c))
                        .map_or(0, usize::from);
                }
                n
            });
        });
    }
    g.finish();
}

fn repair(c: &mut Criterion) {
    let mut g = c.benchmark_group("next_hop/repair");
    g.sample_size(20);
    {
        let case = open("open100", 100);
        let mut grid = case.grid.clone();
        let mut table = NextHopTable::builder(MOBILITY)
            .table_cells(TableCells::AllCells)
            .build(&grid)
            .unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let cells: Vec<Cell> = (0..64)
            .map(|_| Cell::new(rng.random_range(0..100), rng.random_range(0..100)))
            .collect();
        let mut i = 0;
        g.bench_function(
            BenchmarkId::new("tilepath/block_and_reopen", case.name),
            |b| {
                b.iter(|| {
                    let cell = cells[i % cells.len()];
                    i += 1;
                    grid.set(cell, TileKind::K3).unwrap();
                    let a = table.repair(&grid, &[cell]).unwrap();
                    grid.set(cell, TileKind::K0).unwrap();
                    let b = table.repair(&grid, &[cell]).unwrap();
                    a.entries_patched + b.entries_patched
                });
            },
        );
        g.bench_function(BenchmarkId::new("tilepath/full_build", case.name), |b| {
            b.iter(|| ours(&case, 0));
        });
    }
    g.finish();
}

criterion_group!(benches, build, query, repair);
criterion_main!(benches);

//! Test support shared by the tilepath crates' tests, benchmarks and fuzzers (not
//! published): seeded random grids, mobilities and cells; a plain reference Dijkstra
//! (multi-source, 4- or 8-connected, mobility costs, no corner cutting) and a hex one
//! over neighbours from the axial formulas; the true shortest any-angle route (a
//! visibility graph); path checks; a mobility's bit rows or jump distances kept in
//! step with a grid;
//! the Moving AI, `.scen` and reference-map loaders; and a counting global allocator
//! type that each test binary declares itself.
//!
//! Everything here is written plainly, for clarity over speed: it is the yardstick
//! the library is measured against.

mod any_angle;
mod counting;
mod hex;
mod kept;
mod mapf;
mod maps;
mod random;
mod reference;

pub use any_angle::{AnyAngleOracle, HalfPoint, anchor_clear, convex_corners, reference_sees};
pub use counting::{CountingAlloc, allocations_in, peak_bytes_in, total_allocations};
pub use hex::{
    AXIAL_NEIGHBOURS, axial_of, cell_of_axial, check_hex_optimal, check_hex_result,
    hex_distance_ref, hex_flood, hex_neighbours, reference_hex, walk_hex,
};
pub use kept::KeptRows;
pub use mapf::{MAPF_INSTANCES, MapfInstance, load_mapf, load_mapf_map};
pub use maps::{
    MOVING_AI_MAPS, Scenario, load_movingai, load_reference, load_scenarios, maps_dir,
    parse_movingai,
};
pub use random::{maze_grid, random_cell, random_grid, random_mobility, rng};
pub use reference::{
    E, check_arrival, check_optimal, check_optimal_sized, check_result, check_result_sized,
    check_route_cost, close, estimate, footprint_cost, footprint_cost_leaving, in_window,
    reaches_goal, reference_dijkstra, reference_dijkstra_sized, reference_distances,
    reference_distances_by, reference_field_units, reference_units, route, route_end, walk,
    walk_sized,
};

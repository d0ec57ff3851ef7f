//! Any-angle routes: grid paths pulled straight, walked as straight segments between
//! waypoints instead of cell to cell in 4 or 8 directions.

mod bend;
mod funnel;
mod pull;
mod rows;
mod sight;
mod taut;
mod trace;
mod visibility;
mod walk;
mod waypoint;

pub use pull::Smoother;
pub use sight::Sight;
pub use waypoint::Waypoint;

#[cfg(test)]
mod tests;

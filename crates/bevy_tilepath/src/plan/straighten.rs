//! Paths pulled straight before units get them (see
//! [`PathingSettings::straight_routes`](crate::PathingSettings::straight_routes)).

use tilepath::{Connectivity, Grid, Sight, Smoother, Waypoint};

use super::job::{Job, Route};
use crate::{MapLayout, Waypoints};

/// The scratch of pulling a grid's paths straight: reused, so a path allocates
/// nothing once the longest has been seen.
#[derive(Default)]
pub(super) struct Straighten {
    smoother: Smoother,
    points: Vec<Waypoint>,
}

impl Straighten {
    /// `route` (planned for `job` on `grid`) pulled straight, with the route its steps
    /// follow; unchanged, with no route, on hex maps, for 4-connected requests, or
    /// where the straight route's steps cannot be walked (they always can on the grid
    /// the path was planned on). A route with more turns than a path keeps, or more
    /// steps, ends early and continues (the next segment is planned from its end).
    pub(super) fn route(
        &mut self,
        grid: &Grid,
        layout: MapLayout,
        job: &Job,
        route: Route,
    ) -> (Route, Waypoints) {
        if layout.hex().is_some()
            || job.connectivity != Connectivity::Eight
            || route.steps.is_empty()
        {
            return (route, Waypoints::default());
        }
        let sight = Sight::new(grid, job.mobility, job.size.max(1));
        self.smoother.smooth(
            &sight,
            Waypoint::centre_of(job.start),
            route.steps.cells(job.start),
            &mut self.points,
        );
        let (waypoints, kept) = Waypoints::new(job.start, &self.points);
        let Some((steps, whole)) = sight.steps_along(job.start, &self.points[..kept]) else {
            return (route, Waypoints::default());
        };
        let all = whole && kept == self.points.len();
        let route = Route {
            steps,
            end: steps.end(job.start),
            continues: route.continues || !all,
            ..route
        };
        (route, waypoints)
    }
}

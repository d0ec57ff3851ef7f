//! Paths pulled straight before units get them (see
//! [`PathingSettings::straight_routes`](crate::PathingSettings::straight_routes)).

use tilepath::{Connectivity, Grid, Sight, Smoother, Waypoint};

use super::job::{Answer, Job, Route};
use crate::{MapLayout, Waypoints};

/// The scratch of pulling paths straight (one per solving task): reused, so a path
/// allocates nothing once the longest has been seen.
#[derive(Default)]
pub(crate) struct Straighten {
    smoother: Smoother,
    points: Vec<Waypoint>,
}

impl Straighten {
    /// Pulls `job`'s route (planned on `grid`) straight: its steps become those of the
    /// straight route, which goes to [`Job::waypoints`], and the work it took is added
    /// to [`Job::work`] (so that budgets charge it like a search). Unchanged on hex
    /// maps, for 4-connected requests, for answers with no steps, or where the
    /// straight route's steps cannot be walked (they always can on the grid the path
    /// was planned on). A route with more turns than a path keeps, or more steps, ends
    /// early and continues (the next segment is planned from its end).
    pub(crate) fn job(&mut self, grid: &Grid, layout: MapLayout, job: &mut Job) {
        let Answer::Route(route) = job.answer else {
            return;
        };
        if layout.hex().is_some()
            || job.connectivity != Connectivity::Eight
            || route.steps.is_empty()
        {
            return;
        }
        let sight = Sight::new(grid, job.mobility, job.size.max(1));
        job.work += self.smoother.smooth(
            &sight,
            Waypoint::centre_of(job.start),
            route.steps.cells(job.start),
            &mut self.points,
        );
        let (waypoints, kept) = Waypoints::new(job.start, &self.points);
        let Some((steps, whole)) = sight.steps_along(job.start, &self.points[..kept]) else {
            return;
        };
        let all = whole && kept == self.points.len();
        job.answer = Answer::Route(Route {
            steps,
            end: steps.end(job.start),
            continues: route.continues || !all,
            ..route
        });
        job.waypoints = waypoints;
    }
}

//! The straight route a unit's steps follow.

use bevy::prelude::*;
use tilepath::{Cell, Waypoint};

/// The any-angle route a [`UnitPath`](crate::UnitPath)'s steps were pulled straight
/// along (see [`PathingSettings::straight_routes`](crate::PathingSettings::straight_routes)):
/// its start, the centre of the cell the path starts at, then up to
/// [`CAPACITY`](Self::CAPACITY) points where it turns, the last where the steps end.
/// [`PathFollower`](crate::PathFollower) draws a unit gliding along it while its
/// steps take it through the cells it crosses; gizmos draw it. Empty for a path
/// that was not pulled straight (hex maps, 4-connected requests, a path you build).
///
/// Points are kept relative to the start, in half cells ([`Waypoint`]'s own unit).
/// With the `serde` feature it is saved as its start and the points it keeps.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, PartialEq)]
pub struct Waypoints {
    start: Cell,
    points: [[i16; 2]; Self::CAPACITY],
    len: u8,
}

impl Waypoints {
    /// The most turning points kept: a path pulled straight ends at the last one.
    pub const CAPACITY: usize = 8;

    /// The route from `start`'s centre through `points` (at most
    /// [`CAPACITY`](Self::CAPACITY) of them, each within `i16::MAX` half cells of
    /// `start`; later ones, or one too far, are dropped with all after it). Returns
    /// it and how many points it kept.
    #[must_use]
    pub fn new(start: Cell, points: &[Waypoint]) -> (Self, usize) {
        let mut w = Self {
            start,
            ..Self::default()
        };
        let (x0, y0) = Waypoint::centre_of(start).half_cells();
        for p in points.iter().take(Self::CAPACITY) {
            let (x, y) = p.half_cells();
            let (Ok(dx), Ok(dy)) = (i16::try_from(x - x0), i16::try_from(y - y0)) else {
                break;
            };
            w.points[usize::from(w.len)] = [dx, dy];
            w.len += 1;
        }
        (w, usize::from(w.len))
    }

    /// The cell the route starts at the centre of.
    #[must_use]
    pub const fn start(&self) -> Cell {
        self.start
    }

    /// Whether there is no route (the path was not pulled straight).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The points where the route turns after its start, the last where it ends.
    pub fn points(&self) -> impl Iterator<Item = Waypoint> + '_ {
        let (x0, y0) = Waypoint::centre_of(self.start).half_cells();
        self.points[..usize::from(self.len)]
            .iter()
            .map(move |&[dx, dy]| Waypoint::from_half_cells(x0 + i64::from(dx), y0 + i64::from(dy)))
    }

    /// The point of the route nearest `p` (in cell units, the anchor's: cell `(x, y)`
    /// spans `x..x + 1`) and its distance from `p`; `None` for an empty route.
    #[must_use]
    pub fn nearest(&self, p: Vec2) -> Option<(Vec2, f32)> {
        // Relative to the start's centre, in half cells (the points' own unit): the
        // points are read as they are kept.
        let origin = position(Waypoint::centre_of(self.start));
        let p = (p - origin) * 2.0;
        let mut at = Vec2::ZERO;
        let mut best: Option<(Vec2, f32)> = None;
        for &[dx, dy] in &self.points[..usize::from(self.len)] {
            let q = Vec2::new(f32::from(dx), f32::from(dy));
            let d = q - at;
            let t = if d.length_squared() == 0.0 {
                0.0
            } else {
                ((p - at).dot(d) / d.length_squared()).clamp(0.0, 1.0)
            };
            let on = at + d * t;
            let dist = on.distance_squared(p);
            if best.is_none_or(|b| dist < b.1) {
                best = Some((on, dist));
            }
            at = q;
        }
        best.map(|(on, dist)| (origin + on * 0.5, dist.sqrt() * 0.5))
    }
}

/// A waypoint in cell units (a one-cell anchor's centre is `(x + 0.5, y + 0.5)`).
fn position(w: Waypoint) -> Vec2 {
    let (x, y) = w.position(1);
    Vec2::new(x, y)
}

#[cfg(feature = "serde")]
impl serde::Serialize for Waypoints {
    /// The start and the points kept (not the empty places after them).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(
            &(self.start, &self.points[..usize::from(self.len)]),
            serializer,
        )
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Waypoints {
    /// A start and at most [`CAPACITY`](Self::CAPACITY) points; more is an error.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (start, points): (Cell, Vec<[i16; 2]>) = serde::Deserialize::deserialize(deserializer)?;
        if points.len() > Self::CAPACITY {
            return Err(<D::Error as serde::de::Error>::invalid_length(
                points.len(),
                &"at most 8 waypoints",
            ));
        }
        let mut w = Self {
            start,
            ..Self::default()
        };
        w.points[..points.len()].copy_from_slice(&points);
        w.len = points.len() as u8;
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `nearest` against the route read through [`Waypoints::points`], segment by
    /// segment, on routes of every length.
    #[test]
    fn nearest_is_the_nearest_point_of_the_route() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move |n: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            i64::from(seed) % n
        };
        let start = Cell::new(7, -3);
        for len in 0..=Waypoints::CAPACITY {
            for _ in 0..200 {
                let (x0, y0) = Waypoint::centre_of(start).half_cells();
                let points: Vec<Waypoint> = (0..len)
                    .map(|_| Waypoint::from_half_cells(x0 + next(81) - 40, y0 + next(81) - 40))
                    .collect();
                let (route, kept) = Waypoints::new(start, &points);
                assert_eq!(kept, len);
                let p = Vec2::new(next(50) as f32 / 3.0, next(50) as f32 / 3.0 - 8.0);
                let mut reference: Option<f32> = None;
                let mut at = position(Waypoint::centre_of(start));
                for q in route.points().map(position) {
                    let d = q - at;
                    let t = if d == Vec2::ZERO {
                        0.0
                    } else {
                        ((p - at).dot(d) / d.length_squared()).clamp(0.0, 1.0)
                    };
                    let dist = (at + d * t).distance(p);
                    reference = Some(reference.map_or(dist, |r| r.min(dist)));
                    at = q;
                }
                match (route.nearest(p), reference) {
                    (None, None) => {}
                    (Some((on, dist)), Some(r)) => {
                        assert!((dist - r).abs() < 1e-3, "{dist} against {r}");
                        assert!((on.distance(p) - dist).abs() < 1e-3);
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }
}

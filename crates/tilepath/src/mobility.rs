//! Per-unit traversal costs of the 4 tile kinds.

use core::fmt;

/// One of the 4 tile kinds a [`Grid`](crate::Grid) cell can hold (2 bits).
///
/// What a kind means is up to the game; a [`Mobility`] says what it costs a given kind
/// of unit to enter it.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "KindIndex", into = "KindIndex"))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TileKind(u8);

/// A [`TileKind`] as saved: its index, checked on loading (an index above 3 is an
/// error, never a kind masked to 2 bits).
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
struct KindIndex(u8);

#[cfg(feature = "serde")]
impl TryFrom<KindIndex> for TileKind {
    type Error = &'static str;

    fn try_from(KindIndex(index): KindIndex) -> Result<Self, Self::Error> {
        Self::new(index).ok_or("a tile kind's index is 0 to 3")
    }
}

#[cfg(feature = "serde")]
impl From<TileKind> for KindIndex {
    fn from(kind: TileKind) -> Self {
        Self(kind.0)
    }
}

impl TileKind {
    /// Kind 0 (a new grid is filled with it).
    pub const K0: TileKind = TileKind(0);
    /// Kind 1.
    pub const K1: TileKind = TileKind(1);
    /// Kind 2.
    pub const K2: TileKind = TileKind(2);
    /// Kind 3.
    pub const K3: TileKind = TileKind(3);
    /// The 4 kinds in order.
    pub const ALL: [TileKind; 4] = [Self::K0, Self::K1, Self::K2, Self::K3];

    /// The kind with index `index`, or `None` if `index > 3`.
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<Self> {
        if index < 4 { Some(Self(index)) } else { None }
    }

    /// The kind's index, `0..=3`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    #[inline]
    pub(crate) const fn from_bits(bits: u8) -> Self {
        Self(bits & 3)
    }
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kind {}", self.0)
    }
}

/// What it costs one kind of unit to enter each of the 4 [`TileKind`]s: a cost byte per
/// kind, packed in a `u32`. `0` means blocked, `1..=255` is the cost of entering.
///
/// One [`Grid`](crate::Grid) serves every kind of unit at once: ground units, boats and
/// flyers each search it with their own mobility.
///
/// ```
/// use tilepath::{Mobility, TileKind};
/// // kinds: 0 = plain, 1 = forest, 2 = water, 3 = wall
/// let ground = Mobility::new([1, 3, 0, 0]);
/// let boat = Mobility::new([0, 0, 1, 0]);
/// let flyer = Mobility::new([1, 1, 1, 0]);
/// assert_eq!(ground.cost(TileKind::K1), 3);
/// assert!(!boat.is_passable(TileKind::K0));
/// assert_eq!(flyer.min_cost(), 1);
/// ```
///
/// # More than 4 terrains: per-biome kinds
///
/// Two bits per cell keep the grid small and fast, but a game may have a dozen
/// terrains. Most maps only mix a few of them in any one area, so give each biome
/// (or map) its own meaning of the 4 kinds, and one mobility per unit type and biome:
/// in a desert map kind 1 may be "dune" while in a marsh map it is "reeds". When a
/// unit crosses into another biome it swaps its mobility; the grid stays 2 bits per cell.
/// Terrains that cost the same for every unit type can share a kind.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(from = "MobilityCosts", into = "MobilityCosts")
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mobility(u32);

/// A [`Mobility`] as saved: the costs of kinds 0 to 3 ([`Mobility::costs`]), the same
/// whatever the packing in memory. Every 4 bytes make a mobility.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
struct MobilityCosts([u8; 4]);

#[cfg(feature = "serde")]
impl From<MobilityCosts> for Mobility {
    fn from(MobilityCosts(costs): MobilityCosts) -> Self {
        Self::new(costs)
    }
}

#[cfg(feature = "serde")]
impl From<Mobility> for MobilityCosts {
    fn from(mobility: Mobility) -> Self {
        Self(mobility.costs())
    }
}

impl Mobility {
    /// Every kind passable at cost 1.
    pub const ALL_PASSABLE: Mobility = Mobility::new([1, 1, 1, 1]);
    /// Kind 0 passable at cost 1, the other kinds blocked: the usual
    /// "0 = floor, anything else = wall" mobility.
    pub const FLOOR_ONLY: Mobility = Mobility::new([1, 0, 0, 0]);
    /// Every kind blocked.
    pub const ALL_BLOCKED: Mobility = Mobility::new([0, 0, 0, 0]);

    /// A mobility from the costs of kinds 0, 1, 2 and 3 (0 = blocked).
    #[inline]
    #[must_use]
    pub const fn new(costs: [u8; 4]) -> Self {
        Self(u32::from_le_bytes(costs))
    }

    /// The costs of kinds 0, 1, 2 and 3.
    #[inline]
    #[must_use]
    pub const fn costs(self) -> [u8; 4] {
        self.0.to_le_bytes()
    }

    /// This mobility with kind `kind` costing `cost`.
    #[inline]
    #[must_use]
    pub const fn with_cost(self, kind: TileKind, cost: u8) -> Self {
        let shift = kind.0 as u32 * 8;
        Self((self.0 & !(0xFF << shift)) | ((cost as u32) << shift))
    }

    /// The cost of entering a cell of kind `kind` (0 = blocked).
    #[inline]
    #[must_use]
    pub const fn cost(self, kind: TileKind) -> u8 {
        self.cost_of_bits(kind.0)
    }

    /// The cost for a raw 2-bit kind code (the hot path of the solvers).
    #[inline]
    #[must_use]
    pub(crate) const fn cost_of_bits(self, bits: u8) -> u8 {
        (self.0 >> ((bits as u32 & 3) * 8)) as u8
    }

    /// Whether kind `kind` can be entered.
    #[inline]
    #[must_use]
    pub const fn is_passable(self, kind: TileKind) -> bool {
        self.cost(kind) != 0
    }

    /// Bit `k` set when kind `k` can be entered. Mobilities with the same passable
    /// kinds reach the same cells, whatever they cost: they share
    /// [`Components`](crate::Components) and [`Clearance`](crate::Clearance).
    #[inline]
    #[must_use]
    pub const fn passable_kinds(self) -> u8 {
        let c = self.costs();
        (c[0] != 0) as u8
            | ((c[1] != 0) as u8) << 1
            | ((c[2] != 0) as u8) << 2
            | ((c[3] != 0) as u8) << 3
    }

    /// The mobility entering the kinds of `kinds` (bit `k`: kind `k`; higher bits are
    /// ignored) at cost 1 each: what the structures derived for a set of passable kinds
    /// ([`Derived`](crate::Derived)) are built with.
    ///
    /// ```
    /// use tilepath::Mobility;
    /// let m = Mobility::new([1, 0, 5, 0]);
    /// assert_eq!(Mobility::entering(m.passable_kinds()), Mobility::new([1, 0, 1, 0]));
    /// ```
    #[must_use]
    pub const fn entering(kinds: u8) -> Self {
        Self::new([kinds & 1, kinds >> 1 & 1, kinds >> 2 & 1, kinds >> 3 & 1])
    }

    /// The smallest non-zero cost, or 0 if every kind is blocked. Scales the heuristic.
    #[must_use]
    pub const fn min_cost(self) -> u8 {
        let c = self.costs();
        let mut min = 0u8;
        let mut i = 0;
        while i < 4 {
            if c[i] != 0 && (min == 0 || c[i] < min) {
                min = c[i];
            }
            i += 1;
        }
        min
    }

    /// The largest cost (0 if every kind is blocked).
    #[must_use]
    pub const fn max_cost(self) -> u8 {
        let c = self.costs();
        let mut max = 0u8;
        let mut i = 0;
        while i < 4 {
            if c[i] > max {
                max = c[i];
            }
            i += 1;
        }
        max
    }

    /// The raw packed value (cost of kind `k` in byte `k`, little-endian).
    #[inline]
    #[must_use]
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// A mobility from its raw packed value.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u32) -> Self {
        Self(bits)
    }
}

impl Default for Mobility {
    fn default() -> Self {
        Self::FLOOR_ONLY
    }
}

impl fmt::Debug for Mobility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Mobility").field(&self.costs()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_four_cost_bytes() {
        let l = Mobility::new([1, 0, 7, 255]);
        assert_eq!(l.costs(), [1, 0, 7, 255]);
        assert_eq!(l.cost(TileKind::K2), 7);
        assert_eq!(l.cost_of_bits(3), 255);
        assert_eq!(l.min_cost(), 1);
        assert_eq!(l.max_cost(), 255);
        assert_eq!(l.with_cost(TileKind::K1, 9).costs(), [1, 9, 7, 255]);
        assert_eq!(Mobility::ALL_BLOCKED.min_cost(), 0);
        assert_eq!(Mobility::new([0, 5, 0, 3]).min_cost(), 3);
        assert_eq!(Mobility::from_bits(l.to_bits()), l);
    }
}

//! The node of the optimal searches (A* and jump point search): one `u64` a slot in a
//! [`StampedWords`].

use super::NO_PARENT;
use crate::cost::OCTILE_DIAGONAL;
use crate::queue::StampedWords;

/// A node: `g << 5 | closed << 4 | parent`, where g is the fixed-point cost of the
/// best route found to the slot and parent the direction code of the step (or, in jump
/// point search, of the line) that route arrives by, or [`NO_PARENT`] for the start.
pub(crate) type Node = u64;

/// The closed (expanded) flag of a [`Node`].
pub(crate) const CLOSED: Node = 1 << 4;

/// The g of a node.
#[inline(always)]
pub(crate) const fn node_g(n: Node) -> u64 {
    n >> 5
}

/// The parent direction code of a node ([`NO_PARENT`] for the start or an unseen
/// slot).
#[inline(always)]
pub(crate) const fn node_parent(n: Node) -> u8 {
    (n & 0xF) as u8
}

/// An open node reached with cost `g` by direction code `parent`.
#[inline(always)]
pub(crate) const fn open_node(g: u64, parent: u8) -> Node {
    g << 5 | parent as u64
}

/// Bits of a node in a search over `slots` cells: room for the largest g one can
/// hold, with one to spare so that the unseen node's g (every g bit set) is above
/// it. A route a search stores visits each cell at most once plus one step, and a
/// step costs at most `255 * OCTILE_DIAGONAL`.
const fn node_bits(slots: usize) -> u32 {
    let g_max = (slots as u64 + 1) * 255 * OCTILE_DIAGONAL;
    5 + 65 - g_max.leading_zeros()
}

/// The node of a slot not reached yet: g above any route's, no parent.
const fn unseen(bits: u32) -> Node {
    ((1 << (bits - 5)) - 1) << 5 | NO_PARENT as u64
}

/// A node store for a search area of `slots` cells, every node unseen.
pub(crate) fn node_store(slots: usize) -> StampedWords {
    let bits = node_bits(slots);
    let mut nodes = StampedWords::new(bits, unseen(bits));
    nodes.resize(slots, bits, unseen(bits));
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unseen_nodes_are_above_every_route() {
        for slots in [0, 1, 12_769, 1 << 24, u32::MAX as usize] {
            let bits = node_bits(slots);
            assert!(bits <= 62, "{slots} slots: {bits} bits leave no stamp");
            let worst = (slots as u64 + 1) * 255 * OCTILE_DIAGONAL;
            let u = unseen(bits);
            assert!(node_g(u) > worst && u & CLOSED == 0);
            assert_eq!(node_parent(u), NO_PARENT);
            assert_eq!(u >> bits, 0);
        }
        assert_eq!(node_bits(1 << 24), 5 + 45);
    }
}

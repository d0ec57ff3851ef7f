//! The open lists and the O(1)-reset maps the searches are built from.
//!
//! Every search keeps its frontier in one of these, chosen for its keys:
//!
//! | queue | keys | used by | why |
//! |---|---|---|---|
//! | [`BucketQueue`] | small integers (64 buckets, LIFO within one) | windowed [`AStar`](crate::AStar) on mobilities whose f-values step by at most 63 | pop is a trailing-zeros of a mask; LIFO dives towards the goal on ties |
//! | [`RadixHeap`] | any monotone `u64` | [`AStar`](crate::AStar) with large or fixed-point (octile) steps; field repairs | no comparisons between unrelated keys, any edge cost |
//! | [`StepQueues`] | monotone, at most 8 step weights | [`DistanceField`](crate::DistanceField) computations, [`NextHopTable`](crate::NextHopTable) builds | Dijkstra with few distinct weights needs only a FIFO per weight: O(1) everything |
//! | in-slot buckets (in the searches) | distance to the goal | [`Greedy`](crate::Greedy), unit-cost 4-connected A* | the list links live in the per-cell scratch word: no memory of its own |
//!
//! [`StampedWords`] is a per-slot scratch of 8-byte words with O(1) reset: the stamp
//! in the top bits of each word, as wide as the values leave room for; A*'s nodes live
//! there, whole-grid ones included. Their counter, [`Generation`], is the one O(1)-reset
//! rule: the in-slot buckets and the table builders pack the same stamp into their own
//! scratch words.
//!
//! These are crate-private building blocks: a game calls the searches, fields and
//! tables, not these.

mod bucket;
mod generation;
mod pool;
mod radix;
mod stamped;
mod step;

pub(crate) use bucket::BucketQueue;
pub(crate) use generation::Generation;
pub(crate) use radix::RadixHeap;
pub(crate) use stamped::StampedWords;
pub(crate) use step::StepQueues;

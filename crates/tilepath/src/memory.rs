//! Fallible allocation for the structures whose size a grid decides.
//!
//! A constructor first asks the allocator for its whole size in one block and gives
//! it back at once ([`ensure`]): a request the system cannot meet is refused there,
//! before anything is written, and becomes an error naming the bytes instead of an
//! abort. The real buffers are then allocated as usual (zeroed ones stay lazily
//! zeroed pages).

/// Below this, [`ensure`] asks nothing: a system that cannot give a few MiB cannot
/// run the caller either, and probing a block this small would make the allocator
/// keep it on its heap, where the zeroed buffers allocated next must be cleared by
/// hand instead of arriving as fresh zero pages.
const PROBE_FROM: u64 = 64 << 20;

/// Whether the allocator can give `bytes` in one block now; `Err(bytes)` if not.
pub(crate) fn ensure(bytes: u64) -> Result<(), u64> {
    let Ok(n) = usize::try_from(bytes) else {
        return Err(bytes);
    };
    if bytes < PROBE_FROM {
        return Ok(());
    }
    let mut probe = Vec::<u8>::new();
    probe.try_reserve_exact(n).map_err(|_| bytes)
}

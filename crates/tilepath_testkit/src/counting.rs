//! A counting global allocator, to prove "no allocation" and measure peak memory.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell as StdCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// A global allocator that forwards to [`System`] and counts: allocations made by a
/// thread inside [`allocations_in`], and the bytes live across all threads (for
/// [`peak_bytes_in`]).
///
/// Each test binary that uses the counting functions declares it itself:
///
/// ```ignore
/// #[global_allocator]
/// static GLOBAL: tilepath_testkit::CountingAlloc = tilepath_testkit::CountingAlloc;
/// ```
///
/// Without that declaration the functions count nothing.
pub struct CountingAlloc;

thread_local! {
    /// Only the measuring thread counts, into its own counter: the test harness and
    /// the other tests allocate on other threads.
    static COUNTING: StdCell<bool> = const { StdCell::new(false) };
    static ALLOCATIONS: StdCell<usize> = const { StdCell::new(0) };
}

/// Bytes allocated and not yet freed, all threads.
static LIVE: AtomicU64 = AtomicU64::new(0);
/// The most [`LIVE`] has been since the last [`peak_bytes_in`] began.
static PEAK: AtomicU64 = AtomicU64::new(0);

/// Allocations (and reallocations) made by every thread since the program started.
static TOTAL: AtomicU64 = AtomicU64::new(0);

fn count_allocation() {
    TOTAL.fetch_add(1, Ordering::Relaxed);
    if COUNTING.try_with(StdCell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

fn grow(bytes: usize) {
    let live = LIVE.fetch_add(bytes as u64, Ordering::Relaxed) + bytes as u64;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrink(bytes: usize) {
    LIVE.fetch_sub(bytes as u64, Ordering::Relaxed);
}

#[expect(unsafe_code, reason = "a GlobalAlloc impl is unsafe by definition")]
// SAFETY: every call is forwarded unchanged to the system allocator; the counting
// touches only atomics and thread-locals (which do not allocate once set up).
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        // SAFETY: same contract as ours.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            grow(new_size);
            shrink(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations (and reallocations) made by `f` on this thread, with [`CountingAlloc`]
/// as the global allocator.
pub fn allocations_in(f: impl FnOnce()) -> usize {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(StdCell::get)
}

/// The most bytes live at once while `f` ran, above those live when it began, on
/// all threads, with [`CountingAlloc`] as the global allocator (so other tests of the
/// same binary running meanwhile count too: measure in a binary of its own).
pub fn peak_bytes_in(f: impl FnOnce()) -> u64 {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed).saturating_sub(base)
}

/// Allocations (and reallocations) made by every thread of the process so far, with
/// [`CountingAlloc`] as the global allocator: for work spread over threads (take the
/// difference around it, in a binary whose other threads are quiet).
pub fn total_allocations() -> u64 {
    TOTAL.load(Ordering::Relaxed)
}

//! Cache hints for loops that read scattered memory (a crowd's agents in order of
//! priority, their cells and distance fields on big maps): the data a loop will read
//! a few iterations on is asked for now, so that its reads wait less.

/// Asks the processor to bring the cache line of `value` in ahead of its use: a hint
/// that changes nothing but time (and nothing at all on targets without one).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[expect(
        unsafe_code,
        reason = "a cache hint the standard library has no safe call for"
    )]
    // SAFETY: every x86-64 processor has SSE, which the instruction needs; a prefetch
    // neither reads nor writes anything the program sees, and cannot fault.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

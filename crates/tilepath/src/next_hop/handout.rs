//! Handing rows out to the build threads.

use super::*;

/// The rows of `targets` (sorted, distinct), each with its entry.
pub(super) fn select_rows<'a>(
    rows: &'a mut [u8],
    row_bytes: usize,
    targets: &[usize],
) -> Vec<(usize, &'a mut [u8])> {
    let mut wanted = targets.iter().copied().peekable();
    let mut out = Vec::with_capacity(targets.len());
    for (t, row) in rows.chunks_mut(row_bytes.max(1)).enumerate() {
        if wanted.peek() == Some(&t) {
            wanted.next();
            out.push((t, row));
        }
    }
    out
}

/// Runs `f` on `rows` over `workers.len()` threads, which take blocks of 32 rows
/// from a shared list; returns the sum of its results.
pub(super) fn run_rows<F>(
    shape: &Shape,
    workers: &mut [Worker],
    rows: Vec<(usize, &mut [u8])>,
    f: F,
) -> usize
where
    F: Fn(&mut Worker, &Shape, usize, &mut [u8]) -> usize + Sync,
{
    if workers.len() == 1 {
        let w = &mut workers[0];
        return rows.into_iter().map(|(t, row)| f(w, shape, t, row)).sum();
    }
    let blocks = Mutex::new(split_blocks(rows, 32));
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|w| {
                let blocks = &blocks;
                scope.spawn(move || {
                    let mut sum = 0;
                    loop {
                        let block = blocks.lock().map_or(None, |mut b| b.pop());
                        let Some(block) = block else { break sum };
                        for (t, row) in block {
                            sum += f(w, shape, t, row);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a table thread panicked"))
            .sum()
    })
}

/// `items` in blocks of `size`.
pub(super) fn split_blocks<T>(items: Vec<T>, size: usize) -> Vec<Vec<T>> {
    let mut out = Vec::with_capacity(items.len().div_ceil(size));
    let mut block = Vec::with_capacity(size);
    for item in items {
        block.push(item);
        if block.len() == size {
            out.push(core::mem::replace(&mut block, Vec::with_capacity(size)));
        }
    }
    if !block.is_empty() {
        out.push(block);
    }
    out
}

//! The entry pool shared by the bucket queues.

/// End of a list (and of the free list).
pub(crate) const NIL: u32 = u32::MAX;

/// An entry threaded into a singly linked list by index.
pub(crate) trait Linked: Copy {
    fn next(&self) -> u32;
    fn set_next(&mut self, next: u32);
}

/// The entries of many linked lists (a queue's buckets) in one block: removed entries
/// are recycled through a free list, so a pool that never holds more than its
/// capacity at once never allocates.
#[derive(Clone, Debug)]
pub(crate) struct EntryPool<E> {
    entries: Vec<E>,
    free: u32,
    len: usize,
}

impl<E: Linked> EntryPool<E> {
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            entries: Vec::with_capacity(capacity),
            free: NIL,
            len: 0,
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.entries.capacity()
    }

    /// Entries in use.
    #[inline]
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// Stores `entry`, in a recycled slot if there is one; returns its index.
    #[inline]
    pub(crate) fn insert(&mut self, entry: E) -> u32 {
        self.len += 1;
        if self.free == NIL {
            self.entries.push(entry);
            (self.entries.len() - 1) as u32
        } else {
            let i = self.free;
            let slot = &mut self.entries[i as usize];
            self.free = slot.next();
            *slot = entry;
            i
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: u32) -> &E {
        &self.entries[i as usize]
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, i: u32) -> &mut E {
        &mut self.entries[i as usize]
    }

    /// Takes entry `i` out (its `next` as it was) and recycles its slot.
    #[inline]
    pub(crate) fn remove(&mut self, i: u32) -> E {
        self.len -= 1;
        let slot = &mut self.entries[i as usize];
        let entry = *slot;
        slot.set_next(self.free);
        self.free = i;
        entry
    }

    /// Forgets every entry in O(1); the capacity stays.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.free = NIL;
        self.len = 0;
    }
}

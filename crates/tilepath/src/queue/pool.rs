//! The entry pool shared by the bucket queues.

/// End of a list (and of the free list).
pub(crate) const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<E> {
    item: E,
    next: u32,
}

/// The nodes of many singly linked lists (a queue's buckets) in one block: removed
/// nodes are recycled through a free list, so a pool that never holds more than its
/// capacity at once never allocates.
#[derive(Clone, Debug)]
pub(crate) struct EntryPool<E> {
    nodes: Vec<Node<E>>,
    free: u32,
    len: usize,
}

impl<E: Copy> EntryPool<E> {
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            nodes: Vec::with_capacity(capacity),
            free: NIL,
            len: 0,
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.nodes.capacity()
    }

    /// Bytes an entry takes: the item and its link.
    pub(crate) const ENTRY_BYTES: usize = size_of::<Node<E>>();

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * Self::ENTRY_BYTES
    }

    /// Nodes in use.
    #[inline]
    #[cfg(test)]
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// Stores `item` linked to `next`, in a recycled node if there is one; returns its
    /// index.
    #[inline(always)]
    pub(crate) fn insert(&mut self, item: E, next: u32) -> u32 {
        self.len += 1;
        let node = Node { item, next };
        if self.free == NIL {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let i = self.free;
            let slot = &mut self.nodes[i as usize];
            self.free = slot.next;
            *slot = node;
            i
        }
    }

    /// The item at `i` and the index it links to.
    #[inline]
    pub(crate) fn get(&self, i: u32) -> (E, u32) {
        let node = &self.nodes[i as usize];
        (node.item, node.next)
    }

    /// Relinks node `i` to `next`.
    #[inline]
    pub(crate) fn set_next(&mut self, i: u32, next: u32) {
        self.nodes[i as usize].next = next;
    }

    /// Takes node `i` out (item and link as they were) and recycles it.
    #[inline]
    pub(crate) fn remove(&mut self, i: u32) -> (E, u32) {
        self.len -= 1;
        let slot = &mut self.nodes[i as usize];
        let out = (slot.item, slot.next);
        slot.next = self.free;
        self.free = i;
        out
    }

    /// Forgets every node in O(1); the capacity stays.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.free = NIL;
        self.len = 0;
    }
}

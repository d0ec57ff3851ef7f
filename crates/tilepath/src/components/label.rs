//! Labelling every open cell from scratch: a build, and a compaction of the forest.

use super::*;

impl Components {
    /// The components of a `width x height` grid whose open cells `labels` marks (0
    /// open, [`BLOCKED`] blocked), for units of side `unit_size` that enter the kinds
    /// in `passable` and move as `connectivity`.
    pub(super) fn labelled(
        (width, height): (u32, u32),
        passable: u8,
        (connectivity, unit_size): (Connectivity, u8),
        labels: Vec<u32>,
    ) -> Self {
        let mut c = Self {
            width,
            height,
            passable,
            connectivity,
            unit_size,
            labels,
            parent: Vec::new(),
            size: Vec::new(),
            count: 0,
            seen: Vec::new(),
            generation: Generation::new(30),
            queues: Default::default(),
            settled: true,
        };
        c.relabel_all();
        c
    }

    /// Labels every open cell afresh, from the labels' own open/blocked state: each run
    /// of open cells along a row gets a label, united with the labels of the runs it
    /// touches in the row below; then every cell takes its root's label, numbered from
    /// 0. Two passes over the labels in memory order, whatever the components' shapes.
    pub(super) fn relabel_all(&mut self) {
        self.parent.clear();
        self.size.clear();
        self.count = 0;
        self.settled = true;
        let w = self.width as usize;
        for row in (0..self.labels.len()).step_by(w.max(1)) {
            let mut x = 0;
            while x < w {
                if self.labels[row + x] == BLOCKED {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < w && self.labels[row + x] != BLOCKED {
                    x += 1;
                }
                let mut root = self.new_root((x - start) as u32);
                let run = root;
                let mut below_last = BLOCKED;
                for i in row + start..row + x {
                    self.labels[i] = run;
                    if let Some(&below) = i.checked_sub(w).and_then(|b| self.labels.get(b))
                        && below != BLOCKED
                        && below != below_last
                    {
                        below_last = below;
                        let r = self.find(below);
                        root = self.unite(root, r);
                    }
                    // Hex maps also join a cell to the row below by its diagonals.
                    if row > 0 {
                        for dx in self.down_diagonals(i - row, row / w).into_iter().flatten() {
                            let bx = (i - row).wrapping_add_signed(dx);
                            if bx < w && self.labels[row - w + bx] != BLOCKED {
                                let r = self.find(self.labels[row - w + bx]);
                                root = self.unite(root, r);
                            }
                        }
                    }
                }
            }
        }
        // Roots numbered 0.. in order; every label points at its root's number.
        let mut number = core::mem::take(&mut self.queues[0]);
        number.clear();
        let mut roots = 0u32;
        for label in 0..self.parent.len() as u32 {
            let root = self.find(label);
            number.push(if root == label {
                roots += 1;
                roots - 1
            } else {
                u32::MAX
            });
        }
        let mut last = (BLOCKED, BLOCKED);
        for l in &mut self.labels {
            if *l == BLOCKED {
                continue;
            }
            if *l != last.0 {
                let mut root = *l;
                while self.parent[root as usize] != root {
                    root = self.parent[root as usize];
                }
                last = (*l, number[root as usize]);
            }
            *l = last.1;
        }
        // A root's number is at most its label: moving sizes down in label order reads
        // each before it can be overwritten.
        for (label, &n) in number.iter().enumerate() {
            if n != u32::MAX {
                self.size[n as usize] = self.size[label];
            }
        }
        self.size.truncate(roots as usize);
        self.parent.clear();
        self.parent.extend(0..roots);
        self.count = roots as usize;
        number.clear();
        self.queues[0] = number;
        // Room for the splits of the repairs to come (see `compact`): in proportion to
        // the grid, so that a big map relabels (a pass over every cell) only after
        // thousands of splits.
        let room = SPLIT_ROOM.max(self.labels.len() / 64);
        self.parent.reserve(room);
        self.size.reserve(room);
    }
}

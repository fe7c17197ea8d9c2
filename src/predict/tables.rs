//! The conditional-branch and indirect-jump predictors: a bimodal table of
//! 2-bit saturating counters indexed by pc, and a direct-mapped branch target
//! buffer that remembers each indirect jump's last target.

#[derive(Clone, Debug)]
pub struct Bimodal {
    counters: Vec<u8>,
}

impl Bimodal {
    /// Entries in the table.
    pub fn len(&self) -> usize {
        self.counters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counters.is_empty()
    }

    /// Counters start weakly not-taken (1).
    pub fn new(entries: usize) -> Bimodal {
        Bimodal {
            counters: vec![1; entries.max(1)],
        }
    }

    fn index(&self, pc: u64) -> usize {
        ((pc >> 1) % self.counters.len() as u64) as usize
    }

    pub fn predict(&self, pc: u64) -> bool {
        self.counters[self.index(pc)] >= 2
    }

    pub fn update(&mut self, pc: u64, taken: bool) {
        let i = self.index(pc);
        let c = &mut self.counters[i];
        *c = if taken {
            (*c + 1).min(3)
        } else {
            c.saturating_sub(1)
        };
    }
}

#[derive(Clone, Debug)]
pub struct Btb {
    entries: Vec<Option<(u64, u64)>>,
}

impl Btb {
    /// Entries in the table.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn new(entries: usize) -> Btb {
        Btb {
            entries: vec![None; entries.max(1)],
        }
    }

    fn index(&self, pc: u64) -> usize {
        ((pc >> 1) % self.entries.len() as u64) as usize
    }

    pub fn lookup(&self, pc: u64) -> Option<u64> {
        match self.entries[self.index(pc)] {
            Some((tag, target)) if tag == pc => Some(target),
            _ => None,
        }
    }

    pub fn update(&mut self, pc: u64, target: u64) {
        let i = self.index(pc);
        self.entries[i] = Some((pc, target));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bit_counter_needs_two_misses_to_flip() {
        let mut b = Bimodal::new(16);
        assert!(!b.predict(0x100));
        b.update(0x100, true); // 1 -> 2
        assert!(b.predict(0x100));
        b.update(0x100, true); // 3
        b.update(0x100, false); // 2: still taken
        assert!(b.predict(0x100));
        b.update(0x100, false); // 1
        assert!(!b.predict(0x100));
    }

    #[test]
    fn btb_remembers_the_last_target_per_pc() {
        let mut t = Btb::new(8);
        assert_eq!(t.lookup(0x40), None);
        t.update(0x40, 0x1000);
        assert_eq!(t.lookup(0x40), Some(0x1000));
        // 0x50 maps to the same entry (8 entries, index by pc/2): it evicts.
        t.update(0x50, 0x2000);
        assert_eq!(t.lookup(0x40), None);
    }
}

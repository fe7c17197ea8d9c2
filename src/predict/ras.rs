//! The return-address stack: a fixed number of entries with circular
//! overwrite, as hardware RASes have (a push onto a full stack loses the
//! oldest entry; a pop of an empty one predicts nothing).

#[derive(Clone, Debug)]
pub struct Ras {
    slots: Vec<u64>,
    /// The privilege mode each entry was pushed in.
    modes: Vec<u8>,
    /// Returns use only entries pushed in their own mode (C910).
    tagged: bool,
    /// The mode pushes and pops happen in now.
    mode: u8,
    /// Index the next push writes.
    top: usize,
    /// Valid entries (at most the depth).
    len: usize,
}

impl Ras {
    pub fn new(depth: usize) -> Ras {
        Ras {
            slots: vec![0; depth.max(1)],
            modes: vec![0; depth.max(1)],
            tagged: false,
            mode: 0,
            top: 0,
            len: 0,
        }
    }

    pub fn depth(&self) -> usize {
        self.slots.len()
    }

    /// Entries carry the privilege mode they were pushed in, and a return
    /// in another mode does not use them (it pops one and predicts nothing).
    pub fn tag_modes(&mut self, on: bool) {
        self.tagged = on;
    }

    /// The privilege mode of the instructions that follow.
    pub fn set_mode(&mut self, mode: u8) {
        self.mode = mode;
    }

    pub fn push(&mut self, addr: u64) {
        let n = self.slots.len();
        self.slots[self.top] = addr;
        self.modes[self.top] = self.mode;
        self.top = (self.top + 1) % n;
        self.len = (self.len + 1).min(n);
    }

    pub fn pop(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        let n = self.slots.len();
        self.top = (self.top + n - 1) % n;
        self.len -= 1;
        if self.tagged && self.modes[self.top] != self.mode {
            return None;
        }
        Some(self.slots[self.top])
    }

    /// Forgets every entry (a core whose traps empty the RAS).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Valid entries, newest first.
    pub fn entries(&self) -> Vec<u64> {
        let n = self.slots.len();
        (1..=self.len)
            .map(|k| self.slots[(self.top + n - k) % n])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_reverse_push_order() {
        let mut r = Ras::new(4);
        r.push(1);
        r.push(2);
        assert_eq!(r.entries(), vec![2, 1]);
        assert_eq!(r.pop(), Some(2));
        assert_eq!(r.pop(), Some(1));
        assert_eq!(r.pop(), None);
    }

    #[test]
    fn a_tagged_entry_serves_only_its_own_mode() {
        // U-mode (0) pushes 1; an S-mode (1) return pops it but may not use
        // it; back in U-mode, the next entry is used again.
        let mut r = Ras::new(4);
        r.tag_modes(true);
        r.set_mode(0);
        r.push(7);
        r.push(1);
        r.set_mode(1);
        assert_eq!(r.pop(), None);
        r.set_mode(0);
        assert_eq!(r.pop(), Some(7));
    }

    #[test]
    fn overflow_overwrites_the_oldest_entry() {
        let mut r = Ras::new(3);
        for a in 1..=5 {
            r.push(a);
        }
        // 1 and 2 were overwritten by 4 and 5.
        assert_eq!(r.entries(), vec![5, 4, 3]);
        assert_eq!(r.pop(), Some(5));
        assert_eq!(r.pop(), Some(4));
        assert_eq!(r.pop(), Some(3));
        assert_eq!(r.pop(), None);
    }
}

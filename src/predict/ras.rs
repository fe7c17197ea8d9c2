//! The return-address stack: a fixed number of entries with circular
//! overwrite, as hardware RASes have (a push onto a full stack loses the
//! oldest entry; a pop of an empty one predicts nothing).

#[derive(Clone, Debug)]
pub struct Ras {
    slots: Vec<u64>,
    /// Index the next push writes.
    top: usize,
    /// Valid entries (at most the depth).
    len: usize,
}

impl Ras {
    pub fn new(depth: usize) -> Ras {
        Ras {
            slots: vec![0; depth.max(1)],
            top: 0,
            len: 0,
        }
    }

    pub fn depth(&self) -> usize {
        self.slots.len()
    }

    pub fn push(&mut self, addr: u64) {
        let n = self.slots.len();
        self.slots[self.top] = addr;
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
        Some(self.slots[self.top])
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

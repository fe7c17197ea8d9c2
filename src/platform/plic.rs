//! A minimal PLIC (the RISC-V Platform-Level Interrupt Controller spec's
//! register map): source priorities at +4·id, pending bits at +0x1000,
//! per-context enables at +0x2000 + 0x80·ctx, and per-context threshold and
//! claim/complete at +0x20_0000 + 0x1000·ctx. Context 0 is hart 0's M-mode
//! (MEIP), context 1 its S-mode (SEIP), as on QEMU virt. No device is wired
//! to a source yet, so nothing becomes pending unless `raise` is called.

pub const SOURCES: usize = 32;
pub const CTX_M: usize = 0;
pub const CTX_S: usize = 1;
const CONTEXTS: usize = 2;

const PENDING: u64 = 0x1000;
const ENABLE: u64 = 0x2000;
const CONTEXT: u64 = 0x20_0000;

#[derive(Clone, Debug, Default)]
pub struct Plic {
    /// Priority per source (source 0 does not exist).
    priority: [u32; SOURCES],
    pending: u32,
    enable: [u32; CONTEXTS],
    threshold: [u32; CONTEXTS],
    /// Sources claimed and not yet completed.
    claimed: u32,
}

impl Plic {
    /// A source's line goes up (for tests and future devices).
    pub fn raise(&mut self, src: usize) {
        if (1..SOURCES).contains(&src) {
            self.pending |= 1 << src;
        }
    }

    /// The best pending, enabled, unclaimed source above the context's
    /// threshold: the lowest id among the highest priority (PLIC spec).
    fn best(&self, ctx: usize) -> Option<usize> {
        let cand = self.pending & self.enable[ctx] & !self.claimed;
        (1..SOURCES)
            .filter(|&s| cand & (1 << s) != 0 && self.priority[s] > self.threshold[ctx])
            .max_by_key(|&s| (self.priority[s], std::cmp::Reverse(s)))
    }

    /// Whether the context's interrupt line (MEIP / SEIP) is up.
    pub fn asserted(&self, ctx: usize) -> bool {
        self.pending != 0 && self.best(ctx).is_some()
    }

    fn word(&self, w: u64) -> u32 {
        let off = w * 4;
        match off {
            o if o < PENDING => self.priority.get(w as usize).copied().unwrap_or(0),
            PENDING => self.pending,
            o if (ENABLE..ENABLE + 0x80 * CONTEXTS as u64).contains(&o) => {
                let ctx = ((o - ENABLE) / 0x80) as usize;
                if (o - ENABLE).is_multiple_of(0x80) {
                    self.enable[ctx]
                } else {
                    0
                }
            }
            o if (CONTEXT..CONTEXT + 0x1000 * CONTEXTS as u64).contains(&o) => {
                let ctx = ((o - CONTEXT) / 0x1000) as usize;
                match (o - CONTEXT) % 0x1000 {
                    0 => self.threshold[ctx],
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    /// A read; claim (a read of +4 in a context block) has side effects.
    pub fn read(&mut self, off: u64, size: usize) -> u64 {
        if off >= CONTEXT && (off - CONTEXT) % 0x1000 == 4 && size == 4 {
            let ctx = ((off - CONTEXT) / 0x1000) as usize;
            if ctx < CONTEXTS {
                return self.claim(ctx) as u64;
            }
        }
        super::read_words(off, size, |w| self.word(w))
    }

    /// Claims the best source for `ctx`: 0 when there is none.
    pub fn claim(&mut self, ctx: usize) -> u32 {
        match self.best(ctx) {
            Some(s) => {
                self.pending &= !(1 << s);
                self.claimed |= 1 << s;
                s as u32
            }
            None => 0,
        }
    }

    /// Returns whether an interrupt input may have changed.
    pub fn write(&mut self, off: u64, size: usize, v: u64) -> bool {
        if size != 4 || !off.is_multiple_of(4) {
            return false; // the PLIC's registers are 32-bit
        }
        let v = v as u32;
        match off {
            o if o < PENDING => {
                let s = (o / 4) as usize;
                if (1..SOURCES).contains(&s) {
                    self.priority[s] = v & 7;
                }
            }
            o if (ENABLE..ENABLE + 0x80 * CONTEXTS as u64).contains(&o) => {
                if (o - ENABLE).is_multiple_of(0x80) {
                    self.enable[((o - ENABLE) / 0x80) as usize] = v & !1;
                }
            }
            o if (CONTEXT..CONTEXT + 0x1000 * CONTEXTS as u64).contains(&o) => {
                let ctx = ((o - CONTEXT) / 0x1000) as usize;
                match (o - CONTEXT) % 0x1000 {
                    0 => self.threshold[ctx] = v & 7,
                    4 => {
                        // Complete: a source not claimed is ignored.
                        if (v as usize) < SOURCES {
                            self.claimed &= !(1 << v);
                        }
                    }
                    _ => return false,
                }
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAIM_S: u64 = CONTEXT + 0x1000 + 4;

    #[test]
    fn nothing_pending_claims_zero() {
        let mut p = Plic::default();
        p.write(4, 4, 1);
        p.write(ENABLE + 0x80, 4, 0xffff_ffff);
        assert!(!p.asserted(CTX_S));
        assert_eq!(p.read(CLAIM_S, 4), 0);
    }

    #[test]
    fn claim_complete_priority_threshold() {
        let mut p = Plic::default();
        p.write(4 * 3, 4, 2);
        p.write(4 * 5, 4, 6);
        p.write(ENABLE + 0x80, 4, (1 << 3) | (1 << 5));
        p.raise(3);
        p.raise(5);
        assert!(p.asserted(CTX_S));
        assert!(!p.asserted(CTX_M), "not enabled in the M context");
        assert_eq!(p.read(PENDING, 4), (1 << 3) | (1 << 5));
        // Threshold 2: source 3 (priority 2) is masked, 5 (6) is not.
        p.write(CONTEXT + 0x1000, 4, 2);
        assert_eq!(p.read(CLAIM_S, 4), 5, "highest priority first");
        assert_eq!(p.read(CLAIM_S, 4), 0, "3 is at the threshold");
        p.write(CONTEXT + 0x1000, 4, 0);
        assert_eq!(p.read(CLAIM_S, 4), 3);
        assert!(!p.asserted(CTX_S));
        // Completing lets a source be claimed again when it pends again.
        p.raise(5);
        assert_eq!(p.read(CLAIM_S, 4), 0, "5 still claimed");
        p.write(CLAIM_S, 4, 5);
        assert_eq!(p.read(CLAIM_S, 4), 5);
        assert_eq!(p.read(4 * 5, 4), 6, "priority reads back");
    }
}

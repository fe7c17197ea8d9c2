//! A 16550-style UART (QEMU virt's ns16550a, byte registers). Transmitted
//! bytes are captured for the reports and the TUI; nothing is ever received.
//! The line status register always says the transmitter is empty, so a
//! driver polling THRE never waits (docs/decisions.md D12).

const RBR_THR: u64 = 0;
const IER: u64 = 1;
const IIR_FCR: u64 = 2;
const LCR: u64 = 3;
const MCR: u64 = 4;
const LSR: u64 = 5;
const MSR: u64 = 6;
const SCR: u64 = 7;

/// LSR: THR empty (bit 5) and transmitter empty (bit 6).
pub const LSR_IDLE: u8 = 0x60;
const LCR_DLAB: u8 = 0x80;
/// The most output kept; the rest is counted, not stored.
pub const CAPTURE_LIMIT: usize = 1 << 20;

#[derive(Clone, Debug, Default)]
pub struct Uart {
    ier: u8,
    lcr: u8,
    mcr: u8,
    scr: u8,
    dll: u8,
    dlm: u8,
    /// What the guest transmitted (at most `CAPTURE_LIMIT` bytes).
    pub output: Vec<u8>,
    /// Bytes transmitted beyond the limit.
    pub dropped: u64,
}

impl Uart {
    pub fn read(&self, off: u64) -> u8 {
        let dlab = self.lcr & LCR_DLAB != 0;
        match off {
            RBR_THR if dlab => self.dll,
            IER if dlab => self.dlm,
            RBR_THR => 0, // nothing received
            IER => self.ier,
            IIR_FCR => 0xc1, // FIFOs enabled, no interrupt pending
            LCR => self.lcr,
            MCR => self.mcr,
            LSR => LSR_IDLE,
            MSR => 0,
            SCR => self.scr,
            _ => 0,
        }
    }

    pub fn write(&mut self, off: u64, v: u8) {
        let dlab = self.lcr & LCR_DLAB != 0;
        match off {
            RBR_THR if dlab => self.dll = v,
            IER if dlab => self.dlm = v,
            RBR_THR => {
                if self.output.len() < CAPTURE_LIMIT {
                    self.output.push(v);
                } else {
                    self.dropped += 1;
                }
            }
            IER => self.ier = v & 0x0f,
            LCR => self.lcr = v,
            MCR => self.mcr = v & 0x1f,
            SCR => self.scr = v,
            _ => {} // FCR, LSR, MSR: nothing to keep
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmits_into_the_capture_and_is_always_ready() {
        let mut u = Uart::default();
        assert_eq!(u.read(LSR) & 0x20, 0x20, "THRE");
        assert_eq!(u.read(LSR) & 0x40, 0x40, "TEMT");
        for b in b"hi\n" {
            u.write(RBR_THR, *b);
        }
        assert_eq!(u.output, b"hi\n");
        assert_eq!(u.read(RBR_THR), 0, "nothing to receive");
        assert_eq!(u.read(LSR) & 1, 0, "no data ready");
    }

    #[test]
    fn divisor_latch_does_not_transmit() {
        let mut u = Uart::default();
        u.write(LCR, 0x83); // DLAB, 8N1
        u.write(RBR_THR, 0x01);
        u.write(IER, 0x00);
        assert!(u.output.is_empty());
        assert_eq!(u.read(RBR_THR), 0x01);
        u.write(LCR, 0x03);
        u.write(SCR, 0x5a);
        assert_eq!(u.read(SCR), 0x5a);
        assert_eq!(u.read(LCR), 0x03);
        u.write(RBR_THR, b'x');
        assert_eq!(u.output, b"x");
    }
}

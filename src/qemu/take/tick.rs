//! The tick init's stop (`--init tick`): its loop is a user jump to itself
//! that QEMU runs millions of times between ticks, so the marker cannot be
//! a breakpoint on it. The guest first runs to the spin (one breakpoint
//! there, then removed); from then on the breakpoint is the kernel's trap
//! handler (stvec, read from the hart at the spin), and a stop counts when
//! it is the supervisor timer interrupt taken at the spin (scause =
//! interrupt | 5, sepc = the spin; priv spec §4.1.9, Table 4.2). The N-th
//! is the snapshot point: the hart at the handler's first instruction,
//! with the tick's whole path ahead and the interrupt enables and the
//! armed timer kept (no `quiesce`).

use std::time::{Duration, Instant};

use super::booted::Booted;
use super::error::TakeError;

/// CSR numbers (priv spec §2.2).
const SCAUSE: u16 = 0x142;
const SEPC: u16 = 0x141;
const STVEC: u16 = 0x105;
/// The supervisor timer interrupt's scause (interrupt bit, code 5).
pub const S_TIMER: u64 = 1 << 63 | 5;

/// Where an interrupt with `code` enters through `stvec`: BASE, or BASE +
/// 4 × code when MODE is Vectored (priv spec §4.1.2).
pub fn interrupt_entry(stvec: u64, code: u64) -> u64 {
    let base = stvec & !3;
    if stvec & 3 == 1 {
        base.wrapping_add(4 * code)
    } else {
        base
    }
}

impl Booted {
    /// Runs until the hart enters the kernel for the `n`-th supervisor timer
    /// interrupt taken at the init's spin (`self.ecall`).
    pub fn run_to_tick(&mut self, n: u64, progress: &mut dyn FnMut(&str)) -> Result<(), TakeError> {
        // The first arrival at the spin: the init is set up and spinning.
        self.run_to(1, progress)?;
        let spin = self.ecall;
        let stvec = self.csr_value(STVEC)?;
        let handler = interrupt_entry(stvec, S_TIMER & !(1 << 63));
        self.gdb.clear_breakpoint(spin, 4)?;
        self.gdb.set_breakpoint(handler, 4)?;
        self.tick_handler = Some(handler);
        self.hits = 0;
        progress(&format!(
            "the init spins at {spin:#x}; counting the timer interrupts taken there (the kernel's handler is at {handler:#x})"
        ));
        let mut told = Instant::now();
        loop {
            self.wait_at(handler, false, n, progress)?;
            let cause = self.csr_value(SCAUSE)?;
            let epc = self.csr_value(SEPC)?;
            if cause == S_TIMER && epc == spin {
                self.hits += 1;
                if self.hits == n {
                    return Ok(());
                }
            }
            if told.elapsed() >= Duration::from_secs(1) {
                told = Instant::now();
                progress(&format!("{} of {n} ticks", self.hits));
            }
            // Off the handler's first instruction: one step with the
            // breakpoint out. Nothing can interrupt it: the trap cleared
            // sstatus.SIE, and the firmware masked its own timer (mie.MTIE)
            // when it raised the supervisor's.
            self.gdb.clear_breakpoint(handler, 4)?;
            self.gdb.step()?;
            self.gdb.set_breakpoint(handler, 4)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::interrupt_entry;

    #[test]
    fn the_timer_enters_at_base_or_its_vector() {
        let base = 0xffff_ffff_8000_1000;
        assert_eq!(interrupt_entry(base, 5), base);
        // Vectored (MODE 1): BASE + 4 × 5.
        assert_eq!(interrupt_entry(base | 1, 5), base + 20);
    }
}

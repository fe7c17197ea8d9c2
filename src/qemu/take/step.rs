//! Counting executions of the loop's marker exactly. After the step over a
//! breakpoint stop at the marker, one of three things happened:
//! - an ecall marker took its own trap: the hart sits at the handler of the
//!   mode it trapped to, with xcause = the ecall's cause and xepc = the
//!   marker. The handler returns past it: one execution.
//! - any other marker retired without a trap: the hart is still in the
//!   marker's mode, past it (or at a branch's target). One execution.
//! - the marker trapped with xepc = the marker: an interrupt taken before it,
//!   or an exception it raised (a store's page fault, priv spec §4.3.1, whose
//!   handler maps the page and returns to retry it). The handler returns to
//!   the marker and the breakpoint stops there again: the same execution, so
//!   the arrival after it is not counted. A page-fault marker is therefore
//!   counted once per iteration, and the snapshot stops before the store
//!   that faults, with the whole fault ahead.
//!
//! The init's own count of finished iterations (x9, `s1`, in trapscope's
//! inits: include/init.inc's loop adds 1 after each call returns) then
//! confirms the count from the guest's side.

use super::booted::Booted;
use super::config::Guest;
use super::error::TakeError;

/// What the step over the marker did.
pub(super) enum Took {
    /// An ecall marker's own trap: the next arrival is a new execution.
    Ecall,
    /// A marker that is not an ecall retired without trapping: the next
    /// arrival is a new execution.
    Retired,
    /// An interrupt, delivered with xepc = the marker: the next arrival is
    /// the same execution.
    Interrupt,
    /// An exception the marker raised: its handler returns to
    /// retry it, so the next arrival is the same execution.
    Fault,
    /// Nothing retired: the step is made again.
    Stayed,
    /// Anything else, described.
    Other(String),
}

/// CSR numbers (priv spec §2.2, "CSR Listing").
const SCAUSE: u16 = 0x142;
const SEPC: u16 = 0x141;
const STVEC: u16 = 0x105;
const MCAUSE: u16 = 0x342;
const MEPC: u16 = 0x341;
const MTVEC: u16 = 0x305;
const INTERRUPT: u64 = 1 << 63;

/// The register trapscope's inits keep their iteration count in.
pub(super) const COUNTER_REG: usize = 9;

fn priv_name(p: u64) -> &'static str {
    match p {
        0 => "U",
        1 => "S",
        _ => "M",
    }
}

impl Booted {
    /// The hart's privilege (0 U, 1 S, 3 M) from the stub's `priv`.
    pub(super) fn privilege(&mut self) -> Result<u64, TakeError> {
        let r = self.regs.priv_.ok_or(TakeError::NotShown {
            what: "the privilege (priv)",
        })?;
        Ok(self.reg(r)? & 3)
    }

    /// A CSR the stub lists, by number.
    pub(super) fn csr_value(&mut self, num: u16) -> Result<u64, TakeError> {
        let r = self.regs.csr_regnum(num).ok_or(TakeError::NoCsr {
            num,
            needs: "counting the ecall needs",
        })?;
        self.reg(r)
    }

    /// Where the step over the ecall, made in privilege `from`, ended.
    pub(super) fn trap_after_step(&mut self, from: u64) -> Result<Took, TakeError> {
        let pc = self.reg(self.regs.pc)?;
        let now = self.privilege()?;
        let (cause, epc, tvec) = if now == 3 {
            (MCAUSE, MEPC, MTVEC)
        } else {
            (SCAUSE, SEPC, STVEC)
        };
        let (cause, epc, tvec) = (
            self.csr_value(cause)?,
            self.csr_value(epc)?,
            self.csr_value(tvec)?,
        );
        Ok(classify(
            Ended {
                pc,
                now,
                cause,
                epc,
                tvec,
            },
            from,
            self.ecall,
        ))
    }

    /// The init's count of finished iterations (x9) at a stop before the
    /// `at`-th ecall: Some for trapscope's inits under Linux, checked to be
    /// `at - 1`; None for a bare ELF or a user's init, whose loops keep no
    /// such count.
    pub(super) fn checked_counter(&self, x9: u64) -> Result<Option<u64>, TakeError> {
        if !matches!(self.cfg.guest, Guest::Linux { counted: true, .. }) {
            return Ok(None);
        }
        check_counter(x9, self.hits).map(Some)
    }
}

/// Where a step ended: pc, privilege, and the trap CSRs of that mode.
pub(super) struct Ended {
    pc: u64,
    now: u64,
    cause: u64,
    epc: u64,
    tvec: u64,
}

/// What the step over the marker at `ecall`, made in privilege `from`, did.
fn classify(e: Ended, from: u64, ecall: u64) -> Took {
    let Ended {
        pc,
        now,
        cause,
        epc,
        tvec,
    } = e;
    // Environment call from U, S or M: causes 8, 9, 11 (priv spec
    // §3.1.15, Table 3.6). Exceptions go to xtvec's BASE in either mode.
    let ecall_cause = 8 + from;
    if epc == ecall && cause == ecall_cause && pc == tvec & !3 && now >= from {
        return Took::Ecall;
    }
    // The trap CSRs are only news when the step ended at the handler: after
    // a step that retired, they still describe an older trap (at the marker
    // itself, the fault it took before its retry, say).
    // Exceptions enter at xtvec's BASE; interrupts at BASE + 4 × cause
    // when MODE is Vectored (priv spec §3.1.7, "Machine Trap-Vector Base").
    let handler = if tvec & 3 == 1 && cause & INTERRUPT != 0 {
        (tvec & !3).wrapping_add(4 * (cause & !INTERRUPT))
    } else {
        tvec & !3
    };
    let at_handler = pc == handler && now >= from;
    if epc == ecall && cause & INTERRUPT != 0 && at_handler {
        return Took::Interrupt;
    }
    // Any other exception raised by the marker itself (the handler just
    // entered, at xtvec's BASE with xepc = the marker).
    if epc == ecall && at_handler && !(8..=11).contains(&cause) {
        return Took::Fault;
    }
    // In the marker's own mode and somewhere else: it retired (an ecall
    // cannot: it always traps, to this mode at the least). Or it retired and
    // an interrupt was taken at the instruction after it (xepc there, not at
    // the marker), whose handler returns there.
    let retired_then_irq = at_handler && cause & INTERRUPT != 0 && epc != ecall;
    if (now == from && pc != ecall && !is_ecall_cause(cause, epc, ecall)) || retired_then_irq {
        return Took::Retired;
    }
    // Still at the ecall in the mode it runs in: the step retired nothing
    // (any instruction, the ecall or an interrupt's delivery, moves the pc
    // or the mode), and the trap CSRs are an earlier trap's. QEMU 7.2's stub
    // does this now and then on a loaded host.
    if pc == ecall && now == from {
        return Took::Stayed;
    }
    Took::Other(format!(
        "it ended at {pc:#x} in {}-mode with {}cause {cause:#x} and {}epc {epc:#x}",
        priv_name(now),
        if now == 3 { "m" } else { "s" },
        if now == 3 { "m" } else { "s" },
    ))
}

/// Whether the trap CSRs describe an ecall at the marker (an M-mode ecall
/// traps to M, the mode it ran in).
fn is_ecall_cause(cause: u64, epc: u64, marker: u64) -> bool {
    epc == marker && (8..=11).contains(&cause)
}

/// `x9` must be `at - 1` at the stop before the `at`-th ecall.
pub(super) fn check_counter(x9: u64, at: u64) -> Result<u64, TakeError> {
    let want = at.saturating_sub(1);
    if x9 == want {
        return Ok(x9);
    }
    Err(TakeError::Counter { x9, want, at })
}

#[cfg(test)]
mod tests {
    use super::{Ended, Took, check_counter, classify};

    const ECALL: u64 = 0x10088;
    const STVEC: u64 = 0xffff_ffff_8000_1000;

    fn ended(pc: u64, now: u64, cause: u64, epc: u64) -> Ended {
        Ended {
            pc,
            now,
            cause,
            epc,
            tvec: STVEC,
        }
    }

    #[test]
    fn a_step_is_classified_by_where_it_ended() {
        // U-mode ecall taken: at stvec in S, scause 8, sepc the ecall.
        let t = classify(ended(STVEC, 1, 8, ECALL), 0, ECALL);
        assert!(matches!(t, Took::Ecall));
        // A timer interrupt (scause 5 | bit 63) delivered at the ecall.
        let t = classify(ended(STVEC, 1, 5 | 1 << 63, ECALL), 0, ECALL);
        assert!(matches!(t, Took::Interrupt));
        // The case seen on a V kernel: still at the ecall in U, with the
        // CSRs of a timer interrupt taken at the instruction after it an
        // iteration earlier. Nothing retired: step again, never count.
        let t = classify(ended(ECALL, 0, 5 | 1 << 63, ECALL + 4), 0, ECALL);
        assert!(matches!(t, Took::Stayed));
        // Somewhere else entirely, in another mode: described.
        let t = classify(ended(0x8000_1234, 1, 2, 0x1_0000), 0, ECALL);
        match t {
            Took::Other(w) => assert!(w.contains("0x80001234 in S-mode"), "{w}"),
            _ => panic!("expected Other"),
        }
    }

    /// A marker that is not an ecall: a store that retires, or one that
    /// page-faults (cause 15, priv spec Table 3.6) and is retried.
    #[test]
    fn a_marker_that_is_not_an_ecall_retires_or_faults() {
        const STORE: u64 = 0x10100;
        // Retired: still in U, at the next instruction (a 4-byte store),
        // with an older ecall's CSRs (sepc elsewhere).
        let t = classify(ended(STORE + 4, 0, 8, 0x10200), 0, STORE);
        assert!(matches!(t, Took::Retired));
        // A compressed store retires to +2: the same.
        let t = classify(ended(STORE + 2, 0, 8, 0x10200), 0, STORE);
        assert!(matches!(t, Took::Retired));
        // Its page fault: at stvec in S, scause 15, sepc the store.
        let t = classify(ended(STVEC, 1, 15, STORE), 0, STORE);
        assert!(matches!(t, Took::Fault));
        // Retired, then a timer interrupt at the next instruction.
        let t = classify(ended(STVEC, 1, 5 | 1 << 63, STORE + 4), 0, STORE);
        assert!(matches!(t, Took::Retired));
        // Vectored stvec (MODE 1): a timer interrupt enters at BASE + 4 × 5.
        let vectored = Ended {
            pc: STVEC + 20,
            now: 1,
            cause: 5 | 1 << 63,
            epc: STORE,
            tvec: STVEC | 1,
        };
        assert!(matches!(classify(vectored, 0, STORE), Took::Interrupt));
        // An interrupt before the store: the same execution comes again.
        let t = classify(ended(STVEC, 1, 5 | 1 << 63, STORE), 0, STORE);
        assert!(matches!(t, Took::Interrupt));
        // The retry after the fault retires with the fault's CSRs still
        // there (and after an interrupt taken at the store, that one's):
        // retired, never a second fault or an interrupt.
        let t = classify(ended(STORE + 4, 0, 15, STORE), 0, STORE);
        assert!(matches!(t, Took::Retired));
        let t = classify(ended(STORE + 4, 0, 5 | 1 << 63, STORE), 0, STORE);
        assert!(matches!(t, Took::Retired));
        // Nothing retired.
        let t = classify(ended(STORE, 0, 15, STORE), 0, STORE);
        assert!(matches!(t, Took::Stayed));
    }

    #[test]
    fn the_counter_must_be_one_less_than_at() {
        assert_eq!(check_counter(99, 100).ok(), Some(99));
        let e = check_counter(98, 100).unwrap_err().to_string();
        assert!(
            e.contains("x9") && e.contains("98") && e.contains("99"),
            "{e}"
        );
        assert_eq!(check_counter(0, 1).ok(), Some(0));
    }
}

//! Counting executions of the loop's ecall exactly: after the step over a
//! breakpoint stop, the hart must sit at the trap handler of the mode the
//! ecall trapped to, with xcause = the ecall's cause and xepc = the ecall.
//! A step that took an interrupt instead (xcause's interrupt bit set) did
//! not execute the ecall: the interrupt handler returns to it and the
//! breakpoint stops there again, the same execution.
//!
//! The init's own count of finished iterations (x9, `s1`, in trapscope's
//! inits: include/init.inc's loop adds 1 after each call returns) then
//! confirms the count from the guest's side.

use super::{Booted, Guest};

/// What the step over the ecall did.
pub(super) enum Took {
    /// The ecall's trap: counted.
    Ecall,
    /// An interrupt, delivered with xepc = the ecall: not counted.
    Interrupt,
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
    pub(super) fn privilege(&mut self) -> Result<u64, String> {
        let r = self
            .regs
            .priv_
            .ok_or("the gdbstub does not show the privilege (priv)")?;
        Ok(self.reg(r)? & 3)
    }

    /// A CSR the stub lists, by number.
    fn csr_value(&mut self, num: u16) -> Result<u64, String> {
        let r = self.regs.csr_regnum(num).ok_or_else(|| {
            format!(
                "the gdbstub gives no {} (CSR {num:#x}), which counting the ecall needs",
                crate::isa::csr_name(num).unwrap_or("CSR")
            )
        })?;
        self.reg(r)
    }

    /// Where the step over the ecall, made in privilege `from`, ended.
    pub(super) fn trap_after_step(&mut self, from: u64) -> Result<Took, String> {
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
    pub(super) fn checked_counter(&self, x9: u64) -> Result<Option<u64>, String> {
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

/// What the step over the ecall at `ecall`, made in privilege `from`, did.
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
    if epc == ecall && cause & INTERRUPT != 0 {
        return Took::Interrupt;
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

/// `x9` must be `at - 1` at the stop before the `at`-th ecall.
pub(super) fn check_counter(x9: u64, at: u64) -> Result<u64, String> {
    let want = at.saturating_sub(1);
    if x9 == want {
        return Ok(x9);
    }
    Err(format!(
        "the init's own iteration count (x9) is {x9} at the stop, but it should be {want} before the {} ecall: the stop is not where it was counted to be; take the snapshot again",
        super::ordinal(at)
    ))
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
        // Somewhere else entirely: described.
        let t = classify(ended(0x1_0000, 0, 2, 0x1_0000), 0, ECALL);
        match t {
            Took::Other(w) => assert!(w.contains("0x10000 in U-mode"), "{w}"),
            _ => panic!("expected Other"),
        }
    }

    #[test]
    fn the_counter_must_be_one_less_than_at() {
        assert_eq!(check_counter(99, 100), Ok(99));
        let e = check_counter(98, 100).unwrap_err();
        assert!(
            e.contains("x9") && e.contains("98") && e.contains("99"),
            "{e}"
        );
        assert_eq!(check_counter(0, 1), Ok(0));
    }
}

//! A block's NaN-boxing plan, from its decoded instructions alone: which
//! registers hold a pending single after each instruction, and where a
//! 64-bit value is read as a single. `fpflow.rs` acts on the plan as the
//! block runs.

use std::cell::Cell;

use crate::isa::DecodedInsn;
use crate::isa::fp::reads;
use crate::isa::{Insn, Op};

/// An f register's state inside a block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    /// As the block found it.
    Entry,
    /// A native single result, its upper half not yet set.
    Pending,
    /// Boxed (`flw` boxes what it loads).
    Boxed,
    /// 64 bits of any value (`fld`, a D result, `fmv.d.x`).
    Raw,
}

/// How one instruction uses the f registers.
#[derive(Default)]
struct Use {
    pub(in crate::machine) single_reads: u32,
    pub(in crate::machine) wide_reads: u32,
    pub(in crate::machine) write: Option<(u8, St)>,
    /// fmin/fmax: trapscope always runs them (fp.rs).
    pub(in crate::machine) always: bool,
}

pub(in crate::machine) fn bit(r: u8) -> u32 {
    1 << (r & 31)
}

fn uses(i: &Insn) -> Use {
    let mut u = Use::default();
    match i.op {
        Op::Fp => {
            let Some(r) = reads(i.raw) else { return u };
            let srcs = [i.rs1, i.rs2, ((i.raw >> 27) & 31) as u8];
            let mask = srcs[..usize::from(r.f_inputs)]
                .iter()
                .fold(0, |m, &s| m | bit(s));
            if r.single {
                u.single_reads = mask;
            } else if r.name != "fmv.x.w" {
                // fmv.x.w moves the lower half's bits, boxed or not.
                u.wide_reads = mask;
            }
            u.always = r.minmax;
            if !r.int_dest {
                // fmin/fmax of two numbers run natively too (fp.rs).
                let st = if r.single_dest { St::Pending } else { St::Raw };
                u.write = Some((i.rd, st));
            }
        }
        Op::FpLoad { width } => {
            // QEMU 5.0's flw boxes what it loads.
            u.write = Some((i.rd, if width == 4 { St::Boxed } else { St::Raw }));
        }
        Op::FpStore { width: 8 } => u.wide_reads = bit(i.rs2),
        // Vector instructions are hooked anyway (every hook boxes first);
        // `vfmv.f.s` (OPFVV, funct6 010000) writes an f register.
        Op::Vector if i.raw & 0x7f == 0x57 && (i.raw >> 12) & 7 == 1 && i.raw >> 26 == 0x10 => {
            u.write = Some((i.rd, St::Raw));
        }
        _ => {}
    }
    u
}

/// A block's NaN-boxing plan.
pub struct FpFlow {
    /// Per instruction, the registers holding a pending single once it ran.
    pub(in crate::machine) after: Vec<u32>,
    /// Registers read as singles before the block writes them.
    pub(in crate::machine) live_in: u32,
    /// (instruction index, registers): a 64-bit value the instruction
    /// before it wrote is read as a single later in the block.
    pub(in crate::machine) checks: Vec<(usize, u32)>,
    /// The instructions making those reads.
    pub(in crate::machine) entry_readers: Vec<u64>,
    /// Their hooks are in (an entry check failed once).
    pub(in crate::machine) slow: Cell<bool>,
}

/// The scan of a decoded block: its plan (none if it leaves nothing to
/// box and reads no single it did not write) and the instructions that need
/// a hook for NaN-boxing.
pub struct Scan {
    pub flow: Option<FpFlow>,
    pub hooks: Vec<u64>,
    /// Where `checks` sit.
    pub check_pcs: Vec<u64>,
}

pub fn scan(insns: &[DecodedInsn]) -> Scan {
    let mut st = [St::Entry; 32];
    let mut after = Vec::with_capacity(insns.len());
    let (mut pending, mut live_in, mut any) = (0u32, 0u32, false);
    let mut entry_readers = Vec::new();
    let mut hooks = Vec::new();
    let mut raw_at = [0usize; 32];
    let mut checks: Vec<(usize, u32)> = Vec::new();
    for (k, d) in insns.iter().enumerate() {
        let u = d.insn.as_ref().map(uses).unwrap_or_default();
        let mut hook = u.always;
        for r in 0..32u8 {
            let b = bit(r);
            if u.wide_reads & b != 0 && st[usize::from(r)] == St::Pending {
                hook = true;
            }
            if u.single_reads & b != 0 {
                match st[usize::from(r)] {
                    St::Entry => {
                        live_in |= b;
                        if entry_readers.last() != Some(&d.pc) {
                            entry_readers.push(d.pc);
                        }
                    }
                    St::Raw => {
                        let at = raw_at[usize::from(r)] + 1;
                        match checks.iter_mut().find(|c| c.0 == at) {
                            Some(c) => c.1 |= b,
                            None => checks.push((at, b)),
                        }
                    }
                    St::Pending | St::Boxed => {}
                }
            }
        }
        if let Some((rd, s)) = u.write {
            st[usize::from(rd & 31)] = s;
            raw_at[usize::from(rd & 31)] = k;
            if s == St::Pending {
                pending |= bit(rd);
                any = true;
            } else {
                pending &= !bit(rd);
            }
        }
        if hook {
            hooks.push(d.pc);
        }
        after.push(pending);
    }
    checks.sort_unstable();
    let check_pcs = checks.iter().map(|c| insns[c.0].pc).collect();
    let flow = (any || live_in != 0 || !checks.is_empty()).then(|| FpFlow {
        after,
        live_in,
        checks,
        entry_readers,
        slow: Cell::new(false),
    });
    Scan {
        flow,
        hooks,
        check_pcs,
    }
}

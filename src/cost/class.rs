//! What the pipeline models need to know of one instruction, found once per
//! decoded block: its kind, the pipes it may issue to, the registers it
//! reads (and whether through the bypass), the register it writes and the
//! latency of that result.

use super::profile::{Param, Profile};
pub use super::words::{BYPASS_FROM, BYPASS_TO, FLUSH_RULES, VECTOR_WAITS, list};
use crate::isa::{CsrOp, Insn, Op};

/// The kinds the pipeline tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Alu,
    Load,
    Store,
    Branch,
    Jump,
    Mul,
    Div,
    Fp,
    Csr,
    Amo,
    Lr,
    Sc,
    Fence,
    FenceI,
    SfenceVma,
    /// `ecall`, `ebreak`: the trap is charged when it is taken.
    System,
    /// `wfi`: the wait is charged as idle time.
    Wfi,
    /// `sret`, `mret`.
    Xret,
    /// Occupancy charged when the V unit reports it.
    Vector,
    /// Undecodable: one slot.
    Other,
}

/// A CSR instruction's effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsrFx {
    pub writes: bool,
    /// `rdcycle`/`rdtime`/`rdinstret`.
    pub counter: bool,
    /// sstatus, mstatus, satp.
    pub status: bool,
    /// The write flushes the instructions after it (the profile's rule).
    pub flush: bool,
}

/// One instruction, as the pipeline sees it.
#[derive(Clone, Copy, Debug)]
pub struct Static {
    pub kind: Kind,
    /// Bit n: pipe n may take it.
    pub pipes: u8,
    /// Registers read (0: none): x1..x31 as 1..31, f0..f31 as `F`..`F` + 31
    /// (only with the profile's `fp_dependences`).
    pub src: [u8; 3],
    /// Each source is read through the bypass, `late_advance` cycles late.
    pub late: [bool; 3],
    /// Register written (0: none), numbered as `src`.
    pub rd: u8,
    /// Cycles to an ordinary consumer.
    pub lat: u32,
    /// The result takes the bypass.
    pub bypass: bool,
    pub csr: CsrFx,
}

/// Which producers and consumers the bypass joins (profile lists).
#[derive(Clone, Copy, Debug, Default)]
pub struct Bypass {
    pub from_alu: bool,
    pub from_load: bool,
    pub from_mul: bool,
    pub from_div: bool,
    pub from_csr: bool,
    pub from_jump: bool,
    pub from_amo: bool,
    pub to_alu: bool,
    pub to_branch: bool,
    pub to_store_data: bool,
    pub to_mul: bool,
    pub to_jalr: bool,
}

/// Pipe letters to a mask: "AB" = pipes 0 and 1.
pub fn pipe_mask(s: &str) -> u8 {
    s.bytes().filter(u8::is_ascii_uppercase).fold(0, |m, b| {
        m | 1u8.checked_shl(u32::from(b - b'A')).unwrap_or(0)
    })
}

impl Bypass {
    pub fn new(p: &Profile) -> Bypass {
        let l = &p.latency;
        let from = |n: &str| list(&l.bypass_from.value).any(|x| x == n);
        let to = |n: &str| list(&l.bypass_to.value).any(|x| x == n);
        Bypass {
            from_alu: from("alu"),
            from_load: from("load"),
            from_mul: from("mul"),
            from_div: from("div"),
            from_csr: from("csr"),
            from_jump: from("jump"),
            from_amo: from("amo"),
            to_alu: to("alu"),
            to_branch: to("branch"),
            to_store_data: to("store_data"),
            to_mul: to("mul"),
            to_jalr: to("jalr"),
        }
    }
}

/// The CSRs the Rocket rule spares: a write to them does not flush
/// (the scratch, epc, cause and tval CSRs of S and M mode).
fn spared_by_rocket(csr: u16) -> bool {
    matches!(csr, 0x140..=0x143 | 0x340..=0x343)
}

fn csr_writes(i: &Insn) -> bool {
    match i.op {
        Op::Csr(CsrOp::Rw | CsrOp::Rwi) => true,
        Op::Csr(_) => i.rs1 != 0,
        _ => false,
    }
}

/// The instruction's static pipeline facts under profile `p`.
/// Where the f registers start in `Static::src` and `rd`'s numbering.
pub const F: u8 = 32;

/// An FP operation's registers and latency, from its form (`isa::fp`):
/// its f sources (fused multiply-adds read three: rs3 is bits 31:27), or
/// the x register a move or conversion into f reads; its f or x result.
fn fp_operands(s: &mut Static, p: &Profile, i: &Insn) {
    let Some(r) = crate::isa::fp::reads(i.raw) else {
        return;
    };
    let rs3 = (i.raw >> 27) as u8;
    s.src = match r.f_inputs {
        3 => [F + i.rs1, F + i.rs2, F + rs3],
        2 => [F + i.rs1, F + i.rs2, 0],
        1 => [F + i.rs1, 0, 0],
        _ => [i.rs1, 0, 0],
    };
    s.rd = if r.int_dest { i.rd } else { F + i.rd };
    let l = &p.latency;
    let single = r.name.ends_with(".s");
    let pick = |d: &Param<u32>, sg: &Param<u32>| if single { sg.value } else { d.value };
    s.lat = match r.name.split('.').next().unwrap_or("") {
        "fadd" | "fsub" | "fmul" | "fmadd" | "fmsub" | "fnmadd" | "fnmsub" => {
            pick(&l.fp, &l.fp_single)
        }
        "fdiv" | "fsqrt" => pick(&l.fp_div, &l.fp_div_single),
        _ => l.fp_other.value,
    };
}

pub fn of(p: &Profile, b: &Bypass, i: Option<&Insn>) -> Static {
    let is = &p.issue;
    let l = &p.latency;
    let mut s = Static {
        kind: Kind::Other,
        pipes: pipe_mask(&is.alu.value),
        src: [0, 0, 0],
        late: [false, false, false],
        rd: 0,
        lat: 1,
        bypass: false,
        csr: CsrFx::default(),
    };
    let Some(i) = i else {
        return s;
    };
    let (rs1, rs2, rd) = (i.rs1, i.rs2, i.rd);
    let set = |s: &mut Static, kind, pipes: &str, lat: u32, bypass: bool| {
        s.kind = kind;
        s.pipes = pipe_mask(pipes);
        s.lat = lat;
        s.bypass = bypass;
    };
    match i.op {
        Op::Lui | Op::Auipc => {
            set(&mut s, Kind::Alu, &is.alu.value, l.alu.value, b.from_alu);
            s.rd = rd;
        }
        Op::AluImm(_) | Op::Alu(_) => {
            set(&mut s, Kind::Alu, &is.alu.value, l.alu.value, b.from_alu);
            s.src = [rs1, if matches!(i.op, Op::Alu(_)) { rs2 } else { 0 }, 0];
            s.late = [b.to_alu, b.to_alu, false];
            s.rd = rd;
        }
        Op::Mul(_) => {
            set(&mut s, Kind::Mul, &is.muldiv.value, l.mul.value, b.from_mul);
            s.src = [rs1, rs2, 0];
            s.late = [b.to_mul, b.to_mul, false];
            s.rd = rd;
        }
        Op::Div(_) => {
            set(&mut s, Kind::Div, &is.muldiv.value, l.div.value, b.from_div);
            s.src = [rs1, rs2, 0];
            s.rd = rd;
        }
        Op::Load { .. } => {
            set(
                &mut s,
                Kind::Load,
                &is.load.value,
                l.load.value,
                b.from_load,
            );
            s.src = [rs1, 0, 0];
            s.rd = rd;
        }
        Op::FpLoad { .. } => {
            set(&mut s, Kind::Load, &is.load.value, l.fp_load.value, false);
            s.src = [rs1, 0, 0];
            if l.fp_dependences.value {
                s.rd = F + rd;
            }
        }
        Op::Store { .. } => {
            set(&mut s, Kind::Store, &is.store.value, 1, false);
            s.src = [rs1, rs2, 0];
            s.late = [false, b.to_store_data, false];
        }
        Op::FpStore { .. } => {
            set(&mut s, Kind::Store, &is.store.value, 1, false);
            s.src = [rs1, if l.fp_dependences.value { F + rs2 } else { 0 }, 0];
        }
        Op::Branch(_) => {
            set(&mut s, Kind::Branch, &is.control.value, 1, false);
            s.src = [rs1, rs2, 0];
            s.late = [b.to_branch, b.to_branch, false];
        }
        Op::Jal => {
            set(
                &mut s,
                Kind::Jump,
                &is.control.value,
                l.jump_link.value,
                b.from_jump,
            );
            s.rd = rd;
        }
        Op::Jalr => {
            set(
                &mut s,
                Kind::Jump,
                &is.control.value,
                l.jump_link.value,
                b.from_jump,
            );
            s.src = [rs1, 0, 0];
            s.late = [b.to_jalr, false, false];
            s.rd = rd;
        }
        Op::Csr(op) => {
            set(
                &mut s,
                Kind::Csr,
                &is.csr.value,
                l.csr_read.value,
                b.from_csr,
            );
            if matches!(op, CsrOp::Rw | CsrOp::Rs | CsrOp::Rc) {
                s.src = [rs1, 0, 0];
            }
            s.rd = rd;
            let writes = csr_writes(i);
            let status = matches!(i.csr, 0x100 | 0x300 | 0x180);
            s.csr = CsrFx {
                writes,
                counter: matches!(i.csr, 0xc00..=0xc02 | 0xb00 | 0xb02),
                status,
                flush: writes
                    && match p.serialise.csr_write_flush.value.as_str() {
                        "all" => true,
                        "rocket" => !spared_by_rocket(i.csr),
                        "status" => status,
                        _ => false,
                    },
            };
        }
        Op::Amo { .. } => {
            set(&mut s, Kind::Amo, &is.load.value, l.amo.value, b.from_amo);
            s.src = [rs1, rs2, 0];
            s.rd = rd;
        }
        Op::Lr { .. } => {
            set(&mut s, Kind::Lr, &is.load.value, l.lr.value, b.from_amo);
            s.src = [rs1, 0, 0];
            s.rd = rd;
        }
        Op::Sc { .. } => {
            let lat = l.sc.value + p.atomics.monitor_cycles.value;
            set(&mut s, Kind::Sc, &is.store.value, lat, b.from_amo);
            s.src = [rs1, rs2, 0];
            s.rd = rd;
        }
        Op::Fence => set(&mut s, Kind::Fence, &is.store.value, 1, false),
        Op::FenceI => set(&mut s, Kind::FenceI, &is.system.value, 1, false),
        Op::SfenceVma => {
            set(&mut s, Kind::SfenceVma, &is.system.value, 1, false);
            s.src = [rs1, rs2, 0];
        }
        Op::Ecall | Op::Ebreak => set(&mut s, Kind::System, &is.system.value, 1, false),
        Op::Wfi => set(&mut s, Kind::Wfi, &is.system.value, 1, false),
        Op::Sret | Op::Mret => set(&mut s, Kind::Xret, &is.system.value, 1, false),
        Op::Fp => {
            set(&mut s, Kind::Fp, &is.fp.value, l.fp.value, false);
            if l.fp_dependences.value {
                fp_operands(&mut s, p, i);
            }
        }
        Op::Vector => set(&mut s, Kind::Vector, &is.vector.value, 1, false),
    }
    if s.rd == 0 {
        s.bypass = false;
    }
    s
}

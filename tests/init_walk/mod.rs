//! Walking one of trapscope's /init programs with trapscope's own decoder
//! (`trapscope::isa`): every way from one instruction to another, following
//! calls and both arms of each branch except an error exit's (a branch to a
//! die stub: straight-line code ending in `call init_fail`), with the
//! registers that hold constants (`li`, `lui`, `la`) at each instruction, so
//! that a system call's number and arguments can be read at its ecall.
//! Shared by tests/kernel/init_paths.rs.

// Each test file that uses it uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;

use trapscope::isa::{self, AluOp, Insn, Op};
use trapscope::machine::Program;

/// Registers by number (RISC-V psABI names).
pub const A0: usize = 10;
pub const A1: usize = 11;
pub const A2: usize = 12;
pub const A3: usize = 13;
pub const A7: usize = 17;
pub const S1: u8 = 9;
pub const S2: u8 = 18;
pub const S3: u8 = 19;
pub const S4: u8 = 20;
pub const S5: u8 = 21;

pub fn load(name: &str) -> Program {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("assets/init/{name}.elf"));
    Program::load(&p).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

pub fn addr(p: &Program, sym: &str) -> u64 {
    p.symbol(sym)
        .unwrap_or_else(|| panic!("{}: no symbol {sym}", p.path.display()))
        .addr
}

pub fn insn_at(p: &Program, pc: u64) -> Insn {
    let bytes = p
        .text_bytes(pc, 4)
        .unwrap_or_else(|| panic!("{}: no code at {pc:#x}", p.path.display()));
    isa::decode(bytes).unwrap_or_else(|| panic!("{}: undecodable at {pc:#x}", p.path.display()))
}

pub fn target(pc: u64, i: &Insn) -> u64 {
    pc.wrapping_add(i.imm as u64)
}

/// Whether `i` writes its `rd` (stores, branches and system instructions
/// have none).
pub fn writes(i: &Insn, reg: u8) -> bool {
    reg != 0
        && i.rd == reg
        && !matches!(
            i.op,
            Op::Branch(_) | Op::Store { .. } | Op::FpStore { .. } | Op::Ecall | Op::Fence
        )
}

/// A die stub at `pc`: straight-line code ending in `call init_fail`.
pub fn is_die_stub(p: &Program, mut pc: u64) -> bool {
    let fail = addr(p, "init_fail");
    for _ in 0..16 {
        let i = insn_at(p, pc);
        match i.op {
            Op::Jal => return i.rd == 1 && target(pc, &i) == fail,
            Op::Branch(_) | Op::Jalr | Op::Ecall | Op::Ebreak => return false,
            _ => pc += u64::from(i.len),
        }
    }
    false
}

/// What the registers hold where they are constants: `li`, `lui`, `la`
/// (auipc + addi) and arithmetic on known values; anything else unknown.
pub type Regs = [Option<u64>; 32];

pub fn eval(r: &mut Regs, pc: u64, i: &Insn) {
    let (a, b) = (r[usize::from(i.rs1)], r[usize::from(i.rs2)]);
    let imm = i.imm as u64;
    let alu = |op: AluOp, a: u64, b: u64| -> Option<u64> {
        Some(match op {
            AluOp::Add => a.wrapping_add(b),
            AluOp::Sub => a.wrapping_sub(b),
            AluOp::And => a & b,
            AluOp::Or => a | b,
            AluOp::Xor => a ^ b,
            AluOp::AddW => i64::from(a.wrapping_add(b) as i32) as u64,
            _ => return None,
        })
    };
    let v = match i.op {
        Op::Lui => Some(imm),
        Op::Auipc => Some(pc.wrapping_add(imm)),
        Op::AluImm(op) => a.and_then(|a| alu(op, a, imm)),
        Op::Alu(op) => a.zip(b).and_then(|(a, b)| alu(op, a, b)),
        // The kernel's result: unknown. Every other register is kept.
        Op::Ecall => {
            r[A0] = None;
            return;
        }
        _ => None,
    };
    if writes(i, i.rd) {
        r[usize::from(i.rd)] = v;
    }
    r[0] = Some(0);
}

/// One way through the code: each instruction, the registers as they were
/// just before it, and the error branches it passed (not taken).
#[derive(Clone, Default)]
pub struct Path {
    pub steps: Vec<(u64, Insn, Regs)>,
    pub errors: Vec<u64>,
}

impl Path {
    pub fn pcs(&self) -> Vec<u64> {
        self.steps.iter().map(|s| s.0).collect()
    }

    /// The ecalls on the path: (pc, the registers they see).
    pub fn ecalls(&self) -> Vec<(u64, Regs)> {
        let e = self.steps.iter().filter(|s| s.1.op == Op::Ecall);
        e.map(|s| (s.0, s.2)).collect()
    }

    /// The a7 of each ecall: the system calls, in order.
    pub fn syscalls(&self) -> Vec<u64> {
        let a7 = |r: &Regs| r[A7].expect("a7 is a constant at every ecall");
        self.ecalls().iter().map(|(_, r)| a7(r)).collect()
    }

    /// Where instructions writing `reg` stand on the path.
    pub fn writes_of(&self, reg: u8) -> Vec<usize> {
        let w = self.steps.iter().enumerate();
        w.filter(|(_, s)| writes(&s.1, reg))
            .map(|(k, _)| k)
            .collect()
    }

    pub fn index_of(&self, pc: u64) -> Vec<usize> {
        let w = self.steps.iter().enumerate();
        w.filter(|(_, s)| s.0 == pc).map(|(k, _)| k).collect()
    }

    /// The registers as the path leaves its last instruction.
    pub fn regs_after(&self) -> Regs {
        let (pc, i, mut r) = *self.steps.last().expect("an empty path");
        eval(&mut r, pc, &i);
        r
    }
}

/// Every way from `start` to `stop` (`start` itself when it is also `stop`:
/// a loop's iteration), following calls, both arms of each branch but an
/// error exit's, an ecall as returning. Also the ways that came round to an
/// instruction already on them without reaching `stop` (a loop elsewhere).
pub fn walk(p: &Program, start: u64, stop: u64) -> (Vec<Path>, Vec<Path>) {
    let (mut done, mut cycled) = (Vec::new(), Vec::new());
    let mut regs: Regs = [None; 32];
    regs[0] = Some(0);
    let first = Path::default();
    let mut work = vec![(start, Vec::<u64>::new(), regs, first)];
    while let Some((pc, mut stack, mut r, mut path)) = work.pop() {
        if pc == stop && !path.steps.is_empty() {
            done.push(path);
            continue;
        }
        if path.steps.iter().any(|s| s.0 == pc) {
            cycled.push(path);
            continue;
        }
        assert!(path.steps.len() < 200, "{pc:#x}: a path of 200");
        let i = insn_at(p, pc);
        path.steps.push((pc, i, r));
        eval(&mut r, pc, &i);
        let next = pc + u64::from(i.len);
        match i.op {
            Op::Branch(_) if is_die_stub(p, target(pc, &i)) => {
                path.errors.push(pc);
                work.push((next, stack, r, path));
            }
            Op::Branch(_) => {
                work.push((target(pc, &i), stack.clone(), r, path.clone()));
                work.push((next, stack, r, path));
            }
            Op::Jal => {
                assert_ne!(
                    target(pc, &i),
                    addr(p, "init_fail"),
                    "{pc:#x}: init_fail called outside an error exit"
                );
                if i.rd != 0 {
                    stack.push(next);
                }
                work.push((target(pc, &i), stack, r, path));
            }
            Op::Jalr if i.rd == 0 && i.rs1 == 1 && i.imm == 0 => {
                let back = stack.pop().unwrap_or_else(|| panic!("{pc:#x}: ret"));
                work.push((back, stack, r, path));
            }
            Op::Jalr => panic!("{pc:#x}: an indirect jump"),
            _ => work.push((next, stack, r, path)),
        }
    }
    (done, cycled)
}

/// The ways round a loop whose top is `top`, none of them lost in a loop
/// elsewhere.
pub fn loop_paths(p: &Program, top: u64) -> Vec<Path> {
    let (done, cycled) = walk(p, top, top);
    assert!(cycled.is_empty(), "a way from {top:#x} that never returns");
    assert!(!done.is_empty(), "{top:#x}: no way back");
    done
}

/// The one way from `_start` to `init_loop` (with pipe's child's loop
/// dropped): the banner write, the setup, the registers at the top.
pub fn setup(p: &Program) -> (Path, Vec<Path>) {
    let (mut done, cycled) = walk(p, addr(p, "_start"), addr(p, "init_loop"));
    assert_eq!(done.len(), 1, "{}: one way to init_loop", p.path.display());
    (done.remove(0), cycled)
}

/// The source of a `mv` (`addi rd, rs, 0`, or `c.mv`: `add rd, x0, rs`).
pub fn mv_source(i: &Insn) -> u8 {
    match (i.op, i.rs1, i.rs2, i.imm) {
        (Op::AluImm(AluOp::Add), rs, _, 0) | (Op::Alu(AluOp::Add), 0, rs, _) => rs,
        _ => panic!("{i:?}: not a mv"),
    }
}

/// Where the a0 an ecall sees was loaded from: the address of the last
/// load into a0 before it (a file descriptor read from memory).
pub fn a0_loaded_from(path: &Path, ecall: usize) -> u64 {
    let w = path.writes_of(A0 as u8);
    let k = *w.iter().rev().find(|&&k| k < ecall).expect("a0 set");
    let (_, i, r) = path.steps[k];
    assert!(matches!(i.op, Op::Load { width: 4, .. }), "{i:?}: lw");
    r[usize::from(i.rs1)]
        .expect("a known address")
        .wrapping_add(i.imm as u64)
}

//! The /init programs that set up generic entry's syscall work before the
//! getppid loop (guest-asm/init/seccomp*.S, sud.S, rseq.S; seed 002), checked
//! without a kernel: each is a static riscv64 executable whose `main` calls
//! `init_setup` before its first getppid; the setup's system calls carry the
//! numbers and arguments of the uapi headers (decoded from the code with
//! trapscope's decoder, following the success path); the seccomp filters,
//! read out of the ELF's data as `struct sock_fprog` and run by a small
//! classic-BPF evaluator written here from filter.h's semantics, pass the
//! kernel's filter checks and give the verdicts each program promises;
//! and the loop still makes exactly one ecall per iteration, at
//! `init_ecall`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use trapscope::isa::{self, AluOp, Insn, Op};
use trapscope::machine::Program;

use crate::snapshot_util;

/// The filters, checked and run by a classic-BPF evaluator.
mod filters;
/// One ecall per iteration, at init_ecall.
mod init_loop;
/// The setups' system calls and their arguments.
mod setup;
/// `trapscope snapshot --init` and an init's failure.
mod snapshot;
/// Naming code by symbol: far code, and sections not loaded.
mod symbols;

/// Every init with a setup before its loop.
const WORK_INITS: [&str; 7] = [
    "seccomp",
    "seccomp-arg1",
    "seccomp-arg64",
    "seccomp-allow",
    "seccomp-errno",
    "sud",
    "rseq",
];

// System call numbers: asm-generic/unistd.h (riscv64's table).
const SYS_WRITE: u64 = 64;
const SYS_EXIT: u64 = 93;
const SYS_EXIT_GROUP: u64 = 94;
const SYS_PRCTL: u64 = 167;
const SYS_GETPPID: u64 = 173;
const SYS_SECCOMP: u64 = 277;
const SYS_RSEQ: u64 = 293;
// prctl.h, seccomp.h, audit.h.
const PR_SET_NO_NEW_PRIVS: u64 = 38;
const PR_SET_SYSCALL_USER_DISPATCH: u64 = 59;
const PR_SYS_DISPATCH_ON: u64 = 1;
const SECCOMP_SET_MODE_FILTER: u64 = 1;
const SECCOMP_RET_ALLOW: u32 = 0x7fff_0000;
const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
const SECCOMP_RET_ACTION_FULL: u32 = 0xffff_0000;
const AUDIT_ARCH_RISCV64: u32 = 0xc000_00f3;
const EPERM: u32 = 1;

fn init_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/init")
        .join(format!("{name}.elf"))
}

fn load(name: &str) -> Program {
    Program::load(&init_path(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn addr(p: &Program, sym: &str) -> u64 {
    p.symbol(sym)
        .unwrap_or_else(|| panic!("{}: no symbol {sym}", p.path.display()))
        .addr
}

fn insn_at(p: &Program, pc: u64) -> Insn {
    let bytes = p
        .text_bytes(pc, 4)
        .unwrap_or_else(|| panic!("{}: no code at {pc:#x}", p.path.display()));
    isa::decode(bytes).unwrap_or_else(|| panic!("{}: undecodable at {pc:#x}", p.path.display()))
}

fn bytes(p: &Program, at: u64, len: usize) -> Vec<u8> {
    let b = p
        .text_bytes(at, len)
        .unwrap_or_else(|| panic!("nothing at {at:#x}"));
    assert_eq!(b.len(), len, "{at:#x}: only {} bytes", b.len());
    b.to_vec()
}

fn u64_at(p: &Program, at: u64) -> u64 {
    u64::from_le_bytes(bytes(p, at, 8).try_into().unwrap())
}

/// The registers a7 and a0..a4 at each of the first `n` ecalls from `start`,
/// following the code straight on (every branch not taken: the setups branch
/// only to report an error). Tracks `li`/`la` (lui, auipc, addi, addiw);
/// anything else written makes its register unknown (None), as does an
/// ecall for a0.
fn ecalls(p: &Program, start: u64, n: usize) -> Vec<[Option<u64>; 6]> {
    let mut x: [Option<u64>; 32] = [None; 32];
    x[0] = Some(0);
    let (mut pc, mut out) = (start, Vec::new());
    while out.len() < n {
        let i = insn_at(p, pc);
        let rs1 = x[usize::from(i.rs1)];
        let val = match i.op {
            Op::Lui => Some(i.imm as u64),
            Op::Auipc => Some(pc.wrapping_add(i.imm as u64)),
            Op::AluImm(AluOp::Add) => rs1.map(|v| v.wrapping_add(i.imm as u64)),
            Op::AluImm(AluOp::AddW) => {
                rs1.map(|v| i64::from(v.wrapping_add(i.imm as u64) as i32) as u64)
            }
            _ => None,
        };
        match i.op {
            Op::Ecall => {
                out.push([x[17], x[10], x[11], x[12], x[13], x[14]]);
                x[10] = None;
            }
            Op::Jal | Op::Jalr => panic!("{}: a call or jump at {pc:#x}", p.path.display()),
            Op::Branch(_) | Op::Store { .. } => {}
            _ if i.rd != 0 => x[usize::from(i.rd)] = val,
            _ => {}
        }
        pc += u64::from(i.len);
    }
    out
}

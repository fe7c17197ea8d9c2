//! trapscope's own /init programs (assets/init, from guest-asm/init/*.S):
//! static Linux riscv64 executables whose loop `trapscope snapshot` stops in.
//! What can be checked without a kernel: the ELF's kind, the symbols
//! trapscope reads, and, walking the code with trapscope's decoder, that
//! every way from `init_loop` back to it executes exactly one `ecall`, the
//! one at `init_ecall`, and that the loop is the minikernel's timed loop
//! instruction for instruction. With qemu-riscv64 (qemu-user) present, the
//! programs also run: a banner write, then getppid forever.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use trapscope::isa::{self, BranchCond, Insn, Op};
use trapscope::machine::Program;

const INITS: [&str; 3] = ["getppid", "vector-v1", "vsetvli"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn init_path(name: &str) -> PathBuf {
    root().join("assets/init").join(format!("{name}.elf"))
}

fn u16_at(b: &[u8], off: usize) -> u16 {
    u16::from_le_bytes(b[off..off + 2].try_into().unwrap())
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], off: usize) -> u64 {
    u64::from_le_bytes(b[off..off + 8].try_into().unwrap())
}

fn addr(p: &Program, sym: &str) -> u64 {
    p.symbol(sym)
        .unwrap_or_else(|| panic!("{}: no symbol {sym}", p.path.display()))
        .addr
}

fn insn_at(p: &Program, pc: u64) -> Insn {
    let bytes = p
        .text_bytes(pc, 4)
        .or_else(|| p.text_bytes(pc, 2))
        .unwrap_or_else(|| panic!("{}: no code at {pc:#x}", p.path.display()));
    isa::decode(bytes).unwrap_or_else(|| panic!("{}: undecodable at {pc:#x}", p.path.display()))
}

#[test]
fn each_init_is_a_static_riscv64_executable_entered_at_start() {
    for name in INITS {
        let path = init_path(name);
        let b = std::fs::read(&path).unwrap();
        // ELF header (System V gABI): 64-bit, little-endian, ET_EXEC (2),
        // EM_RISCV (243).
        assert_eq!(&b[..4], b"\x7fELF", "{name}");
        assert_eq!((b[4], b[5]), (2, 1), "{name}: ELFCLASS64, ELFDATA2LSB");
        assert_eq!(u16_at(&b, 16), 2, "{name}: ET_EXEC");
        assert_eq!(u16_at(&b, 18), 243, "{name}: EM_RISCV");
        // Static: no PT_INTERP (3), no PT_DYNAMIC (2); at least one PT_LOAD.
        let (phoff, phentsize, phnum) = (
            u64_at(&b, 32) as usize,
            usize::from(u16_at(&b, 54)),
            usize::from(u16_at(&b, 56)),
        );
        let types: Vec<u32> = (0..phnum)
            .map(|i| u32_at(&b, phoff + i * phentsize))
            .collect();
        assert!(!types.contains(&3), "{name}: has PT_INTERP");
        assert!(!types.contains(&2), "{name}: has PT_DYNAMIC");
        assert!(types.contains(&1), "{name}: no PT_LOAD");

        let p = Program::parse(&path, &b).unwrap();
        assert_eq!(p.entry, addr(&p, "_start"), "{name}: entry is _start");
        // Linked in user space, not in trapscope's bare-metal map.
        assert!(p.entry < 0x8000_0000, "{name}: entry {:#x}", p.entry);
        for s in ["init_banner_done", "init_loop", "init_ecall"] {
            let a = addr(&p, s);
            assert!(p.is_mapped_exec(a), "{name}: {s} at {a:#x} is not in code");
        }
        assert_eq!(insn_at(&p, addr(&p, "init_ecall")).op, Op::Ecall, "{name}");
        assert!(addr(&p, "init_banner_done") <= addr(&p, "init_loop"));
        assert!(addr(&p, "init_loop") <= addr(&p, "init_ecall"), "{name}");
    }
}

/// Every path from `start` that comes back to it, following the code
/// (calls push, `ret` pops, both arms of every branch), as the pcs of the
/// ecalls on it (at most two kept). An ecall is taken to return, even
/// exit's; a path that never comes back (the error exit's spin) is not one.
/// Panics on an indirect jump other than `ret`.
fn loop_paths(p: &Program, start: u64) -> Vec<Vec<u64>> {
    let mut done = Vec::new();
    let mut seen = HashSet::new();
    // (pc, return addresses, ecalls so far)
    let mut work = vec![(start, Vec::<u64>::new(), Vec::<u64>::new(), true)];
    while let Some((pc, stack, ecalls, first)) = work.pop() {
        if pc == start && !first {
            done.push(ecalls);
            continue;
        }
        if !seen.insert((pc, stack.clone(), ecalls.clone())) {
            continue;
        }
        let i = insn_at(p, pc);
        let next = pc + u64::from(i.len);
        let mut ecalls = ecalls;
        match i.op {
            Op::Ecall => {
                // Two are already wrong; keeping at most two keeps the
                // states finite (a loop with an ecall in it).
                if ecalls.len() < 2 {
                    ecalls.push(pc);
                }
                work.push((next, stack, ecalls, false));
            }
            Op::Jal => {
                let target = pc.wrapping_add(i.imm as u64);
                let mut stack = stack;
                if i.rd != 0 {
                    stack.push(next);
                }
                work.push((target, stack, ecalls, false));
            }
            Op::Jalr if i.rd == 0 && i.rs1 == 1 && i.imm == 0 => {
                let mut stack = stack;
                let back = stack.pop().expect("ret with nothing called");
                work.push((back, stack, ecalls, false));
            }
            Op::Jalr => panic!("indirect jump at {pc:#x}"),
            Op::Branch(_) => {
                let target = pc.wrapping_add(i.imm as u64);
                work.push((target, stack.clone(), ecalls.clone(), false));
                work.push((next, stack, ecalls, false));
            }
            _ => work.push((next, stack, ecalls, false)),
        }
    }
    done
}

#[test]
fn every_iteration_executes_exactly_the_one_ecall_at_init_ecall() {
    for name in INITS {
        let p = Program::load(&init_path(name)).unwrap();
        let paths = loop_paths(&p, addr(&p, "init_loop"));
        assert!(!paths.is_empty(), "{name}: the loop never comes back");
        let ecall = addr(&p, "init_ecall");
        for path in &paths {
            assert_eq!(path, &vec![ecall], "{name}: a path back to init_loop");
        }
    }
}

/// The instructions one iteration executes when every call succeeds: from
/// `start`, branches not taken except the one back to `start` (the loop's
/// closing `blt`), calls followed, until `start` comes round again.
fn iteration(p: &Program, start: u64) -> Vec<Insn> {
    let (mut pc, mut stack, mut out) = (start, Vec::new(), Vec::new());
    loop {
        let i = insn_at(p, pc);
        out.push(i);
        assert!(out.len() < 100, "{}: no way back", p.path.display());
        let next = pc + u64::from(i.len);
        pc = match i.op {
            Op::Jal => {
                if i.rd != 0 {
                    stack.push(next);
                }
                pc.wrapping_add(i.imm as u64)
            }
            Op::Jalr => stack.pop().unwrap(),
            Op::Branch(BranchCond::Blt) if pc.wrapping_add(i.imm as u64) == start => start,
            _ => next,
        };
        if pc == start {
            return out;
        }
    }
}

#[test]
fn the_loop_is_the_minikernels_timed_loop_instruction_for_instruction() {
    // minikernel/user.S: bench_timed_loop's 5 instructions and the syscall()
    // wrapper's 11 (kernel.S hand count: user 16 per call). Offsets differ
    // (other addresses), so compare what each instruction does.
    let mk = Program::load(&root().join("assets/guest/minikernel.elf")).unwrap();
    let want = iteration(&mk, addr(&mk, "bench_timed_loop"));
    assert_eq!(want.len(), 16);
    let shape = |v: &[Insn]| -> Vec<(Op, u8, u8, u8, u8, Option<i64>)> {
        v.iter()
            .map(|i| {
                let imm = match i.op {
                    Op::Jal | Op::Branch(_) | Op::Auipc => None,
                    _ => Some(i.imm),
                };
                (i.op, i.len, i.rd, i.rs1, i.rs2, imm)
            })
            .collect()
    };
    for name in INITS {
        let p = Program::load(&init_path(name)).unwrap();
        let got = iteration(&p, addr(&p, "init_loop"));
        assert_eq!(shape(&got), shape(&want), "{name}");
        // And the minikernel's loop ecall is the one its symbol names.
        assert!(got.iter().filter(|i| i.op == Op::Ecall).count() == 1);
    }
    let ecall = insn_at(&mk, addr(&mk, "user_syscall_ecall"));
    assert_eq!(ecall.op, Op::Ecall);
}

#[test]
fn only_the_vector_inits_run_a_vector_instruction_before_the_loop() {
    // init.inc: vector-v1 runs vsetivli and vmv.v.i, vsetvli one vsetvli,
    // getppid none, all between the banner and the loop.
    for (name, want) in [("getppid", 0), ("vector-v1", 2), ("vsetvli", 1)] {
        let p = Program::load(&init_path(name)).unwrap();
        let (mut pc, end) = (addr(&p, "init_banner_done"), addr(&p, "init_loop"));
        let mut n = 0;
        while pc < end {
            let i = insn_at(&p, pc);
            n += usize::from(i.op == Op::Vector);
            pc += u64::from(i.len);
        }
        assert_eq!(n, want, "{name}");
    }
}

const QEMU_USER: &str = "qemu-riscv64";

/// `qemu-riscv64 [cpu] -strace ELF` for about a second, then killed: its
/// syscall trace (stderr) and the program's output.
fn strace(elf: &Path, cpu: Option<&str>) -> (String, String) {
    let mut cmd = Command::new(QEMU_USER);
    if let Some(c) = cpu {
        cmd.args(["-cpu", c]);
    }
    let mut child = cmd
        .arg("-strace")
        .arg(elf)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn under_qemu_user_each_init_writes_its_banner_then_calls_getppid_forever() {
    if Command::new(QEMU_USER).arg("--version").output().is_err() {
        eprintln!("skipping: {QEMU_USER} not installed (apt-get install qemu-user)");
        return;
    }
    // QEMU 7.2's V 1.0 at VLEN 128.
    const V: &str = "rv64,v=true,vlen=128,vext_spec=v1.0";
    for name in INITS {
        let cpu = (name != "getppid").then_some(V);
        let (trace, stdout) = strace(&init_path(name), cpu);
        assert!(
            stdout.starts_with(&format!("trapscope-init: {name} loop")),
            "{name}: {stdout:?}"
        );
        // Lines are "PID name(args) = result"; a pipe full of them may end
        // in a partial line.
        let calls: Vec<&str> = trace
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1))
            .map(|c| c.split('(').next().unwrap_or(""))
            .collect();
        assert_eq!(calls.first(), Some(&"write"), "{name}: {trace:.300}");
        let rest = &calls[1..calls.len().saturating_sub(1)];
        assert!(rest.len() >= 100, "{name}: only {} calls", rest.len());
        assert!(
            rest.iter().all(|&c| c == "getppid"),
            "{name}: {:?}",
            rest.iter().find(|&&c| c != "getppid")
        );
        // Without V the vector instruction is illegal: it really runs.
        if cpu.is_some() {
            let (trace, _) = strace(&init_path(name), None);
            assert!(trace.contains("SIGILL"), "{name}: {trace:.300}");
        }
    }
}

/// The vector inits check, before their first vector instruction, that the
/// kernel gave the process V: `init_need_v` tests AT_HWCAP's bit 'V' - 'A'
/// = 21 (Linux's riscv hwcap, one bit per single-letter extension), and
/// `_start` calls it before `main`; the others have no such check.
#[test]
fn the_vector_inits_check_hwcap_v_before_their_first_vector_instruction() {
    // `lui t2, 0x200`: t2 = 1 << 21 (U-type: imm[31:12] = 0x200, rd = 7,
    // opcode 0x37).
    let lui_t2_bit21: u32 = (0x200 << 12) | (7 << 7) | 0x37;
    for name in ["vector-v1", "vsetvli", "getppid"] {
        let p = Program::load(&init_path(name)).unwrap();
        let check = p.symbol("init_need_v");
        if name == "getppid" {
            assert!(check.is_none(), "{name} has no vector instruction to guard");
            continue;
        }
        let s = check.unwrap_or_else(|| panic!("{name}: no init_need_v"));
        let body = p.text_bytes(s.addr, s.size as usize).unwrap();
        let words = body
            .windows(4)
            .any(|w| u32::from_le_bytes(w.try_into().unwrap()) == lui_t2_bit21);
        assert!(
            words,
            "{name}: init_need_v does not test bit 21 of AT_HWCAP"
        );
        // _start calls init_need_v, then main; init_first_v is in main.
        let start = addr(&p, "_start");
        let mut pc = start;
        let mut calls = Vec::new();
        while calls.len() < 2 && pc < start + 64 {
            let i = insn_at(&p, pc);
            if i.op == Op::Jal && i.rd == 1 {
                calls.push(pc.wrapping_add(i.imm as u64));
            }
            pc += u64::from(i.len);
        }
        assert_eq!(calls, [s.addr, addr(&p, "main")], "{name}");
        let first_v = addr(&p, "init_first_v");
        assert!(first_v > addr(&p, "main") && first_v < addr(&p, "init_loop"));
    }
}

//! trapscope's trap-path /init programs (assets/init/{pagefault,signal,pipe}
//! .elf, from guest-asm/init/ and include/init-path.inc), checked without a
//! kernel by walking their code with trapscope's own decoder: the ELF's kind
//! and the symbols `trapscope snapshot` reads; on every way from the loop's
//! top back to it, the marker once, the hand-counted user instructions, the
//! iteration count s1 (x9) advanced once and after the marker (so it reads
//! N - 1 at the stop before the N-th marker), and the system calls made with
//! the arguments their comments give. tests/kernel/init_paths_linux.rs runs them on
//! a real kernel.
//!
//! An error exit, precisely: a conditional branch whose target is a die
//! stub, straight-line code (no branch, jump or ecall) ending in
//! `call init_fail`; `init_fail` ends every path in exit(2), so such a
//! branch never comes back. The walk does not take those branches, and a
//! call to `init_fail` anywhere else fails the test.

use std::path::PathBuf;

use trapscope::isa::{AluOp, BranchCond, Op};
use trapscope::machine::Program;

use crate::init_walk;
use init_walk::*;

/// System call numbers: the riscv64 generic table (asm-generic/unistd.h).
const WRITE: u64 = 64;
const READ: u64 = 63;
const PIPE2: u64 = 59;
const EXIT: u64 = 93;
const KILL: u64 = 129;
const RT_SIGACTION: u64 = 134;
const GETPID: u64 = 172;
const MUNMAP: u64 = 215;
const CLONE: u64 = 220;
const MMAP: u64 = 222;
const MADVISE: u64 = 233;

/// Checks the path's marker, s1 and user instruction count; returns the
/// marker's index.
fn iteration(name: &str, path: &Path, marker: u64, want: usize) -> usize {
    let pcs = path.pcs();
    let m = path.index_of(marker);
    assert_eq!(
        m.len(),
        1,
        "{name}: the marker once per iteration: {pcs:x?}"
    );
    assert_eq!(
        path.steps.len(),
        want,
        "{name}: user instructions per iteration"
    );
    // s1 (x9): exactly one `addi s1, s1, 1`, after the marker. The N-th
    // marker then runs after N - 1 of them: x9 = N - 1 at the stop.
    let w = path.writes_of(S1);
    assert_eq!(w.len(), 1, "{name}: s1 written once per iteration");
    let i = path.steps[w[0]].1;
    assert_eq!(
        (i.op, i.rs1, i.imm),
        (Op::AluImm(AluOp::Add), S1, 1),
        "{name}"
    );
    assert!(w[0] > m[0], "{name}: s1 advances after the marker");
    m[0]
}

#[test]
fn each_is_a_static_riscv64_executable_with_the_markers_symbols() {
    for (name, marker) in [
        ("pagefault", "init_touch"),
        ("signal", "init_ecall"),
        ("pipe", "init_ecall"),
    ] {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("assets/init/{name}.elf"));
        let b = std::fs::read(&path).unwrap();
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        // ELF header (System V gABI): ELFCLASS64, ELFDATA2LSB, ET_EXEC (2),
        // EM_RISCV (243); no PT_INTERP (3) or PT_DYNAMIC (2).
        assert_eq!(&b[..6], b"\x7fELF\x02\x01", "{name}");
        assert_eq!((u16_at(16), u16_at(18)), (2, 243), "{name}");
        let phoff = u64::from_le_bytes(b[32..40].try_into().unwrap()) as usize;
        let (size, n) = (usize::from(u16_at(54)), usize::from(u16_at(56)));
        let types: Vec<u16> = (0..n).map(|k| u16_at(phoff + k * size)).collect();
        assert!(types.contains(&1), "{name}: no PT_LOAD");
        assert!(
            !types.contains(&2) && !types.contains(&3),
            "{name}: {types:?}"
        );

        let p = Program::parse(&path, &b).unwrap();
        assert_eq!(p.entry, addr(&p, "_start"), "{name}: entered at _start");
        for s in ["init_loop", marker, "init_banner_done", "init_fail"] {
            let a = addr(&p, s);
            assert!(p.is_mapped_exec(a), "{name}: {s} at {a:#x} is not in code");
        }
        let (top, m) = (addr(&p, "init_loop"), addr(&p, marker));
        assert!(addr(&p, "init_banner_done") < top && top <= m, "{name}");
    }
}

#[test]
fn init_fail_ends_every_path_in_exit_2() {
    // So a branch to a die stub leaves the loop for good. init_fail's
    // digit loop comes round too; every other way ends in `j .` after
    // exit(2).
    let p = load("signal");
    let (done, cycled) = walk(&p, addr(&p, "init_fail"), u64::MAX);
    assert!(done.is_empty());
    let spins: Vec<&Path> = cycled
        .iter()
        .filter(|c| {
            c.steps
                .last()
                .is_some_and(|s| s.1.op == Op::Jal && s.1.imm == 0)
        })
        .collect();
    assert!(!spins.is_empty());
    for s in spins {
        let (_, r) = *s.ecalls().last().unwrap();
        assert_eq!((r[A7], r[A0]), (Some(EXIT), Some(2)));
        let n = s.steps.len();
        assert_eq!(s.steps[n - 2].1.op, Op::Ecall, "exit, then the spin");
    }
}

#[test]
fn pagefault_stores_to_a_fresh_page_each_iteration() {
    let p = load("pagefault");
    let (top, touch) = (addr(&p, "init_loop"), addr(&p, "init_touch"));
    // The marker is the store, `sd s1, 0(s3)`, and not the top: the store
    // runs twice an iteration (its fault, then its retry), the top once.
    assert_ne!(top, touch);
    let st = insn_at(&p, touch);
    assert_eq!((st.op, st.rs1, st.imm), (Op::Store { width: 8 }, S3, 0));

    let (set, _) = setup(&p);
    assert_eq!(set.syscalls(), [WRITE, MMAP, MADVISE], "banner, then setup");
    let e = set.ecalls();
    // mmap(NULL, 16 MiB + 2 MiB, PROT_READ | PROT_WRITE (3),
    // MAP_PRIVATE | MAP_ANONYMOUS (0x22), -1, 0).
    let r = e[1].1;
    let args = [r[A0], r[A1], r[A2], r[A3], r[14], r[15]];
    let want = [0, (16 << 20) + (2 << 20), 3, 0x22, u64::MAX, 0];
    assert_eq!(args, want.map(Some), "mmap's arguments");
    // madvise(region, 16 MiB, MADV_NOHUGEPAGE (15)), the region being s2.
    let r = e[2].1;
    assert_eq!([r[A1], r[A2]], [Some(16 << 20), Some(15)], "madvise");
    let k = set.index_of(e[2].0)[0];
    let mv = set
        .writes_of(A0 as u8)
        .into_iter()
        .rfind(|&w| w < k)
        .unwrap();
    assert_eq!(mv_source(&set.steps[mv].1), S2, "madvise's a0 is s2");

    // At the top: s1 = 0, s5 = 4096, s2 2 MiB-aligned, s3 = s2 - s5 (so
    // the first add gives s2), s4 = s2 + 16 MiB - 4096 (the last page).
    let at_top = set.regs_after();
    assert_eq!(at_top[usize::from(S1)], Some(0));
    assert_eq!(at_top[usize::from(S5)], Some(4096), "s5: a page");
    let last = |reg: u8| {
        let k = *set.writes_of(reg).last().unwrap();
        let (_, i, r) = set.steps[k];
        (i.op, i.rs1, i.rs2, r[usize::from(i.rs2)])
    };
    let mask = !((2u64 << 20) - 1);
    assert_eq!(last(S2), (Op::Alu(AluOp::And), S2, 5, Some(mask)));
    assert_eq!(last(S3), (Op::Alu(AluOp::Sub), S2, S5, Some(4096)));
    let end = Some((16 << 20) - 4096);
    assert_eq!(last(S4), (Op::Alu(AluOp::Add), S2, 5, end));

    let mut paths = loop_paths(&p, top);
    paths.sort_by_key(|p| p.steps.len());
    assert_eq!(paths.len(), 2, "the next page, or a new mapping first");
    for path in &paths {
        // The stride: s3 += s5 before each store; s5 never changes.
        let m = path.index_of(touch)[0];
        let w = path.writes_of(S3);
        let (_, add, _) = path.steps[w[0]];
        assert!(w[0] < m);
        assert_eq!((add.op, add.rs1, add.rs2), (Op::Alu(AluOp::Add), S3, S5));
        assert!(path.writes_of(S5).is_empty(), "s5 stays a page");
        // The loop closes on `bltu s3, s4`: 4096 stores, s2 to s4.
        let (_, b, _) = path.steps[m + 2];
        assert_eq!((b.op, b.rs1, b.rs2), (Op::Branch(BranchCond::Bltu), S3, S4));
    }
    // pagefault.S's hand count: add, sd, addi, bltu: 4.
    let steady = &paths[0];
    iteration("pagefault", steady, touch, 4);
    assert!(steady.syscalls().is_empty() && steady.writes_of(S3).len() == 1);
    // Once in 4096 the region is used up. By hand (`li` of a value whose
    // low 12 bits are 0 is a lui; of 2 MiB - 1, lui + addiw; `not` xori):
    // add, sd, addi, bltu, mv, li a1 (lui), li a7, ecall, bnez, j: 10;
    // at 1: li a0, li a1 (lui), li a2, li a3, li a4, li a5, li a7, ecall:
    // 8; li t0 (lui), bgeu: 2; mv, li t0 (lui, addiw), add, not, and, mv,
    // li a1 (lui), li a2, li a7, ecall, sub, li t0 (lui), add: 14. 34.
    let remap = &paths[1];
    iteration("pagefault (a new mapping)", remap, touch, 34);
    assert_eq!(remap.syscalls(), [MUNMAP, MMAP, MADVISE]);
    let unmap = remap.ecalls()[0].1;
    assert_eq!(unmap[A1], Some((16 << 20) + (2 << 20)), "munmap all of it");
    assert_eq!(remap.errors.len(), 2, "munmap's and mmap's results checked");
    assert_eq!(remap.writes_of(S3).len(), 2, "s3 = s2 - s5 again");
}

#[test]
fn signal_sends_sigusr1_to_itself_and_counts_it_in_the_handler() {
    let p = load("signal");
    let (top, marker) = (addr(&p, "init_loop"), addr(&p, "init_ecall"));
    let (handler, caught) = (addr(&p, "init_handler"), addr(&p, "init_caught"));
    assert_eq!(insn_at(&p, marker).op, Op::Ecall);

    let (set, _) = setup(&p);
    assert_eq!(set.syscalls(), [WRITE, RT_SIGACTION, GETPID]);
    // rt_sigaction(SIGUSR1 (10), &init_sigaction, NULL, sizeof(sigset_t) 8).
    let sa = addr(&p, "init_sigaction");
    let r = set.ecalls()[1].1;
    let args = [r[A0], r[A1], r[A2], r[A3]];
    assert_eq!(args, [10, sa, 0, 8].map(Some), "rt_sigaction");
    // struct sigaction on riscv64 (asm-generic/signal.h: no sa_restorer):
    // sa_handler at 0, sa_flags at 8, sa_mask at 16.
    let b = p.text_bytes(sa, 24).unwrap();
    let word = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
    assert_eq!(b.len(), 24, "init_sigaction: 24 bytes in the image");
    assert_eq!([word(0), word(8), word(16)], [handler, 0, 0]);
    let at_top = set.regs_after();
    assert_eq!(at_top[usize::from(S1)], Some(0));
    assert_eq!(at_top[usize::from(S3)], Some(caught), "s3 = &init_caught");

    let paths = loop_paths(&p, top);
    assert_eq!(paths.len(), 1);
    // signal.S's hand count: mv, li, li, ecall (the marker), bnez, ld,
    // addi, bne, j: 9.
    let path = &paths[0];
    iteration("signal", path, marker, 9);
    assert_eq!(path.syscalls(), [KILL]);
    let r = path.ecalls()[0].1;
    assert_eq!(r[A1], Some(10), "kill(pid, SIGUSR1)");
    let k = path.index_of(marker)[0];
    let mv = path
        .writes_of(A0 as u8)
        .into_iter()
        .rfind(|&w| w < k)
        .unwrap();
    assert_eq!(mv_source(&path.steps[mv].1), S2, "kill's pid is s2");
    let mv = set.writes_of(S2).last().copied().unwrap();
    assert_eq!(mv_source(&set.steps[mv].1), A0 as u8);
    assert_eq!(set.steps[mv - 1].1.op, Op::Ecall, "s2: getpid's result");
    assert_eq!(set.steps[mv - 1].2[A7], Some(GETPID));
    // The count the loop checks against s1 is init_caught's.
    let ld = path
        .steps
        .iter()
        .find(|s| matches!(s.1.op, Op::Load { .. }));
    assert_eq!(ld.map(|s| s.1.rs1), Some(S3));
    assert_eq!(path.errors.len(), 2, "kill's result and the count checked");

    // The handler, straight to its ret: la (auipc, addi), ld, addi, sd,
    // ret: 6, adding 1 to init_caught.
    let (mut pc, mut r, mut n) = (handler, [None; 32], 0);
    r[0] = Some(0);
    loop {
        let i = insn_at(&p, pc);
        n += 1;
        assert!(!matches!(i.op, Op::Branch(_) | Op::Jal | Op::Ecall));
        if let Op::Load { .. } | Op::Store { .. } = i.op {
            assert_eq!(r[usize::from(i.rs1)], Some(caught), "{pc:#x}");
        }
        if i.op == Op::Jalr {
            assert_eq!((i.rd, i.rs1, i.imm), (0, 1, 0), "ret");
            break;
        }
        eval(&mut r, pc, &i);
        pc += u64::from(i.len);
    }
    assert_eq!(n, 6, "the handler's instructions");
}

#[test]
fn pipe_passes_a_byte_to_a_child_and_back() {
    let p = load("pipe");
    let (top, marker) = (addr(&p, "init_loop"), addr(&p, "init_ecall"));
    let (p1, p2, byte) = (
        addr(&p, "init_p1"),
        addr(&p, "init_p2"),
        addr(&p, "init_byte"),
    );
    let child = addr(&p, "init_child");

    let (set, cycled) = setup(&p);
    assert_eq!(set.syscalls(), [WRITE, PIPE2, PIPE2, CLONE]);
    let e = set.ecalls();
    // pipe2(fds, 0): fds[0] the read end, fds[1] (at +4) the write end.
    assert_eq!([e[1].1[A0], e[1].1[A1]], [Some(p1), Some(0)]);
    assert_eq!([e[2].1[A0], e[2].1[A1]], [Some(p2), Some(0)]);
    // clone(SIGCHLD (17), no new stack, ...): fork.
    let r = e[3].1;
    assert_eq!(
        [r[A0], r[A1], r[A2], r[A3], r[14]],
        [17, 0, 0, 0, 0].map(Some)
    );
    // After it, a0 == 0 (the child) goes to init_child, whose loop never
    // comes to init_loop: the one way the walk from _start lost.
    let k = set.index_of(e[3].0)[0];
    let (pc, b, _) = set.steps[k + 2];
    assert_eq!((b.op, b.rs1, b.rs2), (Op::Branch(BranchCond::Beq), 10, 0));
    assert_eq!(target(pc, &b), child);
    assert_eq!(cycled.len(), 1);
    assert!(cycled[0].pcs().contains(&child));
    assert_eq!(set.regs_after()[usize::from(S1)], Some(0));

    let paths = loop_paths(&p, top);
    assert_eq!(paths.len(), 1);
    // pipe.S's hand count (lw SYMBOL and la are auipc + 1): lw 2, la 2,
    // li, li, ecall, bne, lw 2, la 2, li, li, ecall, bne, addi, j: 18.
    let parent = &paths[0];
    iteration("pipe (parent)", parent, marker, 18);
    // write(p1[1], &byte, 1) is the marker; then read(p2[0], &byte, 1).
    assert_eq!(parent.syscalls(), [WRITE, READ]);
    assert_eq!(parent.ecalls()[0].0, marker, "the marker's a7 is write's");
    assert_eq!(parent.errors.len(), 2);

    // The child's loop: the target of init_child's one backward `j`.
    let size = p.symbol("init_child").unwrap().size;
    let (mut pc, mut tops) = (child, Vec::new());
    while pc < child + size {
        let i = insn_at(&p, pc);
        if i.op == Op::Jal && i.rd == 0 && target(pc, &i) < pc {
            tops.push(target(pc, &i));
        }
        pc += u64::from(i.len);
    }
    assert_eq!(tops.len(), 1, "{tops:x?}");
    let paths = loop_paths(&p, tops[0]);
    assert_eq!(paths.len(), 1);
    // The same hand count without the parent's addi: 17.
    let c = &paths[0];
    assert_eq!(c.steps.len(), 17, "the child's user instructions");
    assert_eq!(c.syscalls(), [READ, WRITE]);
    assert!(!c.pcs().contains(&marker) && !c.pcs().contains(&top));
    assert_eq!(c.errors.len(), 2);

    // Each call: its fd from the right end, &init_byte, 1 byte.
    for (path, fds) in [(parent, [p1 + 4, p2]), (c, [p1, p2 + 4])] {
        for ((pc, r), fd) in path.ecalls().into_iter().zip(fds) {
            let k = path.index_of(pc)[0];
            assert_eq!(a0_loaded_from(path, k), fd, "{pc:#x}: the fd");
            assert_eq!([r[A1], r[A2]], [Some(byte), Some(1)], "{pc:#x}");
        }
    }
}

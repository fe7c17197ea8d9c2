//! The `pagefault-file` init (guest-asm/init/pagefault-file.S), walked as
//! tests/kernel/init_paths.rs walks the others: its marker is the load that
//! faults, run once per iteration with the loop's one `addi s1, s1, 1`
//! after it; the steady iteration is its hand count of 4 instructions,
//! stepping one 64 KiB window (the kernel's fault-around reach) at a time;
//! and the other path unmaps and maps the file again.

use trapscope::isa::{AluOp, BranchCond, Op};

use crate::init_walk;
use init_walk::*;

const MUNMAP: u64 = 215;
const MMAP: u64 = 222;

#[test]
fn pagefault_file_loads_from_the_next_window_each_iteration() {
    let p = load("pagefault-file");
    let (top, touch) = (addr(&p, "init_loop"), addr(&p, "init_touch"));
    assert_ne!(top, touch, "the load runs twice an iteration, the top once");
    let ld = insn_at(&p, touch);
    assert_eq!(
        (ld.op, ld.rs1, ld.imm),
        (
            Op::Load {
                width: 8,
                signed: true
            },
            S3,
            0
        )
    );

    let mut paths = loop_paths(&p, top);
    paths.sort_by_key(|p| p.steps.len());
    assert_eq!(paths.len(), 2, "the next window, or the file mapped again");
    for path in &paths {
        let m = path.index_of(touch);
        assert_eq!(m.len(), 1, "the marker once per iteration");
        let w = path.writes_of(S3);
        let (_, add, _) = path.steps[w[0]];
        assert!(w[0] < m[0]);
        assert_eq!((add.op, add.rs1, add.rs2), (Op::Alu(AluOp::Add), S3, S5));
        assert!(path.writes_of(S5).is_empty(), "s5 stays one window");
        let (_, b, _) = path.steps[m[0] + 2];
        assert_eq!((b.op, b.rs1, b.rs2), (Op::Branch(BranchCond::Bltu), S3, S4));
        // s1 (x9): one `addi s1, s1, 1`, after the marker.
        let s1 = path.writes_of(S1);
        assert_eq!(s1.len(), 1);
        let i = path.steps[s1[0]].1;
        assert_eq!((i.op, i.rs1, i.imm), (Op::AluImm(AluOp::Add), S1, 1));
        assert!(s1[0] > m[0]);
    }
    // pagefault-file.S's hand count: add, ld, addi, bltu.
    let steady = &paths[0];
    assert_eq!(steady.steps.len(), 4);
    assert!(steady.syscalls().is_empty());
    assert_eq!(
        paths[1].syscalls(),
        [MUNMAP, MMAP],
        "unmapped, mapped again"
    );
}

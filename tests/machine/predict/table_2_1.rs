//! Table 2.1 of the unprivileged spec, row by row (split from predict.rs,
//! whose encodings and one-jump runner it uses): the pop, push, pop-then-push
//! and none rows by rd and rs1, a return with an empty RAS, and JAL pushing
//! only when rd is a link register.

use super::*;

/// rd not a link, rs1 a link: pop. A return to the stacked address is
/// predicted; a return elsewhere is a Return mispredict that predicted `OLD`.
/// Either way the entry is consumed.
#[test]
fn table_2_1_pop_rows() {
    // (raw, assembly, length): every one has rd = x0 and rs1 in {x1, x5}.
    let pops = [
        (0x0000_8067, "ret = jalr x0, 0(x1)", 4),
        (0x0002_8067, "jr t0 = jalr x0, 0(x5)", 4),
        (0x8082, "c.jr ra (= jalr x0, 0(x1))", 2),
        (0x8282, "c.jr t0 (= jalr x0, 0(x5))", 2),
    ];
    for (raw, asm, len) in pops {
        assert_eq!(at(PC, raw).len, len, "{asm}");
        assert_eq!(
            row(raw, RasHint::Pop, OLD),
            Outcome {
                miss: None,
                ras: vec![],
                last: Some(RasOp::Pop {
                    pc: PC,
                    predicted: Some(OLD),
                    actual: OLD,
                }),
            },
            "{asm}, returning where the RAS said"
        );
        assert_eq!(
            row(raw, RasHint::Pop, ELSEWHERE),
            Outcome {
                miss: ret_miss(PC, Some(OLD), ELSEWHERE),
                ras: vec![],
                last: Some(RasOp::Pop {
                    pc: PC,
                    predicted: Some(OLD),
                    actual: ELSEWHERE,
                }),
            },
            "{asm}, returning elsewhere"
        );
    }
}

/// A pop of an empty RAS predicts nothing (ras.rs), so any return is a
/// mispredict with no prediction.
#[test]
fn a_return_with_an_empty_ras_predicts_nothing() {
    let mut p = Predictors::new(8, 64, 64);
    let m = p.resolve(&at(PC, 0x0000_8067), OLD); // ret
    assert_eq!(m, ret_miss(PC, None, OLD));
    assert_eq!(p.ras.entries(), Vec::<u64>::new());
}

/// rd a link, rs1 not a link: push pc + len. A JALR push is still an indirect
/// call, so the target goes through the cold BTB: an Indirect mispredict with
/// no prediction, never a Return one. The stacked `OLD` stays below the push.
#[test]
fn table_2_1_push_rows_rd_link_rs1_not() {
    let pushes = [
        (0x0003_00e7, "jalr t1 = jalr x1, 0(x6)", 4),
        (0x0007_82e7, "jalr t0, a5 = jalr x5, 0(x15)", 4),
        (0x9302, "c.jalr t1 (= jalr x1, 0(x6))", 2),
    ];
    for (raw, asm, len) in pushes {
        let link = PC + len;
        assert_eq!(
            row(raw, RasHint::Push, ELSEWHERE),
            Outcome {
                miss: indirect_miss(PC, None, ELSEWHERE),
                ras: vec![link, OLD],
                last: Some(RasOp::Push { pc: PC, addr: link }),
            },
            "{asm}"
        );
    }
}

/// rd and rs1 both links, rd = rs1: push only (this is the unrelaxed
/// `call` = `auipc ra, ..; jalr ra, ..(ra)`, which must not pop). `OLD` must
/// survive under the new entry.
#[test]
fn table_2_1_push_rows_rd_equals_rs1() {
    let pushes = [
        (0x0000_80e7, "jalr ra, 0(ra) = jalr x1, 0(x1)", 4),
        (0x0002_82e7, "jalr t0, t0 = jalr x5, 0(x5)", 4),
        (0x9082, "c.jalr ra (= jalr x1, 0(x1))", 2),
    ];
    for (raw, asm, len) in pushes {
        let link = PC + len;
        assert_eq!(
            row(raw, RasHint::Push, ELSEWHERE),
            Outcome {
                miss: indirect_miss(PC, None, ELSEWHERE),
                ras: vec![link, OLD],
                last: Some(RasOp::Push { pc: PC, addr: link }),
            },
            "{asm}"
        );
    }
}

/// rd and rs1 both links, rd ≠ rs1: pop, then push (a coroutine swap). The
/// pop's prediction (`OLD`) is judged against where the jump went, and
/// afterwards only the new link is on the stack. Note `c.jalr t0` belongs
/// here: it expands to `jalr x1, 0(x5)`.
#[test]
fn table_2_1_pop_then_push_rows() {
    let swaps = [
        (0x0002_80e7, "jalr ra, t0 = jalr x1, 0(x5)", 4),
        (0x0000_82e7, "jalr t0, ra = jalr x5, 0(x1)", 4),
        (0x9282, "c.jalr t0 (= jalr x1, 0(x5))", 2),
    ];
    for (raw, asm, len) in swaps {
        let link = PC + len;
        assert_eq!(
            row(raw, RasHint::PopThenPush, OLD),
            Outcome {
                miss: None,
                ras: vec![link],
                last: Some(RasOp::PopPush {
                    pc: PC,
                    predicted: Some(OLD),
                    actual: OLD,
                    pushed: link,
                }),
            },
            "{asm}, going where the popped entry said"
        );
        assert_eq!(
            row(raw, RasHint::PopThenPush, ELSEWHERE),
            Outcome {
                miss: ret_miss(PC, Some(OLD), ELSEWHERE),
                ras: vec![link],
                last: Some(RasOp::PopPush {
                    pc: PC,
                    predicted: Some(OLD),
                    actual: ELSEWHERE,
                    pushed: link,
                }),
            },
            "{asm}, going elsewhere"
        );
    }
}

/// Neither rd nor rs1 a link: no RAS action; the RAS keeps `OLD` and the TUI
/// shows no operation. The jump is judged by the BTB (cold: no prediction).
#[test]
fn table_2_1_none_rows() {
    let plain = [
        (0x0003_0067, "jr t1 = jalr x0, 0(x6)"),
        (0x0007_8067, "jr a5 = jalr x0, 0(x15)"),
        (0x8782, "c.jr a5 (= jalr x0, 0(x15))"),
    ];
    for (raw, asm) in plain {
        assert_eq!(
            row(raw, RasHint::None, ELSEWHERE),
            Outcome {
                miss: indirect_miss(PC, None, ELSEWHERE),
                ras: vec![OLD],
                last: None,
            },
            "{asm}"
        );
    }
}

/// JAL pushes when rd is x1 or x5 (§2.5: "only when rd=x1/x5"), and does
/// nothing otherwise. Its target is in the encoding, so it never mispredicts.
/// The `next` passed is the real target, pc + the encoded offset.
#[test]
fn jal_pushes_only_for_a_link_rd() {
    // jal ra, .+0x400 = jal x1; jal t0, .+0x400 = jal x5.
    for (raw, asm) in [
        (0x4000_00ef, "jal ra, .+0x400"),
        (0x4000_02ef, "jal t0, .+0x400"),
    ] {
        assert_eq!(
            row(raw, RasHint::Push, PC + 0x400),
            Outcome {
                miss: None,
                ras: vec![PC + 4, OLD],
                last: Some(RasOp::Push {
                    pc: PC,
                    addr: PC + 4,
                }),
            },
            "{asm}"
        );
    }
    // j .+0x400 = jal x0; c.j .+0x40 (= jal x0, 0x40).
    for (raw, asm, off) in [
        (0x4000_006f, "j .+0x400", 0x400),
        (0xa081, "c.j .+0x40", 0x40),
    ] {
        assert_eq!(
            row(raw, RasHint::None, PC + off),
            Outcome {
                miss: None,
                ras: vec![OLD],
                last: None,
            },
            "{asm}"
        );
    }
}

//! The predictors against the unprivileged spec (20191213) §2.5 "Control
//! Transfer Instructions": Table 2.1, the return-address-stack hints (x1 and
//! x5 are the link registers), and JAL pushing only when rd is a link.
//!
//! Every encoding below comes from `riscv64-linux-gnu-as -march=rv64gc`
//! (disassembled with `riscv64-linux-gnu-objdump -d`), with the assembly text
//! beside it. Every expectation comes from the spec table or from a hand
//! simulation written beside it, never from running the code.

use trapscope::isa::{Op, RasHint, decode_word};
use trapscope::machine::DecodedInsn;
use trapscope::predict::{Mispredict, PredKind, Predictors, RasOp};

/// Table 2.1 row by row, and JAL's push.
mod table_2_1;
/// Seed 003's entry, overflow, branches and indirect jumps.
mod traces;

/// The instruction `raw` at `pc`, decoded as the block decoder would
/// (`machine::decode_range` keeps a compressed instruction's 16 bits in `raw`).
fn at(pc: u64, raw: u32) -> DecodedInsn {
    let insn = decode_word(raw).expect("the assembler's encoding decodes");
    DecodedInsn {
        pc,
        raw,
        len: insn.len,
        insn: Some(insn),
    }
}

fn ret_miss(pc: u64, predicted: Option<u64>, actual: u64) -> Option<Mispredict> {
    Some(Mispredict {
        kind: PredKind::Return,
        pc,
        predicted,
        actual,
    })
}

fn indirect_miss(pc: u64, predicted: Option<u64>, actual: u64) -> Option<Mispredict> {
    Some(Mispredict {
        kind: PredKind::Indirect,
        pc,
        predicted,
        actual,
    })
}

fn branch_miss(pc: u64, predicted: u64, actual: u64) -> Option<Mispredict> {
    Some(Mispredict {
        kind: PredKind::Branch,
        pc,
        predicted: Some(predicted),
        actual,
    })
}

// ---------------------------------------------------------------------------
// 1. Table 2.1, row by row.
// ---------------------------------------------------------------------------

/// Where each row's jump sits.
const PC: u64 = 0x8000_2000;
/// A return address pushed before the row's jump, so a pop has something to
/// predict and a push is seen on top of it.
const OLD: u64 = 0x8000_1004;
/// Anywhere but `OLD`: where a call goes, or a return the RAS got wrong.
const ELSEWHERE: u64 = 0x8000_5000;

/// What one jump did: its mispredict, the RAS afterwards (newest first) and
/// the RAS operation the TUI would show.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    miss: Option<Mispredict>,
    ras: Vec<u64>,
    last: Option<RasOp>,
}

/// Runs one jump at `PC` that went to `next`, on fresh predictors (RAS depth
/// 8, cold BHT and BTB) whose RAS holds just `OLD`. Also checks the decoder's
/// hint, so a failure says whether decoding or prediction is wrong.
fn row(raw: u32, hint: RasHint, next: u64) -> Outcome {
    let d = at(PC, raw);
    assert_eq!(d.insn.map(|i| i.ras_hint()), Some(hint), "hint of {raw:#x}");
    let mut p = Predictors::new(8, 64, 64);
    p.ras.push(OLD);
    let miss = p.resolve(&d, next);
    Outcome {
        miss,
        ras: p.ras.entries(),
        last: p.last_ras_op,
    }
}

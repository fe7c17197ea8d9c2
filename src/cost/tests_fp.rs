//! FP register dependences (`fp_dependences`) on hand-counted sequences, on
//! the test core of `tests.rs`: FP on pipe B, loads and stores on pipe A,
//! fadd/fmul/fma.d 4 cycles, .s 5, moves, compares and conversions
//! (`fp_other`) 2, FP loads 6. FP results take no bypass.

use super::model::Cat;
use super::tests::{cycles, profile, run, with};

const FADD_FA0: u32 = 0x02c5f553; // fadd.d fa0, fa1, fa2
const FADD_FA3_FA0: u32 = 0x02a576d3; // fadd.d fa3, fa0, fa0
const FLD_FA0: u32 = 0x00013507; // fld fa0, 0(sp)
const FMADD_RS3_FA0: u32 = 0x52d675c3; // fmadd.d fa1, fa2, fa3, fa0
const FEQ_A0: u32 = 0xa2c5a553; // feq.d a0, fa1, fa2
const FSD_FA0: u32 = 0x00a13027; // fsd fa0, 0(sp)
const ADD_A1_A0: u32 = 0x00a505b3; // add a1, a0, a0

#[test]
fn an_fp_consumer_waits_for_the_fp_result() {
    // fadd.d fa0 issues in cycle 1 on pipe B: fa0 ready at 1 + 4 = 5. The
    // second fadd.d could join cycle 1 (width 2) but pipe B is taken: 2, one
    // cycle to the issue rule; it needs fa0: 5, three cycles of data stall.
    let (each, by) = run(&profile(), &[FADD_FA0, FADD_FA3_FA0], &[]);
    assert_eq!(each, vec![1, 4]);
    assert_eq!(cycles(&by, Cat::IssueRules), 1);
    assert_eq!(cycles(&by, Cat::DataStalls), 3);
}

#[test]
fn without_fp_dependences_the_f_registers_are_not_tracked() {
    // The same pair with the option off: only the pipe rule, 1 cycle.
    let p = with("fp_dependences", "false");
    let (each, by) = run(&p, &[FADD_FA0, FADD_FA3_FA0], &[]);
    assert_eq!(each, vec![1, 1]);
    assert_eq!(cycles(&by, Cat::DataStalls), 0);
}

#[test]
fn an_fp_load_feeds_an_fp_op_after_fp_load_cycles() {
    // fld fa0 in cycle 1 on pipe A: fa0 ready at 1 + 6 = 7. fmadd.d reads
    // fa0 as its addend (rs3, bits 31:27) and issues on B, which is free in
    // cycle 1: it waits for fa0, 7 - 1 = 6 cycles of data stall.
    let (each, by) = run(&profile(), &[FLD_FA0, FMADD_RS3_FA0], &[]);
    assert_eq!(each, vec![1, 6]);
    assert_eq!(cycles(&by, Cat::DataStalls), 6);
}

#[test]
fn a_compare_writes_an_x_register_with_fp_other_latency_and_no_bypass() {
    // feq.d a0 in cycle 1 on B: a0 ready at 1 + 2 = 3, not through the
    // bypass (FP producers are not in bypass_from). add reads a0 late, but
    // only a bypassed value can be read late: it issues on A at 3, two
    // cycles of data stall.
    let (each, by) = run(&profile(), &[FEQ_A0, ADD_A1_A0], &[]);
    assert_eq!(each, vec![1, 2]);
    assert_eq!(cycles(&by, Cat::DataStalls), 2);
}

#[test]
fn an_fp_store_waits_for_the_value_it_stores() {
    // fadd.d fa0 in cycle 1 on B: fa0 ready at 5. fsd reads fa0 as its data
    // at issue (store data from f takes no bypass) on A: 5, four cycles of
    // data stall.
    let (each, by) = run(&profile(), &[FADD_FA0, FSD_FA0], &[]);
    assert_eq!(each, vec![1, 4]);
    assert_eq!(cycles(&by, Cat::DataStalls), 4);
}

//! The pipeline models on hand-counted sequences.
//! Every expectation is a schedule worked out by hand from the model's rules
//! on the test profile below, written beside it.

use std::path::Path;

use super::model::{At, Cat, CostModel, MILLI, PipeState};
use super::profile::{Basis, Profile};
use crate::isa::decode_range;
use crate::trace::PredKind;

/// A SiFive7-shaped in-order test core: two pipes (A: memory; B: control,
/// mul/div; ALU on either), issue width 2, loads and ALU results 3 cycles to
/// an ordinary consumer, 2 cycles earlier to an ALU or branch consumer
/// through the bypass, mispredicts 5/6/7, traps 11, xRET 13, CSR flush 9
/// (Rocket rule). Values are distinct so each charge is recognisable.
const PROFILE: &str = r#"
name = "test"
title = "test core"

[core]
clock_ghz = { value = 1.0, source = "test" }
timebase_hz = { value = 10000000.0, source = "test" }
issue_width = { value = 2, source = "test" }
commit_width = { value = 2, source = "test" }
out_of_order = { value = false, source = "test" }
window = { value = 0, source = "test" }
pipeline_depth = { value = 8, source = "test" }
frontend_stages = { value = 3, source = "test" }
ras_depth = { value = 8, source = "test" }
bht_entries = { value = 512, source = "test" }
btb_entries = { value = 64, source = "test" }
trap_flushes_ras = { value = false, source = "test" }
ras_privilege_tags = { value = false, source = "test" }
mispredict_branch = { value = 5, source = "test" }
mispredict_return = { value = 6, source = "test" }
mispredict_indirect = { value = 7, source = "test" }
recover_after_retire = { value = 0, source = "test" }
taken_bubble = { value = 0, source = "test" }
taken_ends_group = { value = true, source = "test" }
trap_entry = { value = 11, source = "test" }
trap_return = { value = 13, source = "test" }

[issue]
pipes = { value = 2, source = "test" }
alu = { value = "AB", source = "test" }
load = { value = "A", source = "test" }
store = { value = "A", source = "test" }
control = { value = "B", source = "test" }
muldiv = { value = "B", source = "test" }
fp = { value = "B", source = "test" }
vector = { value = "A", source = "test" }
csr = { value = "A", source = "test" }
system = { value = "A", source = "test" }

[latency]
alu = { value = 3, source = "test" }
alu_early = { value = 0, source = "test" }
load = { value = 3, source = "test" }
mul = { value = 3, source = "test" }
div = { value = 20, source = "test" }
div_busy = { value = 16, source = "test" }
fp = { value = 4, source = "test" }
fp_dependences = { value = true, source = "test" }
fp_single = { value = 5, source = "test" }
fp_other = { value = 2, source = "test" }
fp_load = { value = 6, source = "test" }
fp_div = { value = 30, source = "test" }
fp_div_single = { value = 17, source = "test" }
csr_read = { value = 1, source = "test" }
jump_link = { value = 1, source = "test" }
amo = { value = 3, source = "test" }
lr = { value = 2, source = "test" }
sc = { value = 2, source = "test" }
late_advance = { value = 2, source = "test" }
bypass_from = { value = "alu,load", source = "test" }
bypass_to = { value = "alu,branch", source = "test" }

[serialise]
csr_write_flush = { value = "rocket", source = "test" }
csr_flush = { value = 9, source = "a made-up source", unverified = true, range = [7, 9], range_why = "test" }
csr_read_serialises = { value = false, source = "test" }
drain_dispatch = { value = 0, source = "test" }
csr_write_serialises = { value = false, source = "test" }
fence = { value = 1, source = "test" }
fence_i = { value = 4, source = "test" }
sfence_vma = { value = 4, source = "test" }
amo_serialises = { value = false, source = "test" }
fence_drains = { value = false, source = "test" }
system_drains = { value = true, source = "test" }

[vector]
present = { value = false, source = "test" }
vlen = { value = 0, source = "test" }
dlen = { value = 0, source = "test" }
vsetvl = { value = 0, source = "test" }
whole_reg_base = { value = 0, source = "test" }
whole_reg_per_reg = { value = 0, source = "test" }
scalar_waits = { value = true, source = "test" }
waits_at = { value = "status_write", source = "test" }

[atomics]
amo_traps = { value = false, source = "test" }
monitor_cycles = { value = 0, source = "test" }
"#;

pub(super) fn profile() -> Profile {
    Profile::parse(Path::new("test.toml"), PROFILE).unwrap()
}

/// The test core with `key = value` changed (first match in the file).
pub(super) fn with(key: &str, value: &str) -> Profile {
    let pat = format!("\n{key} = {{ value = ");
    let at = PROFILE.find(&pat).unwrap() + pat.len();
    let end = at + PROFILE[at..].find(',').unwrap();
    let src = format!("{}{value}{}", &PROFILE[..at], &PROFILE[end..]);
    Profile::parse(Path::new("test.toml"), &src).unwrap()
}

/// Runs `words` through the model from an empty pipeline, each instruction
/// completing and falling through unless `misp` says otherwise; returns the
/// cycles of each instruction and the total of each category.
pub(super) fn run(
    p: &Profile,
    words: &[u32],
    misp: &[(usize, PredKind)],
) -> (Vec<u64>, std::collections::BTreeMap<Cat, u64>) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let insns = decode_range(0x1000, &bytes);
    let m = CostModel::new(p);
    let t = m.build(&insns);
    let mut st = m.start();
    let mut by = std::collections::BTreeMap::new();
    let mut each = Vec::new();
    for i in 0..insns.len() {
        let at = At {
            i,
            completed: true,
            taken: false,
            misp: misp.iter().find(|(j, _)| *j == i).map(|(_, k)| *k),
        };
        let mut spent = 0;
        m.charge(&mut st, &t, at, |c, v, _| {
            *by.entry(c).or_default() += v;
            spent += v;
        });
        each.push(spent / MILLI);
    }
    (each, by)
}

pub(super) fn cycles(by: &std::collections::BTreeMap<Cat, u64>, c: Cat) -> u64 {
    by.get(&c).copied().unwrap_or(0) / MILLI
}

const LD_A0: u32 = 0x00013503; // ld a0, 0(sp)
const LD_A1: u32 = 0x00813583; // ld a1, 8(sp)
const ADD_A1_A0: u32 = 0x00a505b3; // add a1, a0, a0
const LD_A1_A0: u32 = 0x00053583; // ld a1, 0(a0)
const ADDI_T0: u32 = 0x00128293; // addi t0, t0, 1
const ADDI_A0_SP: u32 = 0x01010513; // addi a0, sp, 16
const SD_RA_A0: u32 = 0x00153023; // sd ra, 0(a0)
const BEQ: u32 = 0x00b50463; // beq a0, a1, .+8
const CSRW_SSCRATCH: u32 = 0x14051073; // csrw sscratch, a0
const CSRW_STVEC: u32 = 0x10551073; // csrw stvec, a0
const ADDI_A0: u32 = 0x00150513; // addi a0, a0, 1
const ADDI_A1: u32 = 0x00158593; // addi a1, a1, 1
const CSRR_SSCRATCH: u32 = 0x14002673; // csrr a2, sscratch
const ADDI_A3: u32 = 0x00168693; // addi a3, a3, 1
const DIV_A0: u32 = 0x02c5c533; // div a0, a1, a2
const DIV_A3: u32 = 0x02f746b3; // div a3, a4, a5
const ADDI_T1: u32 = 0x00130313; // addi t1, t1, 1
const ADDI_A4: u32 = 0x00170713; // addi a4, a4, 1
const SRET: u32 = 0x10200073; // sret

#[test]
fn two_loads_issue_in_consecutive_cycles_on_the_one_memory_pipe() {
    // ld a0 issues in cycle 1 (a new group: 1). ld a1 has a slot in cycle 1
    // (width 2) but pipe A is taken: cycle 2, one cycle to the issue rule.
    let (each, by) = run(&profile(), &[LD_A0, LD_A1], &[]);
    assert_eq!(each, vec![1, 1]);
    assert_eq!(cycles(&by, Cat::Issue), 1);
    assert_eq!(cycles(&by, Cat::IssueRules), 1);
}

#[test]
fn an_alu_consumer_of_a_load_issues_the_next_cycle_through_the_late_alu() {
    // ld a0 in cycle 1: a0 ready for ordinary readers at 1 + 3 = 4; add reads
    // it through the bypass, 2 cycles late: it may issue at 4 - 2 = 2, the
    // cycle after the load, with no further stall.
    let (each, by) = run(&profile(), &[LD_A0, ADD_A1_A0], &[]);
    assert_eq!(each, vec![1, 1]);
    assert_eq!(cycles(&by, Cat::DataStalls), 1);
}

#[test]
fn an_address_consumer_of_a_load_waits_for_its_latency() {
    // ld a0 in cycle 1; ld a1, 0(a0) needs a0 at address generation, no
    // bypass: cycle 1 + 3 = 4. Of its 3 cycles, 1 is the memory pipe being
    // taken in cycle 1 and 2 are the wait for a0.
    let (each, by) = run(&profile(), &[LD_A0, LD_A1_A0], &[]);
    assert_eq!(each, vec![1, 3]);
    assert_eq!(cycles(&by, Cat::IssueRules), 1);
    assert_eq!(cycles(&by, Cat::DataStalls), 2);
}

#[test]
fn a_dependence_at_distance_two_stalls_when_the_pair_issued_together() {
    // ld a0 and addi t0 pair in cycle 1 (pipes A and B). ld a1, 0(a0) opens
    // cycle 2 but waits for a0 until 1 + 3 = 4: 1 + 2 stalled.
    let (each, by) = run(&profile(), &[LD_A0, ADDI_T0, LD_A1_A0], &[]);
    assert_eq!(each, vec![1, 0, 3]);
    assert_eq!(cycles(&by, Cat::Issue), 2);
    assert_eq!(cycles(&by, Cat::DataStalls), 2);
}

#[test]
fn an_early_alu_result_feeds_the_next_address_one_cycle_later() {
    // Without an early ALU, addi a0 (cycle 1) is ready for sd's address at
    // 1 + 3 = 4. With alu_early = 1 its operands (sp) are ready when it
    // issues, so a0 is ready at 2: sd issues in cycle 2.
    let (each, _) = run(&profile(), &[ADDI_A0_SP, SD_RA_A0], &[]);
    assert_eq!(each, vec![1, 3]);
    let (each, _) = run(&with("alu_early", "1"), &[ADDI_A0_SP, SD_RA_A0], &[]);
    assert_eq!(each, vec![1, 1]);
}

#[test]
fn mispredicts_cost_their_kinds_penalty() {
    // beq issues in cycle 1; mispredicted, the next instruction comes 5
    // cycles later than it could: addi at 1 + 5 + 1 = 7.
    let (each, by) = run(&profile(), &[BEQ, ADDI_A0], &[(0, PredKind::Branch)]);
    assert_eq!(each, vec![6, 1]);
    assert_eq!(cycles(&by, Cat::BranchMispredicts), 5);
    let (_, by) = run(&profile(), &[BEQ], &[(0, PredKind::Indirect)]);
    assert_eq!(cycles(&by, Cat::IndirectMispredicts), 7);
    let (_, by) = run(&profile(), &[BEQ], &[(0, PredKind::Return)]);
    assert_eq!(cycles(&by, Cat::RasMispredicts), 6);
}

#[test]
fn csr_writes_flush_by_the_rocket_rule() {
    // csrw sscratch (cycle 1) is spared: no flush. csrw stvec cannot pair
    // with it (CSRs issue on pipe A only): cycle 2, then it flushes: 9 more.
    // addi comes in a new group after the flush: 1.
    let (each, by) = run(&profile(), &[CSRW_SSCRATCH, CSRW_STVEC, ADDI_A0], &[]);
    assert_eq!(each, vec![1, 10, 1]);
    assert_eq!(cycles(&by, Cat::CsrFlushes), 9);
    assert_eq!(by.get(&Cat::CsrWrites).copied(), Some(0));
}

#[test]
fn the_divider_blocks_the_next_divide() {
    // div a0 issues in cycle 1 on pipe B; div a3 (independent) may not pair
    // (B taken: cycle 2) and the divider is busy until 1 + 16 = 17.
    let (each, by) = run(&profile(), &[DIV_A0, DIV_A3], &[]);
    assert_eq!(each, vec![1, 16]);
    assert_eq!(cycles(&by, Cat::IssueRules), 1);
    assert_eq!(cycles(&by, Cat::StructuralStalls), 15);
}

#[test]
fn an_xret_costs_its_return_and_a_trap_its_entry() {
    // sret in cycle 1, then 13 for the return.
    let (each, by) = run(&profile(), &[SRET], &[]);
    assert_eq!(each, vec![14]);
    assert_eq!(cycles(&by, Cat::TrapReturns), 13);
    let p = profile();
    let m = CostModel::new(&p);
    let mut st = m.start();
    assert_eq!(m.trap(&mut st), 11 * MILLI);
}

/// The test core made out of order: dispatch and retire 3 wide, an 8-entry
/// window, a 5-stage front end, CSR reads serialising, three pipes that
/// all take ALU ops (A also memory, B also control).
fn ooo() -> Profile {
    Profile::parse(Path::new("ooo.toml"), &ooo_src()).unwrap()
}

fn ooo_src() -> String {
    PROFILE
        .replace(
            "out_of_order = { value = false",
            "out_of_order = { value = true",
        )
        .replace("issue_width = { value = 2", "issue_width = { value = 3")
        .replace("commit_width = { value = 2", "commit_width = { value = 3")
        .replace("window = { value = 0", "window = { value = 8")
        .replace(
            "frontend_stages = { value = 3",
            "frontend_stages = { value = 5",
        )
        .replace("alu = { value = 3", "alu = { value = 1")
        .replace("pipes = { value = 2", "pipes = { value = 3")
        .replace("alu = { value = \"AB\"", "alu = { value = \"ABC\"")
        .replace(
            "csr_read_serialises = { value = false",
            "csr_read_serialises = { value = true",
        )
}

#[test]
fn a_serialising_csr_read_drains_the_window_and_refetches() {
    // addi a0: dispatch 1, execute 2, retire 3 (3 cycles from empty).
    // addi a1: dispatches and retires with it (0).
    // csrr a2, sscratch waits until both retired: dispatch 3, execute 4,
    //   retire 5 (2, serialisation).
    // addi a3 is refetched: it dispatches csr_flush = 9 cycles after the
    //   csrr retired, at 14; executes 15, retires 16 (11, the CSR flush's).
    let (each, by) = run(&ooo(), &[ADDI_A0, ADDI_A1, CSRR_SSCRATCH, ADDI_A3], &[]);
    assert_eq!(each, vec![3, 0, 2, 11]);
    assert_eq!(cycles(&by, Cat::Serialisation), 2);
    assert_eq!(cycles(&by, Cat::CsrFlushes), 11);
    let m = CostModel::new(&ooo());
    assert!(matches!(m.start(), PipeState::Window(_)));
}

#[test]
fn independent_work_retires_three_wide_out_of_order() {
    // Six independent addi: the first three dispatch in cycle 1, retire in
    // 3; the next three dispatch in 2, retire in 4: 3 + 0 + 0 + 1 + 0 + 0.
    let w = [ADDI_A0, ADDI_A1, ADDI_A3, ADDI_T0, ADDI_T1, ADDI_A4];
    let (each, _) = run(&ooo(), &w, &[]);
    assert_eq!(each, vec![3, 0, 0, 1, 0, 0]);
}

#[test]
fn an_out_of_order_mispredict_overlaps_older_work() {
    // ld a0: dispatch 1, execute 2, retire 2 + 3 = 5 (5 from empty).
    // beq a0, a1: dispatch 1, executes when a0 is ready at 5, retires 6 (1).
    // Mispredicted, the correct path dispatches 5 cycles after the cycle
    // the branch could have dispatched in once a0 was ready (executing at 5:
    // 4), at 9: addi executes 10, retires 11 (5). Without the redirect it
    // would have retired with beq at 6, so all 5 are the mispredict's.
    let (each, by) = run(&ooo(), &[LD_A0, BEQ, ADDI_A1], &[(1, PredKind::Branch)]);
    assert_eq!(each, vec![5, 1, 5]);
    assert_eq!(cycles(&by, Cat::BranchMispredicts), 5);
}

#[test]
fn every_parameter_says_where_it_comes_from() {
    let p = profile();
    assert_eq!(p.unverified(), vec!["csr_flush"]);
    let row = p.rows().into_iter().find(|r| r.0 == "csr_flush").unwrap();
    assert_eq!(row.2, &Basis::Source("a made-up source".into()));
    let bad = PROFILE.replace(
        r#"load = { value = 3, source = "test" }"#,
        "load = { value = 3 }",
    );
    let e = Profile::parse(Path::new("bad.toml"), &bad)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("bad.toml:")
            && e.contains("'latency.load' needs a `source` or an `assumption`"),
        "{e}"
    );
}

#[test]
fn a_branch_that_executes_late_resolves_late() {
    // ld a0 (cycle 1), then beq a0, a1 reads a0 through the bypass: it
    // issues at 1 + 3 - 2 = 2 with a0 not ready (late, in M2). Mispredicted,
    // it resolves late_advance = 2 cycles later than an early branch: 5 + 2.
    let (each, by) = run(&profile(), &[LD_A0, BEQ], &[(1, PredKind::Branch)]);
    assert_eq!(each, vec![1, 1 + 7]);
    assert_eq!(cycles(&by, Cat::BranchMispredicts), 7);
    // With its operands ready at issue it costs the plain 5.
    let (_, by) = run(&profile(), &[ADDI_T0, BEQ], &[(1, PredKind::Branch)]);
    assert_eq!(cycles(&by, Cat::BranchMispredicts), 5);
}

#[test]
fn out_of_order_recovery_can_wait_for_the_branch_to_retire() {
    // As an_out_of_order_mispredict_overlaps_older_work, with recovery held
    // until 6 cycles after the branch retires (at 6): the correct path
    // dispatches at max(9, 6 + 6) = 12, executes 13, retires 14 (8).
    let src = ooo_src().replace(
        "recover_after_retire = { value = 0",
        "recover_after_retire = { value = 6",
    );
    let p = Profile::parse(Path::new("ooo.toml"), &src).unwrap();
    let (each, _) = run(&p, &[LD_A0, BEQ, ADDI_A1], &[(1, PredKind::Branch)]);
    assert_eq!(each, vec![5, 1, 8]);
}

#[test]
fn a_serialising_instruction_dispatches_drain_dispatch_after_the_window_empties() {
    // As a_serialising_csr_read_drains_the_window_and_refetches with
    // drain_dispatch = 3: the csrr dispatches at 3 + 3 = 6, executes 7,
    // retires 8 (5); addi a3 dispatches at 8 + 9 = 17, retires 19 (11).
    let src = ooo_src().replace(
        "drain_dispatch = { value = 0",
        "drain_dispatch = { value = 3",
    );
    let p = Profile::parse(Path::new("ooo.toml"), &src).unwrap();
    let (each, _) = run(&p, &[ADDI_A0, ADDI_A1, CSRR_SSCRATCH, ADDI_A3], &[]);
    assert_eq!(each, vec![3, 0, 5, 11]);
}

#[test]
fn an_out_of_order_xret_drains_then_redirects() {
    // addi a0: dispatch 1, execute 2, retire 3 (3). sret waits for it to
    // retire: dispatch 3, execute 4, retire 5 (2), then trap_return = 13:
    // the target's first instruction dispatches at 5 + 13 = 18, executes
    // 19, retires 20 (2).
    let (each, by) = run(&ooo(), &[ADDI_A0, SRET, ADDI_A1], &[]);
    assert_eq!(each, vec![3, 2 + 13, 2]);
    assert_eq!(cycles(&by, Cat::TrapReturns), 13);
}

#[test]
fn out_of_order_memory_operations_share_their_one_pipe() {
    // Three independent loads (sp-based, addresses ready) dispatch together
    // in cycle 1 but the one load pipe (A) takes one per cycle: they execute
    // in 2, 3, 4 and retire in 5, 6, 7 (load latency 3): 5 + 1 + 1, the
    // second and third waiting a cycle each for the pipe.
    const LD_A2: u32 = 0x01013603; // ld a2, 16(sp)
    let (each, by) = run(&ooo(), &[LD_A0, LD_A1, LD_A2], &[]);
    assert_eq!(each, vec![5, 1, 1]);
    assert_eq!(cycles(&by, Cat::StructuralStalls), 2);
}

#[test]
fn a_ready_load_takes_the_pipe_ahead_of_an_older_one_still_waiting() {
    // ld a0: dispatch 1, execute 2 on the one load pipe, retire 5 (5).
    // ld a1, 0(a0) waits for a0 until 5: executes 5, retires 8 (3).
    // ld a2, 16(sp) is ready at 2; the pipe is taken in 2 but free in 3: it
    // executes 3, done by 6, and retires with ld a1 in 8 (0). Were the pipe
    // handed out in program order it would wait for 6 and retire in 9.
    const LD_A2: u32 = 0x01013603; // ld a2, 16(sp)
    let (each, _) = run(&ooo(), &[LD_A0, LD_A1_A0, LD_A2], &[]);
    assert_eq!(each, vec![5, 3, 0]);
}

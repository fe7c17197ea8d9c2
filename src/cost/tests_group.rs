//! The taken-branch group rule (`taken_ends_group`) on hand-counted
//! sequences, on the test core of `tests.rs`: issue width 2, branches on
//! pipe B, ALU ops on A or B, no taken bubble.

use std::collections::BTreeMap;

use super::model::{At, Cat, CostModel, MILLI};
use super::profile::Profile;
use super::tests::{profile, with};
use crate::isa::decode_range;

const BEQ: u32 = 0x00b50463; // beq a0, a1, .+8
const ADDI_T0: u32 = 0x00128293; // addi t0, t0, 1

/// Charges `words`, the first taken (its target the second), the rest
/// falling through; the cycles of each and the total per category.
fn run_taken(p: &Profile, words: &[u32]) -> (Vec<u64>, BTreeMap<Cat, u64>) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let insns = decode_range(0x1000, &bytes);
    let m = CostModel::new(p);
    let t = m.build(&insns);
    let mut st = m.start();
    let (mut each, mut by) = (Vec::new(), BTreeMap::new());
    for i in 0..insns.len() {
        let at = At {
            i,
            completed: true,
            taken: i == 0,
            misp: None,
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

#[test]
fn a_taken_branch_ends_its_group_when_the_profile_says_so() {
    // beq issues in cycle 1 on B, taken and predicted. addi, at its target,
    // could join cycle 1 on A (width 2, a pipe free), but the group ended
    // with the taken branch: it issues in cycle 2, one cycle of issue.
    let (each, by) = run_taken(&profile(), &[BEQ, ADDI_T0]);
    assert_eq!(each, vec![1, 1]);
    assert_eq!(by.get(&Cat::Issue).copied().unwrap_or(0), 2 * MILLI);
    assert_eq!(by.get(&Cat::TakenBubbles).copied().unwrap_or(0), 0);
}

#[test]
fn without_the_rule_the_target_pairs_with_the_branch() {
    // The same with taken_ends_group = false: addi joins cycle 1 on A and
    // costs nothing.
    let p = with("taken_ends_group", "false");
    let (each, _) = run_taken(&p, &[BEQ, ADDI_T0]);
    assert_eq!(each, vec![1, 0]);
}

#[test]
fn a_taken_bubble_ends_the_group_either_way() {
    // taken_bubble = 2 with the rule off: the branch's redirect adds 2
    // cycles and closes the group, so addi issues in cycle 1 + 2 + 1 = 4:
    // 2 cycles of bubble on the branch, 1 of issue on addi.
    let src = with("taken_ends_group", "false");
    let mut p = src.clone();
    p.core.taken_bubble.value = 2;
    let (each, by) = run_taken(&p, &[BEQ, ADDI_T0]);
    assert_eq!(each, vec![3, 1]);
    assert_eq!(by.get(&Cat::TakenBubbles).copied().unwrap_or(0), 2 * MILLI);
}

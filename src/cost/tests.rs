//! The cost model on a hand-counted block.

use std::path::Path;

use super::model::{At, Cat, CostModel, MILLI};
use super::profile::{Basis, Profile};
use crate::machine::decode_range;

/// A profile with distinct values, so each charge is recognisable.
const PROFILE: &str = r#"
name = "test"
title = "test core"
[core]
clock_ghz = { value = 1.0, assumption = "test" }
timebase_hz = { value = 1000000.0, assumption = "test" }
issue_width = { value = 2, assumption = "test" }
out_of_order = { value = false, assumption = "test" }
mispredict_penalty = { value = 5, assumption = "test" }
ras_depth = { value = 4, assumption = "test" }
bht_entries = { value = 64, assumption = "test" }
btb_entries = { value = 8, assumption = "test" }
load_use_latency = { value = 3, assumption = "test" }
trap_entry = { value = 11, assumption = "test" }
trap_return = { value = 13, assumption = "test" }
[cost]
alu = { value = 1, assumption = "test" }
mul = { value = 4, assumption = "test" }
div = { value = 20, assumption = "test" }
load = { value = 1, assumption = "test" }
store = { value = 1, assumption = "test" }
branch = { value = 1, assumption = "test" }
jump = { value = 1, assumption = "test" }
csr_read = { value = 2, assumption = "test" }
csr_write = { value = 3, assumption = "test" }
csr_status_write = { value = 7, source = "a made-up source", unverified = true }
counter_read = { value = 5, assumption = "test" }
fence = { value = 1, assumption = "test" }
fence_i = { value = 1, assumption = "test" }
amo = { value = 1, assumption = "test" }
lr = { value = 1, assumption = "test" }
sc = { value = 1, assumption = "test" }
system = { value = 1, assumption = "test" }
fp = { value = 1, assumption = "test" }
[vector]
present = { value = false, assumption = "test" }
vlen = { value = 0, assumption = "test" }
dlen = { value = 0, assumption = "test" }
vsetvl = { value = 0, assumption = "test" }
whole_reg_base = { value = 0, assumption = "test" }
whole_reg_per_reg = { value = 0, assumption = "test" }
scalar_waits = { value = true, assumption = "test" }
[atomics]
amo_traps = { value = false, assumption = "test" }
monitor_cycles = { value = 0, assumption = "test" }
"#;

fn profile() -> Profile {
    Profile::parse(Path::new("test.toml"), PROFILE).unwrap()
}

#[test]
fn a_block_costs_its_hand_count() {
    // From riscv64-linux-gnu-as -march=rv64gc (.option norvc):
    let words: [u32; 8] = [
        0x00013503, // ld a0, 0(sp)        load, pairable: 1/2
        0x00150593, // addi a1, a0, 1      alu 1/2, uses a0 right after the load: stall 3-1 = 2
        0x14051073, // csrw sscratch, a0   CSR write: 3
        0x14102573, // csrr a0, sepc       CSR read: 2
        0x10052073, // csrs sstatus, a0    status write: 7
        0xc0002573, // rdcycle a0          counter read: 5
        0x02b50633, // mul a2, a0, a1      mul, pairable: 4/2
        0x10200073, // sret                system 1, and a trap return (completed): 13
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let insns = decode_range(0x1000, &bytes);
    let p = profile();
    let m = CostModel::new(&p);
    let t = m.build(&insns);
    let mut by: std::collections::BTreeMap<Cat, u64> = Default::default();
    let mut prev = 0;
    for (i, d) in insns.iter().enumerate() {
        let at = At {
            i,
            prev_load: prev,
            completed: true,
            misp: None,
        };
        m.charge(&t, d, at, |c, v| *by.entry(c).or_default() += v);
        prev = CostModel::load_rd(&t, i);
    }
    let c = |x: Cat| by.get(&x).copied().unwrap_or(0);
    // 0.5 (ld) + 0.5 (addi) + 2 (mul 4/2) + 1 (sret) = 4 cycles of class costs.
    assert_eq!(c(Cat::Instructions), 4 * MILLI);
    assert_eq!(c(Cat::LoadUseStalls), 2 * MILLI);
    assert_eq!(c(Cat::CsrWrites), 3 * MILLI);
    assert_eq!(c(Cat::CsrReads), 2 * MILLI);
    assert_eq!(c(Cat::StatusWrites), 7 * MILLI);
    assert_eq!(c(Cat::CounterReads), 5 * MILLI);
    assert_eq!(c(Cat::TrapReturns), 13 * MILLI);
    assert_eq!(m.trap_entry(), 11 * MILLI);
}

#[test]
fn a_mispredict_costs_the_penalty_and_a_trapped_sret_no_return() {
    let insns = decode_range(0x1000, &0x10200073u32.to_le_bytes());
    let p = profile();
    let m = CostModel::new(&p);
    let t = m.build(&insns);
    let mut total = 0;
    let at = At {
        i: 0,
        prev_load: 0,
        completed: false,
        misp: Some(crate::trace::PredKind::Return),
    };
    m.charge(&t, &insns[0], at, |_, v| total += v);
    // sret's own slot (1) + the RAS penalty (5); it did not complete, so no trap return.
    assert_eq!(total, 6 * MILLI);
}

#[test]
fn every_parameter_says_where_it_comes_from() {
    let p = profile();
    assert_eq!(p.unverified(), vec!["csr_status_write"]);
    let row = p
        .rows()
        .into_iter()
        .find(|r| r.0 == "csr_status_write")
        .unwrap();
    assert_eq!(row.2, &Basis::Source("a made-up source".into()));
    let bad = PROFILE.replace(
        r#"alu = { value = 1, assumption = "test" }"#,
        "alu = { value = 1 }",
    );
    let e = Profile::parse(Path::new("bad.toml"), &bad)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("bad.toml:") && e.contains("'alu' needs a `source` or an `assumption`"),
        "{e}"
    );
}

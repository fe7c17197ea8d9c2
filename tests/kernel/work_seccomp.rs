//! seccomp on the minikernel (guest-asm/minikernel/seccomp.S, bpf.S,
//! user_seccomp.S): the per-call instruction counts hand-counted in
//! seccomp.S's comment block, the path each action takes, and an
//! independent oracle: the classic filters decoded from the ELF and run by
//! a small cBPF evaluator written here, against the kernel's action cache
//! and verdicts read from guest memory after the run.

use std::path::Path;

use trapscope::machine::{Machine, Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::stats::Stats;
use trapscope::session::{self, RunOpts, VariantRun};

/// ERRNO, KILL, TRAP, refused filters, and block mode against stepping.
mod actions;
/// Instruction counts against seccomp.S's hand count.
mod costs;
/// A cBPF evaluator against the kernel's cache and verdicts.
mod oracle;

fn scenario() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/seccomp.toml")).unwrap()
}

fn run_opts(s: &Scenario, variant: &str, opts: RunOpts) -> VariantRun {
    session::run_variant(s, s.variant(variant).unwrap(), &opts).unwrap()
}

fn run(s: &Scenario, variant: &str) -> VariantRun {
    run_opts(s, variant, RunOpts::default())
}

/// The machine after running `variant` to its end, for reading guest memory.
fn run_to_end(s: &Scenario, variant: &str) -> (Machine<Stats>, Outcome) {
    run_to_end_with(s, variant, &[])
}

fn run_to_end_with(s: &Scenario, variant: &str, set: &[(&str, u64)]) -> (Machine<Stats>, Outcome) {
    let v = s.variant(variant).unwrap();
    let opts = RunOpts {
        set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..RunOpts::default()
    };
    let mut m = session::build_machine(s, v, &opts).unwrap();
    let o = m.run(&Until {
        max_insns: Some(20_000_000),
        ..Until::default()
    });
    (m, o)
}

fn sym(s: &Scenario, name: &str) -> u64 {
    s.variant("none")
        .unwrap()
        .program
        .symbol(name)
        .unwrap()
        .addr
}

fn phase(r: &VariantRun, p: &str) -> f64 {
    r.insns_per_iteration.get(p).copied().unwrap_or(0.0)
}

fn function(r: &VariantRun, f: &str) -> f64 {
    r.functions_per_iteration
        .iter()
        .find(|x| x.name == f)
        .map_or(0.0, |x| x.instructions)
}

// minikernel-defs.inc / minikernel-seccomp.inc
const TASK_SECCOMP_MODE: u64 = 512;
const TASK_SECCOMP_FILTER: u64 = 520;
const SECCOMP_MODE_FILTER: u32 = 2;
const SECCOMP_MODE_DEAD: u32 = 3;
const SF_CACHE: u64 = 16;
const SF_PROG: u64 = 88;
const NR_SYSCALLS: u32 = 464;
const SYS_GETPPID: u32 = 173;
const AUDIT_ARCH_RISCV64: u32 = 0xc000_00f3;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
const RET_TRAP: u32 = 0x0003_0000;

//! `trapscope bench`: instrumented throughput against raw unicorn on the same
//! guest loop, measured in one run (docs/decisions.md D6).

use std::rc::Rc;
use std::time::Instant;

use serde::Serialize;

use super::{BenchError, Refused, RunOpts, build_machine};
use crate::cost::Profile;
use crate::machine::{Machine, NoObserver, Outcome, Until};
use crate::scenario::{Scenario, Variant};

#[derive(Debug, Serialize)]
pub struct BenchResult {
    pub scenario: String,
    pub variant: String,
    pub core: String,
    pub iterations: u64,
    pub instructions: u64,
    /// Best of `repeats` runs, in seconds.
    pub raw_seconds: f64,
    /// trapscope's hooks (block, intercepts, trap delivery) with no
    /// observer: what instrumenting costs before any accounting.
    pub hooks_seconds: f64,
    pub instrumented_seconds: f64,
    pub single_step_seconds: f64,
    pub raw_minstr_per_s: f64,
    pub hooks_minstr_per_s: f64,
    pub instrumented_minstr_per_s: f64,
    pub single_step_minstr_per_s: f64,
    /// Instrumented throughput over raw throughput.
    pub ratio: f64,
    /// The hooks alone over raw: the ceiling of `ratio`.
    pub hooks_ratio: f64,
    pub repeats: u32,
    /// The same measure on an FP-heavy guest (`bench_fp`).
    pub fp: Option<FpBench>,
}

/// Instrumented against raw throughput on guest-asm/tests/fp_bench.S, whose
/// loop is mostly single-precision and fmin/fmax instructions, which
/// trapscope intercepts (machine/fp.rs).
#[derive(Debug, Serialize)]
pub struct FpBench {
    pub guest: String,
    pub iterations: u64,
    pub instructions: u64,
    pub raw_seconds: f64,
    pub instrumented_seconds: f64,
    pub raw_minstr_per_s: f64,
    pub instrumented_minstr_per_s: f64,
    pub ratio: f64,
    /// trapscope's hooks with no observer over raw: the ceiling of `ratio`.
    pub hooks_ratio: f64,
}

/// The FP figure: the same core model as `bench`, no scenario (the guest is
/// a bare-metal self-test; its knob is written directly).
pub fn bench_fp(core: Rc<Profile>, iterations: u64, repeats: u32) -> Result<FpBench, BenchError> {
    use super::stats::Stats;
    let path = crate::project_dir().join("assets/guest/tests/fp_bench.elf");
    let program = Rc::new(crate::machine::Program::load(&path)?);
    let knob = program
        .symbol("fp_iterations")
        .ok_or(BenchError::NoFpKnob)?
        .addr;
    let budget = u64::MAX / 2;
    let mut instructions = 0;
    let instrumented = best(repeats, || {
        let stats = Stats::on_core(&program, core.clone());
        let mut m = Machine::new(program.clone(), stats)?;
        m.write_u64(knob, iterations);
        let t = Instant::now();
        let o = m.run(&until(budget));
        let dt = t.elapsed().as_secs_f64();
        if !matches!(o, Outcome::Exited(0)) {
            return Err(BenchError::Ended {
                what: "instrumented FP run",
                outcome: o,
            });
        }
        instructions = m.executed();
        Ok(dt)
    })?;
    let bare = |hooked: bool| {
        best(repeats, || {
            let mut m = if hooked {
                Machine::new(program.clone(), NoObserver)
            } else {
                Machine::new_raw(program.clone(), NoObserver)
            }?;
            m.write_u64(knob, iterations);
            let t = Instant::now();
            let o = m.run(&until(budget));
            let dt = t.elapsed().as_secs_f64();
            if !matches!(o, Outcome::Exited(0)) {
                let what = if hooked {
                    "hooks-alone FP run"
                } else {
                    "raw FP run"
                };
                return Err(BenchError::Ended { what, outcome: o });
            }
            Ok(dt)
        })
    };
    let raw = bare(false)?;
    let hooks = bare(true)?;
    let mips = |secs: f64| instructions as f64 / secs / 1e6;
    Ok(FpBench {
        guest: crate::shown_path(&path).display().to_string(),
        iterations,
        instructions,
        raw_seconds: raw,
        instrumented_seconds: instrumented,
        raw_minstr_per_s: mips(raw),
        instrumented_minstr_per_s: mips(instrumented),
        ratio: raw / instrumented,
        hooks_ratio: raw / hooks,
    })
}

fn until(budget: u64) -> Until {
    Until {
        max_insns: Some(budget),
        ..Until::default()
    }
}

fn best<E>(repeats: u32, mut f: impl FnMut() -> Result<f64, E>) -> Result<f64, E> {
    let mut b = f64::INFINITY;
    for _ in 0..repeats {
        b = b.min(f()?);
    }
    Ok(b)
}

pub fn bench(
    s: &Scenario,
    v: &Variant,
    core: Rc<Profile>,
    iterations: u64,
    repeats: u32,
) -> Result<BenchResult, BenchError> {
    // A loop that never ends (a snapshot's init) is timed by count: the
    // count is the iterations.
    let counted = |n: u64| -> Option<Scenario> {
        let mut c = s.clone();
        let m = c.measure.as_mut()?;
        let (warmup, _) = m.count?;
        m.count = Some((warmup, n));
        Some(c)
    };
    if let Some(c) = counted(iterations) {
        let step = counted((iterations / 10).max(1)).unwrap_or_else(|| c.clone());
        return bench_runs(
            &c,
            &step,
            v,
            core,
            iterations,
            repeats,
            Vec::new(),
            Vec::new(),
        );
    }
    let set = vec![("iterations".to_string(), iterations)];
    if s.knob("iterations").is_err() {
        return Err(BenchError::NoIterationsKnob {
            scenario: s.path.clone(),
        });
    }
    let step_set = vec![("iterations".to_string(), (iterations / 10).max(1))];
    bench_runs(s, s, v, core, iterations, repeats, set, step_set)
}

/// The three timed runs: instrumented and raw on `s`, single-stepped on
/// `step_s` (a tenth of the loop), with knob settings for each.
#[allow(clippy::too_many_arguments)]
fn bench_runs(
    s: &Scenario,
    step_s: &Scenario,
    v: &Variant,
    core: Rc<Profile>,
    iterations: u64,
    repeats: u32,
    set: Vec<(String, u64)>,
    step_set: Vec<(String, u64)>,
) -> Result<BenchResult, BenchError> {
    let opts = RunOpts {
        set,
        core: Some(core.clone()),
        ..RunOpts::default()
    };
    let budget = u64::MAX / 2;
    // Instrumented: the full observer with the core model.
    let mut instructions = 0;
    let mut instrumented = || {
        let mut m = build_machine(s, v, &opts)?;
        let t = Instant::now();
        let o = m.run(&until(budget));
        let dt = t.elapsed().as_secs_f64();
        if !matches!(o, Outcome::Exited(0)) {
            return Err(BenchError::Ended {
                what: "instrumented run",
                outcome: o,
            });
        }
        instructions = m.executed();
        Ok(dt)
    };
    // Raw: the same guest and knobs with only trap delivery and tohost.
    // Hooks alone: trapscope's block and intercept hooks with no observer,
    // the most the ratio can be whatever the model costs.
    let bare = |account: bool| -> Result<f64, BenchError> {
        let mut m = if account {
            Machine::new(v.program.clone(), NoObserver)
        } else {
            Machine::new_raw(v.program.clone(), NoObserver)
        }?;
        // A snapshot resumes where it was taken, and its loop ends by count.
        if let Some(r) = &v.resume {
            m.resume(r).map_err(Refused::from)?;
        }
        if let Some(mm) = &s.measure
            && let (Some((w, n)), Some(sym)) = (mm.count, v.program.symbol(&mm.iteration))
        {
            m.end_at(sym.addr, w + n + 1)?;
        }
        for (knob, value) in s.knob_values(v, &opts.set) {
            let sym = v
                .program
                .symbol(&knob.symbol)
                .ok_or(BenchError::KnobSymbol)?;
            m.write_u64(sym.addr, value);
        }
        let t = Instant::now();
        let o = m.run(&until(budget));
        let dt = t.elapsed().as_secs_f64();
        let what = if account { "hooks-alone" } else { "raw" };
        match o {
            Outcome::Exited(0) => {}
            Outcome::Exited(code) => return Err(BenchError::GuestExit { what, code }),
            outcome => {
                let what = if account {
                    "the hooks-alone run"
                } else {
                    "the raw run"
                };
                return Err(BenchError::Ended { what, outcome });
            }
        }
        Ok(dt)
    };
    // Interleaved, so that a busy spell on a shared host falls on all
    // three alike; the best of each.
    let (mut raw, mut hooks, mut inst) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for _ in 0..repeats {
        inst = inst.min(instrumented()?);
        raw = raw.min(bare(false)?);
        hooks = hooks.min(bare(true)?);
    }
    let instrumented = inst;
    // Single-stepping (what the TUI does per key), on a tenth of the loop.
    let step_opts = RunOpts {
        set: step_set,
        ..opts.clone()
    };
    let mut step_insns = 0;
    let step = best(1, || -> Result<f64, BenchError> {
        let mut m = build_machine(step_s, v, &step_opts)?;
        let t = Instant::now();
        while m.step() == Outcome::Stepped {}
        step_insns = m.executed();
        Ok(t.elapsed().as_secs_f64())
    })?;
    let mips = |secs: f64, n: u64| n as f64 / secs / 1e6;
    Ok(BenchResult {
        scenario: s.path.display().to_string(),
        variant: v.name.clone(),
        core: core.name.clone(),
        iterations,
        instructions,
        raw_seconds: raw,
        hooks_seconds: hooks,
        instrumented_seconds: instrumented,
        single_step_seconds: step,
        raw_minstr_per_s: mips(raw, instructions),
        hooks_minstr_per_s: mips(hooks, instructions),
        instrumented_minstr_per_s: mips(instrumented, instructions),
        single_step_minstr_per_s: mips(step, step_insns),
        ratio: raw / instrumented,
        hooks_ratio: raw / hooks,
        repeats,
        fp: Some(bench_fp(core.clone(), iterations, repeats)?),
    })
}

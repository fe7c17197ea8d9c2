//! Running a scenario's variant: build the machine, apply the knobs, run to
//! the end, and collect what the reports show.

pub mod band;
pub mod bench;
pub mod bench_guests;
pub mod callstack;
pub mod checkpoint;
mod clock;
mod error;
mod estimate;
pub mod functions;
pub mod guests;
mod job;
mod outcome;
pub mod path;
pub mod phases;
mod recorder;
pub mod source;
pub mod stats;
pub mod stream;
pub mod tape;
pub mod timeline;

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Serialize;

use crate::cost::Profile;
use crate::machine::{Machine, MachineConfig, Outcome, Until};
use crate::scenario::{Scenario, Variant};
use crate::trace::{EventLog, GuestFault};
pub use band::EstimateBand;
pub use error::{BenchError, Refused, SessionError};
pub use estimate::{Estimate, HotLine};
pub use functions::FunctionFigure;
pub use job::VariantJob;
pub use outcome::describe_outcome;
use stats::{CoreModel, Markers, PhaseMap, Stats};

/// How to run.
#[derive(Clone, Debug, Default)]
pub struct RunOpts {
    /// Knob overrides (`--set`), applied after the variant's values.
    pub set: Vec<(String, u64)>,
    /// Instruction budget; the scenario's when `None`.
    pub budget: Option<u64>,
    /// Keep this many events in the log (0: none).
    pub log_events: usize,
    /// Single-step every instruction instead of running by blocks.
    pub single_step: bool,
    /// The core whose cycles to estimate (none: instructions only).
    pub core: Option<Rc<Profile>>,
    /// Probes placed besides the scenario's (addresses).
    pub probes: Vec<u64>,
    /// How the machine is built (`--mem-limit`, `--strict-segments`).
    pub machine: MachineConfig,
    /// The time-travel history the machine may hold, its checkpoints and
    /// block stream (`Stats::set_history`); `None`: `MACHINE_HISTORY`.
    pub history: Option<usize>,
    /// Keep the tape a band is costed from (`session::band`), with a core.
    pub bands: bool,
    /// With `bands`: keep the band input but leave the estimate's own band
    /// unmade (a report that bands only some figures, as `fidelity` does).
    pub band_later: bool,
}

/// `RunOpts::history` for a run nothing goes back in (the command line's
/// reports, the TUI's whole runs): no block stream, which only
/// reverse-continue reads (32 MiB otherwise, and a push per block).
pub const NO_HISTORY: Option<usize> = Some(0);

/// What one variant's run produced (the JSON shape of `run --format json`).
#[derive(Clone, Debug, Serialize)]
pub struct VariantRun {
    pub variant: String,
    pub label: String,
    pub knobs: BTreeMap<String, u64>,
    /// "exited", "loop-ended" (a loop that never ends ran its timed
    /// iterations: `Machine::end_at`), "budget", "fault", ...
    pub outcome: String,
    pub exit_code: Option<u64>,
    pub error: Option<String>,
    pub instructions: u64,
    pub traps: u64,
    /// Instructions per phase over the whole run.
    pub phases: BTreeMap<String, u64>,
    /// Iterations of the measured loop (1 for a scenario without one: the
    /// per-iteration figures are then the whole run's).
    pub iterations: u64,
    /// Whether the measured window ended before the run did (false: the run
    /// stopped inside it, and the figures cover only what ran).
    pub window_closed: bool,
    /// Instructions per phase per iteration of the measured window (and "total").
    pub insns_per_iteration: BTreeMap<String, f64>,
    pub traps_per_iteration: f64,
    /// Vector instructions per iteration, per phase (phases that ran any).
    pub vector_per_iteration: BTreeMap<String, f64>,
    /// Instructions (and modelled cycles, with a core) per function symbol
    /// per iteration of the window, in the order each first ran in it.
    pub functions_per_iteration: Vec<FunctionFigure>,
    /// Events per iteration of the window, by kind.
    pub events_per_iteration: BTreeMap<String, f64>,
    /// Events by kind over the whole run.
    pub events: BTreeMap<String, u64>,
    /// The call stack: its deepest point and the returns that did not match.
    pub call_stack: callstack::Summary,
    /// The cycle estimate, when a core was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
    /// LR/SC: successes, failures, the longest run of failures of one SC
    /// retrying its LR (`max_retries`) and of any one SC (`max_fail_run`),
    /// failures holding no reservation (`sc_unreserved`), LRs run (`lr`),
    /// and 1 if the run stopped as a livelock.
    pub lrsc: BTreeMap<String, f64>,
    /// Interrupts taken over the whole run, by kind (`s_timer`, `m_timer`,
    /// ...: `machine::irq::key`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub interrupts: BTreeMap<String, u64>,
    /// What the guest wrote to the UART.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uart: String,
    /// The scenario's `[results]`: guest values read at the end.
    pub results: BTreeMap<String, f64>,
    /// Their names, where the scenario gives them (e.g. "fast").
    pub result_names: BTreeMap<String, String>,
    /// The events kept (a clone of the run's log, sharing its chunks: a
    /// million events are held once, not copied).
    #[serde(skip_serializing_if = "EventLog::is_empty")]
    pub log: EventLog,
    /// Events the bounded log dropped before those in `log`.
    #[serde(skip_serializing_if = "is_zero")]
    pub log_dropped: u64,
    /// The run's tape and model, for bands (with `RunOpts::bands`).
    #[serde(skip)]
    pub band_input: Option<Rc<band::BandInput>>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A machine set up for a variant: knobs written, observer attached.
pub fn build_machine(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
) -> Result<Machine<Stats>, SessionError> {
    // Every way a run starts (run, compare, diff, the TUI) refuses an
    // unknown knob or a value past its range.
    scenario.check_set(&opts.set)?;
    let program = variant.program.clone();
    let map = Rc::new(PhaseMap::new(&program, &scenario.phases));
    let addr = |s: &str| program.symbol(s).map(|x| x.addr);
    let markers = match &scenario.measure {
        Some(m) => Markers {
            start: m.start.as_deref().and_then(addr),
            end: m.end.as_deref().and_then(addr),
            iteration: addr(&m.iteration),
            count: m.count,
        },
        None => Markers::default(),
    };
    let log = EventLog::new(opts.log_events.max(1), true);
    let core = opts.core.clone().or_else(|| variant.core.clone());
    // A snapshot's kernel was told its platform's timebase: the model's
    // clock ticks mtime at that rate, at the core's modelled speed.
    let timebase = variant.resume.as_ref().and_then(|r| r.timebase_hz);
    let model = core
        .clone()
        .map(|p| CoreModel::new(clock::with_timebase(p, timebase)));
    let mut stats = Stats::new(map, program.clone(), model, markers, log);
    if let Some(h) = opts.history {
        stats.set_history(h);
    }
    if opts.bands && stats.model.is_some() {
        stats.tape = Some(tape::Tape::default());
    }
    let mut m = Machine::with_config(program.clone(), stats, opts.machine)?;
    let core = core.or_else(|| scenario.cores.first().cloned());
    if let Some(p) = core.as_ref() {
        m.set_amo_traps(p.atomics.amo_traps.value);
    }
    let l = &scenario.lrsc;
    m.set_lrsc(l.xret_clears, l.remote_store_every, l.livelock_after);
    let mut probes: Vec<u64> = scenario
        .probes
        .iter()
        .filter_map(|p| program.symbol(p).map(|s| s.addr))
        .collect();
    probes.extend(&opts.probes);
    if !probes.is_empty() {
        m.set_probes(&probes)?;
    }
    // The V unit takes the core's VLEN; without a core, the scenario's first.
    if let Some(p) = core.as_ref()
        && p.vector.present.value
        && p.vector_isa == "v1.0"
    {
        m.enable_vector(p.vector.vlen.value);
    }
    if let Some(r) = &variant.resume {
        m.resume(r).map_err(|e| SessionError::Resume {
            variant: variant.name.clone(),
            snapshot: program.path.clone(),
            core: core
                .as_ref()
                .map_or("none", |p| p.name.as_str())
                .to_string(),
            err: Refused::from(e),
        })?;
    }
    // A loop that never ends (a real kernel's init) ends the run after the
    // timed iterations.
    if let (Some(at), Some((warmup, timed))) = (
        markers.iteration,
        scenario.measure.as_ref().and_then(|m| m.count),
    ) {
        m.end_at(at, warmup + timed + 1)?;
    }
    for (knob, value) in scenario.knob_values(variant, &opts.set) {
        let sym = program
            .symbol(&knob.symbol)
            .ok_or_else(|| SessionError::KnobSymbol {
                knob: knob.name.clone(),
                symbol: knob.symbol.clone(),
            })?;
        if !m.write_u64(sym.addr, value) {
            return Err(SessionError::KnobWrite {
                knob: knob.name,
                symbol: knob.symbol,
            });
        }
    }
    Ok(m)
}

pub fn run_variant(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
) -> Result<VariantRun, SessionError> {
    scenario.check_set(&opts.set)?;
    let mut m = build_machine(scenario, variant, opts)?;
    let budget = opts.budget.unwrap_or(scenario.budget);
    let outcome = if opts.single_step {
        let mut o = Outcome::Stepped;
        while o == Outcome::Stepped {
            o = if m.executed() >= budget {
                Outcome::Budget
            } else {
                m.step()
            };
        }
        o
    } else {
        // By blocks, then one instruction at a time up to the budget, so a
        // budget stop is at the same instruction as when single-stepping.
        match run_to(&mut m, budget) {
            Outcome::Stepped => Outcome::Budget,
            o => o,
        }
    };
    if outcome == Outcome::Budget {
        m.note_budget_exhausted();
    }
    let tape = m.observer_mut().tape.take();
    let mut run = report(scenario, variant, opts, &m, outcome, budget);
    job::keep_band(&mut run, m.observer(), tape, scenario, !opts.band_later);
    Ok(run)
}

/// What a finished run of `variant` produced.
pub(crate) fn report(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
    m: &Machine<Stats>,
    outcome: Outcome,
    budget: u64,
) -> VariantRun {
    let (name, exit_code, error) = describe_outcome(&outcome, m, budget);
    let stats = m.observer();
    let names = &stats.map.names;
    let keep = |v: u64| v > 0;
    let phases = names
        .iter()
        .zip(&stats.now.phase)
        .filter(|(_, v)| keep(**v))
        .map(|(n, v)| (n.clone(), *v))
        .collect();
    let w = stats.window();
    // Without a measured loop, the whole run is the one "iteration".
    let whole_run = scenario.measure.is_none();
    let iters = if whole_run { 1 } else { stats.iterations };
    let window_closed = whole_run || stats.window_end.is_some();
    let per = |v: u64| {
        if iters > 0 {
            v as f64 / iters as f64
        } else {
            0.0
        }
    };
    let mut ipi: BTreeMap<String, f64> = names
        .iter()
        .zip(&w.phase)
        .filter(|(_, v)| keep(**v))
        .map(|(n, v)| (n.clone(), per(*v)))
        .collect();
    if iters > 0 {
        ipi.insert("total".into(), per(w.phase.iter().sum()));
    }
    let estimate = estimate::estimate(stats, &w, iters, per);
    let t = m.lrsc();
    let lrsc: BTreeMap<String, f64> = [
        ("sc_success", t.successes as f64),
        ("sc_fail", t.fails as f64),
        ("max_retries", f64::from(t.max_retries)),
        ("max_fail_run", f64::from(t.max_fail_run)),
        ("sc_unreserved", t.unreserved as f64),
        ("lr", t.lrs() as f64),
        (
            "livelock",
            f64::from(u8::from(matches!(
                outcome,
                Outcome::Fault(GuestFault::Livelock { .. })
            ))),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let mut results = BTreeMap::new();
    let mut result_names = BTreeMap::new();
    for r in &scenario.results {
        let v = variant
            .program
            .symbol(&r.symbol)
            .and_then(|s| m.read_u64(s.addr))
            .unwrap_or(0);
        results.insert(r.name.clone(), v as f64);
        if let Some(n) = r.names.get(&v) {
            result_names.insert(r.name.clone(), n.clone());
        }
    }
    let (log, log_dropped) = if opts.log_events > 0 {
        (stats.log.clone(), stats.log.dropped())
    } else {
        (EventLog::new(1, true), 0)
    };
    VariantRun {
        variant: variant.name.clone(),
        label: variant.label.clone(),
        knobs: scenario
            .knob_values(variant, &opts.set)
            .into_iter()
            .map(|(k, v)| (k.name, v))
            .collect(),
        outcome: name.into(),
        exit_code,
        error,
        instructions: m.executed(),
        traps: stats.now.traps,
        phases,
        iterations: iters,
        window_closed,
        insns_per_iteration: ipi,
        traps_per_iteration: per(w.traps),
        vector_per_iteration: names
            .iter()
            .zip(&w.vector)
            .filter(|(_, v)| **v > 0)
            .map(|(n, v)| (n.clone(), per(*v)))
            .chain([("total".to_string(), per(w.vector.iter().sum()))])
            .collect(),
        functions_per_iteration: stats.functions.per_iteration(iters, stats.model.is_some()),
        events_per_iteration: w
            .events
            .iter()
            .map(|(k, v)| (k.to_string(), per(*v)))
            .collect(),
        events: stats
            .now
            .events
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect(),
        call_stack: callstack::Summary::new(&stats.stack, per(w.mismatched_returns)),
        estimate,
        lrsc,
        interrupts: stats
            .interrupts
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect(),
        uart: String::from_utf8_lossy(m.uart_output()).into_owned(),
        results,
        result_names,
        log,
        log_dropped,
        band_input: None,
    }
}

/// Runs `m` on until exactly `target` instructions have executed: by blocks
/// while whole blocks fit, then one instruction at a time. Returns why it
/// stopped (`Stepped` when it got there).
pub fn run_to<O: crate::machine::Observer>(m: &mut Machine<O>, target: u64) -> Outcome {
    if m.executed() < target {
        match m.run(&Until {
            max_insns: Some(target - m.executed()),
            ..Until::default()
        }) {
            Outcome::Budget => {}
            o => return o,
        }
    }
    while m.executed() < target {
        match m.step() {
            Outcome::Stepped => {}
            o => return o,
        }
    }
    Outcome::Stepped
}

/// Stepping back: a fresh machine re-executed deterministically to `target`
/// instructions (docs/decisions.md D6, D7). Nothing is recorded per step,
/// so going back costs time, not memory.
pub fn rewind(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
    target: u64,
) -> Result<(Machine<Stats>, Outcome), SessionError> {
    let mut m = build_machine(scenario, variant, opts)?;
    let o = run_to(&mut m, target);
    Ok((m, o))
}

//! Scenarios: what to run (guest, knobs, variants), how to read it (phases,
//! the measured window, narration) and what must hold (expectations).
//! Errors point into the file as `file:line:col`.

mod convert;
mod dto;
mod exit_codes;
pub mod expect;
mod seed_table;
mod snapshots;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use expect::{Check, Expr, Operand};
pub use seed_table::{SeedRow, SeedTable};
pub use snapshots::{SnapshotVariant, snapshot_variants};

use crate::cost::Profile;
pub use crate::located::{Locator, ScenarioError};
use crate::machine::Program;

#[derive(Debug, Clone)]
pub struct Knob {
    pub name: String,
    pub symbol: String,
    pub default: u64,
    /// The largest value it takes (`max` in the file), if bounded.
    pub max: Option<u64>,
    pub help: String,
}

/// Why a knob setting is refused (`Scenario::knob`, `Knob::check`,
/// `Scenario::check_set`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnobError {
    /// No knob of that name; `known` are the scenario's.
    #[error("unknown knob '{name}' (knobs: {})", known.join(", "))]
    Unknown { name: String, known: Vec<String> },
    /// Past the knob's `max`; `help` says what its values mean.
    #[error(
        "knob {knob} = {value} is out of range: it takes 0 to {max}{}",
        if help.is_empty() { String::new() } else { format!(" ({help})") }
    )]
    OutOfRange {
        knob: String,
        value: u64,
        max: u64,
        help: String,
    },
}

/// A variant name the scenario lacks (`Scenario::variant`): the scenario's
/// file and its variants.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant '{name}' in {} (variants: {})",
    file.display(),
    known.join(", ")
)]
pub struct UnknownVariant {
    pub name: String,
    pub file: PathBuf,
    pub known: Vec<String>,
}

impl Knob {
    /// Refuses a value past the knob's `max`, in one line with what the
    /// knob's values mean.
    pub fn check(&self, value: u64) -> Result<(), KnobError> {
        match self.max {
            Some(max) if value > max => Err(KnobError::OutOfRange {
                knob: self.name.clone(),
                value,
                max,
                help: self.help.clone(),
            }),
            _ => Ok(()),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub label: String,
    pub program: Rc<Program>,
    /// Knob values that differ from the defaults.
    pub knobs: BTreeMap<String, u64>,
    /// The core it runs on, when variants are cores.
    pub core: Option<Rc<Profile>>,
    /// Where a snapshot variant's hart resumes (None: the ELF's entry).
    pub resume: Option<Rc<crate::machine::ResumeState>>,
}

/// LR/SC behaviour of the machine (see `Machine::set_lrsc`).
#[derive(Debug, Clone)]
pub struct Lrsc {
    pub xret_clears: bool,
    pub remote_store_every: u64,
    pub livelock_after: u32,
}

/// A guest value read at the end of a run.
#[derive(Debug, Clone)]
pub struct ResultSpec {
    pub name: String,
    pub symbol: String,
    pub names: BTreeMap<u64, String>,
}

#[derive(Debug, Clone)]
pub struct Measure {
    /// Start and end symbols; both None when `count` times the loop.
    pub start: Option<String>,
    pub end: Option<String>,
    pub iteration: String,
    /// (warm-up, timed) iterations of a loop that never ends: the window
    /// opens at the iteration marker's warm-up+1-th execution and the run
    /// ends at its warm-up+timed+1-th.
    pub count: Option<(u64, u64)>,
}

#[derive(Debug, Clone)]
pub struct Narration {
    pub at: String,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct Expect {
    pub name: String,
    pub check: Check,
    /// Only on this core.
    pub core: Option<String>,
    /// `file:line:col` of the check, for reports.
    pub loc: String,
}

/// Where a script step runs to.
#[derive(Debug, Clone, PartialEq)]
pub enum StepTarget {
    Symbol(String),
    Event(crate::trace::EventKind),
}

/// The scenario's `start_at`: the `count`-th time the hart is about to
/// execute `location` (`SYMBOL`, `SYMBOL+0xOFF`, `file.S:LINE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartAt {
    pub location: String,
    pub count: u64,
}

/// One step of a lesson.
#[derive(Debug, Clone)]
pub struct ScriptStep {
    /// `Symbol` holds a location as `Program::locate` reads it.
    pub target: StepTarget,
    /// The step ends at the `count`-th arrival (or event) since it began.
    pub count: u64,
    pub variant: Option<String>,
    pub say: String,
    pub highlight: Option<String>,
}

/// Panes a script may highlight (the TUI's names).
pub const PANES: [&str; 17] = [
    "source",
    "registers",
    "csrs",
    "privilege",
    "ras",
    "cycles",
    "events",
    "narration",
    "vector",
    "vs",
    "reservation",
    "fp",
    "ptregs",
    "backtrace",
    "memory",
    "stack",
    "diff",
];

/// A figure measured on hardware (never an input to the estimate).
#[derive(Debug, Clone)]
pub struct Reference {
    pub core: String,
    pub variant: String,
    pub ns: Option<f64>,
    /// Cycles per iteration, when the source gives cycles.
    pub cycles: Option<f64>,
    /// A figure per event: (phase, events per iteration); the estimate is
    /// the phase's cycles per iteration over the count.
    pub per_event: Option<(String, f64)>,
    /// false: from another architecture or setup; never given a ratio.
    pub comparable: bool,
    pub what: String,
    pub source: String,
}

/// Two variants read as before and after: reports give after − before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub before: String,
    pub after: String,
    pub label: String,
    /// true when the file declares no `[[pair]]`: every variant against
    /// the first.
    pub implicit: bool,
}

#[derive(Debug, Clone)]
pub struct Scenario {
    pub path: PathBuf,
    pub title: String,
    pub patch: String,
    pub summary: String,
    pub budget: u64,
    pub knobs: Vec<Knob>,
    pub variants: Vec<Variant>,
    /// Phase name → symbols whose code belongs to it.
    pub phases: Vec<(String, Vec<String>)>,
    pub measure: Option<Measure>,
    pub narration: Vec<Narration>,
    pub expect: Vec<Expect>,
    pub cores: Vec<Rc<Profile>>,
    /// `file:line:col` of its `cores` list, or of its first variant when
    /// it has none (for "names no cores").
    pub cores_loc: String,
    pub references: Vec<Reference>,
    /// Before/after pairs, declared or implicit (none when the variants
    /// are cores).
    pub pairs: Vec<Pair>,
    pub script: Vec<ScriptStep>,
    /// Where the TUI opens (`start_at`), if the scenario says.
    pub start_at: Option<StartAt>,
    pub lrsc: Lrsc,
    pub probes: Vec<String>,
    /// The probes the LR/SC checker rejects (placed anyway), and why.
    pub probe_rejections: Vec<(String, crate::atomics::checker::ProbeRejected)>,
    pub results: Vec<ResultSpec>,
    /// `[seed_table]`: rows `compare` prints in a seed's own form.
    pub seed_table: Option<SeedTable>,
    /// `[exit_codes]`: what the guest's own exit codes mean.
    pub exit_codes: BTreeMap<u64, String>,
}

/// Default instruction budget per run.
pub const DEFAULT_BUDGET: u64 = 50_000_000;

impl Scenario {
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        Scenario::parse(path, &Locator::read(path, "scenario")?)
    }

    pub fn variant(&self, name: &str) -> Result<&Variant, UnknownVariant> {
        self.variants
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| UnknownVariant {
                name: name.to_string(),
                file: self.path.clone(),
                known: self.variants.iter().map(|v| v.name.clone()).collect(),
            })
    }

    pub fn variant_names(&self) -> Vec<&str> {
        self.variants.iter().map(|v| v.name.as_str()).collect()
    }

    pub fn knob(&self, name: &str) -> Result<&Knob, KnobError> {
        self.knobs
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| KnobError::Unknown {
                name: name.to_string(),
                known: self.knobs.iter().map(|k| k.name.clone()).collect(),
            })
    }

    /// Checks `--set` (or `:set`) values: known knobs, each within its
    /// range.
    pub fn check_set(&self, set: &[(String, u64)]) -> Result<(), KnobError> {
        for (k, v) in set {
            self.knob(k)?.check(*v)?;
        }
        Ok(())
    }

    /// The knob values a variant runs with, `overrides` applied last.
    pub fn knob_values(&self, v: &Variant, overrides: &[(String, u64)]) -> Vec<(Knob, u64)> {
        self.knobs
            .iter()
            .map(|k| {
                let mut val = v.knobs.get(&k.name).copied().unwrap_or(k.default);
                if let Some((_, o)) = overrides.iter().rev().find(|(n, _)| *n == k.name) {
                    val = *o;
                }
                (k.clone(), val)
            })
            .collect()
    }

    /// The figure measured for (core, variant) that an estimate may stand
    /// beside (`comparable` ones only).
    pub fn reference(&self, core: &str, variant: &str) -> Option<&Reference> {
        self.references
            .iter()
            .find(|r| r.comparable && r.core == core && r.variant == variant)
    }

    /// The first pair whose `after` is this variant.
    pub fn pair_of(&self, after: &str) -> Option<&Pair> {
        self.pairs.iter().find(|p| p.after == after)
    }

    pub fn narration_for(&self, symbol: &str) -> Option<&str> {
        self.narration
            .iter()
            .find(|n| n.at == symbol)
            .map(|n| n.text.as_str())
    }
}

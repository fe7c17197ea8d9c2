//! What can go wrong running a scenario's variant (`SessionError`: building
//! its machine, time travel, recording an iteration) and timing trapscope
//! itself (`BenchError`), and a machine's refusal of a saved state in the
//! words a run gives it (`Refused`).

use std::path::PathBuf;

use super::path::Which;
use crate::machine::{LoadError, Outcome};
use crate::program::ElfError;
use crate::scenario::KnobError;

/// A machine's refusal of a saved state (`Machine::resume`) as a run words
/// it: the emulator's own words bare, and a snapshot with vector state on a
/// core without V with the cores that have one. Boxed, so that the errors
/// holding it stay small.
#[derive(Debug, thiserror::Error)]
#[error("{}", refusal(.0))]
pub struct Refused(pub Box<LoadError>);

impl From<LoadError> for Refused {
    fn from(e: LoadError) -> Refused {
        Refused(Box::new(e))
    }
}

fn refusal(e: &LoadError) -> String {
    match e {
        LoadError::Emulator(m) => m.to_string(),
        LoadError::NoVectorUnit { vlen } => {
            format!("{e}: {}", crate::cost::Profile::advice_for_vlen(*vlen))
        }
        e => e.to_string(),
    }
}

/// Why a variant could not be run, recorded or travelled in:
/// `build_machine` (and so every way a run starts), `run_variant`,
/// `rewind`, `VariantJob`, `timeline::record`, `path::record`,
/// `iteration_figures` and `Checkpoints`. One type for all of them, since
/// the TUI takes a checkpoint's error and a rebuilt machine's in one
/// expression.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// An unknown knob or a value past its range (`--set`, `:set`).
    #[error(transparent)]
    Knob(#[from] KnobError),
    /// The machine refused the guest, a probe or the loop's end, in
    /// `LoadError`'s own words.
    #[error(transparent)]
    Machine(#[from] LoadError),
    /// The machine refused the snapshot's hart state.
    #[error("variant '{variant}' (snapshot {}, core {core}): {err}", snapshot.display())]
    Resume {
        variant: String,
        snapshot: PathBuf,
        core: String,
        err: Refused,
    },
    #[error("knob '{knob}': symbol '{symbol}' missing")]
    KnobSymbol { knob: String, symbol: String },
    #[error("knob '{knob}': cannot write symbol '{symbol}'")]
    KnobWrite { knob: String, symbol: String },
    /// The machine could not track writes, take or restore a checkpoint.
    #[error(transparent)]
    Checkpoint(#[from] crate::machine::CheckpointError),
    #[error("no checkpoint at or before instruction {target} (the run starts later)")]
    NoCheckpoint { target: u64 },
    #[error(
        "{}: the scenario has no measured loop ([measure]), so it has no iteration to diff",
        scenario.display()
    )]
    NoLoop { scenario: PathBuf },
    #[error("internal: the path recorder went missing")]
    NoRecorder,
    /// The run ended before iteration `which` completed: `began` measured
    /// iterations began, and `end` is how the run ended when that was not
    /// a clean exit (`describe_outcome`'s words, or the exit code's).
    #[error(
        "variant '{variant}': {} ({}){}",
        which_words(*which),
        began_words(*began),
        end.as_ref().map_or_else(String::new, |e| format!(": {e}"))
    )]
    Incomplete {
        variant: String,
        which: Which,
        began: u64,
        end: Option<String>,
    },
}

fn which_words(which: Which) -> String {
    match which {
        Which::Nth(n) => format!("iteration {n} never completed"),
        Which::Last => "no iteration completed".into(),
    }
}

fn began_words(began: u64) -> String {
    match began {
        0 => "no measured iteration began".to_string(),
        1 => "1 measured iteration began".to_string(),
        n => format!("{n} measured iterations began"),
    }
}

/// Why `bench` could not time a run: `bench::bench`, `bench_fp`, and the
/// generated guests of `bench_guests`.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Run(#[from] SessionError),
    #[error(transparent)]
    Elf(#[from] ElfError),
    #[error(transparent)]
    Machine(#[from] LoadError),
    #[error(transparent)]
    Resume(#[from] Refused),
    #[error("fp_bench.elf has no fp_iterations")]
    NoFpKnob,
    #[error("knob symbol missing")]
    KnobSymbol,
    #[error(
        "{}: bench runs a scenario's loop a given number of times through its `iterations` knob, and this scenario has none (the scalar benchmark scenarios have it: ras-trap-entry.toml, zalrsc-atomics.toml)",
        scenario.display()
    )]
    NoIterationsKnob { scenario: PathBuf },
    /// A timed run (`what`: "instrumented run", "the raw run", "generated
    /// FP guest", ...) did not exit with 0.
    #[error("{what} ended with {outcome:?}")]
    Ended {
        what: &'static str,
        outcome: Outcome,
    },
    /// A run without trapscope's help (`what`: "raw", "hooks-alone")
    /// exited with a code other than 0.
    #[error(
        "the {what} run (unicorn alone: no V unit, no intercepts) ended with guest exit code {code}, so there is nothing to compare; bench needs a guest that unicorn runs unaided, such as the scalar scenarios"
    )]
    GuestExit { what: &'static str, code: u64 },
    #[error("interrupted")]
    Interrupted,
    #[error("no run")]
    NoRun,
}

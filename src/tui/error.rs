//! What can go wrong in the TUI and its headless uses (`run --script`,
//! `bench`'s latencies): opening it, finding where it starts, a lesson's
//! step, recording one, a search, the debug commands' addresses, the diff
//! view. The status line shows these after its own prefix (`/QUERY: `,
//! `x: `, `recording: `, ...); the CLI prints them as they are.

use std::path::PathBuf;

use crate::machine::CheckpointError;
use crate::machine::LookupError;
use crate::output::WriteError;
use crate::qemu::take::TakeError;
use crate::report::pathdiff::DiffError;
use crate::scenario::ScenarioError;
use crate::session::SessionError;

/// Why the TUI could not do what was asked. One type for the whole room,
/// since its actions call one another (the start plays a lesson's step,
/// a replay goes to the start) and the status line shows any of them.
#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// `trapscope SCENARIO` with stdin or stdout not a terminal.
    #[error(
        "the TUI needs a terminal; for output to a pipe use `trapscope run` or `trapscope compare`"
    )]
    NoTerminal,
    /// The terminal could not be measured or drawn on.
    #[error(transparent)]
    Terminal(#[from] std::io::Error),
    /// A variant's machine could not be built, rewound or recorded.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// A location (the scenario's `start_at`, `:x`'s and `:watch`'s
    /// address) that names no instruction or address.
    #[error(transparent)]
    Location(#[from] LookupError),
    /// A lesson step's location names no instruction.
    #[error("script: {0}")]
    ScriptLocation(LookupError),
    /// `start_at`'s location was reached `seen` times of `count`; `end` is
    /// how the run then ended (`session::describe_outcome`'s short name:
    /// "exited", "budget", ...).
    #[error("start_at {location} (count {count}): reached {seen} times, then {end}")]
    StartAtMissed {
        location: String,
        count: u64,
        seen: u64,
        end: &'static str,
    },
    /// The lesson's first step, played from power-on, ended elsewhere;
    /// `end` is how (`describe_outcome`'s short name).
    #[error("the lesson's first step does not arrive ({end})")]
    FirstStepMissed { end: &'static str },
    /// `run --script` on a scenario without a lesson.
    #[error("{} has no [[script]] steps", scenario.display())]
    NoScript { scenario: PathBuf },
    /// Recording: the machine rewound to the step's start stopped short.
    #[error("the step's start cannot be reached again")]
    StepStartLost,
    /// Recording: the run from the step's start never arrives at `at` as
    /// often as the live machine did.
    #[error("{at} is not reached again")]
    NotReachedAgain { at: String },
    /// Recording: the run from the step's start arrives at `at` only past
    /// the live machine's instruction count, never at it (the live stop
    /// is inside what the machine runs as one step).
    #[error("this stop is inside a step the machine cannot stop in ({at})")]
    InsideStep { at: String },
    #[error("no match in the source files")]
    NoSourceMatch,
    #[error("no match in the events shown (f changes the filter)")]
    NoEventMatch,
    #[error("no match in the disassembly")]
    NoCodeMatch,
    /// The disassembly search decoded its limit (`mib` MiB) of code
    /// without a match.
    #[error("no match in the {mib} MiB of code searched")]
    CodeLimit { mib: u64 },
    /// `:x` or `:watch` without an argument.
    #[error("give an address or a symbol")]
    NoAddress,
    /// Decimal digits past 2^64 - 1 given as an address.
    #[error("'{digits}' is past the 64-bit address space")]
    AddressTooLarge { digits: String },
    /// The count after the address (`what`: "byte count", "length") is
    /// not a positive number.
    #[error("'{arg}' is not a {what}")]
    NotACount { arg: String, what: &'static str },
    /// A word after the address and the count.
    #[error("'{extra}': one address and one {what} at most")]
    TooManyArguments { extra: String, what: &'static str },
    /// The diff view on a scenario with one variant.
    #[error("the diff needs two variants")]
    NoPair,
    #[error(transparent)]
    Diff(#[from] DiffError),
    /// `bench`: SIGINT reached the process during a measurement.
    #[error("interrupted")]
    Interrupted,
    /// `bench`: the guest exited after `executed` instructions, short of
    /// the depth to measure at.
    #[error("the guest ended after {executed} instructions, before {depth}")]
    EndedBefore { executed: u64, depth: u64 },
    /// `bench`: the machine could not take or restore a checkpoint.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// `bench` on a snapshot: the snapshot could not be taken.
    #[error(transparent)]
    Take(#[from] TakeError),
    /// `bench` on a snapshot: its scratch directory or scenario could not
    /// be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// `bench` on a snapshot: the scenario written for it did not load.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
}

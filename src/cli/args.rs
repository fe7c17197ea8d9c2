//! The command line's grammar: the options and subcommands clap parses
//! (their help texts are the `--help` users read); `mod.rs` dispatches them.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use super::machine_args::MachineArgs;
use super::shared::DEFAULT_ELF_BUDGET;
use super::{snapshot, verify};
use crate::report::{Format, RunFormat};

#[derive(Parser, Debug)]
#[command(
    name = "trapscope",
    version,
    about = "Step an emulated RISC-V guest through kernel trap entry and exit, and see where a patch saves or loses time"
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) cmd: Option<Cmd>,
    /// Scenario to open in the TUI (default: scenarios/ras-trap-entry.toml).
    pub(super) scenario: Option<PathBuf>,
    /// Play the scenario's lesson ([[script]]): Space advances it.
    #[arg(long)]
    pub(super) autoplay: bool,
    /// Core to estimate cycles for in the TUI (default: the scenario's first).
    #[arg(long)]
    pub(super) core: Option<String>,
    /// The most memory the TUI's time-travel history (checkpoints and block
    /// streams, all variants together) holds, in MiB; past it the history
    /// is thinned, and going back re-executes from an earlier checkpoint.
    #[arg(long, value_name = "MIB", default_value_t = crate::session::checkpoint::DEFAULT_HISTORY_MIB as u64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub(super) history_mib: u64,
    #[command(flatten)]
    pub(super) machine: MachineArgs,
}

#[derive(Subcommand, Debug)]
pub(super) enum Cmd {
    /// Run a scenario's variants headless and report what executed.
    Run {
        scenario: PathBuf,
        /// Only this variant (repeatable). Default: all.
        #[arg(long = "variant", short = 'v')]
        variants: Vec<String>,
        /// All variants (the default).
        #[arg(long, conflicts_with = "variants")]
        all: bool,
        /// text, md or json: the report; with --events, json or csv: the
        /// events with their instruction count, modelled cycle and privilege;
        /// perfetto: Chrome / Perfetto trace-event JSON of the run.
        #[arg(long, value_enum, default_value = "text")]
        format: RunFormat,
        /// Print the event log (traps, returns, CSR writes, privilege
        /// changes); with --format json or csv, the events alone, as data.
        #[arg(long)]
        events: bool,
        /// Set a knob: NAME=VALUE (repeatable).
        #[arg(long = "set", value_parser = parse_knob)]
        set: Vec<(String, u64)>,
        /// Instruction budget per variant: a run that does not end within it
        /// stops with exit 124. Default: the scenario's `budget`, or 50000000
        /// (50M) when it sets none.
        #[arg(long, allow_negative_numbers = true)]
        budget: Option<u64>,
        /// Single-step every instruction instead of running by blocks.
        #[arg(long)]
        step: bool,
        /// Estimate cycles on this core (a name from `trapscope list`, or a profile .toml).
        #[arg(long)]
        core: Option<String>,
        /// Replay the scenario's lesson ([[script]]) headless; exit 1 if a step
        /// does not reach its target.
        #[arg(long)]
        script: bool,
        #[command(flatten)]
        machine: MachineArgs,
    },
    /// Before/after cycle estimates per core, with the measured figures beside them.
    /// Each variant runs within the scenario's budget (50M when it sets none),
    /// or --budget.
    Compare {
        scenario: PathBuf,
        /// Cores to compare on (repeatable). Default: the scenario's `cores`.
        #[arg(long = "core")]
        cores: Vec<String>,
        /// Instruction budget per variant and core: a run that does not end
        /// within it is not compared (exit 125). Default: the scenario's
        /// `budget`, or 50000000 (50M) when it sets none.
        #[arg(long)]
        budget: Option<u64>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Set a knob: NAME=VALUE (repeatable).
        #[arg(long = "set", value_parser = parse_knob)]
        set: Vec<(String, u64)>,
        /// Single-step every instruction instead of running by blocks.
        #[arg(long)]
        step: bool,
        /// A figure you measured, shown beside the estimate:
        /// CORE:VARIANT=189.9ns or CORE:VARIANT=600cycles, per iteration
        /// (repeatable; never a model input).
        #[arg(long = "measured", value_name = "CORE:VARIANT=VALUE", value_parser = crate::report::measured::parse)]
        measured: Vec<crate::report::measured::Measured>,
        #[command(flatten)]
        machine: MachineArgs,
    },
    /// Every figure measured on hardware beside its estimate, with the
    /// ratio, each pair's measured against estimated difference and the
    /// core's unverified parameters. A report: exit 0 whatever the ratios.
    Fidelity {
        /// Scenarios to read (default: every scenario in scenarios/).
        scenarios: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// A figure you measured: CORE:VARIANT=189.9ns or =600cycles, per
        /// iteration (repeatable), for every scenario read with that
        /// variant on that core.
        #[arg(long = "measured", value_name = "CORE:VARIANT=VALUE", value_parser = crate::report::measured::parse)]
        measured: Vec<crate::report::measured::Measured>,
        #[command(flatten)]
        machine: MachineArgs,
    },
    /// List the scenarios and the core profiles.
    List,
    /// Measure instrumented throughput against raw unicorn on the same guest loop.
    Bench {
        #[arg(default_value_os_t = crate::default_scenario())]
        scenario: PathBuf,
        /// The variant to run (default: the scenario's first).
        #[arg(long)]
        variant: Option<String>,
        /// The core model (default: the scenario's first core, else u74).
        #[arg(long)]
        core: Option<String>,
        /// Iterations of the guest's loop (the `iterations` knob).
        #[arg(long, default_value_t = 100_000, allow_negative_numbers = true)]
        iterations: u64,
        #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
        repeats: u32,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// How deep into a run to time the time-travel keys (b, B, Tab),
        /// in instructions, comma-separated; an empty list leaves them out.
        #[arg(long, value_parser = parse_depths, default_value = "100000,1000000,10000000")]
        depths: Depths,
        /// Only the time-travel section (at --depths), without the
        /// throughput and key-to-frame ones before it.
        #[arg(long)]
        travel_only: bool,
    },
    /// Two variants' paths through one iteration of the measured loop,
    /// aligned like diff, each line with its cycles and events.
    Diff {
        scenario: PathBuf,
        /// The variant on the left (default: the scenario's first pair's before).
        a: Option<String>,
        /// The variant on the right (default: the first pair's after).
        b: Option<String>,
        /// Charge cycles on this core (without it: instructions only).
        #[arg(long)]
        core: Option<String>,
        /// The iteration of the measured loop (1-based; default: the one
        /// nearest the middle whose cycles are each variant's most common
        /// per-iteration figure, else the last complete one).
        #[arg(long, allow_negative_numbers = true)]
        iteration: Option<u64>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Show every row: without it, runs of 64 or more rows the same on
        /// both paths (cycles included) are folded, 3 kept at each end.
        #[arg(long)]
        full: bool,
        /// Set a knob: NAME=VALUE (repeatable).
        #[arg(long = "set", value_parser = parse_knob)]
        set: Vec<(String, u64)>,
        #[command(flatten)]
        machine: MachineArgs,
    },
    /// Run your own bare-metal RV64 ELF; a write to `tohost` ends it and its code
    /// is the exit status (124: budget ran out, 125: guest fault).
    Elf {
        file: PathBuf,
        /// Instruction budget: a guest that has not ended after this many
        /// instructions stops with exit 124 (100M by default: a guest that
        /// spins reaches it in about 20 s).
        #[arg(long, default_value_t = DEFAULT_ELF_BUDGET, allow_negative_numbers = true)]
        budget: u64,
        /// Print the event log.
        #[arg(long)]
        events: bool,
        /// Stop at `ebreak` (a breakpoint for you) instead of trapping the guest.
        #[arg(long)]
        ebreak_stops: bool,
        /// VLEN of the V unit in bits (0: no vector unit).
        #[arg(long, default_value_t = 128, allow_negative_numbers = true)]
        vlen: u32,
        #[command(flatten)]
        machine: MachineArgs,
    },
    /// Boot a real kernel (or a bare-metal ELF) in qemu-system-riscv64 and
    /// snapshot it at the N-th syscall of its init (trapscope's, or your
    /// own with --init PATH), for a scenario variant's `snapshot = "DIR"`.
    Snapshot(snapshot::SnapshotArgs),
    /// From two kernel builds to a review: snapshot both (cached), then
    /// what `compare` and `diff` print on the scenario of the two.
    Review(super::review::args::ReviewArgs),
    /// Check a snapshot against QEMU: boot what it records again, compare
    /// the state at the snapshot point, then run N iterations in QEMU and
    /// in trapscope and compare registers and all of RAM.
    #[command(after_help = verify::EXIT_HELP)]
    Verify(verify::VerifyArgs),
    /// Check the scenarios' expectations; exit 1 if any fails. Each variant
    /// runs within its scenario's budget (50M when it sets none).
    Check {
        scenarios: Vec<PathBuf>,
        /// text, or md: a Markdown table per scenario.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        #[command(flatten)]
        machine: MachineArgs,
    },
}

/// `--depths`' counts of instructions.
#[derive(Debug, Clone)]
pub struct Depths(pub Vec<u64>);

/// `--depths`: comma-separated counts; an empty string is no depths.
fn parse_depths(s: &str) -> Result<Depths, String> {
    s.split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            d.replace('_', "")
                .parse::<u64>()
                .map_err(|e| format!("`{d}` is not a count of instructions: {e}"))
        })
        .collect::<Result<_, _>>()
        .map(Depths)
}

fn parse_knob(s: &str) -> Result<(String, u64), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}': write NAME=VALUE"))?;
    let v = v.trim().replace('_', "");
    let n = if let Some(h) = v.strip_prefix("0x") {
        u64::from_str_radix(h, 16)
    } else {
        v.parse()
    }
    .map_err(|e| format!("'{s}': bad value: {e}"))?;
    Ok((k.trim().to_string(), n))
}

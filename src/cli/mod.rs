//! The command line (DESIGN.md "The CLI"). Host errors are reported here as
//! one line and a non-zero exit; nothing below panics on bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use clap::{Parser, Subcommand};

/// `println!` with control characters from user strings escaped
/// (`report::escape`): every line the CLI prints goes through it.
macro_rules! say {
    ($($t:tt)*) => { println!("{}", $crate::report::escape(&format!($($t)*))) };
}

/// `eprintln!` for one-line messages, every control character escaped.
macro_rules! tell {
    ($($t:tt)*) => { eprintln!("{}", $crate::report::escape_line(&format!($($t)*))) };
}

mod bench;
mod check;
mod diff;
mod elf;
mod exports;
mod fidelity;
mod machine_args;
mod runs;
mod snapshot;

use machine_args::MachineArgs;

use bench::bench;
use check::check;
use elf::{elf, list};
use fidelity::fidelity;
use runs::{compare, replay, run};

use crate::cost::Profile;
use crate::report::{Format, RunFormat};
use crate::scenario::Scenario;
use crate::session::RunOpts;

/// `elf`'s instruction budget when `--budget` is not given.
pub const DEFAULT_ELF_BUDGET: u64 = 100_000_000;

/// Exit status when the guest did not end within its instruction budget.
pub const EXIT_BUDGET: u8 = 124;
/// Exit status when the guest faulted (unmapped memory, unsupported instruction).
pub const EXIT_FAULT: u8 = 125;
/// Exit status when a guest of `run`, `compare` or `check` exited with a
/// non-zero code (or an expectation failed).
pub const EXIT_GUEST_FAILED: u8 = 1;
/// Exit status of a headless run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// "the guest exited with code N", saying so when N is one of trapscope's
/// own statuses (124, 125), so the two are not confused.
pub(super) fn guest_exit_text(code: u64) -> String {
    let own = match code {
        124 => " (the guest's own exit code, not trapscope's budget status)",
        125 => " (the guest's own exit code, not trapscope's fault status)",
        _ => "",
    };
    format!("the guest exited with code {code}{own}")
}

/// Ctrl-C sets the machine's interrupt flag; a second one, before the run
/// has seen it, ends the process as SIGINT would.
fn catch_ctrl_c() {
    use signal_hook::consts::SIGINT;
    let flag = crate::machine::sigint::flag();
    let _ = signal_hook::flag::register_conditional_default(SIGINT, flag.clone());
    let _ = signal_hook::flag::register(SIGINT, flag);
}

#[derive(Parser, Debug)]
#[command(
    name = "trapscope",
    version,
    about = "Step an emulated RISC-V guest through kernel trap entry and exit, and see where a patch saves or loses time"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
    /// Scenario to open in the TUI (default: scenarios/ras-trap-entry.toml).
    scenario: Option<PathBuf>,
    /// Play the scenario's lesson ([[script]]): Space advances it.
    #[arg(long)]
    autoplay: bool,
    /// Core to estimate cycles for in the TUI (default: the scenario's first).
    #[arg(long)]
    core: Option<String>,
    #[command(flatten)]
    machine: MachineArgs,
}

#[derive(Subcommand, Debug)]
enum Cmd {
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
    /// Each variant runs within the scenario's budget (50M when it sets none).
    Compare {
        scenario: PathBuf,
        /// Cores to compare on (repeatable). Default: the scenario's `cores`.
        #[arg(long = "core")]
        cores: Vec<String>,
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
        /// The iteration of the measured loop (1-based; default: the last complete one).
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
    /// snapshot it at the N-th syscall of trapscope's init, for a scenario
    /// variant's `snapshot = "DIR"`.
    Snapshot(snapshot::SnapshotArgs),
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

pub fn main() -> ExitCode {
    // `trapscope ... | head` closes our stdout early: end quietly, as a
    // shell tool does on SIGPIPE, instead of reporting a panic.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let p = info.payload();
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return usage_error(&e),
    };
    // The TUI reads Ctrl-C as a key itself; headless commands stop on it.
    if cli.cmd.is_some() {
        catch_ctrl_c();
    }
    let r = dispatch(cli);
    if crate::machine::sigint::requested() {
        tell!("trapscope: interrupted (Ctrl-C)");
        return ExitCode::from(EXIT_INTERRUPTED);
    }
    match r {
        Ok(code) => code,
        Err(e) => {
            tell!("trapscope: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `--help` and `--version` print as clap has them (exit 0); a usage error
/// becomes one line with a pointer to the right `--help` (exit 2).
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
    }
    // Display renders without colour; keep the first line, without "error: ".
    let text = e.to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut first = lines.next().unwrap_or("invalid command line").to_string();
    // "the following required arguments were not provided:" lists them next.
    if first.ends_with(':')
        && let Some(next) = lines.next()
    {
        first = format!("{first} {next}");
    }
    let first = first.strip_prefix("error: ").unwrap_or(&first);
    let help = match subcommand_in(std::env::args().skip(1)) {
        Some(sub) => format!("trapscope {sub} --help"),
        None => "trapscope --help".into(),
    };
    tell!("trapscope: error: {first}; see '{help}'");
    ExitCode::from(2)
}

/// The subcommand a command line names (its first word that is one).
fn subcommand_in(args: impl Iterator<Item = String>) -> Option<String> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    args.take_while(|a| a != "--")
        .find(|a| !a.starts_with('-'))
        .filter(|a| names.contains(a))
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.cmd {
        None => {
            let path = cli.scenario.unwrap_or_else(crate::default_scenario);
            let machine = cli.machine.config(); // before loading: --kernel-src
            let s = load(&path)?;
            let core = match cli.core {
                Some(c) => Some(Rc::new(Profile::find(&c).map_err(anyhow::Error::msg)?)),
                None => None,
            };
            crate::tui::run(s, core, cli.autoplay, machine).map_err(anyhow::Error::msg)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Cmd::Run {
            scenario,
            variants,
            all: _,
            format,
            events,
            set,
            budget,
            step,
            core,
            script,
            machine,
        }) => {
            let core = match core {
                Some(c) => Some(Rc::new(Profile::find(&c).map_err(anyhow::Error::msg)?)),
                None => None,
            };
            if script {
                return replay(&scenario, core);
            }
            let opts = RunOpts {
                core,
                set,
                budget,
                log_events: 0,
                single_step: step,
                probes: Vec::new(),
                machine: machine.config(),
            };
            run(&scenario, &variants, format, events, opts)
        }
        Some(Cmd::Compare {
            scenario,
            cores,
            format,
            set,
            step,
            measured,
            machine,
        }) => {
            let opts = RunOpts {
                set,
                single_step: step,
                machine: machine.config(),
                ..RunOpts::default()
            };
            compare(&scenario, &cores, format, opts, &measured)
        }
        Some(Cmd::Fidelity {
            scenarios,
            format,
            measured,
            machine,
        }) => fidelity(&scenarios, format, machine.config(), &measured),
        Some(Cmd::List) => list(),
        Some(Cmd::Bench {
            scenario,
            variant,
            core,
            iterations,
            repeats,
            format,
        }) => bench(&scenario, variant, core, iterations, repeats, format),
        Some(Cmd::Elf {
            file,
            budget,
            events,
            ebreak_stops,
            vlen,
            machine,
        }) => elf(&file, budget, events, ebreak_stops, vlen, machine.config()),
        Some(Cmd::Diff {
            scenario,
            a,
            b,
            core,
            iteration,
            format,
            full,
            set,
            machine,
        }) => diff::diff(
            &scenario,
            a.as_deref(),
            b.as_deref(),
            core.as_deref(),
            iteration,
            format,
            full,
            RunOpts {
                set,
                machine: machine.config(),
                ..RunOpts::default()
            },
        ),
        Some(Cmd::Check {
            scenarios,
            format,
            machine,
        }) => check(&scenarios, machine.config(), format),
        Some(Cmd::Snapshot(a)) => snapshot::snapshot(a),
    }
}

fn load(path: &Path) -> anyhow::Result<Scenario> {
    Scenario::load(path).map_err(|e| anyhow::anyhow!("{e}"))
}

//! The command line (docs/reference/cli.md). Host errors are reported here as
//! one line and a non-zero exit; nothing below panics on bad input.

use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use clap::Parser;

/// `println!` with control characters from user strings escaped
/// (`report::escape`): every line the CLI prints goes through it.
macro_rules! say {
    ($($t:tt)*) => { println!("{}", $crate::report::escape(&format!($($t)*))) };
}

/// `eprintln!` for one-line messages, every control character escaped.
macro_rules! tell {
    ($($t:tt)*) => { eprintln!("{}", $crate::report::escape_line(&format!($($t)*))) };
}

mod args;
mod bench;
mod check;
mod diff;
mod each;
mod elf;
mod exports;
mod fidelity;
mod machine_args;
mod review;
mod runs;
mod shared;
mod snapshot;
mod verify;

use args::{Cli, Cmd};

use bench::bench;
use check::check;
use elf::{elf, list};
use fidelity::fidelity;
use runs::{compare, replay, run};

use crate::cost::Profile;
use crate::session::RunOpts;
use shared::load;
pub use shared::{
    DEFAULT_ELF_BUDGET, EXIT_BUDGET, EXIT_FAULT, EXIT_GUEST_FAILED, EXIT_INTERNAL, EXIT_INTERRUPTED,
};

/// Ctrl-C sets the machine's interrupt flag; a second one, before the run
/// has seen it, ends the process as SIGINT would.
fn catch_ctrl_c() {
    use signal_hook::consts::SIGINT;
    let flag = crate::machine::sigint::flag();
    let _ = signal_hook::flag::register_conditional_default(SIGINT, flag.clone());
    let _ = signal_hook::flag::register(SIGINT, flag);
    let _ = signal_hook::flag::register(SIGINT, crate::machine::sigint::signal_flag());
}

pub fn main() -> ExitCode {
    crate::process_start();
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
        // Inside an emulator callback: the run stops and one line says it.
        if crate::machine::guard::note_panic(info) {
            return;
        }
        default_hook(info);
    }));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return usage_error(&e),
    };
    if cli.cmd.is_none()
        && let Some(word) = cli.scenario.as_deref().and_then(unknown_word)
    {
        tell!(
            "trapscope: error: unknown command or scenario '{word}' (commands: {}); see 'trapscope --help'",
            command_names().join(", ")
        );
        return ExitCode::from(2);
    }
    // The TUI reads Ctrl-C as a key itself; headless commands stop on it.
    if cli.cmd.is_some() {
        catch_ctrl_c();
    }
    let r = dispatch(cli);
    if let Some(e) = crate::machine::guard::internal_error() {
        tell!("trapscope: internal error: {e}; please report it");
        return ExitCode::from(EXIT_INTERNAL);
    }
    if crate::machine::sigint::requested() || crate::machine::sigint::signalled() {
        tell!("trapscope: interrupted (Ctrl-C)");
        return ExitCode::from(EXIT_INTERRUPTED);
    }
    match r {
        Ok(code) => {
            // Once per run: the guest sources a line table named that were
            // not shown, and why.
            if let Some(line) = crate::input::source_policy::summary() {
                tell!("{line}");
            }
            code
        }
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

/// The subcommands, in `--help`'s order (clap's own `help` among them).
fn subcommands() -> Vec<String> {
    use clap::CommandFactory;
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// The commands a usage error lists (`help` aside).
fn command_names() -> Vec<String> {
    let mut v = subcommands();
    v.retain(|n| n != "help");
    v
}

/// The scenario argument when it reads as a mistyped command rather than a
/// path: a bare word (no directory, no extension) that names no file.
fn unknown_word(p: &Path) -> Option<String> {
    let word = p.to_str()?;
    let bare = p.components().count() == 1 && p.extension().is_none();
    (bare && !word.is_empty() && !p.exists()).then(|| word.to_string())
}

/// The subcommand a command line names (its first word that is one).
fn subcommand_in(args: impl Iterator<Item = String>) -> Option<String> {
    let names = subcommands();
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
            let history = (cli.history_mib as usize) << 20;
            crate::tui::run(s, core, cli.autoplay, machine, history).map_err(anyhow::Error::msg)?;
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
                history: crate::session::NO_HISTORY,
                bands: true,
                band_later: false,
            };
            run(&scenario, &variants, format, events, opts)
        }
        Some(Cmd::Compare {
            scenario,
            cores,
            budget,
            format,
            set,
            step,
            measured,
            machine,
        }) => {
            let opts = RunOpts {
                budget,
                set,
                single_step: step,
                machine: machine.config(),
                history: crate::session::NO_HISTORY,
                bands: true,
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
            depths,
            travel_only,
        }) => bench(
            &scenario,
            variant,
            core,
            bench::Opts {
                iterations,
                repeats,
                format,
                travel_depths: depths.0,
                travel_only,
            },
        ),
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
                history: crate::session::NO_HISTORY,
                ..RunOpts::default()
            },
        ),
        Some(Cmd::Check {
            scenarios,
            format,
            machine,
        }) => check(&scenarios, machine.config(), format),
        Some(Cmd::Snapshot(a)) => snapshot::snapshot(a),
        Some(Cmd::Review(a)) => review::review(a),
        Some(Cmd::Verify(a)) => verify::verify(a),
    }
}

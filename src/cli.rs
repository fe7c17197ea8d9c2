//! The command line (DESIGN.md "The CLI"). Host errors are reported here as
//! one line and a non-zero exit; nothing below panics on bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use clap::{Parser, Subcommand};

use crate::cost::Profile;
use crate::machine::{Machine, Observer, Outcome, Program, Until};
use crate::report::{self, Format};
use crate::scenario::{Scenario, expect};
use crate::session::{self, RunOpts, VariantRun};
use crate::trace::EventLog;

/// Exit status when the guest did not end within its instruction budget.
pub const EXIT_BUDGET: u8 = 124;
/// Exit status when the guest faulted (unmapped memory, unsupported instruction).
pub const EXIT_FAULT: u8 = 125;

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
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Print the event log (traps, returns, CSR writes, privilege changes).
        #[arg(long)]
        events: bool,
        /// Set a knob: NAME=VALUE (repeatable).
        #[arg(long = "set", value_parser = parse_knob)]
        set: Vec<(String, u64)>,
        /// Instruction budget (default: the scenario's).
        #[arg(long)]
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
    },
    /// Before/after cycle estimates per core, with the measured figures beside them.
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
    },
    /// List the scenarios and the core profiles.
    List,
    /// Measure instrumented throughput against raw unicorn on the same guest loop.
    Bench {
        #[arg(default_value_os_t = crate::default_scenario())]
        scenario: PathBuf,
        #[arg(long, default_value = "before")]
        variant: String,
        #[arg(long, default_value = "u74")]
        core: String,
        /// Iterations of the guest's loop (the `iterations` knob).
        #[arg(long, default_value_t = 100_000)]
        iterations: u64,
        #[arg(long, default_value_t = 3)]
        repeats: u32,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Run your own bare-metal RV64 ELF; a write to `tohost` ends it and its code
    /// is the exit status (124: budget ran out, 125: guest fault).
    Elf {
        file: PathBuf,
        #[arg(long, default_value_t = 100_000_000)]
        budget: u64,
        /// Print the event log.
        #[arg(long)]
        events: bool,
        /// Stop at `ebreak` (a breakpoint for you) instead of trapping the guest.
        #[arg(long)]
        ebreak_stops: bool,
    },
    /// Check the scenarios' expectations; exit 1 if any fails.
    Check { scenarios: Vec<PathBuf> },
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
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("trapscope: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.cmd {
        None => {
            let path = cli.scenario.unwrap_or_else(crate::default_scenario);
            let s = load(&path)?;
            let core = match cli.core {
                Some(c) => Some(Rc::new(Profile::find(&c).map_err(anyhow::Error::msg)?)),
                None => None,
            };
            crate::tui::run(s, core, cli.autoplay).map_err(anyhow::Error::msg)?;
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
            };
            run(&scenario, &variants, format, events, opts)
        }
        Some(Cmd::Compare {
            scenario,
            cores,
            format,
            set,
            step,
        }) => compare(&scenario, &cores, format, set, step),
        Some(Cmd::List) => list(),
        Some(Cmd::Bench {
            scenario,
            variant,
            core,
            iterations,
            repeats,
            format,
        }) => {
            let s = load(&scenario)?;
            let v = s.variant(&variant).map_err(anyhow::Error::msg)?;
            let p = Rc::new(Profile::find(&core).map_err(anyhow::Error::msg)?);
            let b = session::bench::bench(&s, v, p, iterations, repeats.max(1))
                .map_err(anyhow::Error::msg)?;
            if format == Format::Json {
                println!("{}", serde_json::to_string_pretty(&b)?);
            } else {
                println!(
                    "guest loop: {} ({} variant), {} iterations, {} instructions",
                    b.scenario, b.variant, b.iterations, b.instructions
                );
                println!(
                    "raw unicorn (trap delivery only)   {:>8.3} s  {:>7.1} M instr/s",
                    b.raw_seconds, b.raw_minstr_per_s
                );
                println!(
                    "instrumented ({:<5} model)          {:>8.3} s  {:>7.1} M instr/s",
                    b.core, b.instrumented_seconds, b.instrumented_minstr_per_s
                );
                println!(
                    "single-step (TUI stepping)         {:>8.3} s  {:>7.1} M instr/s",
                    b.single_step_seconds, b.single_step_minstr_per_s
                );
                println!(
                    "ratio instrumented/raw: {:.2} (best of {} runs each)",
                    b.ratio, b.repeats
                );
                println!("\nTUI key-to-frame (action + full draw at 160x45):");
                for l in crate::tui::latency::measure(s.clone()).map_err(anyhow::Error::msg)? {
                    println!(
                        "  {:<22} median {:>7.2} ms  max {:>7.2} ms  (draw {:.2} ms)  n={}",
                        l.action,
                        l.median_us as f64 / 1000.0,
                        l.max_us as f64 / 1000.0,
                        l.draw_median_us as f64 / 1000.0,
                        l.samples
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Cmd::Elf {
            file,
            budget,
            events,
            ebreak_stops,
        }) => elf(&file, budget, events, ebreak_stops),
        Some(Cmd::Check { scenarios }) => check(&scenarios),
    }
}

fn load(path: &Path) -> anyhow::Result<Scenario> {
    Scenario::load(path).map_err(|e| anyhow::anyhow!("{e}"))
}

fn run_all(s: &Scenario, variants: &[String], opts: &RunOpts) -> anyhow::Result<Vec<VariantRun>> {
    let names: Vec<String> = if variants.is_empty() {
        s.variants.iter().map(|v| v.name.clone()).collect()
    } else {
        variants.to_vec()
    };
    let mut runs = Vec::new();
    for n in &names {
        let v = s.variant(n).map_err(anyhow::Error::msg)?;
        runs.push(session::run_variant(s, v, opts).map_err(anyhow::Error::msg)?);
    }
    Ok(runs)
}

fn run(
    path: &Path,
    variants: &[String],
    format: Format,
    events: bool,
    mut opts: RunOpts,
) -> anyhow::Result<ExitCode> {
    let s = load(path)?;
    if events {
        opts.log_events = 1_000_000;
    }
    let runs = run_all(&s, variants, &opts)?;
    let out = match format {
        Format::Text => report::text(&s, &runs),
        Format::Md => report::markdown(&s, &runs),
        Format::Json => report::json(&s, &runs),
    };
    print!("{out}");
    if events && format != Format::Json {
        for r in &runs {
            let v = s.variant(&r.variant).map_err(anyhow::Error::msg)?;
            println!(
                "\nevents of {} (instruction count at the event, event)",
                r.variant
            );
            for e in r
                .log
                .iter()
                .filter(|e| e.event.kind() != crate::trace::EventKind::Retired)
            {
                println!("{}", report::event_line(&v.program, e));
            }
        }
    }
    let failed = runs.iter().find(|r| r.exit_code.is_none());
    Ok(match failed {
        Some(r) => {
            eprintln!(
                "trapscope: variant {}: {}",
                r.variant,
                r.error.clone().unwrap_or_default()
            );
            ExitCode::from(if r.outcome == "budget" {
                EXIT_BUDGET
            } else {
                EXIT_FAULT
            })
        }
        None => ExitCode::SUCCESS,
    })
}

/// Each core's runs of every variant.
fn per_core(
    s: &Scenario,
    cores: &[String],
    opts: &RunOpts,
) -> anyhow::Result<Vec<(String, Vec<VariantRun>)>> {
    let profiles: Vec<Rc<Profile>> = if cores.is_empty() {
        s.cores.clone()
    } else {
        cores
            .iter()
            .map(|c| Profile::find(c).map(Rc::new))
            .collect::<Result<_, _>>()
            .map_err(anyhow::Error::msg)?
    };
    if profiles.is_empty() {
        anyhow::bail!(
            "{} names no cores: add `cores = [...]` or pass --core",
            s.path.display()
        );
    }
    let mut out = Vec::new();
    for p in profiles {
        let o = RunOpts {
            core: Some(p.clone()),
            ..opts.clone()
        };
        out.push((p.name.clone(), run_all(s, &[], &o)?));
    }
    Ok(out)
}

fn compare(
    path: &Path,
    cores: &[String],
    format: Format,
    set: Vec<(String, u64)>,
    step: bool,
) -> anyhow::Result<ExitCode> {
    let s = load(path)?;
    let opts = RunOpts {
        set,
        single_step: step,
        ..RunOpts::default()
    };
    let runs = per_core(&s, cores, &opts)?;
    if let Some(r) = runs
        .iter()
        .flat_map(|(_, v)| v)
        .find(|r| r.exit_code.is_none())
    {
        anyhow::bail!(
            "variant {}: {}",
            r.variant,
            r.error.clone().unwrap_or_default()
        );
    }
    let rows = report::compare::rows(&s, &runs);
    let out = match format {
        Format::Json => report::compare::json(&s, &rows),
        Format::Md => report::compare::text(&s, &rows, &runs, true),
        Format::Text => report::compare::text(&s, &rows, &runs, false),
    };
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn replay(path: &Path, core: Option<Rc<Profile>>) -> anyhow::Result<ExitCode> {
    let s = load(path)?;
    println!(
        "{}: {} (lesson, {} steps)",
        path.display(),
        s.title,
        s.script.len()
    );
    let steps = crate::tui::script::replay(s, core).map_err(anyhow::Error::msg)?;
    let mut failed = 0;
    for r in &steps {
        let mark = if r.ok { "ok  " } else { "FAIL" };
        if !r.ok {
            failed += 1;
        }
        println!(
            "{mark} step {}: [{}] {} after {} instructions\n       {}",
            r.index, r.variant, r.position, r.instructions, r.say
        );
    }
    println!("{} passed, {} failed", steps.len() - failed, failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn list() -> anyhow::Result<ExitCode> {
    let dir = crate::project_dir().join("scenarios");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    println!("scenarios ({}):", dir.display());
    for p in paths {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match Scenario::load(&p) {
            Ok(s) => println!(
                "  {name:<28} {}  [variants: {}]",
                s.title,
                s.variant_names().join(", ")
            ),
            Err(e) => println!("  {name:<28} (invalid: {e})"),
        }
    }
    println!(
        "\ncore profiles ({}; or pass a path to your own .toml):",
        Profile::dir().display()
    );
    for n in Profile::names() {
        match Profile::find(&n) {
            Ok(p) => {
                let unv = p.unverified();
                let note = if unv.is_empty() {
                    String::new()
                } else {
                    format!("  [unverified: {}]", unv.join(", "))
                };
                println!(
                    "  {n:<10} {} · {} GHz, {}-issue {}, RAS {}{note}",
                    p.title,
                    p.core.clock_ghz.value,
                    p.core.issue_width.value,
                    if p.core.out_of_order.value {
                        "out-of-order"
                    } else {
                        "in-order"
                    },
                    p.core.ras_depth.value
                );
            }
            Err(e) => println!("  {n:<10} (invalid: {e})"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Keeps the event log for `elf --events`.
struct LogOnly(EventLog);

impl Observer for LogOnly {
    type BlockData = ();
    fn build(&mut self, _: &[crate::machine::DecodedInsn]) {}
    fn retired(&mut self, _: &crate::machine::Retire<'_, ()>) -> u32 {
        0
    }
    fn event(&mut self, at: u64, ev: &crate::trace::Event) {
        self.0.push(at, ev);
    }
}

fn elf(file: &Path, budget: u64, events: bool, ebreak_stops: bool) -> anyhow::Result<ExitCode> {
    let program = Rc::new(Program::load(file)?);
    let cap = if events { 1_000_000 } else { 0 };
    let mut m = Machine::new(program.clone(), LogOnly(EventLog::new(cap.max(1), false)))?;
    m.ebreak_stops = ebreak_stops;
    let o = m.run(&Until {
        max_insns: Some(budget),
        ..Until::default()
    });
    if o == Outcome::Budget {
        m.note_budget_exhausted();
    }
    if events {
        for e in m.observer().0.iter() {
            println!("{}", report::event_line(&program, e));
        }
    }
    Ok(elf_status(&o, &m, budget))
}

fn elf_status<O: Observer>(o: &Outcome, m: &Machine<O>, budget: u64) -> ExitCode {
    let (_, code, err) = session::describe_outcome(o, m, budget);
    match (code, o) {
        (Some(c), _) => {
            if c != 0 {
                eprintln!("trapscope: guest exited with code {c}");
            }
            // A nonzero code that wraps to 0 in 8 bits must not read as success.
            let status = if c != 0 && c % 256 == 0 {
                255
            } else {
                (c % 256) as u8
            };
            ExitCode::from(status)
        }
        (None, Outcome::Budget) => {
            eprintln!("trapscope: {}", err.unwrap_or_default());
            ExitCode::from(EXIT_BUDGET)
        }
        (None, _) => {
            eprintln!("trapscope: {}", err.unwrap_or_default());
            ExitCode::from(EXIT_FAULT)
        }
    }
}

fn check(paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        let dir = crate::project_dir().join("scenarios");
        let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        v.sort();
        v
    } else {
        paths.to_vec()
    };
    let mut failures = 0;
    let mut total = 0;
    for p in &paths {
        let s = load(p)?;
        println!("{}: {}", p.display(), s.title);
        // Expectations hold on every core the scenario names (or once, with
        // no cycle model, when it names none).
        let runs: Vec<(String, Vec<VariantRun>)> = if s.cores.is_empty() {
            vec![(String::new(), run_all(&s, &[], &RunOpts::default())?)]
        } else {
            per_core(&s, &[], &RunOpts::default())?
        };
        for (core, vruns) in &runs {
            let values: Vec<(String, serde_json::Value)> = vruns
                .iter()
                .map(|r| {
                    (
                        r.variant.clone(),
                        serde_json::to_value(r).unwrap_or_default(),
                    )
                })
                .collect();
            let tag = if core.is_empty() {
                String::new()
            } else {
                format!("[{core}] ")
            };
            for e in &s.expect {
                total += 1;
                let get = |o: &crate::scenario::Operand| -> Option<f64> {
                    match o {
                        crate::scenario::Operand::Number(n) => Some(*n),
                        crate::scenario::Operand::Metric { variant, path } => values
                            .iter()
                            .find(|(v, _)| v == variant)
                            .and_then(|(_, j)| expect::lookup(j, path)),
                    }
                };
                let verdict = match (get(&e.check.lhs), get(&e.check.rhs)) {
                    (Some(a), Some(b)) if e.check.op.holds(a, b) => {
                        format!("ok    {tag}{} ({a} vs {b})", e.name)
                    }
                    (Some(a), Some(b)) => {
                        failures += 1;
                        format!(
                            "FAIL  {tag}{}: {} is false ({a} vs {b}) at {}",
                            e.name, e.check, e.loc
                        )
                    }
                    _ => {
                        failures += 1;
                        format!(
                            "FAIL  {tag}{}: {} names a metric the run does not have, at {}",
                            e.name, e.check, e.loc
                        )
                    }
                };
                println!("  {verdict}");
            }
        }
    }
    println!("{} passed, {} failed", total - failures, failures);
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

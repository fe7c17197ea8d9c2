//! `elf` (the user's own guest) and `list`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use super::{EXIT_BUDGET, EXIT_FAULT};
use crate::cost::Profile;
use crate::machine::{Machine, Observer, Outcome, Program, Until};
use crate::report;
use crate::scenario::Scenario;
use crate::session;
use crate::trace::EventLog;

pub(super) fn list() -> anyhow::Result<ExitCode> {
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

pub(super) fn elf(
    file: &Path,
    budget: u64,
    events: bool,
    ebreak_stops: bool,
    vlen: u32,
) -> anyhow::Result<ExitCode> {
    let program = Rc::new(Program::load(file)?);
    let cap = if events { 1_000_000 } else { 0 };
    let mut m = Machine::new(program.clone(), LogOnly(EventLog::new(cap.max(1), false)))?;
    m.ebreak_stops = ebreak_stops;
    if vlen != 0 && (!(64..=65536).contains(&vlen) || !vlen.is_power_of_two()) {
        anyhow::bail!("--vlen {vlen}: give a power of two from 64 to 65536 (or 0 for none)");
    }
    m.enable_vector(vlen);
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
    if !m.uart_output().is_empty() {
        print!("{}", report::console::escape_console(m.uart_output()));
    }
    Ok(elf_status(&o, &m, budget))
}

pub(super) fn elf_status<O: Observer>(o: &Outcome, m: &Machine<O>, budget: u64) -> ExitCode {
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

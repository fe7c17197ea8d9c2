//! `elf` (the user's own guest) and `list`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use super::shared::{EXIT_BUDGET, EXIT_FAULT, EXIT_INTERRUPTED, guest_exit_text};
use crate::cost::Profile;
use crate::machine::{Machine, MachineConfig, Observer, Outcome, Program, Until};
use crate::report;
use crate::scenario::Scenario;
use crate::session;
use crate::trace::EventLog;

pub(super) fn list() -> anyhow::Result<ExitCode> {
    let dir = crate::shown_path(&crate::project_dir().join("scenarios"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    say!("scenarios ({}):", dir.display());
    for p in paths {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match Scenario::load(&p) {
            Ok(s) => say!(
                "  {name:<28} {}  [variants: {}]",
                s.title,
                s.variant_names().join(", ")
            ),
            Err(e) => say!("  {name:<28} (invalid: {e})"),
        }
    }
    say!(
        "\ncore profiles ({}; or pass a path to your own .toml):",
        crate::shown_path(&Profile::dir()).display()
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
                say!(
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
            Err(e) => say!("  {n:<10} (invalid: {e})"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Keeps the event log for `elf --events`, and counts the traps taken.
struct LogOnly(EventLog, u64);

impl Observer for LogOnly {
    type BlockData = ();
    fn build(&mut self, _: &[crate::machine::DecodedInsn]) {}
    fn retired(&mut self, _: &crate::machine::Retire<'_, ()>) -> u32 {
        0
    }
    fn event(&mut self, at: u64, ev: &crate::trace::Event) {
        if ev.kind() == crate::trace::EventKind::TrapEnter {
            self.1 += 1;
        }
        self.0.push(at, ev);
    }
}

pub(super) fn elf(
    file: &Path,
    budget: u64,
    events: bool,
    ebreak_stops: bool,
    vlen: u32,
    cfg: MachineConfig,
) -> anyhow::Result<ExitCode> {
    if vlen != 0 {
        crate::cost::validate::vlen_rule(vlen)
            .map_err(|m| anyhow::anyhow!("--vlen {vlen}: {m}; or 0 for no vector unit"))?;
    }
    let program = Rc::new(Program::load(file)?);
    // Named by the user: its sources may sit beside it.
    crate::input::source_policy::allow_dir_of(
        file,
        crate::input::source_policy::Origin::CommandLine,
    );
    let cap = if events { 1_000_000 } else { 0 };
    let mut m = Machine::with_config(
        program.clone(),
        LogOnly(EventLog::new(cap.max(1), false), 0),
        cfg,
    )?;
    m.ebreak_stops = ebreak_stops;
    m.enable_vector(vlen);
    let o = m.run(&Until {
        max_insns: Some(budget),
        ..Until::default()
    });
    if o == Outcome::Interrupted {
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    if o == Outcome::Budget {
        m.note_budget_exhausted();
    }
    if events {
        for e in m.observer().0.iter() {
            say!("{}", report::event_line(&program, e));
        }
    }
    if !m.uart_output().is_empty() {
        print!("{}", report::console::escape_console(m.uart_output()));
    }
    Ok(elf_status(&o, &m, budget))
}

fn elf_status(o: &Outcome, m: &Machine<LogOnly>, budget: u64) -> ExitCode {
    let (_, code, err) = session::describe_outcome(o, m, budget);
    match (code, o) {
        (Some(c), _) => {
            // One summary line, on success too.
            let traps = m.observer().1;
            tell!(
                "trapscope: {} after {} instructions, {traps} trap{}",
                guest_exit_text(c),
                m.executed(),
                if traps == 1 { "" } else { "s" }
            );
            // A nonzero code that wraps to 0 in 8 bits must not read as success.
            let status = if c != 0 && c % 256 == 0 {
                255
            } else {
                (c % 256) as u8
            };
            ExitCode::from(status)
        }
        (None, Outcome::Budget) => {
            tell!("trapscope: {}", err.unwrap_or_default());
            ExitCode::from(EXIT_BUDGET)
        }
        (None, _) => {
            tell!("trapscope: {}", err.unwrap_or_default());
            ExitCode::from(EXIT_FAULT)
        }
    }
}

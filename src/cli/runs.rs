//! `run`, `compare` and the headless lesson replay (`check` is in check.rs).

use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use super::each::{core_vector_hint, per_core, run_all};
use super::shared::{EXIT_BUDGET, EXIT_FAULT, EXIT_GUEST_FAILED, load};
use crate::cost::Profile;
use crate::report::{self, Format, RunFormat};
use crate::scenario::Scenario;
use crate::session::{RunOpts, VariantRun};

pub(super) fn run(
    path: &Path,
    variants: &[String],
    format: RunFormat,
    events: bool,
    mut opts: RunOpts,
) -> anyhow::Result<ExitCode> {
    let format = match (format, events) {
        (RunFormat::Csv, false) => anyhow::bail!(
            "--format csv writes the events: add --events (or use text, md or json for the report)"
        ),
        (RunFormat::Text, _) => Format::Text,
        (RunFormat::Md, _) => Format::Md,
        (RunFormat::Json, false) => Format::Json,
        (RunFormat::Json | RunFormat::Csv | RunFormat::Perfetto, _) => {
            let s = load(path)?;
            return super::exports::export(&s, variants, format, &opts);
        }
    };
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
    if format == Format::Json {
        print!("{}", report::escape_json(&out));
    } else {
        print!("{}", report::escape(&out));
    }
    if events && format != Format::Json {
        for r in &runs {
            let v = s.variant(&r.variant).map_err(anyhow::Error::msg)?;
            say!(
                "\nevents of {} (instruction count at the event, event)",
                r.variant
            );
            if r.log_dropped > 0 {
                // The log is bounded: say that the run began earlier.
                say!(
                    "  ({} earlier events not shown: the log keeps the last {}; --budget or a smaller knob shortens the run)",
                    r.log_dropped,
                    r.log.len()
                );
            }
            for e in r
                .log
                .iter()
                .filter(|e| e.event.kind() != crate::trace::EventKind::Retired)
            {
                say!("{}", report::event_line(&v.program, e));
            }
        }
    }
    let failed = runs.iter().find(|r| r.exit_code.is_none());
    Ok(match failed {
        Some(r) => {
            tell!(
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
        None => nonzero_exit(&s, runs.iter().map(|r| (r, ""))),
    })
}

/// Exit 1, naming the first variant whose guest exited with a non-zero
/// code (`on` says on which core); success if none did.
fn nonzero_exit<'a>(
    s: &Scenario,
    runs: impl Iterator<Item = (&'a VariantRun, &'a str)>,
) -> ExitCode {
    for (r, on) in runs {
        // An exit code an expectation names is what the variant is for
        // (e.g. a process killed by SIGSYS); `check` tests its value.
        if let Some(c) = r.exit_code.filter(|c| *c != 0)
            && !super::each::expects_exit_code(s, &r.variant)
        {
            tell!(
                "trapscope: variant {}{on}: {}{}",
                r.variant,
                super::shared::scenario_exit_text(s, c),
                vector_hint(s, r)
            );
            return ExitCode::from(EXIT_GUEST_FAILED);
        }
    }
    ExitCode::SUCCESS
}

/// Why a vector scenario's guest may have failed on the core it ran on: the
/// core has no V 1.0 unit (no V, or XTheadVector, which trapscope does not
/// run) while the scenario's own cores have one, so the guest's vector code
/// raised illegal-instruction.
fn vector_hint(s: &Scenario, r: &VariantRun) -> String {
    // Only an illegal instruction can be a missing vector unit: the
    // minikernel's fault exits are 0x100 (from U) or 0x200 (from S) | scause
    // 2 (guest-asm/include/minikernel-abi.inc).
    if !matches!(r.exit_code, Some(0x102 | 0x202)) {
        return String::new();
    }
    match r.estimate.as_ref() {
        Some(e) => core_vector_hint(s, &e.core),
        None => String::new(),
    }
}

pub(super) fn compare(
    path: &Path,
    cores: &[String],
    format: Format,
    opts: RunOpts,
    given: &[report::measured::Measured],
) -> anyhow::Result<ExitCode> {
    let mut s = load(path)?;
    // The cores compared: --core, else the scenario's.
    let compared: Vec<String> = if cores.is_empty() {
        s.cores.iter().map(|c| c.name.clone()).collect()
    } else {
        cores.to_vec()
    };
    report::measured::apply(&mut s, given, &compared).map_err(anyhow::Error::msg)?;
    let c = compared_runs(&s, cores, &opts, &mut |_| {})?;
    let out = c.render(&s, format);
    if format == Format::Json {
        print!("{}", report::escape_json(&out));
    } else {
        print!("{}", report::escape(&out));
    }
    Ok(c.finish(&s))
}

/// `compare`'s runs of a loaded scenario, with the variants that did not
/// finish set aside (`review` shares it).
pub(super) struct Compared {
    pub(super) runs: Vec<(String, Vec<VariantRun>)>,
    pub(super) rows: Vec<report::compare::Row>,
    /// "variant V on C: why", one per run that did not finish.
    pub(super) unfinished: Vec<String>,
}

/// Runs every variant on each core (`per_core`), telling `progress` which
/// core is next.
pub(super) fn compared_runs(
    s: &Scenario,
    cores: &[String],
    opts: &RunOpts,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Compared> {
    let mut runs = Vec::new();
    if cores.is_empty() {
        runs = per_core(s, cores, opts)?;
    } else {
        for (i, c) in cores.iter().enumerate() {
            progress(&format!("running on {c} ({}/{})", i + 1, cores.len()));
            runs.extend(per_core(s, std::slice::from_ref(c), opts)?);
        }
    }
    // A variant that did not finish has no per-iteration figure to compare:
    // say why and compare the others.
    let mut unfinished = Vec::new();
    for (core, v) in runs.iter_mut() {
        v.retain(|r| {
            if r.exit_code.is_none() {
                let on = if core.is_empty() {
                    String::new()
                } else {
                    format!(" on {core}")
                };
                unfinished.push(format!(
                    "variant {}{on}: {}",
                    r.variant,
                    r.error.clone().unwrap_or_default()
                ));
            }
            r.exit_code.is_some()
        });
    }
    let rows = report::compare::rows(s, &runs);
    Ok(Compared {
        runs,
        rows,
        unfinished,
    })
}

impl Compared {
    /// The report in `format` (not yet escaped for the terminal).
    pub(super) fn render(&self, s: &Scenario, format: Format) -> String {
        match format {
            Format::Json => {
                report::compare::json(s, &self.rows, &report::pairs::all(s, &self.runs))
            }
            Format::Md => report::compare::text(s, &self.rows, &self.runs, true),
            Format::Text => report::compare::text(s, &self.rows, &self.runs, false),
        }
    }

    /// Says which runs did not finish (exit 125) or which guest exited
    /// non-zero (exit 1), one line each; success otherwise.
    pub(super) fn finish(&self, s: &Scenario) -> ExitCode {
        for u in &self.unfinished {
            tell!("trapscope: not compared: {u}");
        }
        if !self.unfinished.is_empty() {
            return ExitCode::from(EXIT_FAULT);
        }
        let ons: Vec<String> = self
            .runs
            .iter()
            .map(|(core, _)| {
                if core.is_empty() {
                    String::new()
                } else {
                    format!(" on {core}")
                }
            })
            .collect();
        nonzero_exit(
            s,
            self.runs
                .iter()
                .zip(&ons)
                .flat_map(|((_, v), on)| v.iter().map(move |r| (r, on.as_str()))),
        )
    }
}

pub(super) fn replay(path: &Path, core: Option<Rc<Profile>>) -> anyhow::Result<ExitCode> {
    let s = load(path)?;
    say!(
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
        say!(
            "{mark} step {}: [{}] {} after {} instructions\n       {}",
            r.index,
            r.variant,
            r.position,
            r.instructions,
            r.say
        );
    }
    say!("{} passed, {} failed", steps.len() - failed, failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

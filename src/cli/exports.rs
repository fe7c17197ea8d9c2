//! `run --events --format json|csv` and `run --format perfetto`: each
//! variant recorded as a timeline (`session::timeline`), then written as
//! the events table or the trace. Exit statuses are `run`'s.

use std::process::ExitCode;

use super::shared::{EXIT_BUDGET, EXIT_FAULT, EXIT_GUEST_FAILED};
use crate::report::{self, RunFormat};
use crate::scenario::Scenario;
use crate::session::RunOpts;
use crate::session::timeline::{self, Timeline};

pub(super) fn export(
    s: &Scenario,
    variants: &[String],
    format: RunFormat,
    opts: &RunOpts,
) -> anyhow::Result<ExitCode> {
    let names: Vec<String> = if variants.is_empty() {
        s.variants.iter().map(|v| v.name.clone()).collect()
    } else {
        variants.to_vec()
    };
    let mut lines: Vec<Timeline> = Vec::new();
    let mut programs = Vec::new();
    for n in &names {
        let v = s.variant(n).map_err(anyhow::Error::msg)?;
        lines.push(timeline::record(s, v, opts).map_err(anyhow::Error::msg)?);
        programs.push(v.program.clone());
        if crate::machine::sigint::requested() {
            anyhow::bail!("interrupted");
        }
    }
    let runs: Vec<_> = programs.iter().map(|p| &**p).zip(&lines).collect();
    match format {
        RunFormat::Csv => print!("{}", report::escape(&report::event_export::csv(&runs))),
        RunFormat::Perfetto => print!(
            "{}",
            report::escape_json(&report::perfetto::trace(s, &runs))
        ),
        _ => print!(
            "{}",
            report::escape_json(&report::event_export::json(s, &runs))
        ),
    }
    for t in &lines {
        if t.exit_code.is_none() {
            tell!(
                "trapscope: variant {}: {}",
                t.variant,
                t.error.clone().unwrap_or_default()
            );
            return Ok(ExitCode::from(if t.outcome == "budget" {
                EXIT_BUDGET
            } else {
                EXIT_FAULT
            }));
        }
    }
    for t in &lines {
        if let Some(c) = t.exit_code.filter(|c| *c != 0)
            && !super::each::expects_exit_code(s, &t.variant)
        {
            tell!(
                "trapscope: variant {}: {}",
                t.variant,
                super::shared::scenario_exit_text(s, c)
            );
            return Ok(ExitCode::from(EXIT_GUEST_FAILED));
        }
    }
    Ok(ExitCode::SUCCESS)
}

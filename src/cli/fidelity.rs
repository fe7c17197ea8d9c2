//! `trapscope fidelity [SCENARIO...]`: the measured figures beside their
//! estimates (`report::fidelity`). A report: it exits 0 whatever the
//! ratios; a scenario that cannot be loaded is an error (2).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::each::per_core;
use super::shared::load;
use crate::machine::MachineConfig;
use crate::report::{self, Format, fidelity};
use crate::session::{RunOpts, VariantRun};

/// The shipped scenarios (`scenarios/*.toml`), sorted.
pub(super) fn shipped() -> anyhow::Result<Vec<PathBuf>> {
    let dir = crate::project_dir().join("scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    v.sort();
    Ok(v)
}

/// A path as the report shows it: relative to the project for the shipped
/// scenarios, so the output does not depend on where the tree is.
fn shown(p: &Path) -> String {
    p.strip_prefix(crate::project_dir())
        .unwrap_or(p)
        .display()
        .to_string()
}

pub(super) fn fidelity(
    paths: &[PathBuf],
    format: Format,
    machine: MachineConfig,
    given: &[fidelity::Measured],
) -> anyhow::Result<ExitCode> {
    let opts = RunOpts {
        machine,
        history: crate::session::NO_HISTORY,
        bands: true,
        band_later: true,
        ..RunOpts::default()
    };
    let paths = if paths.is_empty() {
        shipped()?
    } else {
        paths.to_vec()
    };
    let mut scenarios = Vec::new();
    for p in &paths {
        scenarios.push((load(p)?, shown(p)));
    }
    // Each given figure joins every scenario read that runs its variant on
    // its core; one that fits none is an error.
    for m in given {
        let cores = |s: &crate::scenario::Scenario| -> Vec<String> {
            s.cores.iter().map(|c| c.name.clone()).collect()
        };
        if !scenarios
            .iter()
            .any(|(s, _)| crate::report::measured::fits(s, m, &cores(s)))
        {
            anyhow::bail!(
                "--measured {}: no scenario read runs a variant '{}' on core '{}'",
                m.text,
                m.variant,
                m.core
            );
        }
    }
    for (s, _) in scenarios.iter_mut() {
        let cores: Vec<String> = s.cores.iter().map(|c| c.name.clone()).collect();
        let mine: Vec<fidelity::Measured> = given
            .iter()
            .filter(|m| crate::report::measured::fits(s, m, &cores))
            .cloned()
            .collect();
        crate::report::measured::apply(s, &mine, &cores).map_err(anyhow::Error::msg)?;
    }
    let mut items = Vec::new();
    for (s, name) in &scenarios {
        // Only scenarios with measured figures need running.
        let mut runs: Vec<(String, Vec<VariantRun>)> = if s.references.is_empty() {
            Vec::new()
        } else {
            per_core(s, &[], &opts)?
        };
        // A variant that did not finish has no per-iteration figure.
        for (_, v) in runs.iter_mut() {
            v.retain(|r| r.exit_code.is_some());
        }
        items.push((s, name.clone(), runs));
    }
    let f = fidelity::build(&items);
    match format {
        Format::Json => print!("{}", report::escape_json(&fidelity::json(&f))),
        Format::Md => print!("{}", report::escape(&fidelity::markdown(&f))),
        Format::Text => print!("{}", report::escape(&fidelity::text(&f))),
    }
    Ok(ExitCode::SUCCESS)
}

//! Running a scenario's variants on each of its cores, and what its
//! expectations say a variant's end means: what `run`, `compare`, `check`,
//! `fidelity`, `diff` and the exports share, so that none of them imports
//! another.

use std::rc::Rc;

use crate::cost::Profile;
use crate::scenario::Scenario;
use crate::session::{self, RunOpts, VariantRun};

pub(super) fn run_all(
    s: &Scenario,
    variants: &[String],
    opts: &RunOpts,
) -> anyhow::Result<Vec<VariantRun>> {
    let names: Vec<String> = if variants.is_empty() {
        s.variants.iter().map(|v| v.name.clone()).collect()
    } else {
        variants.to_vec()
    };
    let mut runs = Vec::new();
    for n in &names {
        let v = s.variant(n).map_err(anyhow::Error::msg)?;
        runs.push(session::run_variant(s, v, opts).map_err(anyhow::Error::msg)?);
        // Ctrl-C: no report of a half-run; `cli::main` says why in one line.
        if crate::machine::sigint::requested() {
            anyhow::bail!("interrupted");
        }
    }
    Ok(runs)
}

/// Each core's runs of every variant.
pub(super) fn per_core(
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
    if profiles.is_empty() && s.variants.iter().any(|v| v.core.is_some()) {
        // The variants are the cores.
        return Ok(vec![(String::new(), run_all(s, &[], opts)?)]);
    }
    if profiles.is_empty() {
        anyhow::bail!(
            "{}: the scenario names no cores (no `cores = [...]`, and its variants give no `core`): add them or pass --core",
            s.cores_loc
        );
    }
    // `--core` runs every variant on each core it names. Otherwise a
    // variant with its own `core` runs there alone, listed with that core,
    // and the others run on every core in `cores`.
    let pinned: Vec<&crate::scenario::Variant> = if cores.is_empty() {
        s.variants.iter().filter(|v| v.core.is_some()).collect()
    } else {
        Vec::new()
    };
    let free: Vec<String> = s
        .variants
        .iter()
        .filter(|v| !pinned.iter().any(|p| p.name == v.name))
        .map(|v| v.name.clone())
        .collect();
    let mut out: Vec<(String, Vec<VariantRun>)> = Vec::new();
    for p in profiles {
        let o = RunOpts {
            core: Some(p.clone()),
            ..opts.clone()
        };
        let runs = if free.is_empty() {
            Vec::new()
        } else {
            run_all(s, &free, &o)?
        };
        out.push((p.name.clone(), runs));
    }
    for v in pinned {
        let core = v.core.as_ref().map(|c| c.name.clone()).unwrap_or_default();
        let mut runs = run_all(s, std::slice::from_ref(&v.name), opts)?;
        match out.iter_mut().find(|(c, _)| *c == core) {
            Some((_, group)) => {
                // In the scenario's order of variants.
                group.append(&mut runs);
                group.sort_by_key(|r| s.variants.iter().position(|x| x.name == r.variant));
            }
            None => out.push((core, runs)),
        }
    }
    out.retain(|(_, runs)| !runs.is_empty());
    Ok(out)
}

/// " (core C has no V 1.0 unit, ...)" when `core` has none and the
/// scenario's own cores do; else empty.
pub(super) fn core_vector_hint(s: &Scenario, core: &str) -> String {
    let v10 = |p: &Profile| p.vector.present.value && p.vector_isa == "v1.0";
    let Ok(p) = Profile::find(core) else {
        return String::new();
    };
    let with_v: Vec<&str> = s
        .cores
        .iter()
        .filter(|c| v10(c))
        .map(|c| c.name.as_str())
        .collect();
    if v10(&p) || with_v.is_empty() || with_v.contains(&core) {
        return String::new();
    }
    format!(
        " (core {core} has no V 1.0 unit, and this scenario's vector code needs one: its cores are {})",
        with_v.join(", ")
    )
}

/// Whether an expectation names `variant`'s exit code: then a non-zero
/// one is what the variant is for, not a failed guest.
pub(super) fn expects_exit_code(s: &Scenario, variant: &str) -> bool {
    expects_metric(s, variant, &["exit_code"])
}

/// Whether an expectation names `variant`'s `lrsc.livelock`: then a run
/// that ends in the livelock, with no exit, is what the variant shows.
pub(super) fn expects_livelock(s: &Scenario, variant: &str) -> bool {
    expects_metric(s, variant, &["lrsc", "livelock"])
}

fn expects_metric(s: &Scenario, variant: &str, metric: &[&str]) -> bool {
    s.expect.iter().any(|e| {
        e.check.operands().iter().any(|o| {
            matches!(o, crate::scenario::Operand::Metric { variant: v, path }
                if v == variant && path.iter().map(String::as_str).eq(metric.iter().copied()))
        })
    })
}

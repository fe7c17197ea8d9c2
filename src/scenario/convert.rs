//! From the file's DTOs to the core types, checking every name against the
//! guest ELF and the core profiles, with errors at `file:line:col`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_spanned::Spanned;

use super::{
    DEFAULT_BUDGET, Expect, Knob, Locator, Lrsc, Measure, Narration, PANES, ResultSpec, Scenario,
    ScenarioError, ScriptStep, StartAt, StepTarget, Variant, dto,
};
use crate::cost::Profile;
use crate::machine::{Program, ResumeState};

mod checks;
mod pairs;
mod references;
mod snapshot;
use snapshot::{DEFAULT_COUNT, INIT_LOOP, check_vector_cores, kernel_phases, variant_program};

// Here, not in mod.rs: the conversion imports mod.rs, which imports nothing back.
impl Scenario {
    pub fn parse(path: &Path, src: &str) -> Result<Scenario, ScenarioError> {
        let loc = Locator { file: path, src };
        convert(path, &loc, loc.parse()?)
    }
}

pub(super) fn load_elf(
    loc: &Locator<'_>,
    base: &Path,
    s: &Spanned<String>,
    cache: &mut Vec<(PathBuf, Rc<Program>)>,
) -> Result<Rc<Program>, ScenarioError> {
    let path = base.join(s.get_ref());
    if let Some((_, p)) = cache.iter().find(|(q, _)| *q == path) {
        return Ok(p.clone());
    }
    let p = Rc::new(Program::load(&path).map_err(|e| loc.span(s, e.to_string()))?);
    // Its sources may sit beside it (unless that is $HOME or a system directory).
    crate::input::source_policy::allow_dir_of(&path, crate::input::source_policy::Origin::Scenario);
    cache.push((path, p.clone()));
    Ok(p)
}

/// Checks that a name is a symbol of the scenario's guest.
type NeedSymbol<'a> = dyn Fn(&Spanned<String>, &str) -> Result<String, ScenarioError> + 'a;

/// The measured window: start/end symbols, or a count of iterations.
fn measure(
    loc: &Locator<'_>,
    m: &dto::MeasureDto,
    need_symbol: &NeedSymbol<'_>,
) -> Result<Measure, ScenarioError> {
    let iteration = need_symbol(&m.iteration, "measure.iteration")?;
    match (&m.start, &m.end, &m.iterations) {
        (Some(s), Some(e), None) => {
            if let Some(w) = m.warmup {
                return Err(loc.span(&m.iteration, format!("measure.warmup = {w} goes with measure.iterations, not start/end")));
            }
            Ok(Measure {
                start: Some(need_symbol(s, "measure.start")?),
                end: Some(need_symbol(e, "measure.end")?),
                iteration,
                count: None,
            })
        }
        (None, None, Some(n)) => {
            if *n.get_ref() == 0 {
                return Err(loc.span(n, "measure.iterations must be at least 1"));
            }
            Ok(Measure {
                start: None,
                end: None,
                iteration,
                count: Some((m.warmup.unwrap_or(0), *n.get_ref())),
            })
        }
        _ => Err(loc.span(
            &m.iteration,
            "[measure] needs start and end symbols, or iterations (and warmup) for a loop that never ends",
        )),
    }
}

pub(super) fn convert(
    path: &Path,
    loc: &Locator<'_>,
    f: dto::ScenarioFile,
) -> Result<Scenario, ScenarioError> {
    let base = path.parent().unwrap_or(Path::new("."));
    let mut elfs = Vec::new();
    let mut snaps: Vec<(PathBuf, Rc<Program>, Rc<ResumeState>)> = Vec::new();
    let main_elf = match &f.elf {
        Some(e) => load_elf(loc, base, e, &mut elfs)?,
        None => match f.variants.get_ref().first() {
            Some(v) if v.snapshot.is_some() || v.elf.is_some() => {
                variant_program(loc, base, v, &mut elfs, &mut snaps)?.0
            }
            _ => {
                return Err(loc.span(
                    &f.variants,
                    "the scenario names no guest: give elf = \"...\", or an elf or snapshot in every variant",
                ));
            }
        },
    };

    let mut knobs = Vec::new();
    for (name, k) in &f.knobs {
        if main_elf.symbol(k.symbol.get_ref()).is_none() {
            return Err(loc.span(
                &k.symbol,
                format!(
                    "knob '{}' names symbol '{}', which {} does not have",
                    name.get_ref(),
                    k.symbol.get_ref(),
                    main_elf.path.display()
                ),
            ));
        }
        let knob = Knob {
            name: name.get_ref().clone(),
            symbol: k.symbol.get_ref().clone(),
            default: *k.default.get_ref(),
            max: k.max.as_ref().map(|m| *m.get_ref()),
            help: k.help.clone(),
        };
        knob.check(knob.default)
            .map_err(|e| loc.span(&k.default, format!("default: {e}")))?;
        knobs.push(knob);
    }
    if f.variants.get_ref().is_empty() {
        return Err(loc.span(
            &f.variants,
            "a scenario needs at least one [[variants]] entry",
        ));
    }
    let mut variants: Vec<Variant> = Vec::new();
    for v in f.variants.get_ref() {
        if variants.iter().any(|w| w.name == *v.name.get_ref()) {
            return Err(loc.span(
                &v.name,
                format!("variant '{}' is defined twice", v.name.get_ref()),
            ));
        }
        let (program, resume) = if v.elf.is_some() || v.snapshot.is_some() {
            variant_program(loc, base, v, &mut elfs, &mut snaps)?
        } else if f.elf.is_none() {
            return Err(loc.span(
                &v.name,
                format!(
                    "variant '{}' names no guest: the scenario has no elf, so give it elf or snapshot",
                    v.name.get_ref()
                ),
            ));
        } else {
            (main_elf.clone(), None)
        };
        let mut vk = BTreeMap::new();
        for (k, val) in &v.knobs {
            let Some(knob) = knobs.iter().find(|x| x.name == *k.get_ref()) else {
                let known: Vec<&str> = knobs.iter().map(|k| k.name.as_str()).collect();
                return Err(loc.span(
                    k,
                    format!(
                        "unknown knob '{}' in variant '{}' (knobs: {})",
                        k.get_ref(),
                        v.name.get_ref(),
                        known.join(", ")
                    ),
                ));
            };
            if program.symbol(&knob.symbol).is_none() {
                return Err(loc.span(
                    k,
                    format!(
                        "variant '{}': its ELF lacks knob symbol '{}'",
                        v.name.get_ref(),
                        knob.symbol
                    ),
                ));
            }
            knob.check(*val.get_ref())
                .map_err(|e| loc.span(val, format!("variant '{}': {e}", v.name.get_ref())))?;
            vk.insert(k.get_ref().clone(), *val.get_ref());
        }
        let core = match &v.core {
            Some(c) => Some(Rc::new(
                Profile::find(c.get_ref()).map_err(|e| loc.span(c, e.to_string()))?,
            )),
            None => None,
        };
        variants.push(Variant {
            name: v.name.get_ref().clone(),
            label: v.label.clone(),
            program,
            knobs: vk,
            core,
            resume,
        });
    }
    let need_symbol = |s: &Spanned<String>, what: &str| -> Result<String, ScenarioError> {
        if main_elf.symbol(s.get_ref()).is_none() {
            return Err(loc.span(
                s,
                format!(
                    "{what} '{}' is not a symbol of {}",
                    s.get_ref(),
                    main_elf.path.display()
                ),
            ));
        }
        Ok(s.get_ref().clone())
    };
    // A location as `:break` takes it, checked against the main guest.
    let need_location = |s: &Spanned<String>, what: &str| -> Result<String, ScenarioError> {
        let at = s.get_ref().trim();
        main_elf.locate(at).map_err(|e| {
            loc.span(
                s,
                format!(
                    "{what} '{at}': {e} in {} (give SYMBOL, SYMBOL+0xOFF or file.S:LINE)",
                    main_elf.path.display()
                ),
            )
        })?;
        Ok(at.to_string())
    };
    let need_count = |n: &Option<Spanned<u64>>, what: &str| -> Result<u64, ScenarioError> {
        match n {
            None => Ok(1),
            Some(n) if *n.get_ref() == 0 => Err(loc.span(
                n,
                format!("{what} must be at least 1 (1 is the first arrival)"),
            )),
            Some(n) => Ok(*n.get_ref()),
        }
    };
    let mut phases = Vec::new();
    for (name, syms) in &f.phases {
        let mut list = Vec::new();
        for s in syms {
            list.push(need_symbol(s, "phase symbol")?);
        }
        phases.push((name.get_ref().clone(), list));
    }
    let snapshot = variants.iter().any(|v| v.resume.is_some());
    if snapshot && f.phases.is_empty() {
        phases = kernel_phases(&main_elf);
    }
    let measure = match &f.measure {
        Some(m) => Some(measure(loc, m, &need_symbol)?),
        // A snapshot's init loops forever: time its loop by count.
        None if snapshot && main_elf.symbol(INIT_LOOP).is_some() => Some(Measure {
            start: None,
            end: None,
            iteration: INIT_LOOP.into(),
            count: Some(DEFAULT_COUNT),
        }),
        None => None,
    };
    let mut narration = Vec::new();
    for n in &f.narration {
        narration.push(Narration {
            at: need_symbol(&n.at, "narration point")?,
            text: n.text.trim().to_string(),
        });
    }
    // The names a result's tables are keyed by, for the expectations.
    let mut phase_names: Vec<String> = ["user", "firmware", "kernel", "idle"]
        .map(String::from)
        .to_vec();
    phase_names.extend(phases.iter().map(|(n, _)| n.clone()));
    let metrics = super::expect::metrics::Metrics {
        phases: phase_names,
        results: f.results.keys().cloned().collect(),
        knobs: knobs.iter().map(|k| k.name.clone()).collect(),
    };
    let mut expect = Vec::new();
    for e in &f.expect {
        let check = checks::parse_located(loc, &e.check, &variants, &metrics)?;
        let at = loc.span(&e.check, "");
        expect.push(Expect {
            core: e.core.as_ref().map(|c| c.get_ref().clone()),
            name: e.name.clone(),
            check,
            loc: format!("{}:{}:{}", at.file.display(), at.line, at.col),
        });
    }
    let mut cores = Vec::new();
    let no_cores = Vec::new();
    let core_names = f.cores.as_ref().map_or(&no_cores, |c| c.get_ref());
    for c in core_names {
        let base_rel = base.join(c.get_ref());
        let arg = if c.get_ref().ends_with(".toml") {
            base_rel.to_string_lossy().into_owned()
        } else {
            c.get_ref().clone()
        };
        cores.push(Rc::new(
            Profile::find(&arg).map_err(|e| loc.span(c, e.to_string()))?,
        ));
    }
    check_vector_cores(loc, &f, &variants, &cores)?;
    let references = references::references(loc, &f.reference, &cores, &variants, &phases)?;
    let pairs = pairs::pairs(loc, &f.pair, &variants)?;
    let mut script = Vec::new();
    for (i, spanned) in f.script.iter().enumerate() {
        let st = spanned.get_ref();
        let target = match (&st.until, &st.event) {
            (Some(u), None) => StepTarget::Symbol(need_location(u, "script `until`")?),
            (None, Some(e)) => {
                StepTarget::Event(crate::trace::EventKind::parse(e.get_ref()).ok_or_else(|| {
                    let kinds: Vec<&str> = crate::trace::EventKind::ALL
                        .iter()
                        .map(|k| k.name())
                        .collect();
                    loc.span(
                        e,
                        format!(
                            "unknown event kind '{}' (kinds: {})",
                            e.get_ref(),
                            kinds.join(", ")
                        ),
                    )
                })?)
            }
            _ => {
                return Err(loc.span(
                    spanned,
                    format!(
                        "script step {}: give exactly one of `until` (a symbol) or `event` (a kind)",
                        i + 1
                    ),
                ));
            }
        };
        if let Some(v) = &st.variant
            && !variants.iter().any(|x| x.name == *v.get_ref())
        {
            return Err(loc.span(v, format!("unknown variant '{}' in script", v.get_ref())));
        }
        if let Some(h) = &st.highlight
            && !PANES.contains(&h.get_ref().as_str())
        {
            return Err(loc.span(
                h,
                format!(
                    "unknown pane '{}' (panes: {})",
                    h.get_ref(),
                    PANES.join(", ")
                ),
            ));
        }
        script.push(ScriptStep {
            target,
            count: need_count(&st.count, "count")?,
            variant: st.variant.as_ref().map(|v| v.get_ref().clone()),
            say: st.say.trim().to_string(),
            highlight: st.highlight.as_ref().map(|h| h.get_ref().clone()),
        });
    }
    let start_at = match (&f.start_at, &f.start_count) {
        (Some(at), n) => Some(StartAt {
            location: need_location(at, "start_at")?,
            count: need_count(n, "start_count")?,
        }),
        (None, Some(n)) => {
            return Err(loc.span(n, "start_count goes with start_at (a location)"));
        }
        (None, None) => None,
    };
    let mut probe_rejections = Vec::new();
    for p in &f.probes {
        let name = need_symbol(p, "probe")?;
        let addr = main_elf.symbol(&name).map_or(0, |s| s.addr);
        if let Err(why) = crate::atomics::checker::probe_allowed(&main_elf, addr) {
            if !f.probes_anyway {
                return Err(loc.span(
                    p,
                    format!("probe rejected: {why} (set probes_anyway = true to place it and see)"),
                ));
            }
            probe_rejections.push((name.clone(), why));
        }
    }
    let mut results = Vec::new();
    for (name, r) in &f.results {
        let symbol = need_symbol(&r.symbol, "result")?;
        let mut names = BTreeMap::new();
        for (k, v) in &r.names {
            let n = k.parse::<u64>().map_err(|_| {
                loc.span(&r.symbol, format!("result '{name}': '{k}' is not a number"))
            })?;
            names.insert(n, v.clone());
        }
        results.push(ResultSpec {
            name: name.clone(),
            symbol,
            names,
        });
    }
    // Where "names no cores" points: its empty `cores`, or its first variant.
    let at = match &f.cores {
        Some(c) => loc.span(c, ""),
        None => f
            .variants
            .get_ref()
            .first()
            .map_or_else(|| loc.span(&f.variants, ""), |v| loc.span(&v.name, "")),
    };
    let seed_table = super::seed_table::convert(loc, f.seed_table.as_ref(), &variants)?;
    let exit_codes = super::exit_codes::convert(loc, &f.exit_codes)?;
    Ok(Scenario {
        seed_table,
        exit_codes,
        cores_loc: format!("{}:{}:{}", at.file.display(), at.line, at.col),
        lrsc: Lrsc {
            xret_clears: f.lrsc.xret_clears,
            remote_store_every: f.lrsc.remote_store_every,
            livelock_after: f.lrsc.livelock_after,
        },
        probes: f.probes.iter().map(|p| p.get_ref().clone()).collect(),
        probe_rejections,
        results,
        script,
        start_at,
        cores,
        references,
        pairs,
        path: path.to_path_buf(),
        title: f.title,
        patch: f.patch,
        summary: f.summary.trim().to_string(),
        budget: f.budget.unwrap_or(DEFAULT_BUDGET),
        knobs,
        variants,
        phases,
        measure,
        narration,
        expect,
    })
}

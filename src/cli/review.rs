//! `trapscope review BEFORE AFTER`: from two kernel builds to a review in
//! one command. It snapshots both kernels (`qemu::take`, cached by
//! build id, init and options: cache.rs), builds the scenario the
//! reviewer's recipe writes by hand (place.rs), and prints what `compare`
//! and `diff` print on it, through the same report functions.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use crate::cost::Profile;
use crate::report::{self, Format, pathdiff};
use crate::scenario::Scenario;
use crate::session::RunOpts;

pub(super) mod args;
mod cache;
mod groups;
mod place;
mod render;
mod side;

pub use args::ReviewArgs;
use side::{InitChoice, Side, Symbols};

/// The scenario's name in the reports when no `--scenario-out` file holds it.
const IN_MEMORY: &str = "(trapscope review)";

fn tell_progress(line: &str) {
    tell!("trapscope: review: {line}");
}

pub fn review(a: ReviewArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    if a.clear_cache {
        let root = cache::root().map_err(anyhow::Error::msg)?;
        let (n, bytes) = cache::clear(&root).map_err(anyhow::Error::msg)?;
        tell!(
            "trapscope: review: removed {n} cached snapshots ({:.1} MiB) from {}",
            bytes as f64 / (1u64 << 20) as f64,
            root.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(b), Some(af)) = (&a.before, &a.after) else {
        anyhow::bail!("give BEFORE and AFTER (two kernel build directories)");
    };
    let sym = Symbols {
        at: a.at,
        marker: a.ecall_symbol.clone(),
        loop_symbol: a.loop_symbol.clone(),
    };
    let inits: Vec<Option<InitChoice>> = if a.elf {
        if !a.inits.is_empty() {
            anyhow::bail!("--init goes with kernel builds; a bare-metal ELF (--elf) has no init");
        }
        vec![None]
    } else {
        let names = if a.inits.is_empty() {
            vec!["getppid".to_string()]
        } else {
            a.inits.clone()
        };
        let mut v = Vec::new();
        for n in &names {
            let marker = sym
                .marker
                .clone()
                .unwrap_or_else(|| super::snapshot::default_marker(n).to_string());
            v.push(Some(
                side::init_choice(n, &marker, &sym.loop_symbol).map_err(anyhow::Error::msg)?,
            ));
        }
        v
    };
    let load_side = |p: &PathBuf| if a.elf { Side::elf(p) } else { Side::linux(p) };
    let before = load_side(b).map_err(anyhow::Error::msg)?;
    let after = load_side(af).map_err(anyhow::Error::msg)?;
    if before.id == after.id {
        anyhow::bail!(
            "BEFORE and AFTER are the same build ({} {}): nothing to review; give the kernels built before and after the patch",
            if a.elf { "fnv1a64" } else { "build id" },
            before.id
        );
    }
    let cores: Vec<String> = if a.cores.is_empty() {
        Profile::names()
    } else {
        for c in &a.cores {
            Profile::find(c).map_err(anyhow::Error::msg)?;
        }
        a.cores.clone()
    };
    let vector_kernel = before.vector || after.vector;
    let groups = groups::groups(&cores, vector_kernel, a.vlen)?;
    let is_vector = |i: &Option<InitChoice>| {
        i.as_ref()
            .is_some_and(|i| super::snapshot::VECTOR_INITS.contains(&i.name.as_str()))
    };
    if let Some(Some(v)) = inits.iter().find(|i| is_vector(i))
        && !vector_kernel
    {
        anyhow::bail!(
            "--init {}: runs vector instructions, but neither kernel has V (no riscv_v_first_use_handler in its vmlinux): build them with CONFIG_RISCV_ISA_V and CONFIG_FPU",
            v.name
        );
    }
    let root = if a.no_cache {
        None
    } else {
        Some(cache::root().map_err(anyhow::Error::msg)?)
    };
    // Held to the end: --no-cache's snapshots without --scenario-out.
    let scratch = crate::output::scratch_dir("trapscope-review").map_err(anyhow::Error::msg)?;
    let ctx = Ctx {
        a: &a,
        before: &before,
        after: &after,
        sym: &sym,
        root: root.as_deref(),
        scratch: scratch.path(),
        signals: super::snapshot::stop_on_termination(),
    };
    let many = groups.len() > 1;
    let mut used = Vec::new();
    let mut parts = Vec::new();
    let mut code = ExitCode::SUCCESS;
    for g in &groups {
        // A vector init runs only where the hart has V.
        let mine: Vec<Option<InitChoice>> = inits
            .iter()
            .filter(|i| g.vlen.is_some() || !is_vector(i))
            .cloned()
            .collect();
        if mine.is_empty() {
            tell_progress(&format!(
                "{}: no V, so none of the inits asked for (all vector ones) runs there: left out",
                g.cores.join(", ")
            ));
            continue;
        }
        if many {
            tell_progress(&groups::heading(g));
        }
        let (out, c) = ctx.group(g, &mine, many, &mut used)?;
        if code == ExitCode::SUCCESS {
            code = c;
        }
        parts.push((g, out));
    }
    if parts.is_empty() {
        anyhow::bail!(
            "the inits asked for run vector instructions, and none of the cores asked for ({}) has V 1.0",
            cores.join(", ")
        );
    }
    if let Some(r) = &root {
        for gone in cache::evict(r, &used) {
            tell_progress(&format!(
                "cache full: removed the least recently used {gone}"
            ));
        }
    }
    let out = render::join(&parts, many, a.format)?;
    if a.format == Format::Json {
        print!("{}", report::escape_json(&out));
    } else {
        print!("{}", report::escape(&out));
    }
    tell_progress(&format!("done in {:.1} s", started.elapsed().as_secs_f64()));
    Ok(code)
}

/// What every group of a review shares.
struct Ctx<'a> {
    a: &'a ReviewArgs,
    before: &'a Side,
    after: &'a Side,
    sym: &'a Symbols,
    root: Option<&'a std::path::Path>,
    scratch: &'a std::path::Path,
    signals: Vec<super::snapshot::Caught>,
}

impl Ctx<'_> {
    /// One group's review (`groups.rs`): its snapshots at its VLEN, its
    /// scenario (`--scenario-out`'s file, or `FILE-vlenN.toml` beside it
    /// when there are several groups), compare and the path diffs,
    /// rendered; and its exit status. The cache keys it used go to `used`.
    fn group(
        &self,
        g: &groups::Group,
        inits: &[Option<InitChoice>],
        many: bool,
        used: &mut Vec<String>,
    ) -> anyhow::Result<(String, ExitCode)> {
        let a = self.a;
        let (before, after, sym) = (self.before, self.after, self.sym);
        let vtag = match (g.vlen, many) {
            (Some(v), true) => format!("-vlen{v}"),
            _ => String::new(),
        };
        let scenario_out = a.scenario_out.as_ref().map(|f| place::for_group(f, &vtag));
        let out_dir = scenario_out
            .as_ref()
            .map(|f| a.snapshots.clone().unwrap_or_else(|| place::beside(f)));
        let cores = &g.cores;
        let mut variants = Vec::new();
        let mut pairs = Vec::new();
        for init in inits {
            let suffix = match (init, inits.len()) {
                (Some(i), n) if n > 1 => format!("-{}", i.name),
                _ => String::new(),
            };
            for (label, sd) in [("before", &before), ("after", &after)] {
                let name = format!("{label}{suffix}{vtag}");
                let (cfg, key) =
                    side::config(sd, init.as_ref(), sym, g.vlen).map_err(anyhow::Error::msg)?;
                let what = format!(
                    "{name} ({}{})",
                    sd.arg.display(),
                    init.as_ref()
                        .map_or(String::new(), |i| format!(", init {}", i.name))
                );
                let dir = match self.root {
                    Some(r) => {
                        let k = key.key();
                        let d = r.join(&k);
                        if cache::is_entry(&d) {
                            tell_progress(&format!("{what}: snapshot from the cache ({k})"));
                        } else {
                            tell_progress(&format!("{what}: booting for a snapshot"));
                            take(&cfg, &d, &self.signals)?;
                        }
                        cache::touch(&d).map_err(anyhow::Error::msg)?;
                        used.push(k);
                        d
                    }
                    None => {
                        let base = out_dir.as_deref().unwrap_or(self.scratch);
                        let d = base.join(&name);
                        tell_progress(&format!("{what}: booting for a snapshot"));
                        take(&cfg, &d, &self.signals)?;
                        d
                    }
                };
                let shown = match &out_dir {
                    Some(o) => {
                        let to = o.join(&name);
                        if to != dir {
                            place::copy_snapshot(&dir, &to).map_err(anyhow::Error::msg)?;
                        }
                        match &a.snapshots {
                            // Beside the file: named relative to it.
                            None => PathBuf::from(o.file_name().unwrap_or_default()).join(&name),
                            Some(_) => std::path::absolute(&to)?,
                        }
                    }
                    None => std::path::absolute(&dir)?,
                };
                variants.push(place::Variant {
                    name,
                    snapshot: shown.to_string_lossy().into_owned(),
                });
            }
            let init_name = init.as_ref().map_or("the ELF's loop", |i| i.name.as_str());
            pairs.push((
                format!("before{suffix}{vtag}"),
                format!("after{suffix}{vtag}"),
                init_name.to_string(),
            ));
        }
        let title = format!(
            "trapscope review: {} → {}",
            before.arg.display(),
            after.arg.display()
        );
        let patch = format!("build {} → {}", short(&before.id), short(&after.id));
        let toml = place::scenario_toml(
            &title,
            &patch,
            cores,
            &variants,
            &pairs,
            &a.loop_symbol,
            a.iterations,
        );
        let s = match &scenario_out {
            Some(f) => {
                crate::output::replace(f, toml.as_bytes()).map_err(anyhow::Error::msg)?;
                tell_progress(&format!("wrote {}", f.display()));
                Scenario::load(f)
            }
            // Its snapshot paths are absolute; the name is what the reports
            // show for a scenario that is in no file.
            None => Scenario::parse(std::path::Path::new(IN_MEMORY), &toml),
        }
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        let opts = RunOpts {
            history: crate::session::NO_HISTORY,
            bands: true,
            ..RunOpts::default()
        };
        let c = super::runs::compared_runs(&s, cores, &opts, &mut |l| tell_progress(l))?;
        // The path diff with the cycles of the first core asked for (with
        // none asked for, instructions only: one core would be an arbitrary
        // choice among all).
        // (Within the group: its first core asked for.)
        let diff_core = match a.cores.iter().find(|c| cores.contains(c)) {
            Some(c) => Some(std::rc::Rc::new(
                crate::cost::Profile::find(c).map_err(anyhow::Error::msg)?,
            )),
            None => None,
        };
        let diff_opts = RunOpts {
            bands: diff_core.is_some(),
            core: diff_core,
            ..opts.clone()
        };
        let mut diffs = Vec::new();
        for (b, af, _) in &pairs {
            tell_progress(&format!("path diff of {b} → {af}"));
            let d = pathdiff::diff_typical(&s, b, af, &diff_opts).map_err(anyhow::Error::msg)?;
            if crate::machine::sigint::requested() {
                anyhow::bail!("interrupted");
            }
            diffs.push(d);
        }
        let out = render::render(&s, &c, &diffs, a.format, scenario_out.as_deref())?;
        Ok((out, c.finish(&s)))
    }
}

fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// Takes one snapshot (`trapscope snapshot`'s library call), ending as it
/// does on SIGTERM, SIGHUP or SIGQUIT.
fn take(
    cfg: &crate::qemu::take::Config,
    out: &std::path::Path,
    signals: &[super::snapshot::Caught],
) -> anyhow::Result<()> {
    let mut progress = |line: &str| tell_progress(&format!("snapshot: {line}"));
    let r = crate::qemu::take::take(cfg, out, &mut progress);
    super::snapshot::exit_if_terminated(signals);
    r.map_err(anyhow::Error::msg)
}

//! `trapscope review BEFORE AFTER`: from two kernel builds to a review in
//! one command. It snapshots both kernels (`snapshot::take`, cached by
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

mod cache;
mod place;
mod side;

use side::{InitChoice, Side, Symbols};

#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The kernel before the patch: its build directory (vmlinux and
    /// arch/riscv/boot/Image), or a directory holding Image and vmlinux.
    #[arg(required_unless_present = "clear_cache")]
    pub before: Option<PathBuf>,
    /// The kernel after the patch, as BEFORE.
    #[arg(required_unless_present = "clear_cache")]
    pub after: Option<PathBuf>,
    /// The /init (repeatable): one of trapscope's (as `snapshot --init`)
    /// or a path to your own; one before/after pair per init
    /// [default: getppid].
    #[arg(long = "init", value_name = "NAME|PATH")]
    pub inits: Vec<String>,
    /// Cores to estimate on (repeatable). Default: every shipped core
    /// profile.
    #[arg(long = "core")]
    pub cores: Vec<String>,
    /// text, md (one Markdown document to paste into a review) or json.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Take both snapshots afresh, neither reading nor filling the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Also write the scenario built, with its snapshots in FILE's name
    /// with `.snapshots` (or --snapshots DIR): `compare` and `diff` run on it.
    #[arg(long, value_name = "FILE")]
    pub scenario_out: Option<PathBuf>,
    /// Where --scenario-out's snapshots go.
    #[arg(long, value_name = "DIR", requires = "scenario_out")]
    pub snapshots: Option<PathBuf>,
    /// Remove every cached snapshot, and nothing else.
    #[arg(long, conflicts_with_all = ["before", "after"])]
    pub clear_cache: bool,
    /// A vector kernel's VLEN: not there yet.
    #[arg(long)]
    pub vlen: Option<u32>,
    /// BEFORE and AFTER are bare-metal RV64 ELFs (as `snapshot --elf`)
    /// instead of kernel builds.
    #[arg(long)]
    pub elf: bool,
    /// The loop's marker, as `snapshot --ecall-symbol` [default:
    /// init_ecall; pagefault's init_touch].
    #[arg(long)]
    pub ecall_symbol: Option<String>,
    /// Snapshot before the N-th execution of the marker, as `snapshot --at`.
    #[arg(long, default_value_t = 100)]
    pub at: u64,
    /// Iterations of the loop timed, after 10 warm-up ones.
    #[arg(long, default_value_t = 100)]
    pub iterations: u64,
    /// The top of the measured loop, as `snapshot --loop-symbol`.
    #[arg(long, default_value = "init_loop")]
    pub loop_symbol: String,
}

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
    let vector = a
        .inits
        .iter()
        .find(|i| super::snapshot::VECTOR_INITS.contains(&i.as_str()));
    if a.vlen.is_some() || vector.is_some() {
        anyhow::bail!(
            "review of vector kernels (--vlen, or --init {}) is not there yet: it needs one snapshot per VLEN; take them with `trapscope snapshot --core C` and write the scenario by hand (README, \"Vector kernels\")",
            vector.map_or("vector-v1", |v| v.as_str())
        );
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
    let root = if a.no_cache {
        None
    } else {
        Some(cache::root().map_err(anyhow::Error::msg)?)
    };
    // Held to the end: --no-cache's snapshots without --scenario-out.
    let scratch = crate::output::scratch_dir("trapscope-review").map_err(anyhow::Error::msg)?;
    let out_dir = a
        .scenario_out
        .as_ref()
        .map(|f| a.snapshots.clone().unwrap_or_else(|| place::beside(f)));
    let mut variants = Vec::new();
    let mut pairs = Vec::new();
    let mut used = Vec::new();
    let signals = super::snapshot::stop_on_termination();
    for init in &inits {
        let suffix = match (init, inits.len()) {
            (Some(i), n) if n > 1 => format!("-{}", i.name),
            _ => String::new(),
        };
        for (label, sd) in [("before", &before), ("after", &after)] {
            let name = format!("{label}{suffix}");
            let (cfg, key) = side::config(sd, init.as_ref(), &sym).map_err(anyhow::Error::msg)?;
            let what = format!(
                "{name} ({}{})",
                sd.arg.display(),
                init.as_ref()
                    .map_or(String::new(), |i| format!(", init {}", i.name))
            );
            let dir = match &root {
                Some(r) => {
                    let k = key.key();
                    let d = r.join(&k);
                    if cache::is_entry(&d) {
                        tell_progress(&format!("{what}: snapshot from the cache ({k})"));
                    } else {
                        tell_progress(&format!("{what}: booting for a snapshot"));
                        take(&cfg, &d, &signals)?;
                    }
                    cache::touch(&d).map_err(anyhow::Error::msg)?;
                    used.push(k);
                    d
                }
                None => {
                    let base = out_dir.as_deref().unwrap_or(scratch.path());
                    let d = base.join(&name);
                    tell_progress(&format!("{what}: booting for a snapshot"));
                    take(&cfg, &d, &signals)?;
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
            format!("before{suffix}"),
            format!("after{suffix}"),
            init_name.to_string(),
        ));
    }
    if let Some(r) = &root {
        for gone in cache::evict(r, &used) {
            tell_progress(&format!(
                "cache full: removed the least recently used {gone}"
            ));
        }
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
        &cores,
        &variants,
        &pairs,
        &a.loop_symbol,
        a.iterations,
    );
    let s = match &a.scenario_out {
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
        ..RunOpts::default()
    };
    let c = super::runs::compared_runs(&s, &cores, &opts, &mut |l| tell_progress(l))?;
    // The path diff with the cycles of the first core asked for (with
    // none asked for, instructions only: one core would be an arbitrary
    // choice among all).
    let diff_core = match a.cores.first() {
        Some(c) => Some(std::rc::Rc::new(
            crate::cost::Profile::find(c).map_err(anyhow::Error::msg)?,
        )),
        None => None,
    };
    let diff_opts = RunOpts {
        core: diff_core,
        ..opts.clone()
    };
    let mut diffs = Vec::new();
    for (b, af, _) in &pairs {
        tell_progress(&format!("path diff of {b} → {af}"));
        let d = pathdiff::build_default(&s, b, af, &diff_opts).map_err(anyhow::Error::msg)?;
        if crate::machine::sigint::requested() {
            anyhow::bail!("interrupted");
        }
        diffs.push(d);
    }
    let out = render(&s, &c, &diffs, a.format, a.scenario_out.as_deref())?;
    if a.format == Format::Json {
        print!("{}", report::escape_json(&out));
    } else {
        print!("{}", report::escape(&out));
    }
    tell_progress(&format!("done in {:.1} s", started.elapsed().as_secs_f64()));
    Ok(c.finish(&s))
}

fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// Takes one snapshot (`trapscope snapshot`'s library call), ending as it
/// does on SIGTERM, SIGHUP or SIGQUIT.
fn take(
    cfg: &crate::snapshot::take::Config,
    out: &std::path::Path,
    signals: &[super::snapshot::Caught],
) -> anyhow::Result<()> {
    let mut progress = |line: &str| tell_progress(&format!("snapshot: {line}"));
    let r = crate::snapshot::take::take(cfg, out, &mut progress);
    super::snapshot::exit_if_terminated(signals);
    r.map_err(anyhow::Error::msg)
}

/// The compare report, then each pair's path diff: text, one Markdown
/// document, or one JSON object holding `compare`'s and `diff`'s.
fn render(
    s: &Scenario,
    c: &super::runs::Compared,
    diffs: &[pathdiff::PathDiff],
    format: Format,
    scenario_out: Option<&std::path::Path>,
) -> anyhow::Result<String> {
    let mut o = c.render(s, format);
    match format {
        Format::Json => {
            let compare: serde_json::Value = serde_json::from_str(&o)?;
            let mut ds = Vec::new();
            for d in diffs {
                ds.push(serde_json::from_str::<serde_json::Value>(&pathdiff::json(
                    d,
                ))?);
            }
            let v = serde_json::json!({
                "scenario": scenario_out.map(|p| p.display().to_string()),
                "compare": compare,
                "diffs": ds,
            });
            o = serde_json::to_string_pretty(&v)? + "\n";
        }
        Format::Md => {
            for d in diffs {
                o.push('\n');
                o.push_str(&pathdiff::markdown(d, false));
            }
        }
        Format::Text => {
            for d in diffs {
                o.push('\n');
                o.push_str(&pathdiff::text(d, false));
            }
        }
    }
    Ok(o)
}

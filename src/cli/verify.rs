//! `trapscope verify`: the command line of `qemu::verify`, for a
//! snapshot directory or a scenario's snapshot variants. Exit 0 when every
//! comparison is equal, 1 when one differs, 2 on an error (`EXIT_HELP`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Duration;

use crate::cost::Profile;
use crate::qemu::verify::{self, DEFAULT_ITERATIONS, Target};

/// The exit statuses, for `--help`.
pub const EXIT_HELP: &str = "Exit status: 0 the snapshot's state and the state after the iterations \
are equal; 1 a difference was found (the first is named); 3 the snapshot's state is equal but \
the iterations cannot be compared (a path that reads the clock, or a tick snapshot); 2 an error: bad input, QEMU missing \
(apt-get install qemu-system-misc), a kernel that does not boot, a snapshot taken before snapshots \
were reproducible. Ctrl-C: 130.";

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// A snapshot directory, or a scenario file: then every variant that
    /// names `snapshot = "DIR"` (or the one --variant names).
    #[arg(value_name = "DIR|SCENARIO")]
    pub target: PathBuf,
    /// With a scenario file: only this variant.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Iterations of the loop QEMU and trapscope run on from the snapshot.
    #[arg(long, default_value_t = DEFAULT_ITERATIONS)]
    pub iterations: u64,
    /// For a snapshot with V: the core whose V unit runs it (its VLEN must
    /// be the snapshot's; default: a V unit at the snapshot's VLEN).
    /// Ignored for a snapshot without V.
    #[arg(long)]
    pub core: Option<String>,
    /// The kernel Image (or bare-metal ELF) to boot, instead of the path
    /// the snapshot recorded.
    #[arg(long)]
    pub kernel: Option<PathBuf>,
    /// The vmlinux, instead of the path the snapshot recorded (its build id
    /// must be the snapshot's; a stripped copy does: its addresses are then
    /// printed without symbols).
    #[arg(long)]
    pub vmlinux: Option<PathBuf>,
    /// Seconds QEMU may take to reach the snapshot point, and each later
    /// iteration.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
}

/// The snapshots to verify, each with a heading when there are several.
fn targets(a: &VerifyArgs) -> anyhow::Result<Vec<(Option<String>, Target)>> {
    let core = match &a.core {
        Some(c) => Some(Rc::new(Profile::find(c).map_err(anyhow::Error::msg)?)),
        None => None,
    };
    let target = |dir: PathBuf, vmlinux: Option<PathBuf>, core: Option<Rc<Profile>>| Target {
        dir,
        kernel: a.kernel.clone(),
        vmlinux: a.vmlinux.clone().or(vmlinux),
        core,
        iterations: a.iterations,
        timeout: Duration::from_secs(a.timeout),
    };
    if std::fs::symlink_metadata(&a.target).is_err() {
        anyhow::bail!(
            "{}: no such snapshot directory or scenario file",
            a.target.display()
        );
    }
    if is_dir(&a.target) {
        if let Some(v) = &a.variant {
            anyhow::bail!(
                "--variant {v}: {} is a snapshot directory; --variant goes with a scenario file",
                a.target.display()
            );
        }
        return Ok(vec![(None, target(a.target.clone(), None, core))]);
    }
    let all = crate::scenario::snapshot_variants(&a.target).map_err(|e| anyhow::anyhow!("{e}"))?;
    let names: Vec<&str> = all.iter().map(|v| v.name.as_str()).collect();
    let chosen: Vec<_> = match &a.variant {
        Some(n) => {
            let v = all.iter().find(|v| &v.name == n).ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: no variant '{n}' with a snapshot (snapshot variants: {})",
                    a.target.display(),
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    }
                )
            })?;
            vec![v.clone()]
        }
        None if all.is_empty() => anyhow::bail!(
            "{}: no variant names a snapshot (snapshot = \"DIR\"), so there is nothing to verify",
            a.target.display()
        ),
        None => all.clone(),
    };
    let mut out = Vec::new();
    for v in chosen {
        let core = match (&core, &v.core) {
            (Some(c), _) => Some(c.clone()),
            (None, Some(c)) => Some(Rc::new(Profile::find(c).map_err(anyhow::Error::msg)?)),
            (None, None) => None,
        };
        let head = format!("variant {} ({})", v.name, v.dir.display());
        out.push((Some(head), target(v.dir, v.vmlinux, core)));
    }
    Ok(out)
}

fn is_dir(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_dir())
}

pub fn verify(a: VerifyArgs) -> anyhow::Result<ExitCode> {
    let todo = targets(&a)?;
    let signals = super::snapshot::stop_on_termination();
    let (mut differs, mut partial) = (false, false);
    for (head, t) in &todo {
        let mut progress = |line: &str| tell!("trapscope: verify: {line}");
        let r = verify::verify(t, &mut progress);
        super::snapshot::exit_if_terminated(&signals);
        let report = r.map_err(|e| match head {
            Some(h) => anyhow::anyhow!("{h}: {e}"),
            None => anyhow::Error::msg(e),
        })?;
        match head {
            Some(h) => say!("{h}"),
            None => say!("snapshot {}", t.dir.display()),
        }
        for l in report.lines() {
            say!("{l}");
        }
        partial |= report.partial();
        differs |= !report.equal() && !report.partial();
    }
    Ok(if differs {
        ExitCode::from(1)
    } else if partial {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

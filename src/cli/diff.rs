//! `diff`: two variants' retired paths for one iteration, aligned
//! (`report::pathdiff`).

use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use super::shared::load;
use crate::cost::Profile;
use crate::report::{self, Format, pathdiff};
use crate::session::RunOpts;
use crate::session::path::Which;

#[allow(clippy::too_many_arguments)]
pub(super) fn diff(
    path: &Path,
    a: Option<&str>,
    b: Option<&str>,
    core: Option<&str>,
    iteration: Option<u64>,
    format: Format,
    full: bool,
    opts: RunOpts,
) -> anyhow::Result<ExitCode> {
    let s = load(path)?;
    let (a, b) = pathdiff::variants(&s, a, b).map_err(anyhow::Error::msg)?;
    let core = match core {
        Some(c) => Some(Rc::new(Profile::find(c).map_err(anyhow::Error::msg)?)),
        None => None,
    };
    if iteration == Some(0) {
        anyhow::bail!("--iteration counts from 1 (the first iteration of the measured loop)");
    }
    // A guest whose vector code fails on a core without V ends before its
    // loop: say why, as `run` does.
    let hint = core
        .as_ref()
        .map(|c| super::each::core_vector_hint(&s, &c.name))
        .unwrap_or_default();
    let opts = RunOpts {
        bands: core.is_some(),
        core,
        ..opts
    };
    // The default: a typical iteration (`pathdiff::diff_typical`).
    let d = match iteration {
        Some(n) => pathdiff::diff_at(&s, &a, &b, &opts, Which::Nth(n)),
        None => pathdiff::diff_typical(&s, &a, &b, &opts),
    }
    .map_err(|e| anyhow::anyhow!("{e}{hint}"))?;
    if crate::machine::sigint::requested() {
        anyhow::bail!("interrupted");
    }
    let out = match format {
        Format::Text => report::pathdiff::text(&d, full),
        Format::Md => report::pathdiff::markdown(&d, full),
        Format::Json => report::pathdiff::json(&d),
    };
    if format == Format::Json {
        print!("{}", report::escape_json(&out));
    } else {
        print!("{}", report::escape(&out));
    }
    Ok(ExitCode::SUCCESS)
}

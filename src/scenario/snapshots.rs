//! A scenario's snapshot variants, read from its TOML alone (no guest is
//! loaded), for `trapscope verify SCENARIO`: each variant's snapshot
//! directory, its `vmlinux` and its `core`, paths relative to the file.

use std::path::{Path, PathBuf};

use super::{Locator, ScenarioError, dto};

/// A variant that names `snapshot = "DIR"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotVariant {
    pub name: String,
    pub dir: PathBuf,
    pub vmlinux: Option<PathBuf>,
    pub core: Option<String>,
}

/// Every variant of the scenario at `path` that names a snapshot, in order.
pub fn snapshot_variants(path: &Path) -> Result<Vec<SnapshotVariant>, ScenarioError> {
    let src = Locator::read(path, "scenario")?;
    let loc = Locator {
        file: path,
        src: &src,
    };
    let f: dto::ScenarioFile = loc.parse()?;
    let base = path.parent().unwrap_or(Path::new("."));
    Ok(f.variants
        .into_inner()
        .into_iter()
        .filter_map(|v| {
            let dir = base.join(v.snapshot?.get_ref());
            Some(SnapshotVariant {
                name: v.name.into_inner(),
                dir,
                vmlinux: v.vmlinux.map(|p| base.join(p.get_ref())),
                core: v.core.map(|c| c.into_inner()),
            })
        })
        .collect())
}

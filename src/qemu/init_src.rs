//! The init's sources, stored with the snapshot so that its lines show
//! wherever the snapshot goes. When a snapshot is taken, each file the
//! init's DWARF line table names (`machine::source_names`) is looked for
//! in the init's source root (the directory of the ELF the user gave;
//! trapscope's own ELFs under `assets/` have theirs in `guest-asm/`):
//!
//! 1. its DWARF path (the compilation directory joined with the name), if
//!    that lies under the root;
//! 2. else the same relative path (the name, or the DWARF path less its
//!    compilation directory) under the root;
//! 3. else its base name in the root.
//!
//! A candidate is taken only under the rules `input::source_policy` shows a
//! line by (a regular file with a source extension, its real path under the
//! root, no hidden component, a link only to such a file), at most
//! `input::TEXT_MAX` each and `SOURCES_MAX` in all, and opened without
//! following a link: a line table naming `/etc/passwd`, `../x.c` or a link
//! leading out of the root copies nothing. The copies go to `DIR/init-src/`
//! at the candidate's relative path, and `init.sources` in the manifest maps
//! each DWARF name to its copy; `variant.rs` reads them first. What was not
//! stored is one line, not an error.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::input::source_policy::{self, Origin, Policy, Refusal};
use crate::machine::SourceName;
use crate::snapshot::format::{INIT_SRC_DIR, InitSource};

/// The most the stored sources may hold together.
pub const SOURCES_MAX: u64 = 64 << 20;

/// Why a source was not stored though the policy allowed it
/// (`read_beneath`): the words `Collected::missed` keeps.
#[derive(Debug, thiserror::Error)]
enum NotStored {
    #[error("cannot read it: {0}")]
    Open(rustix::io::Errno),
    #[error("cannot read it: {0}")]
    Read(std::io::Error),
    /// What was opened is not what the policy allowed.
    #[error("{0}")]
    Refused(Refusal),
    #[error("{len} bytes, more than the {} MiB a source file may be", crate::input::TEXT_MAX >> 20)]
    TooLarge { len: u64 },
}

/// Why the stored sources could not be written (`write`), with the path at
/// fault.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An earlier snapshot's `init-src/` not removed, or a directory not
    /// made.
    #[error("{}: {err}", path.display())]
    Io { path: PathBuf, err: std::io::Error },
    #[error("{}: exists and is not a directory", path.display())]
    NotADirectory { path: PathBuf },
    /// A file's name in a directory made new for it exists.
    #[error("{}: exists in a new directory", path.display())]
    Exists { path: PathBuf },
    #[error(transparent)]
    Write(#[from] crate::output::WriteError),
}

/// The sources found for an init, ready to write.
#[derive(Debug, Default)]
pub struct Collected {
    /// What the ELF is to the user ("init", "ELF"), for `summary`.
    pub what: &'static str,
    /// The root as shown in messages.
    pub root: PathBuf,
    /// Each copy: its path under `init-src/` and its bytes.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// The manifest's `init.sources`.
    pub entries: Vec<InitSource>,
    /// The names not stored, and why.
    pub missed: Vec<(String, String)>,
}

/// Where the sources of `elf` are: `guest-asm/` for an ELF trapscope ships
/// (under `assets/`, assembled from there with relative names), else the
/// ELF's own directory.
pub fn source_root(elf: &Path) -> PathBuf {
    let project = crate::project_dir();
    let real = std::fs::canonicalize(elf).ok();
    let assets = std::fs::canonicalize(project.join("assets")).ok();
    let guest_asm = std::fs::canonicalize(project.join("guest-asm")).ok();
    match (real, assets, guest_asm) {
        (Some(r), Some(a), Some(g)) if r.starts_with(&a) => g,
        _ => crate::output::dir_of(elf).to_path_buf(),
    }
}

/// The relative paths under the root to try for one DWARF name, in the
/// module's order, each a plain relative path (`.` dropped; a name with
/// `..` or a root in the part that would be kept yields none).
fn candidates(n: &SourceName, root_abs: &Path, root_real: &Path) -> Vec<PathBuf> {
    let name = Path::new(&n.name);
    let comp = n.comp_dir.as_deref().filter(|d| d.is_absolute());
    let full = if name.is_absolute() {
        Some(name.to_path_buf())
    } else {
        comp.map(|c| c.join(name))
    };
    let mut rels: Vec<&Path> = Vec::new();
    if let Some(f) = &full {
        rels.extend(
            [root_abs, root_real]
                .iter()
                .filter_map(|r| f.strip_prefix(r).ok()),
        );
    }
    if name.is_relative() {
        rels.push(name);
    } else if let Some(r) = comp.and_then(|c| name.strip_prefix(c).ok()) {
        rels.push(r);
    }
    let base = name.file_name().map(Path::new);
    rels.extend(base);
    let mut out: Vec<PathBuf> = Vec::new();
    for r in rels {
        let mut clean = PathBuf::new();
        let ok = r.components().all(|c| match c {
            Component::Normal(x) => {
                clean.push(x);
                true
            }
            Component::CurDir => true,
            _ => false,
        });
        if ok && clean.components().next().is_some() && !out.contains(&clean) {
            out.push(clean);
        }
    }
    out
}

/// Finds and reads the sources of the ELF at `elf` (its `bytes`), `what`
/// it is to the user naming it in `summary`.
pub fn collect(elf: &Path, bytes: &[u8], what: &'static str) -> Collected {
    let root = source_root(elf);
    let mut c = Collected {
        what,
        root: root.clone(),
        ..Collected::default()
    };
    let names = crate::machine::source_names(bytes);
    if names.is_empty() {
        return c;
    }
    let mut policy = Policy::default();
    let root_real = match std::fs::canonicalize(&root) {
        Ok(r) => r,
        Err(e) => {
            for n in names {
                c.missed
                    .push((n.name, format!("cannot read {}: {e}", root.display())));
            }
            return c;
        }
    };
    if let Err(e) = policy.allow(&root_real, Origin::CommandLine) {
        for n in names {
            c.missed
                .push((n.name, format!("{} is no source root: {e}", root.display())));
        }
        return c;
    }
    let root_abs = std::path::absolute(&root).unwrap_or_else(|_| root.clone());
    let mut total = 0u64;
    for n in names {
        let mut why: Option<String> = None;
        let mut found = None;
        for rel in candidates(&n, &root_abs, &root_real) {
            let at = root_real.join(&rel);
            if source_policy::hidden(&rel) {
                if std::fs::symlink_metadata(&at).is_ok() {
                    why.get_or_insert_with(|| Refusal::Hidden.to_string());
                }
                continue;
            }
            match policy.check(&at) {
                Ok(real) => {
                    found = Some((rel, real));
                    break;
                }
                Err(Refusal::Missing) => {}
                Err(r) => {
                    why.get_or_insert_with(|| refusal(&r, &root));
                }
            }
        }
        let Some((rel, real)) = found else {
            let why = why.unwrap_or_else(|| format!("not in {}", root.display()));
            c.missed.push((n.name, why));
            continue;
        };
        if !c.files.iter().any(|(r, _)| *r == rel) {
            let bytes = match read_beneath(&real, &root_real) {
                Ok(b) => b,
                Err(why) => {
                    c.missed.push((n.name, why.to_string()));
                    continue;
                }
            };
            total += bytes.len() as u64;
            if total > SOURCES_MAX {
                c.missed.push((
                    n.name,
                    format!(
                        "past the {} MiB of sources a snapshot stores",
                        SOURCES_MAX >> 20
                    ),
                ));
                total -= bytes.len() as u64;
                continue;
            }
            c.files.push((rel.clone(), bytes));
        }
        c.entries.push(InitSource {
            name: n.name,
            stored: rel.to_string_lossy().into_owned(),
        });
    }
    c
}

/// A refusal in the words of this module: the root is the ELF's directory.
fn refusal(r: &Refusal, root: &Path) -> String {
    match r {
        Refusal::Outside => format!("outside {}", root.display()),
        Refusal::Link(inner) if **inner == Refusal::Outside => {
            format!("a link to a file outside {}", root.display())
        }
        other => other.to_string(),
    }
}

/// The bytes of `real`, opened without following a link in its last
/// component (a name swapped for a link since it was checked is refused),
/// and refused if what was opened is not a regular file of at most
/// `input::TEXT_MAX` bytes under `root` (the kernel's name for the open
/// file, where `/proc` gives it).
fn read_beneath(real: &Path, root: &Path) -> Result<Vec<u8>, NotStored> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = rustix::fs::open(real, flags, Mode::empty()).map_err(NotStored::Open)?;
    let f = std::fs::File::from(fd);
    let proc_name = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&f));
    if let Ok(opened) = std::fs::read_link(proc_name)
        && !opened.starts_with(root)
    {
        return Err(NotStored::Refused(Refusal::Outside));
    }
    let m = f.metadata().map_err(NotStored::Read)?;
    if !m.is_file() {
        return Err(NotStored::Refused(Refusal::NotRegular));
    }
    if m.len() > crate::input::TEXT_MAX {
        return Err(NotStored::TooLarge { len: m.len() });
    }
    let mut bytes = Vec::new();
    f.take(m.len())
        .read_to_end(&mut bytes)
        .map_err(NotStored::Read)?;
    Ok(bytes)
}

impl Collected {
    /// The one line naming the files not stored and why (None: every one
    /// was), grouped by reason, at most four names each.
    pub fn summary(&self) -> Option<String> {
        if self.missed.is_empty() {
            return None;
        }
        let groups =
            source_policy::by_reason(self.missed.iter().map(|(n, w)| (n.as_str(), w.as_str())));
        let all = self.missed.len() + self.entries.len();
        Some(format!(
            "the {}'s source not stored for {} of the {all} files its line table names ({} stored in {INIT_SRC_DIR}/): {}",
            self.what,
            self.missed.len(),
            self.entries.len(),
            groups.join("; ")
        ))
    }
}

/// Writes the copies to `dir/init-src/`, replacing an earlier snapshot's
/// there (a link at that name is removed, never followed). Each directory
/// is made new, each file created with O_EXCL (`output::create_new`).
pub fn write(dir: &Path, c: &Collected) -> Result<(), StoreError> {
    let top = dir.join(INIT_SRC_DIR);
    let cannot = |p: &Path, err| StoreError::Io {
        path: p.to_path_buf(),
        err,
    };
    match std::fs::symlink_metadata(&top) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(&top).map_err(|e| cannot(&top, e))?,
        Ok(_) => std::fs::remove_file(&top).map_err(|e| cannot(&top, e))?,
        Err(_) => {}
    }
    if c.files.is_empty() {
        return Ok(());
    }
    for (rel, bytes) in &c.files {
        let path = top.join(rel);
        let mut at = dir.to_path_buf();
        let parents = Path::new(INIT_SRC_DIR).join(rel);
        for part in parents.parent().into_iter().flat_map(Path::components) {
            at.push(part);
            make_dir(&at)?;
        }
        crate::output::create_new(&path, bytes).map_err(|e| match e {
            Some(e) => StoreError::Write(e),
            None => StoreError::Exists { path },
        })?;
    }
    Ok(())
}

/// Makes the directory `d`, or accepts one that is there and is a
/// directory itself, not a link.
fn make_dir(d: &Path) -> Result<(), StoreError> {
    match std::fs::create_dir(d) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            match std::fs::symlink_metadata(d) {
                Ok(m) if m.is_dir() => Ok(()),
                _ => Err(StoreError::NotADirectory {
                    path: d.to_path_buf(),
                }),
            }
        }
        Err(err) => Err(StoreError::Io {
            path: d.to_path_buf(),
            err,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::format::stored_path;

    fn name(n: &str, comp: Option<&str>) -> SourceName {
        SourceName {
            name: n.into(),
            comp_dir: comp.map(PathBuf::from),
        }
    }

    #[test]
    fn candidates_follow_the_three_rules_in_order() {
        let root = Path::new("/w/build");
        let c = |n, comp| candidates(&name(n, comp), root, root);
        // Under the root by its DWARF path: that relative path, then the
        // name less its compilation directory, then the base name.
        assert_eq!(
            c("/w/build/src/a.c", Some("/w")),
            vec![
                PathBuf::from("src/a.c"),
                "build/src/a.c".into(),
                "a.c".into()
            ]
        );
        // A relative name with an absolute compilation directory.
        assert_eq!(
            c("src/a.c", Some("/w/build")),
            vec![PathBuf::from("src/a.c"), "a.c".into()]
        );
        // A relative one whose directory was mapped to ".".
        assert_eq!(c("./a.c", Some(".")), vec![PathBuf::from("a.c")]);
        // Outside the root: only the base name is left.
        assert_eq!(c("/etc/passwd", None), vec![PathBuf::from("passwd")]);
        // `..` is never kept.
        assert_eq!(c("../x/a.c", Some(".")), vec![PathBuf::from("a.c")]);
        assert_eq!(c("..", None), Vec::<PathBuf>::new());
    }

    #[test]
    fn stored_paths_are_plain_relative_names() {
        assert!(stored_path("a.c").is_some());
        assert!(stored_path("include/init.inc").is_some());
        for bad in [
            "",
            "/etc/passwd",
            "../a.c",
            "a/../../b.c",
            ".git/x.c",
            "./a.c",
            "a/.h/b.c",
        ] {
            assert!(stored_path(bad).is_none(), "{bad}");
        }
    }
}

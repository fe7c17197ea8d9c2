//! Which guest source files trapscope may show. A line table (a guest ELF's,
//! an `init.elf`'s, a vmlinux's DWARF) and a scenario can name any path, and
//! the lines trapscope shows end up in reports that are pasted into mails:
//! a line table naming `/etc/passwd` or `/proc/self/environ` must not copy
//! the reviewer's files into them. A file is shown only when
//!
//! - its real path (symlinks resolved) lies under an allowed root, and not
//!   under `/proc`, `/sys` or `/dev`;
//! - it is a regular file whose real name has a source-code extension
//!   (`EXTENSIONS`);
//! - no path component below that root is hidden (a dotfile or
//!   dot-directory), nor any of a relative name as the line table wrote it.
//!
//! The allowed roots are trapscope's own guest sources (`guest-asm/`), the
//! directories the user names on the command line (`--kernel-src`, the
//! directory of `trapscope elf FILE`), and the directories a scenario or a
//! snapshot names (a variant's `kernel_src`, the directory of its `elf` or
//! `vmlinux`) unless that is `/`, `$HOME` itself, a directory holding
//! `$HOME`, or a system directory (`SYSTEM_DIRS`).
//!
//! The roots and the files refused are kept for the process (a run is one
//! scenario); `summary` is the one line that names what was not shown.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{LazyLock, Mutex};

/// The extensions of the files a line table may name that trapscope shows.
pub const EXTENSIONS: &[&str] = &["c", "h", "S", "s", "inc", "lds", "rs"];

/// Never a root, never a shown file's place, whoever names them.
const PSEUDO: &[&str] = &["/proc", "/sys", "/dev"];

/// Not a root when a scenario or snapshot names it (the directory itself).
const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/media",
    "/mnt",
    "/opt",
    "/root",
    "/run",
    "/sbin",
    "/srv",
    "/tmp",
    "/usr",
    "/usr/bin",
    "/usr/include",
    "/usr/lib",
    "/usr/lib64",
    "/usr/libexec",
    "/usr/local",
    "/usr/sbin",
    "/usr/share",
    "/usr/src",
    "/var",
    "/var/lib",
    "/var/tmp",
];

/// Not a root, nor anywhere below, when a scenario or snapshot names it.
const SYSTEM_TREES: &[&str] = &["/etc", "/root", "/run", "/boot", "/var/log", "/var/lib"];

/// Who named a directory as a root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The user, on the command line: trusted, except `/proc`, `/sys`, `/dev`.
    CommandLine,
    /// A scenario or a snapshot's manifest, which may come from anyone.
    Scenario,
}

/// Why a file that exists is not shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No such file (nothing to say: the line table names a build machine's path).
    Missing,
    /// Under `/proc`, `/sys` or `/dev`.
    Pseudo(&'static str),
    NotRegular,
    Extension,
    Hidden,
    Outside,
    /// The name is a symbolic link, and what it leads to is refused for
    /// the inner reason (the target is not named: it may be private).
    Link(Box<Refusal>),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Missing => write!(f, "no such file"),
            Refusal::Pseudo(d) => write!(f, "under {d}"),
            Refusal::NotRegular => write!(f, "not a regular file"),
            Refusal::Extension => write!(f, "not a source file .{}", EXTENSIONS.join(" .")),
            Refusal::Hidden => write!(f, "a hidden path"),
            Refusal::Outside => write!(f, "outside the source roots"),
            Refusal::Link(why) => write!(f, "a link to a file {}", why.as_target()),
        }
    }
}

impl Refusal {
    /// The reason said of a link's target ("a link to a file outside the
    /// source roots").
    fn as_target(&self) -> String {
        match self {
            Refusal::Pseudo(d) => format!("under {d}"),
            Refusal::NotRegular => "that is not a regular file".into(),
            Refusal::Extension => {
                format!("without a source extension .{}", EXTENSIONS.join(" ."))
            }
            Refusal::Hidden => "on a hidden path".into(),
            other => other.to_string(),
        }
    }
}

/// A set of allowed roots, each a real path.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    roots: Vec<PathBuf>,
}

fn under_pseudo(real: &Path) -> Option<&'static str> {
    PSEUDO.iter().copied().find(|d| real.starts_with(d))
}

/// Whether a component of `rel` is hidden (a dotfile or dot-directory).
pub(crate) fn hidden(rel: &Path) -> bool {
    rel.components().any(|c| match c {
        Component::Normal(n) => n.as_encoded_bytes().first() == Some(&b'.'),
        _ => false,
    })
}

/// `$HOME`'s real path, if it has one.
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .and_then(|h| std::fs::canonicalize(h).ok())
}

/// Why a directory cannot be a source root (`Policy::allow`).
#[derive(Debug, thiserror::Error)]
pub enum RootRefused {
    /// It could not be resolved (no such directory, no permission).
    #[error("{0}")]
    Io(std::io::Error),
    #[error("not a directory")]
    NotADirectory,
    /// Under `/proc`, `/sys` or `/dev`.
    #[error("under {0}")]
    Pseudo(&'static str),
    // Refused only when a scenario or snapshot names them:
    #[error("the root directory")]
    Root,
    #[error("$HOME itself")]
    Home,
    #[error("a directory holding $HOME")]
    HoldsHome,
    #[error("a system directory")]
    System,
}

/// Why a directory a scenario names cannot be a root (None: it can).
fn not_a_scenario_root(real: &Path, home: Option<&Path>) -> Option<RootRefused> {
    if real == Path::new("/") {
        return Some(RootRefused::Root);
    }
    if let Some(h) = home {
        if real == h {
            return Some(RootRefused::Home);
        }
        if h.starts_with(real) {
            return Some(RootRefused::HoldsHome);
        }
    }
    if SYSTEM_DIRS.iter().any(|d| real == Path::new(d))
        || SYSTEM_TREES.iter().any(|d| real.starts_with(d))
    {
        return Some(RootRefused::System);
    }
    None
}

impl Policy {
    /// Adds `dir` as a root; the error says why it cannot be one.
    pub fn allow(&mut self, dir: &Path, origin: Origin) -> Result<(), RootRefused> {
        let real = std::fs::canonicalize(dir).map_err(RootRefused::Io)?;
        if !real.is_dir() {
            return Err(RootRefused::NotADirectory);
        }
        if let Some(d) = under_pseudo(&real) {
            return Err(RootRefused::Pseudo(d));
        }
        if origin == Origin::Scenario
            && let Some(why) = not_a_scenario_root(&real, home().as_deref())
        {
            return Err(why);
        }
        if !self.roots.contains(&real) {
            self.roots.push(real);
        }
        Ok(())
    }

    /// The roots, as real paths.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The real path of `path` if it may be shown, else why not.
    pub fn check(&self, path: &Path) -> Result<PathBuf, Refusal> {
        if path.is_relative() && hidden(path) {
            // As the line table wrote it (`.secret/x.c` under some root).
            return if path.exists() {
                Err(Refusal::Hidden)
            } else {
                Err(Refusal::Missing)
            };
        }
        let real = std::fs::canonicalize(path).map_err(|_| Refusal::Missing)?;
        let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        self.check_real(real).map_err(|why| {
            if linked {
                Refusal::Link(Box::new(why))
            } else {
                why
            }
        })
    }

    /// `check` on a path with its links resolved.
    fn check_real(&self, real: PathBuf) -> Result<PathBuf, Refusal> {
        if let Some(d) = under_pseudo(&real) {
            return Err(Refusal::Pseudo(d));
        }
        let meta = std::fs::metadata(&real).map_err(|_| Refusal::Missing)?;
        if !meta.is_file() {
            return Err(Refusal::NotRegular);
        }
        let ext = real.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !EXTENSIONS.contains(&ext) {
            return Err(Refusal::Extension);
        }
        let Some(root) = self.roots.iter().find(|r| real.starts_with(r)) else {
            return Err(Refusal::Outside);
        };
        if real.strip_prefix(root).is_ok_and(hidden) {
            return Err(Refusal::Hidden);
        }
        Ok(real)
    }
}

/// The process's roots and what was refused.
struct State {
    policy: Policy,
    /// Roots named but not allowed: (as named, why).
    roots_refused: BTreeMap<String, String>,
    /// Files refused: name as the line table has it → why.
    files_refused: BTreeMap<String, String>,
}

static STATE: LazyLock<Mutex<State>> = LazyLock::new(|| {
    let mut policy = Policy::default();
    // trapscope's own guests' sources: always shown.
    let _ = policy.allow(&crate::project_dir().join("guest-asm"), Origin::CommandLine);
    Mutex::new(State {
        policy,
        roots_refused: BTreeMap::new(),
        files_refused: BTreeMap::new(),
    })
});

fn state() -> std::sync::MutexGuard<'static, State> {
    // A panic elsewhere while holding it leaves the maps whole.
    STATE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Allows `dir` as a source root for the rest of the process; one that
/// cannot be is remembered for `summary`.
pub fn allow_root(dir: &Path, origin: Origin) {
    let mut s = state();
    if let Err(why) = s.policy.allow(dir, origin) {
        s.roots_refused
            .insert(dir.display().to_string(), why.to_string());
    }
}

/// Allows the directory holding `file` (an ELF, a vmlinux).
pub fn allow_dir_of(file: &Path, origin: Origin) {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    allow_root(dir, origin);
}

/// `Policy::check` with the process's roots.
pub fn check(path: &Path) -> Result<PathBuf, Refusal> {
    state().policy.check(path)
}

/// Records that the file the line table calls `name` was not shown.
pub fn refused(name: &str, why: &Refusal) {
    if *why != Refusal::Missing {
        state()
            .files_refused
            .entry(name.to_string())
            .or_insert_with(|| why.to_string());
    }
}

/// The one line naming the files not shown and why (None: all were), with
/// the roots that were named but not allowed.
pub fn summary() -> Option<String> {
    let s = state();
    if s.files_refused.is_empty() {
        return None;
    }
    let groups = by_reason(
        s.files_refused
            .iter()
            .map(|(n, w)| (n.as_str(), w.as_str())),
    );
    let mut line = format!(
        "trapscope: source not shown for {} file{}: {}",
        s.files_refused.len(),
        if s.files_refused.len() == 1 { "" } else { "s" },
        groups.join("; ")
    );
    if !s.roots_refused.is_empty() {
        let r: Vec<String> = s
            .roots_refused
            .iter()
            .map(|(d, why)| format!("{d} ({why})"))
            .collect();
        line.push_str(&format!("; not a source root: {}", r.join(", ")));
    }
    line.push_str("; --kernel-src DIR shows a tree");
    Some(line)
}

/// Files grouped by why they were left out, each group "WHY: a, b, c, d
/// and N more" (the first four names, each once), for one-line reports.
pub fn by_reason<'a>(files: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    const SHOWN: usize = 4;
    let mut by_why: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, why) in files {
        let names = by_why.entry(why).or_default();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    by_why
        .iter()
        .map(|(why, names)| {
            let mut list = names[..names.len().min(SHOWN)].join(", ");
            if names.len() > SHOWN {
                list.push_str(&format!(" and {} more", names.len() - SHOWN));
            }
            format!("{why}: {list}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("trapscope-policy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("src/.git")).unwrap();
        std::fs::write(d.join("src/entry.S"), "ecall\n").unwrap();
        std::fs::write(d.join("src/notes.txt"), "x\n").unwrap();
        std::fs::write(d.join("src/.git/x.c"), "x\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", d.join("src/passwd.S")).unwrap();
        std::os::unix::fs::symlink(d.join("src/entry.S"), d.join("src/link.S")).unwrap();
        d
    }

    #[test]
    fn only_source_files_under_a_root_are_shown() {
        let d = tree("files");
        let mut p = Policy::default();
        p.allow(&d.join("src"), Origin::Scenario).unwrap();
        let real_entry = std::fs::canonicalize(d.join("src/entry.S")).unwrap();
        assert_eq!(p.check(&d.join("src/entry.S")), Ok(real_entry.clone()));
        // A link inside the tree to a file inside it is that file.
        assert_eq!(p.check(&d.join("src/link.S")), Ok(real_entry));
        assert_eq!(
            p.check(&d.join("src/passwd.S")),
            Err(Refusal::Link(Box::new(Refusal::Extension)))
        );
        assert_eq!(
            Refusal::Link(Box::new(Refusal::Extension)).to_string(),
            "a link to a file without a source extension .c .h .S .s .inc .lds .rs"
        );
        assert_eq!(p.check(Path::new("/etc/passwd")), Err(Refusal::Extension));
        assert_eq!(p.check(&d.join("src/notes.txt")), Err(Refusal::Extension));
        assert_eq!(p.check(&d.join("src/.git/x.c")), Err(Refusal::Hidden));
        assert_eq!(p.check(&d.join("src")), Err(Refusal::NotRegular));
        assert_eq!(
            p.check(Path::new("/proc/self/environ")),
            Err(Refusal::Pseudo("/proc"))
        );
        assert_eq!(p.check(&d.join("src/none.S")), Err(Refusal::Missing));
        // A source file outside every root.
        std::fs::write(d.join("outside.c"), "int x;\n").unwrap();
        assert_eq!(p.check(&d.join("outside.c")), Err(Refusal::Outside));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_scenario_cannot_make_the_root_home_or_a_system_directory_a_root() {
        let mut p = Policy::default();
        for d in ["/", "/etc", "/usr", "/tmp", "/etc/ssl"] {
            assert!(p.allow(Path::new(d), Origin::Scenario).is_err(), "{d}");
        }
        for d in ["/proc", "/sys", "/dev", "/proc/self"] {
            assert!(p.allow(Path::new(d), Origin::CommandLine).is_err(), "{d}");
        }
        assert!(p.roots().is_empty());
        let h = Path::new("/home/someone");
        assert!(not_a_scenario_root(h, Some(h)).is_some());
        assert!(not_a_scenario_root(Path::new("/home"), Some(h)).is_some());
        assert!(not_a_scenario_root(Path::new("/home/someone/linux"), Some(h)).is_none());
        assert!(not_a_scenario_root(Path::new("/usr/src/linux-6.1"), Some(h)).is_none());
        // The user may name a system directory on the command line.
        assert!(p.allow(Path::new("/usr"), Origin::CommandLine).is_ok());
    }
}

//! Scratch directories (QEMU's files for a snapshot, the device-tree dump,
//! an unfinished `-o DIR`): each is made fresh as `BASE/PREFIX-PID-RANDOM`
//! (PID this process, RANDOM 16 lower-case hex digits), never at a name
//! that exists, and held with an exclusive `flock` on the directory for as
//! long as its `ScratchDir` lives; dropping that removes it.
//!
//! A process killed outright (SIGKILL) removes nothing, so `reap_stale`
//! removes what such a run left: a directory of exactly that shape, the
//! user's own and not a link, whose PID names no live process and whose
//! lock nobody holds. Both are asked, so that neither a PID reused by
//! another process nor a run in another PID namespace sharing the
//! directory loses its files; anything that matches less is left alone.

use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// A scratch directory this process made and holds; removed on drop.
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
    /// The directory opened, with the `flock` on it; the lock goes when
    /// this closes, after the directory is removed.
    lock: Option<std::fs::File>,
}

impl ScratchDir {
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }

    /// Renames the directory to `to` (a name that does not exist, or an
    /// empty directory, which the rename replaces) and gives it up: nothing
    /// is removed on drop once this succeeds.
    pub fn rename_to(mut self, to: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.path, to)?;
        self.path = PathBuf::new();
        Ok(())
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if !self.path.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
        self.lock = None;
    }
}

/// A fresh scratch directory `TMPDIR/PREFIX-PID-RANDOM`, mode 0700.
pub fn scratch_dir(prefix: &str) -> Result<ScratchDir, super::WriteError> {
    let base = std::env::temp_dir();
    fresh_dir_in(&base, prefix, Some(0o700), &mut super::random)
        .map_err(|err| super::WriteError::Scratch { base, err })
}

/// A fresh directory `base/PREFIX-PID-RANDOM` with the mode a new
/// directory gets (0777 less the umask), for what will be renamed to a
/// name the user gave.
pub fn fresh_dir(base: &Path, prefix: &str) -> std::io::Result<ScratchDir> {
    fresh_dir_in(base, prefix, None, &mut super::random)
}

/// A new directory in `base` named `PREFIX-PID-NAME` for the first NAME
/// from `names` that is free (an existing entry of that name, a directory
/// or a link, is never used), with `mode` exactly if given, and locked.
pub(super) fn fresh_dir_in(
    base: &Path,
    prefix: &str,
    mode: Option<u32>,
    names: &mut dyn FnMut() -> u64,
) -> std::io::Result<ScratchDir> {
    let mut last = None;
    for _ in 0..100 {
        let d = base.join(format!("{prefix}-{}-{:016x}", std::process::id(), names()));
        let mut b = std::fs::DirBuilder::new();
        if let Some(m) = mode {
            b.mode(m);
        }
        match b.create(&d) {
            Ok(()) => {
                let dir = ScratchDir {
                    lock: lock(&d),
                    path: d,
                };
                if let Some(m) = mode {
                    // The umask may only have taken bits away; make it exact.
                    std::fs::set_permissions(&dir.path, std::fs::Permissions::from_mode(m))?;
                }
                return Ok(dir);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(d),
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!(
            "every name tried exists{}",
            last.map(|d| format!(" (last {})", d.display()))
                .unwrap_or_default()
        ),
    ))
}

/// The directory `d` opened without following a link, if it is one.
fn open_dir(d: &Path) -> Option<std::fs::File> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    rustix::fs::open(d, flags, Mode::empty())
        .ok()
        .map(std::fs::File::from)
}

/// `d` opened and locked, or None where the file system has no `flock`
/// (the directory is then reaped by its PID alone).
fn lock(d: &Path) -> Option<std::fs::File> {
    let f = open_dir(d)?;
    f.try_lock().ok()?;
    Some(f)
}

/// The PID in `name` when it is `PREFIX-PID-RANDOM` exactly as
/// `fresh_dir_in` makes it: decimal digits, then 16 lower-case hex digits.
fn owner_pid(name: &str, prefix: &str) -> Option<i32> {
    let rest = name.strip_prefix(prefix)?.strip_prefix('-')?;
    let (pid, random) = rest.split_once('-')?;
    let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
    if pid.is_empty() || !pid.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if random.len() != 16 || !random.chars().all(hex) {
        return None;
    }
    pid.parse().ok().filter(|p| *p > 0)
}

/// Whether a process `pid` exists (one of another user's counts).
fn alive(pid: i32) -> bool {
    let Some(p) = rustix::process::Pid::from_raw(pid) else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(p),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Removes the directories in `base` a dead trapscope left under
/// `PREFIX-PID-RANDOM` (see the module's rule), and returns them.
pub fn reap_stale(base: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut gone = Vec::new();
    let Ok(entries) = std::fs::read_dir(base) else {
        return gone;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(|n| owner_pid(n, prefix)) else {
            continue;
        };
        let path = e.path();
        let own_dir = |m: &std::fs::Metadata| m.is_dir() && m.uid() == super::euid();
        // Not followed; a link, a file or another user's entry stays.
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| own_dir(&m)) || alive(pid) {
            continue;
        }
        // The directory itself, checked again once open (O_NOFOLLOW).
        let Some(f) = open_dir(&path) else { continue };
        if !f.metadata().is_ok_and(|m| own_dir(&m)) {
            continue;
        }
        // Held: its owner lives (under another PID namespace, say). A file
        // system without flock leaves the PID to decide, as when it was made.
        if matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)) {
            continue;
        }
        // std's remove_dir_all follows no link inside the directory.
        if std::fs::remove_dir_all(&path).is_ok() {
            gone.push(path);
        }
    }
    gone
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_name_that_exists_is_never_used() {
        let d = super::super::tests::scratch("fresh");
        let victim = d.join("victim");
        std::fs::create_dir(&victim).unwrap();
        let planted = d.join(format!("p-{}-{:016x}", std::process::id(), 1));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let mut n = 0;
        let got = fresh_dir_in(&d, "p", Some(0o700), &mut || {
            n += 1;
            n
        })
        .unwrap();
        assert_ne!(got.path(), planted);
        let m = std::fs::symlink_metadata(got.path()).unwrap();
        assert!(m.is_dir());
        assert_eq!(m.permissions().mode() & 0o777, 0o700);
        assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 0);
        // Names differ from one call to the next; each goes on drop.
        let a = scratch_dir("trapscope-output-test").unwrap();
        let b = scratch_dir("trapscope-output-test").unwrap();
        assert_ne!(a.path(), b.path());
        let kept = a.path().to_path_buf();
        drop(a);
        assert!(!kept.exists());
        drop(b);
        drop(got);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_scratch_dir_is_locked_while_it_lives() {
        let d = scratch_dir("trapscope-output-lock").unwrap();
        let other = open_dir(d.path()).unwrap();
        assert!(other.try_lock().is_err(), "held by its ScratchDir");
        let renamed = d.path().with_extension("moved");
        d.rename_to(&renamed).unwrap();
        assert!(renamed.is_dir(), "a renamed directory is not removed");
        other.try_lock().unwrap();
        let _ = std::fs::remove_dir_all(&renamed);
    }

    #[test]
    fn only_trapscopes_own_names_give_a_pid() {
        let p = "trapscope-snapshot";
        assert_eq!(
            owner_pid("trapscope-snapshot-42-0123456789abcdef", p),
            Some(42)
        );
        for bad in [
            "trapscope-snapshot-42",
            "trapscope-snapshot-42-0123456789abcde",
            "trapscope-snapshot-42-0123456789abcdef0",
            "trapscope-snapshot-42-0123456789ABCDEF",
            "trapscope-snapshot-+42-0123456789abcdef",
            "trapscope-snapshot-0-0123456789abcdef",
            "trapscope-snapshot--0123456789abcdef",
            "trapscope-snapshots-42-0123456789abcdef",
            "trapscope-snapshot-42-0123456789abcdef-x",
            "trapscope-snapshot-99999999999-0123456789abcdef",
            "xtrapscope-snapshot-42-0123456789abcdef",
        ] {
            assert_eq!(owner_pid(bad, p), None, "{bad}");
        }
    }
}

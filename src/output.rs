//! Writing trapscope's files: the snapshot directory, `:save`'s lesson and
//! the scratch directories QEMU works in. Paths may sit in shared places
//! (`TMPDIR`, a directory someone else prepared), so nothing here follows a
//! link or trusts a name it did not create:
//!
//! - a file is written under a new name in its directory, created with
//!   O_EXCL (`create_new`, which fails on any existing entry, a dangling
//!   link included), then renamed over the old name, which replaces a link
//!   rather than writing through it (`replace`); a name that must not exist
//!   yet is itself created with O_EXCL (`create_new`);
//! - the directory written into must not belong to another user (root's
//!   sticky `/tmp` excepted, where entries are protected from other users);
//!   a snapshot's `-o DIR` must also not be a link (`check_own_dir`);
//! - a scratch directory is made fresh with mode 0700 under a random name,
//!   failing on one that exists and trying another, and locked while it is
//!   used, so that one a killed run left can be told and removed
//!   (`scratch.rs`).

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

mod scratch;
pub use scratch::{ScratchDir, fresh_dir, reap_stale, scratch_dir};

/// Mode of the files trapscope writes (before the umask).
pub const FILE_MODE: u32 = 0o644;

fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// A name nobody can guess ahead: std's randomly keyed hasher over the
/// time, the pid and a counter. Creation with O_EXCL is what makes it safe;
/// this only makes a planted name unlikely to be in the way.
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(t);
    h.write_u32(std::process::id());
    h.write_u64(N.fetch_add(1, Ordering::Relaxed));
    h.finish()
}

/// The directory `path` is in (`.` for a bare name).
pub(crate) fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Why trapscope could not write a file or make a directory here, with the
/// path at fault: `replace`, `create_new`, `check_own_dir`, `scratch_dir`.
/// The words of an `io::Error` are part of the message, so it is not also
/// given as the error's `source`.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The directory to write into could not be looked at.
    #[error("{}: {err}", dir.display())]
    Dir { dir: PathBuf, err: std::io::Error },
    #[error(
        "{}: the directory belongs to another user (uid {uid}): trapscope writes only into yours",
        dir.display()
    )]
    NotYours { dir: PathBuf, uid: u32 },
    #[error("{}: is a symbolic link: give the directory itself", dir.display())]
    Link { dir: PathBuf },
    #[error("{}: exists and is not a directory", dir.display())]
    NotADirectory { dir: PathBuf },
    /// A file could not be written or put in place.
    #[error("{}: cannot write: {err}", path.display())]
    Write { path: PathBuf, err: std::io::Error },
    /// Every temporary name tried beside `path` exists.
    #[error("{}: cannot find a free temporary name in {}", path.display(), dir.display())]
    NoFreeName { path: PathBuf, dir: PathBuf },
    /// `create_new` could not create or fill the file.
    #[error("{}: {err}", path.display())]
    Create { path: PathBuf, err: std::io::Error },
    /// No scratch directory could be made in `base`.
    #[error("{}: cannot create a scratch directory: {err}", base.display())]
    Scratch { base: PathBuf, err: std::io::Error },
}

/// Why `dir` may not be written into (it is followed: the user named it).
fn check_parent(dir: &Path) -> Result<(), WriteError> {
    let m = std::fs::metadata(dir).map_err(|err| WriteError::Dir {
        dir: dir.to_path_buf(),
        err,
    })?;
    let sticky = m.permissions().mode() & 0o1000 != 0;
    if m.uid() != euid() && !(m.uid() == 0 && sticky) {
        return Err(WriteError::NotYours {
            dir: dir.to_path_buf(),
            uid: m.uid(),
        });
    }
    Ok(())
}

/// A directory trapscope fills itself (a snapshot's `-o DIR`): a real
/// directory, not a link to one, that belongs to the user.
pub fn check_own_dir(dir: &Path) -> Result<(), WriteError> {
    let m = std::fs::symlink_metadata(dir).map_err(|err| WriteError::Dir {
        dir: dir.to_path_buf(),
        err,
    })?;
    let dir = dir.to_path_buf();
    if m.file_type().is_symlink() {
        return Err(WriteError::Link { dir });
    }
    if !m.is_dir() {
        return Err(WriteError::NotADirectory { dir });
    }
    if m.uid() != euid() {
        return Err(WriteError::NotYours { dir, uid: m.uid() });
    }
    Ok(())
}

/// Writes a new file beside `path` with `fill`, and returns its name
/// (removed again if `fill` fails).
fn write_new(
    path: &Path,
    fill: &mut dyn FnMut(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<PathBuf, WriteError> {
    let dir = dir_of(path);
    check_parent(dir)?;
    let cannot = |err| WriteError::Write {
        path: path.to_path_buf(),
        err,
    };
    let base = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    for _ in 0..100 {
        let tmp = dir.join(format!(".{base}.trapscope-{:016x}", random()));
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(FILE_MODE)
            .open(&tmp);
        let mut f = match f {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(cannot(e)),
        };
        let r = fill(&mut f).and_then(|()| f.flush());
        drop(f);
        return match r {
            Ok(()) => Ok(tmp),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(cannot(e))
            }
        };
    }
    Err(WriteError::NoFreeName {
        path: path.to_path_buf(),
        dir: dir.to_path_buf(),
    })
}

/// Writes `path` whole, replacing what was there (a link is replaced, not
/// followed); `fill` writes the contents.
pub fn replace_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    let tmp = write_new(path, fill)?;
    std::fs::rename(&tmp, path).map_err(|err| {
        let _ = std::fs::remove_file(&tmp);
        WriteError::Write {
            path: path.to_path_buf(),
            err,
        }
    })
}

/// `replace_with` for bytes at hand.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    replace_with(path, &mut |f| f.write_all(bytes))
}

/// Writes `path`, which must not exist yet (nor be a link: O_EXCL does
/// not follow one). The error for an existing one is `Err(None)`, for the
/// caller's own words; others name the path or directory at fault.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<(), Option<WriteError>> {
    check_parent(dir_of(path)).map_err(Some)?;
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(path);
    let cannot = |err| {
        Some(WriteError::Create {
            path: path.to_path_buf(),
            err,
        })
    };
    let mut f = match f {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(None),
        Err(e) => return Err(cannot(e)),
    };
    f.write_all(bytes).and_then(|()| f.flush()).map_err(|e| {
        // Not half a file under the name asked for.
        let _ = std::fs::remove_file(path);
        cannot(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("trapscope-output-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_link_at_the_name_is_replaced_not_followed() {
        let d = scratch("link");
        let victim = d.join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let out = d.join("snapshot.json");
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        replace(&out, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert!(std::fs::symlink_metadata(&out).unwrap().is_file());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "new");
        // Only the two files: no temporary left behind.
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn create_new_refuses_any_existing_entry_a_dangling_link_too() {
        let d = scratch("new");
        let dangling = d.join("lesson.toml");
        std::os::unix::fs::symlink(d.join("elsewhere"), &dangling).unwrap();
        assert!(matches!(create_new(&dangling, b"x"), Err(None)));
        assert!(!d.join("elsewhere").exists());
        create_new(&d.join("fresh.toml"), b"x").unwrap();
        assert_eq!(std::fs::read(d.join("fresh.toml")).unwrap(), b"x");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn an_own_dir_that_is_a_link_is_refused() {
        let d = scratch("owndir");
        std::fs::create_dir(d.join("real")).unwrap();
        std::os::unix::fs::symlink(d.join("real"), d.join("link")).unwrap();
        assert!(check_own_dir(&d.join("real")).is_ok());
        let e = check_own_dir(&d.join("link")).unwrap_err().to_string();
        assert!(e.contains("symbolic link"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_directory_of_another_user_is_refused() {
        let d = scratch("other");
        // Root can give one away; anyone else finds one in `/`.
        let theirs = if euid() == 0 {
            let t = d.join("theirs");
            std::fs::create_dir(&t).unwrap();
            std::os::unix::fs::chown(&t, Some(65534), Some(65534)).unwrap();
            t
        } else {
            PathBuf::from("/")
        };
        let e = check_own_dir(&theirs).unwrap_err().to_string();
        assert!(e.contains("belongs to another user"), "{e}");
        let e = replace(&theirs.join("x.json"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("belongs to another user"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}

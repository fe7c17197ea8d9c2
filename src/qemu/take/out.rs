//! The snapshot's `-o DIR`: a new directory, or one holding only an
//! earlier snapshot, that belongs to the user, is not a link and can be
//! written into; anything else is refused before QEMU boots.
//!
//! A new DIR appears only once the snapshot in it is complete: the files
//! are written into a fresh directory beside it, `.trapscope-partial-PID-
//! RANDOM` (`output::fresh_dir`, locked while it is written), which is then
//! renamed to DIR. A run stopped in any way before that leaves no DIR; a
//! SIGKILL during the writing leaves the partial directory, which the next
//! snapshot into the same parent removes (`output::reap_stale`). An
//! existing DIR is written into in place, file by file (each file replaced
//! whole).

use std::path::Path;

use super::error::OutError;
use crate::output::ScratchDir;
use crate::snapshot::format;

/// The prefix of the directory a new `-o DIR` is written in first.
pub(super) const PARTIAL: &str = ".trapscope-partial";

/// Where the snapshot goes.
pub(super) enum Out {
    /// DIR exists: written into in place.
    InPlace,
    /// DIR is new: written in a partial directory beside it, then renamed.
    New,
}

/// Makes sure, before QEMU boots, that the snapshot can be written to
/// `out`: an existing directory trapscope may write into, or a new name
/// whose parent takes a directory (made, with its own missing parents, and
/// removed again at once; DIR itself is not made yet).
pub(super) fn prepare_out(out: &Path) -> Result<Out, OutError> {
    let o = || out.to_path_buf();
    // Not followed: a link at DIR is refused (output::check_own_dir).
    match std::fs::symlink_metadata(out) {
        Ok(m) if m.file_type().is_symlink() => Err(OutError::Link { out: o() }),
        Ok(m) if !m.is_dir() => Err(OutError::NotADirectory { out: o() }),
        Ok(_) => {
            crate::output::check_own_dir(out).map_err(OutError::NotOwn)?;
            // An earlier snapshot is replaced; anything else is left alone.
            let foreign = std::fs::read_dir(out)
                .map_err(|err| OutError::Unreadable { out: o(), err })?
                .flatten()
                .any(|e| {
                    let n = e.file_name();
                    ![
                        format::MANIFEST,
                        format::RAM_FILE,
                        format::INIT_FILE,
                        format::CONSOLE_FILE,
                        // Replaced whole (a link there removed, not followed).
                        format::INIT_SRC_DIR,
                    ]
                    .iter()
                    .any(|k| n == *k)
                });
            if foreign {
                return Err(OutError::Foreign { out: o() });
            }
            let probe = out.join(format!(".trapscope-write-test-{}", std::process::id()));
            if let Err(e) = crate::output::create_new(&probe, b"") {
                return Err(match e {
                    Some(err) => OutError::Unwritable { out: o(), err },
                    None => OutError::ProbeExists { out: o(), probe },
                });
            }
            let _ = std::fs::remove_file(&probe);
            Ok(Out::InPlace)
        }
        Err(_) => {
            drop(partial(out)?);
            Ok(Out::New)
        }
    }
}

/// A fresh partial directory beside `out` (its parent made if missing).
pub(super) fn partial(out: &Path) -> Result<ScratchDir, OutError> {
    let bad = |err| OutError::Create {
        out: out.to_path_buf(),
        err,
    };
    let parent = crate::output::dir_of(out);
    std::fs::create_dir_all(parent).map_err(bad)?;
    crate::output::fresh_dir(parent, PARTIAL).map_err(bad)
}

/// Puts the complete snapshot in `dir` at `out`.
pub(super) fn finish(dir: ScratchDir, out: &Path) -> Result<(), OutError> {
    dir.rename_to(out).map_err(|err| OutError::Place {
        out: out.to_path_buf(),
        err,
    })
}

//! The snapshot's `-o DIR`: a new directory, or one holding only an
//! earlier snapshot, that belongs to the user, is not a link and can be
//! written into; anything else is refused before QEMU boots.

use std::path::Path;

use super::super::format;

/// Makes sure, before QEMU boots, that the snapshot can be written to
/// `out`: an existing directory trapscope may write into, or one it can
/// create (created now; `Ok(true)` says so, for removal if the snapshot
/// then fails).
pub(super) fn prepare_out(out: &Path) -> Result<bool, String> {
    let bad = |why: String| format!("-o {}: {why}", out.display());
    // Not followed: a link at DIR is refused (output::check_own_dir).
    let created = match std::fs::symlink_metadata(out) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(bad("is a symbolic link: give the directory itself".into()));
        }
        Ok(m) if !m.is_dir() => return Err(bad("exists and is not a directory".into())),
        Ok(_) => {
            crate::output::check_own_dir(out).map_err(|e| format!("-o {e}"))?;
            // An earlier snapshot is replaced; anything else is left alone.
            let foreign = std::fs::read_dir(out)
                .map_err(|e| bad(format!("cannot read the directory: {e}")))?
                .flatten()
                .any(|e| {
                    let n = e.file_name();
                    ![
                        format::MANIFEST,
                        format::RAM_FILE,
                        format::INIT_FILE,
                        format::CONSOLE_FILE,
                    ]
                    .iter()
                    .any(|k| n == *k)
                });
            if foreign {
                return Err(bad(
                    "exists and holds files that are not a snapshot's: give a new or empty directory".into(),
                ));
            }
            false
        }
        Err(_) => {
            std::fs::create_dir_all(out)
                .map_err(|e| bad(format!("cannot create the directory: {e}")))?;
            true
        }
    };
    let probe = out.join(format!(".trapscope-write-test-{}", std::process::id()));
    if let Err(e) = crate::output::create_new(&probe, b"") {
        if created {
            let _ = std::fs::remove_dir_all(out);
        }
        let why = e.unwrap_or_else(|| format!("{} exists", probe.display()));
        return Err(bad(format!("cannot write into the directory: {why}")));
    }
    let _ = std::fs::remove_file(&probe);
    Ok(created)
}

//! Reading the user's files: the guest ELF, scenarios, core profiles and the
//! guest's sources. Only regular files are read, and only up to a cap, so a
//! FIFO, a device such as `/dev/zero`, or a huge file cannot hang or exhaust
//! trapscope. The type is checked before the file is opened: opening a FIFO
//! for reading blocks until a writer comes.

pub mod source_policy;

use std::fs::FileType;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// The largest guest ELF trapscope reads.
pub const ELF_MAX: u64 = 256 << 20;
/// The largest vmlinux image or snapshot RAM file (for the kernel snapshots
/// to come; guest ELFs stay under `ELF_MAX`).
pub const KERNEL_IMAGE_MAX: u64 = 2 << 30;
/// The largest scenario, profile or source file trapscope reads.
pub const TEXT_MAX: u64 = 4 << 20;

fn kind(t: &FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

fn mib(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

/// Why `read_regular` would not read a file: one line, without the path
/// (callers put it in front). `what` names the file as the caller does
/// ("guest ELF", "scenario"). The words of an `io::Error` are part of the
/// message, so it is not also given as the error's `source`.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be looked at, opened or read.
    #[error("cannot read {what}: {err}")]
    Io { what: String, err: std::io::Error },
    /// A directory, FIFO, device or socket (`kind` says which).
    #[error("the {what} is {kind}: trapscope reads only regular files")]
    NotRegular { what: String, kind: &'static str },
    /// Larger than the cap the caller gave.
    #[error("the {what} is {len} bytes, more than the {} trapscope reads", mib(*cap))]
    TooLarge { what: String, len: u64, cap: u64 },
    /// A file reporting 0 bytes that yields data (procfs, sysfs).
    #[error(
        "the {what} reports a size of 0 but yields data (a procfs or sysfs file): trapscope reads only regular files of the size they report"
    )]
    YieldsMore { what: String },
    /// No memory for `len` bytes.
    #[error("the {what} is {len} bytes, more than this machine's memory holds")]
    NoMemory { what: String, len: u64 },
    /// Fewer bytes than the file's size reports (sysfs, or cut while read).
    #[error(
        "the {what} yields {got} bytes, fewer than the {len} its size reports (a sysfs file, or one cut while read): trapscope reads only regular files of the size they report"
    )]
    YieldsLess { what: String, got: usize, len: u64 },
}

/// The bytes of the regular file at `path` (`what` names it in errors:
/// "guest ELF", "scenario"), at most `cap` of them. The error is one line,
/// without the path (callers put it in front).
pub fn read_regular(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, ReadError> {
    let what = || what.to_string();
    let io = |err| ReadError::Io { what: what(), err };
    // `metadata` follows symlinks, so a link to a FIFO is seen as a FIFO.
    let meta = std::fs::metadata(path).map_err(io)?;
    let t = meta.file_type();
    if !t.is_file() {
        return Err(ReadError::NotRegular {
            what: what(),
            kind: kind(&t),
        });
    }
    let too_large = |len| ReadError::TooLarge {
        what: what(),
        len,
        cap,
    };
    if meta.len() > cap {
        return Err(too_large(meta.len()));
    }
    let mut f = std::fs::File::open(path).map_err(io)?;
    // The size of the file opened (fstat), which no rename in between can
    // change: never more than that is read, so a file that grows while
    // read is read as it was. procfs and sysfs files report 0 and yield
    // data (`/proc/self/pagemap` would yield gigabytes): a probe of 8 bytes
    // (pagemap refuses reads of fewer) tells them from an empty file.
    let len = f.metadata().map_err(io)?.len();
    if len > cap {
        return Err(too_large(len));
    }
    if len == 0 {
        let mut probe = [0u8; 8];
        return match f.read(&mut probe) {
            Ok(0) => Ok(Vec::new()),
            Ok(_) => Err(ReadError::YieldsMore { what: what() }),
            Err(e) => Err(io(e)),
        };
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len as usize)
        .map_err(|_| ReadError::NoMemory { what: what(), len })?;
    f.take(len).read_to_end(&mut bytes).map_err(io)?;
    if (bytes.len() as u64) < len {
        return Err(ReadError::YieldsLess {
            what: what(),
            got: bytes.len(),
            len,
        });
    }
    Ok(bytes)
}

/// Where the first byte that is not UTF-8 sits: (line, column), 1-based,
/// the column counted in characters.
pub fn utf8_error_at(bytes: &[u8], e: &std::str::Utf8Error) -> (usize, usize) {
    let good = &bytes[..e.valid_up_to()];
    // Valid by construction: `valid_up_to` bytes decode.
    let text = std::str::from_utf8(good).unwrap_or_default();
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_bad_byte_is_located() {
        let at = |b: Vec<u8>| {
            let e = String::from_utf8(b.clone()).unwrap_err().utf8_error();
            utf8_error_at(&b, &e)
        };
        assert_eq!(at(b"ab\ncd\xffe".to_vec()), (2, 3));
        assert_eq!(at(b"\xc3\xa9\xff".to_vec()), (1, 2));
    }

    #[test]
    fn files_that_yield_more_than_their_size_are_refused() {
        // procfs reports 0 bytes for these and yields data; pagemap would
        // yield 8 bytes per page of the address space.
        for p in ["/proc/self/status", "/proc/self/pagemap"] {
            let e = read_regular(Path::new(p), "snapshot RAM", KERNEL_IMAGE_MAX)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("reports a size of 0 but yields data"),
                "{p}: {e}"
            );
        }
        // An empty regular file is still read, as empty.
        let dir = std::env::temp_dir().join(format!("trapscope-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty");
        std::fs::write(&empty, b"").unwrap();
        assert_eq!(read_regular(&empty, "scenario", TEXT_MAX).unwrap(), b"");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// sysfs reports a page for its attributes and yields a line: read
    /// as what it yields before, refused now, as a file not of its size.
    #[test]
    fn files_that_yield_less_than_their_size_are_refused() {
        let p = Path::new("/sys/kernel/mm/transparent_hugepage/enabled");
        let Ok(m) = std::fs::metadata(p) else {
            eprintln!("skipped: no {} here", p.display());
            return;
        };
        assert_eq!(m.len(), 4096, "sysfs reports a page");
        let e = read_regular(p, "scenario", TEXT_MAX)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("fewer than the 4096 its size reports") && !e.contains('\n'),
            "{e}"
        );
    }

    #[test]
    fn devices_and_directories_are_refused() {
        for (p, kind) in [
            ("/dev/zero", "character device"),
            ("/dev/urandom", "character device"),
            ("/", "directory"),
        ] {
            let e = read_regular(Path::new(p), "scenario", TEXT_MAX)
                .unwrap_err()
                .to_string();
            assert!(e.contains(kind), "{p}: {e}");
        }
    }
}

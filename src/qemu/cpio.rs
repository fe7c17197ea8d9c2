//! An initramfs writer in cpio's "newc" format (magic `070701`), the format
//! the Linux kernel unpacks into its root file system at boot.
//!
//! Each member is a 110-byte ASCII header (the magic, then 13 fields of 8
//! hexadecimal digits: ino, mode, uid, gid, nlink, mtime, filesize,
//! devmajor, devminor, rdevmajor, rdevminor, namesize, check), the path and
//! its NUL, padding to a multiple of 4 bytes, the file data, and padding to a
//! multiple of 4 again. A member named `TRAILER!!!` ends the archive.
//!
//! The output is deterministic: mtime 0, uid/gid 0, inode numbers from the
//! entry's position, so the same entries always give the same bytes.

/// File type bits of `mode` (POSIX `st_mode`).
pub const S_IFMT: u32 = 0o170_000;
pub const S_IFDIR: u32 = 0o040_000;
pub const S_IFREG: u32 = 0o100_000;
pub const S_IFCHR: u32 = 0o020_000;
pub const S_IFLNK: u32 = 0o120_000;

/// One archive member. `path` is relative to the root (`dev/console`);
/// `mode` holds the file type and permission bits; `data` is written for
/// regular files and symlinks (the link target) and ignored otherwise;
/// `rdev` is the (major, minor) of a device node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub path: String,
    pub mode: u32,
    pub data: Vec<u8>,
    pub rdev: Option<(u32, u32)>,
}

impl Entry {
    pub fn dir(path: &str, perm: u32) -> Entry {
        Entry {
            path: path.into(),
            mode: S_IFDIR | (perm & 0o7777),
            data: Vec::new(),
            rdev: None,
        }
    }

    pub fn file(path: &str, perm: u32, data: Vec<u8>) -> Entry {
        Entry {
            path: path.into(),
            mode: S_IFREG | (perm & 0o7777),
            data,
            rdev: None,
        }
    }

    /// A character device node, such as `dev/console` (5, 1).
    pub fn char_dev(path: &str, perm: u32, major: u32, minor: u32) -> Entry {
        Entry {
            path: path.into(),
            mode: S_IFCHR | (perm & 0o7777),
            data: Vec::new(),
            rdev: Some((major, minor)),
        }
    }

    fn has_data(&self) -> bool {
        matches!(self.mode & S_IFMT, S_IFREG | S_IFLNK)
    }
}

const MAGIC: &str = "070701";
const TRAILER: &str = "TRAILER!!!";

/// The newc archive of `entries`, in order, then the trailer.
pub fn newc(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let data: &[u8] = if e.has_data() { &e.data } else { &[] };
        let nlink = if e.mode & S_IFMT == S_IFDIR { 2 } else { 1 };
        let ino = u32::try_from(i + 1).unwrap_or(u32::MAX);
        member(&mut out, ino, e.mode, nlink, &e.path, data, e.rdev);
    }
    member(&mut out, 0, 0, 1, TRAILER, &[], None);
    out
}

/// The smallest root file system a static init needs: `/dev/console`
/// (character device 5:1, which the kernel opens as the init's stdin, stdout
/// and stderr before running it) and `/init` itself.
pub fn initramfs(init: Vec<u8>) -> Vec<u8> {
    newc(&[
        Entry::dir("dev", 0o755),
        Entry::char_dev("dev/console", 0o600, 5, 1),
        Entry::file("init", 0o755, init),
    ])
}

fn member(
    out: &mut Vec<u8>,
    ino: u32,
    mode: u32,
    nlink: u32,
    name: &str,
    data: &[u8],
    rdev: Option<(u32, u32)>,
) {
    let (rmaj, rmin) = rdev.unwrap_or((0, 0));
    let size = u32::try_from(data.len()).unwrap_or(u32::MAX);
    let namesize = u32::try_from(name.len() + 1).unwrap_or(u32::MAX);
    // ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize check
    let fields = [
        ino, mode, 0, 0, nlink, 0, size, 0, 0, rmaj, rmin, namesize, 0,
    ];
    out.extend_from_slice(MAGIC.as_bytes());
    for f in fields {
        out.extend_from_slice(format!("{f:08x}").as_bytes());
    }
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    pad4(out);
    out.extend_from_slice(data);
    pad4(out);
}

fn pad4(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

#[cfg(test)]
mod tests;

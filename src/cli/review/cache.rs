//! `review`'s snapshot cache: one snapshot directory per (kernel build,
//! init, snapshot options), under `$XDG_CACHE_HOME/trapscope/snapshots/KEY`
//! (else `$HOME/.cache/trapscope/snapshots/KEY`), so that a second review of
//! the same builds boots nothing.
//!
//! An entry is written as `trapscope snapshot -o KEY` writes a new
//! directory: into a partial directory beside it, renamed into place once
//! complete, so an entry is whole or absent. Each use rewrites the entry's
//! `.last-used` stamp; past `MAX_ENTRIES` entries or `MAX_BYTES` bytes the
//! least recently used go first (never one the running review uses).

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::snapshot::format;

/// The most entries the cache keeps.
pub const MAX_ENTRIES: usize = 32;
/// The most bytes the cache keeps (2 GiB: a tinyconfig kernel's snapshot
/// is about 1.9 MiB on disk (ram.zlib), a fuller kernel's more).
pub const MAX_BYTES: u64 = 2 << 30;
/// The stamp whose modification time is an entry's last use.
pub const STAMP: &str = ".last-used";

/// What a snapshot depends on: the same inputs give the same snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyParts {
    /// The kernel's GNU build id (hex), or a bare-metal ELF's `fnv1a64`.
    pub guest: String,
    /// The init's name (one of trapscope's, or the file's stem).
    pub init_name: String,
    /// `fnv1a64` of the init program's bytes (0 for a bare-metal ELF).
    pub init_hash: u64,
    pub at: u64,
    pub mem_mib: u32,
    pub append: String,
    pub marker: String,
    pub loop_symbol: String,
    /// The hart's VLEN (None: no V).
    pub vlen: Option<u32>,
}

impl KeyParts {
    /// The entry's directory name: readable prefixes, then a hash of every
    /// part (and of the snapshot format's version), so that any change in
    /// them gives another key.
    pub fn key(&self) -> String {
        let mut all = String::new();
        let _ = write!(
            all,
            // Snapshots on QEMU's counted clock (docs/decisions.md D14):
            // entries taken before it are never reused.
            "v{} counted clock\n{}\n{}\n{:016x}\n{}\n{}\n{}\n{}\n{}",
            format::VERSION,
            self.guest,
            self.init_name,
            self.init_hash,
            self.at,
            self.mem_mib,
            self.append,
            self.marker,
            self.loop_symbol
        );
        // Absent for a hart without V, so that keys made before V reviews
        // stay the same.
        if let Some(v) = self.vlen {
            let _ = write!(all, "\nvlen {v}");
        }
        let guest: String = self.guest.chars().take(12).collect();
        format!(
            "{}-{}-{:016x}",
            safe(&guest),
            safe(&self.init_name),
            format::fnv1a64(all.as_bytes())
        )
    }
}

/// A name part with anything but `[A-Za-z0-9._-]` made `_` (no `/`, and a
/// leading `.` too: a hidden name is not an entry).
fn safe(s: &str) -> String {
    let mut o: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if o.starts_with('.') || o.is_empty() {
        o.insert(0, '_');
    }
    o
}

/// The cache's directory from the environment (XDG Base Directory:
/// `XDG_CACHE_HOME` when it is an absolute path, else `$HOME/.cache`).
pub fn root_from(xdg: Option<&str>, home: Option<&str>) -> Result<PathBuf, String> {
    let base = match (xdg.filter(|x| Path::new(x).is_absolute()), home) {
        (Some(x), _) => PathBuf::from(x),
        (None, Some(h)) if !h.is_empty() => Path::new(h).join(".cache"),
        _ => {
            return Err(
                "no cache directory: neither XDG_CACHE_HOME nor HOME is set; set one, or give --no-cache"
                    .into(),
            );
        }
    };
    Ok(base.join("trapscope").join("snapshots"))
}

pub fn root() -> Result<PathBuf, String> {
    let xdg = std::env::var("XDG_CACHE_HOME").ok();
    let home = std::env::var("HOME").ok();
    root_from(xdg.as_deref(), home.as_deref())
}

/// A complete entry: a snapshot's manifest and RAM are both there.
pub fn is_entry(dir: &Path) -> bool {
    dir.join(format::MANIFEST).is_file() && dir.join(format::RAM_FILE).is_file()
}

/// Marks an entry used now.
pub fn touch(dir: &Path) -> Result<(), String> {
    crate::output::replace(&dir.join(STAMP), b"")
        .map_err(|e| format!("{}: cannot mark the cache entry used: {e}", dir.display()))
}

/// One entry as eviction sees it.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub last_used: SystemTime,
    pub bytes: u64,
}

/// The entries to remove, least recently used first, until at most
/// `max_entries` entries and `max_bytes` bytes remain; `keep` (the entries
/// this review uses) are never removed, even when they alone exceed the
/// limits.
pub fn evictions(
    mut entries: Vec<Entry>,
    keep: &[String],
    max_entries: usize,
    max_bytes: u64,
) -> Vec<String> {
    entries.sort_by_key(|e| e.last_used);
    let mut count = entries.len();
    let mut bytes: u64 = entries.iter().map(|e| e.bytes).sum();
    let mut out = Vec::new();
    for e in &entries {
        if count <= max_entries && bytes <= max_bytes {
            break;
        }
        if keep.contains(&e.name) {
            continue;
        }
        count -= 1;
        bytes = bytes.saturating_sub(e.bytes);
        out.push(e.name.clone());
    }
    out
}

/// The entries under `root` (hidden names, such as partial directories,
/// are not entries).
pub fn entries(root: &Path) -> Vec<Entry> {
    let Ok(rd) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    rd.flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if name.starts_with('.') {
                return None;
            }
            let dir = e.path();
            let stamp = std::fs::metadata(dir.join(STAMP))
                .or_else(|_| std::fs::metadata(&dir))
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            let bytes = std::fs::read_dir(&dir)
                .map(|d| {
                    d.flatten()
                        .filter_map(|f| f.metadata().ok())
                        .map(|m| m.len())
                        .sum()
                })
                .unwrap_or(0);
            Some(Entry {
                name,
                last_used: stamp,
                bytes,
            })
        })
        .collect()
}

/// Applies `evictions` to the cache at `root`; returns what it removed.
pub fn evict(root: &Path, keep: &[String]) -> Vec<String> {
    let gone = evictions(entries(root), keep, MAX_ENTRIES, MAX_BYTES);
    for name in &gone {
        let _ = std::fs::remove_dir_all(root.join(name));
    }
    gone
}

/// Removes every entry (and any partial directory); returns how many
/// entries and bytes went.
pub fn clear(root: &Path) -> Result<(usize, u64), String> {
    let all = entries(root);
    let bytes = all.iter().map(|e| e.bytes).sum();
    if root.exists() {
        std::fs::remove_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
    }
    Ok((all.len(), bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn parts() -> KeyParts {
        KeyParts {
            guest: "0123456789abcdef0123".into(),
            init_name: "getppid".into(),
            init_hash: 7,
            at: 100,
            mem_mib: 128,
            append: String::new(),
            marker: "init_ecall".into(),
            loop_symbol: "init_loop".into(),
            vlen: None,
        }
    }

    #[test]
    fn every_part_changes_the_key() {
        let base = parts().key();
        assert!(base.starts_with("0123456789ab-getppid-"), "{base}");
        let changes: [fn(&mut KeyParts); 8] = [
            (|p: &mut KeyParts| p.guest.push('0')),
            (|p: &mut KeyParts| p.init_name = "pipe".into()),
            (|p: &mut KeyParts| p.init_hash = 8),
            (|p: &mut KeyParts| p.at = 101),
            (|p: &mut KeyParts| p.mem_mib = 256),
            (|p: &mut KeyParts| p.append = "quiet".into()),
            (|p: &mut KeyParts| p.marker = "init_touch".into()),
            (|p: &mut KeyParts| p.loop_symbol = "top".into()),
        ];
        for (i, c) in changes.iter().enumerate() {
            let mut p = parts();
            c(&mut p);
            assert_ne!(p.key(), base, "change {i} kept the key");
        }
        assert_eq!(parts().key(), base, "the key is a function of its parts");
    }

    #[test]
    fn a_key_is_one_plain_name() {
        let mut p = parts();
        p.init_name = "../.x/y z".into();
        let k = p.key();
        assert!(
            !k.contains('/') && !k.starts_with('.') && !k.contains(' '),
            "{k}"
        );
    }

    #[test]
    fn root_follows_xdg_then_home() {
        let r = root_from(Some("/x"), Some("/h")).unwrap();
        assert_eq!(r, Path::new("/x/trapscope/snapshots"));
        // A relative XDG_CACHE_HOME is ignored, as the spec says.
        let r = root_from(Some("rel"), Some("/h")).unwrap();
        assert_eq!(r, Path::new("/h/.cache/trapscope/snapshots"));
        assert!(root_from(None, None).unwrap_err().contains("--no-cache"));
    }

    fn entry(name: &str, age_s: u64, bytes: u64) -> Entry {
        Entry {
            name: name.into(),
            last_used: SystemTime::UNIX_EPOCH + Duration::from_secs(1000 - age_s),
            bytes,
        }
    }

    #[test]
    fn eviction_takes_the_least_recently_used_first() {
        let e = vec![
            entry("new", 1, 10),
            entry("old", 9, 10),
            entry("mid", 5, 10),
        ];
        // Two entries allowed: the oldest goes.
        assert_eq!(evictions(e.clone(), &[], 2, u64::MAX), ["old"]);
        // 15 bytes allowed: the two oldest go (30 → 20 → 10).
        assert_eq!(evictions(e.clone(), &[], 10, 15), ["old", "mid"]);
        // Within both limits: nothing goes.
        assert!(evictions(e.clone(), &[], 3, 30).is_empty());
        // The entries in use stay, whatever their age.
        assert_eq!(evictions(e, &["old".into()], 2, u64::MAX), ["mid"]);
    }

    #[test]
    fn entries_in_use_stay_even_over_the_limit() {
        let e = vec![entry("a", 2, 100), entry("b", 1, 100)];
        let keep = ["a".to_string(), "b".to_string()];
        assert!(evictions(e, &keep, 1, 10).is_empty());
    }

    #[test]
    fn the_stamp_orders_entries_on_disk() {
        let dir = std::env::temp_dir().join(format!("trapscope-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for n in ["one", "two", ".trapscope-partial-1"] {
            std::fs::create_dir_all(dir.join(n)).unwrap();
            std::fs::write(dir.join(n).join("ram.zlib"), [0u8; 100]).unwrap();
        }
        touch(&dir.join("one")).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        touch(&dir.join("two")).unwrap();
        let mut es = entries(&dir);
        es.sort_by_key(|e| e.last_used);
        let names: Vec<&str> = es.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            ["one", "two"],
            "hidden partial directories are not entries"
        );
        assert_eq!(
            es[0].bytes, 100,
            "the stamp is empty; the RAM file is 100 bytes"
        );
        let gone = evictions(es, &[], 1, u64::MAX);
        assert_eq!(gone, ["one"]);
        assert_eq!(clear(&dir).unwrap(), (2, 200));
        assert!(!dir.exists());
    }
}

//! RAM files that would have trapscope hold far more than they should
//! (docs/guides/real-kernels.md): a zlib stream that inflates past the
//! manifest's size is refused as it passes it, without holding that size;
//! a size the file could never inflate to is refused before inflating; a
//! procfs file in the RAM file's place is refused at once. Each with one
//! line naming the file. The process's peak resident memory
//! (`VmHWM`) is the measure, so this file holds no other test that
//! allocates much, and each test that measures it runs alone in a child
//! process (tests/common's `alone`): the other tests of its binary share
//! the process.

use crate::common;
use crate::snapshot_util;

use std::path::Path;

use trapscope::snapshot::format::{self, RAM_MAX, Snapshot};

use snapshot_util::{manifest, poweroff_ram, scratch, write_snapshot};

const MIB: u64 = 1 << 20;

/// One test at a time: the peak is the process's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Resident memory, now and at its peak, in bytes.
fn rss() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib = |key: &str| -> u64 {
        s.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    (kib("VmRSS:") << 10, kib("VmHWM:") << 10)
}

/// Bits into bytes, least significant first (RFC 1951 §3.1.1).
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    n: u32,
}

impl Bits {
    fn bit(&mut self, b: u32) {
        if self.n.is_multiple_of(8) {
            self.out.push(0);
        }
        *self.out.last_mut().unwrap() |= ((b & 1) as u8) << (self.n % 8);
        self.n += 1;
    }
    /// A Huffman code, most significant bit first (§3.1.1).
    fn code(&mut self, code: u32, len: u32) {
        for i in (0..len).rev() {
            self.bit(code >> i);
        }
    }
}

/// A zlib stream (RFC 1950) of `n` zero bytes in one deflate block with
/// the fixed codes (RFC 1951 §3.2.6): the literal 0 (8 bits, 0x30), then
/// matches of length 258 (symbol 285: 8 bits, 0xc5) at distance 1 (code 0:
/// 5 bits), the rest as literals, and end of block (7 bits, 0): 13 bits
/// for 258 bytes. The Adler-32 of zeros is A = 1, B = n mod 65521.
fn zeros(n: u64) -> Vec<u8> {
    let mut b = Bits::default();
    b.bit(1); // BFINAL
    b.bit(1); // BTYPE = 01, low bit first
    b.bit(0);
    b.code(0x30, 8);
    let mut left = n - 1;
    while left >= 258 {
        b.code(0xc5, 8);
        b.code(0, 5);
        left -= 258;
    }
    for _ in 0..left {
        b.code(0x30, 8);
    }
    b.code(0, 7);
    let mut z = vec![0x78, 0x01];
    z.extend(b.out);
    let adler = ((n % 65521) << 16 | 1) as u32;
    z.extend(adler.to_be_bytes());
    z
}

/// A snapshot directory whose manifest declares `size` bytes of RAM (of
/// `digest`) and whose RAM file is `z`.
fn snapshot(tag: &str, size: u64, digest: u64, z: &[u8]) -> std::path::PathBuf {
    let dir = scratch(tag).join("snap");
    let mut m = manifest(&poweroff_ram());
    m.ram.size = format::Hex(size);
    m.ram.fnv1a64 = format::Hex(digest);
    write_snapshot(&dir, &m, &poweroff_ram());
    std::fs::write(dir.join(format::RAM_FILE), z).unwrap();
    dir
}

fn one_line_naming_the_file(e: &str, needles: &[&str]) {
    assert!(!e.contains('\n'), "{e}");
    assert!(e.contains(format::RAM_FILE), "{e}");
    for n in needles {
        assert!(e.contains(n), "{n:?} in {e}");
    }
}

#[test]
fn the_bomb_is_sound() {
    let _one = one();
    // The stream inflates to what it says (the decoder is the oracle).
    use std::io::Read;
    let n = 100_000;
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(&zeros(n)[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out.len() as u64, n);
    assert!(out.iter().all(|&b| b == 0));
}

/// 64 MiB declared, 128 MiB inflated: refused as it passes 64 MiB, with
/// the peak resident memory grown by a small part of it (before: the
/// declared size was allocated up front and filled, 64 MiB and more).
#[test]
fn a_stream_past_the_declared_size_is_refused_without_holding_it() {
    if !common::alone(
        module_path!(),
        "a_stream_past_the_declared_size_is_refused_without_holding_it",
    ) {
        return;
    }
    let _one = one();
    let size = 64 * MIB;
    let z = zeros(2 * size);
    let dir = snapshot("bomb", size, 0, &z);
    let (_, peak) = rss();
    let e = Snapshot::load(&dir).err().expect("refused").to_string();
    let (_, after) = rss();
    one_line_naming_the_file(&e, &["holds more than the manifest's 0x4000000 bytes"]);
    assert!(
        after - peak < size / 4,
        "the peak grew by {} MiB",
        (after - peak) >> 20
    );
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

/// 2047 MiB declared, and a page of zeros compressed: no deflate stream
/// of that file's size inflates that far (at most 1032 times its size),
/// so it is refused before inflating (before: it was inflated, to fail as
/// too short).
#[test]
fn a_size_the_file_cannot_inflate_to_is_refused_before_inflating() {
    let _one = one();
    let z = zeros(4096);
    let dir = snapshot("ratio", RAM_MAX, 0, &z);
    let e = Snapshot::load(&dir).err().expect("refused").to_string();
    one_line_naming_the_file(
        &e,
        &[&format!(
            "{} bytes of zlib cannot inflate to the manifest's {RAM_MAX:#x} bytes",
            z.len()
        )],
    );
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

/// `/proc/self/pagemap` as the RAM file: fstat says 0 bytes, and it would
/// yield 8 bytes a page of the address space; refused having read 8.
#[test]
fn a_procfs_file_as_the_ram_file_is_refused_at_once() {
    if !common::alone(
        module_path!(),
        "a_procfs_file_as_the_ram_file_is_refused_at_once",
    ) {
        return;
    }
    let _one = one();
    let dir = snapshot("pagemap", 4096, 0, b"");
    let ram = dir.join(format::RAM_FILE);
    std::fs::remove_file(&ram).unwrap();
    std::os::unix::fs::symlink(Path::new("/proc/self/pagemap"), &ram).unwrap();
    let (_, peak) = rss();
    let e = Snapshot::load(&dir).err().expect("refused").to_string();
    let (_, after) = rss();
    one_line_naming_the_file(&e, &["reports a size of 0 but yields data"]);
    assert!(
        after - peak < 16 * MIB,
        "the peak grew by {} MiB",
        (after - peak) >> 20
    );
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

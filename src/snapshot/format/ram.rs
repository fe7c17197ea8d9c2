//! The RAM file, inflated only once it is known to hold the manifest's
//! RAM: a zlib stream is first inflated a window at a time, counting its
//! bytes and digesting them, and refused as soon as it passes the size the
//! manifest declares; only a stream of exactly that size and digest is
//! inflated again into memory of that size. A size the file could never
//! inflate to is refused before any of that.

use std::io::Read;
use std::path::Path;

use super::RamError;
use super::constants::MAX_RATIO;

/// The window the first pass inflates into.
const WINDOW: usize = 64 << 10;

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a (64-bit) of `bytes`, on from the digest `h` of what came before.
pub fn fnv1a64_on(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// FNV-1a, 64-bit (Fowler–Noll–Vo) of `bytes`: a digest with no
/// dependency, enough to notice a truncated or altered RAM file.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_on(FNV_START, bytes)
}

/// The `size` bytes of RAM the zlib stream `z` (the file at `path`) holds,
/// whose FNV-1a digest is `digest`; each refusal one line naming the file.
pub(super) fn inflate(path: &Path, z: &[u8], size: u64, digest: u64) -> Result<Vec<u8>, RamError> {
    let path = || path.to_path_buf();
    // Without a zlib header (RFC 1950 §2.2: CM = 8, and CMF·256 + FLG a
    // multiple of 31) the file is not zlib at all.
    let header =
        z.len() >= 2 && z[0] & 0x0f == 8 && (u16::from(z[0]) << 8 | u16::from(z[1])) % 31 == 0;
    if !header {
        return Err(RamError::NotZlib { path: path(), size });
    }
    let most = (z.len() as u64).saturating_mul(MAX_RATIO);
    if size > most {
        return Err(RamError::CannotInflate {
            path: path(),
            len: z.len(),
            size,
        });
    }
    // One byte more than the size, so a longer stream is noticed there.
    let mut unz = flate2::read::ZlibDecoder::new(z).take(size + 1);
    let mut window = vec![0u8; WINDOW];
    let (mut n, mut h) = (0u64, FNV_START);
    loop {
        // Inflating 128 MiB takes seconds in a debug build: Ctrl-C ends it.
        if crate::machine::sigint::requested() {
            return Err(RamError::Interrupted);
        }
        match unz.read(&mut window) {
            Ok(0) => break,
            Ok(k) => {
                n += k as u64;
                h = fnv1a64_on(h, &window[..k]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => {
                // A stream that stops early is a cut file, invalid deflate
                // data a damaged one.
                let path = path();
                return Err(if err.kind() == std::io::ErrorKind::UnexpectedEof {
                    RamError::Truncated { path, err, size }
                } else {
                    RamError::Damaged { path, err, size }
                });
            }
        }
    }
    if n > size {
        return Err(RamError::TooLong { path: path(), size });
    }
    if n < size {
        return Err(RamError::TooShort {
            path: path(),
            got: n,
            size,
        });
    }
    if h != digest {
        return Err(RamError::Digest {
            path: path(),
            got: h,
            want: digest,
        });
    }
    let mut ram = Vec::new();
    ram.try_reserve_exact(size as usize)
        .map_err(|_| RamError::NoMemory { path: path(), size })?;
    let mut unz = flate2::read::ZlibDecoder::new(z).take(size);
    loop {
        if crate::machine::sigint::requested() {
            return Err(RamError::Interrupted);
        }
        let k = (&mut unz)
            .take(WINDOW as u64)
            .read_to_end(&mut ram)
            .map_err(|err| RamError::Corrupt { path: path(), err })?;
        if k == 0 {
            break;
        }
    }
    Ok(ram)
}

//! The format's fixed values: its name and versions, the directory's file
//! names, and the limits on the RAM (its size, how far zlib can inflate)
//! that the checks enforce and the errors name. A leaf of its own so that
//! `error.rs` names them without importing the files that raise its errors.

pub const FORMAT: &str = "trapscope-snapshot";
/// Bumped whenever a field changes meaning or is added (the manifest
/// denies fields it does not know, so an older trapscope would refuse a new
/// one as malformed rather than by its version); newer ones are refused.
/// 2: `init.sources`.
pub const VERSION: u32 = 2;
/// The oldest version still read: 1 lacks only `init.sources`.
pub const OLDEST: u32 = 1;
pub const MANIFEST: &str = "snapshot.json";
pub const RAM_FILE: &str = "ram.zlib";
pub const INIT_FILE: &str = "init.elf";
pub const CONSOLE_FILE: &str = "console.log";
/// The directory of the init's stored sources.
pub const INIT_SRC_DIR: &str = "init-src";

/// The largest RAM a snapshot may hold, 2047 MiB: the emulator copies
/// guest memory in one call of at most `INT_MAX` (2^31 - 1) bytes, so a
/// 2 GiB RAM cannot be loaded. `trapscope snapshot --mem` stops here too.
pub const RAM_MAX_MIB: u32 = 2047;
pub const RAM_MAX: u64 = (RAM_MAX_MIB as u64) << 20;

/// deflate (RFC 1951 §3.2.5) codes at best 258 bytes, a match of the
/// longest length, in two bits (a one-bit length code and a one-bit
/// distance code): no stream inflates to more than 1032 times its size.
pub(super) const MAX_RATIO: u64 = 258 * 8 / 2;

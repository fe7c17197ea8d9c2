//! The exception codes trapscope raises itself (priv spec §3.1.15, mcause),
//! apart from the code that raises them.

pub const CAUSE_FETCH_ACCESS: u64 = 1;

pub const CAUSE_ILLEGAL: u64 = 2;

pub const CAUSE_BREAKPOINT: u64 = 3;

pub const CAUSE_LOAD_MISALIGNED: u64 = 4;

pub const CAUSE_STORE_MISALIGNED: u64 = 6;

pub const CAUSE_ECALL_U: u64 = 8;

pub const CAUSE_FETCH_PAGE: u64 = 12;

/// xcause's MSB: the trap is an interrupt (priv spec §3.1.15).
pub const INTERRUPT: u64 = 1 << 63;

pub const CAUSE_LOAD_ACCESS: u64 = 5;

pub const CAUSE_STORE_ACCESS: u64 = 7;

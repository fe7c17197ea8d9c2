//! Traps and CSRs: delivering exceptions in software, the CSR instructions
//! trapscope runs itself, access faults, and the guests that would trap or
//! spin forever.

pub(in crate::machine) mod access;
pub(in crate::machine) mod cause;
pub(in crate::machine) mod csr;
pub(in crate::machine) mod csr_rules;
pub(in crate::machine) mod fault;
pub(in crate::machine) mod state;
pub mod storm;
pub(in crate::machine) mod trap;

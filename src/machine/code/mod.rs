//! Code and intercepts: decoded blocks and their cache, the instructions
//! trapscope runs or checks itself and where their hooks sit, code the guest
//! writes, pc-keyed tables.

pub(in crate::machine) mod block;
pub(in crate::machine) mod hookpages;
pub(in crate::machine) mod intercept;
pub(in crate::machine) mod pchash;
pub(in crate::machine) mod register;
pub(in crate::machine) mod smc;
pub(in crate::machine) mod state;

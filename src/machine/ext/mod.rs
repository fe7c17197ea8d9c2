//! The extensions trapscope runs itself beside unicorn: F/D corners and NaN-
//! boxing, sstatus.FS, the V unit's hook and sstatus.VS, LR/SC and AMOs.

pub(in crate::machine) mod fp;
pub(in crate::machine) mod fpflow;
pub(in crate::machine) mod fpscan;
pub(in crate::machine) mod fs;
pub mod fstate;
pub(in crate::machine) mod lrsc;
pub(in crate::machine) mod state;
pub(in crate::machine) mod vec;
pub(in crate::machine) mod vs;

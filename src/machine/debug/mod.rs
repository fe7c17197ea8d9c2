//! Debugging the guest: the debug trigger, watchpoints on physical ranges,
//! and where the kernel saved each trap's registers.

pub(in crate::machine) mod frames;
pub(in crate::machine) mod state;
pub(in crate::machine) mod trigger;
pub(in crate::machine) mod watch;

//! The ext sub-room's part of the hart's state: sstatus.VS and FS as
//! trapscope keeps them, the V unit, the LR/SC reservation and the probes.
//! Types only; what acts on them is in the sibling files.

/// The state of the extensions trapscope runs itself.
pub(in crate::machine) struct ExtState {
    /// sstatus.VS, which unicorn's QEMU 5.0 does not have (docs/decisions.md D2).
    pub vs: u8,
    /// The software V unit, when the core has one.
    pub vunit: Option<crate::vector::VUnit>,
    /// sstatus.FS as last reported (fstate.rs: QEMU keeps the field; this
    /// only tells a change), and the pc of an F/D instruction trapscope ran
    /// that made it Dirty.
    pub fs_seen: u8,
    pub fs_by: Option<u64>,
    /// Where a block checks a 64-bit value it reads as a single (fpflow.rs).
    pub fp_checks: crate::machine::code::pchash::PcSet<u64>,
    /// `vs::described`'s disassemblies, by pc and encoding.
    pub described: crate::machine::code::pchash::PcMap<(u64, u32), String>,
    /// The LR/SC reservation and the outcome of every SC.
    pub lrsc: crate::atomics::Tracker,
    /// The core traps AMOs to M-mode as illegal instructions.
    pub amo_traps: bool,
    /// xRET drops the reservation (the priv spec allows it, §3.3.2).
    pub xret_clears: bool,
    /// Stop after this many consecutive failures of one SC (0: never).
    pub livelock_after: u32,
    /// Probed addresses, and the one whose instruction runs next unprobed.
    pub probes: crate::machine::code::pchash::PcSet<u64>,
    pub probe_resume: Option<u64>,
}

impl Default for ExtState {
    fn default() -> Self {
        ExtState {
            vs: 0,
            vunit: None,
            fs_seen: 0,
            fs_by: None,
            fp_checks: Default::default(),
            described: Default::default(),
            lrsc: Default::default(),
            amo_traps: false,
            xret_clears: false,
            livelock_after: 10_000,
            probes: Default::default(),
            probe_resume: None,
        }
    }
}

//! Code and intercepts: decoded blocks and their cache, the instructions
//! trapscope runs or checks itself and where their hooks sit, code the guest
//! writes, pc-keyed tables.

pub(in crate::machine) mod block;
pub(in crate::machine) mod hookpages;
pub(in crate::machine) mod intercept;
pub(in crate::machine) mod pchash;
pub(in crate::machine) mod smc;

/// The hart's decoded code: blocks, the instructions trapscope runs itself,
/// and the code pages it watches for writes.
pub(in crate::machine) struct CodeState<D> {
    pub blocks: block::BlockCache<D>,
    pub intercepts: pchash::PcMap<u64, crate::isa::Insn>,
    /// Watched code and intercept hooks, for code the guest writes (`smc.rs`).
    pub smc: smc::SmcState,
}

impl<D> Default for CodeState<D> {
    fn default() -> Self {
        CodeState {
            blocks: Default::default(),
            intercepts: Default::default(),
            smc: Default::default(),
        }
    }
}

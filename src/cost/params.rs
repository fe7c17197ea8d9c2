//! The profile's numbers the pipelines use (`Params`), read once when a
//! model is made. A leaf of its own so that the pipelines (`inorder.rs`,
//! `window.rs`) take them without importing the model that drives them.

use super::ledger::Cat;
use super::profile::Profile;
use crate::trace::PredKind;

/// The profile's numbers the pipelines use, read once.
#[derive(Clone, Debug)]
pub struct Params {
    pub width: usize,
    pub commit_width: usize,
    pub window: usize,
    pub late_advance: u32,
    pub alu_early: u32,
    pub div_busy: u32,
    pub out_of_order: bool,
    pub(super) mispredict: [u32; 3],
    pub(super) taken_bubble: u32,
    pub(super) taken_ends_group: bool,
    pub(super) recover_after_retire: u32,
    pub(super) drain_dispatch: u32,
    pub(super) trap_entry: u32,
    pub(super) trap_return: u32,
    pub(super) csr_flush: u32,
    pub(super) fence: u32,
    pub(super) fence_i: u32,
    pub(super) sfence_vma: u32,
    pub(super) csr_read_serialises: bool,
    pub(super) csr_write_serialises: bool,
    pub(super) amo_serialises: bool,
    pub(super) fence_drains: bool,
    pub(super) system_drains: bool,
    /// Out-of-order: how many pipes execute instructions.
    pub pipes: usize,
}

impl Params {
    pub(super) fn new(p: &Profile) -> Params {
        let c = &p.core;
        let l = &p.latency;
        let z = &p.serialise;
        Params {
            width: c.issue_width.value.max(1) as usize,
            commit_width: c.commit_width.value.max(1) as usize,
            window: c.window.value.max(1) as usize,
            late_advance: l.late_advance.value,
            alu_early: l.alu_early.value,
            div_busy: l.div_busy.value,
            out_of_order: c.out_of_order.value,
            mispredict: [
                c.mispredict_return.value,
                c.mispredict_branch.value,
                c.mispredict_indirect.value,
            ],
            taken_bubble: c.taken_bubble.value,
            taken_ends_group: c.taken_ends_group.value,
            recover_after_retire: c.recover_after_retire.value,
            drain_dispatch: z.drain_dispatch.value,
            trap_entry: c.trap_entry.value,
            trap_return: c.trap_return.value,
            csr_flush: z.csr_flush.value,
            fence: z.fence.value,
            fence_i: z.fence_i.value,
            sfence_vma: z.sfence_vma.value,
            csr_read_serialises: z.csr_read_serialises.value,
            csr_write_serialises: z.csr_write_serialises.value,
            amo_serialises: z.amo_serialises.value,
            fence_drains: z.fence_drains.value,
            system_drains: z.system_drains.value,
            pipes: p.issue.pipes.value.clamp(1, 8) as usize,
        }
    }

    pub(super) fn penalty(&self, k: PredKind) -> (Cat, u32) {
        match k {
            PredKind::Return => (Cat::RasMispredicts, self.mispredict[0]),
            PredKind::Branch => (Cat::BranchMispredicts, self.mispredict[1]),
            PredKind::Indirect => (Cat::IndirectMispredicts, self.mispredict[2]),
        }
    }
}

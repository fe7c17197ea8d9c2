//! Where code is first seen: text watched for the guest's writes, and each
//! decoded block's intercepted instructions registered and hooked (with the
//! hooks an F block's entry check asks for, `fpscan.rs`). Above the
//! intercept hooks it installs; the code-write bookkeeping below it is
//! `smc.rs`.

use unicorn_engine::Unicorn;

use crate::isa::{DecodedInsn, Insn, Op};
use crate::machine::code::smc::{code_written, must_hook};
use crate::machine::ext::fpflow::all_boxed;
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use unicorn_engine::unicorn_const::HookType;

/// An FP instruction's hook stays once added: NaN-boxing (fpflow.rs) hooks
/// one where some block that holds it needs it, and another block over the
/// same code may not.
fn keeps_hook(i: &Insn) -> bool {
    matches!(i.op, Op::Fp | Op::FpLoad { .. } | Op::FpStore { .. })
}

/// Watches guest writes to `[start, end]` (a text segment): only code
/// pages get the hook, so ordinary stores pay one range check.
pub(in crate::machine) fn watch<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    start: u64,
    end: u64,
) -> Result<(), unicorn_engine::unicorn_const::uc_error> {
    uc.add_mem_hook(
        HookType::MEM_WRITE,
        start,
        end,
        |uc, _, addr, size, value| {
            crate::machine::guard::shield(uc, true, |uc| {
                // The hook runs before the store lands: decode what it will write.
                let new = value.to_le_bytes();
                let n = size.min(8);
                code_written(uc, addr, n as u64, Some(&new[..n]));
                true
            })
        },
    )?;
    uc.get_data_mut().code.smc.watched.push((start, end));
    Ok(())
}

/// Code decoded outside the watched ranges (RAM is executable, so a guest
/// may run code it put in a data page): watch its pages from now on, so a
/// later write there drops the decoded block.
pub(in crate::machine) fn watch_code<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    start: u64,
    end: u64,
) {
    if end <= start || uc.get_data().code.smc.watches(start, end - start) {
        return;
    }
    let (p0, p1) = (start & !0xfff, (end - 1) | 0xfff);
    let _ = watch(uc, p0, p1);
}

/// Registers the instructions of a newly decoded block that trapscope must
/// run itself and did not know of (code the load-time scan did not see:
/// written to a data page, or behind data in text that threw the linear
/// scan off). Returns whether any of them needed a hook added, so that the
/// block's translation lacks it.
pub(in crate::machine) fn register_block<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    insns: &[DecodedInsn],
    fp_hooks: &[u64],
    fp_checks: &[u64],
) -> bool {
    let mut sites = Vec::new();
    for &pc in fp_checks {
        if uc.get_data_mut().ext.fp_checks.insert(pc) {
            sites.push(pc);
        }
    }
    for d in insns {
        let hooked = |i: &Insn| must_hook(i) || fp_hooks.binary_search(&d.pc).is_ok();
        let Some(i) = d.insn.filter(hooked) else {
            // Another address space may have held an intercepted
            // instruction here: this code is not one.
            let same = d.insn.filter(keeps_hook);
            if same.is_none() || uc.get_data().code.intercepts.get(&d.pc) != same.as_ref() {
                uc.get_data_mut().code.intercepts.remove(&d.pc);
            }
            continue;
        };
        if uc.get_data().code.intercepts.get(&d.pc) == Some(&i) {
            continue;
        }
        uc.get_data_mut().code.intercepts.insert(d.pc, i);
        sites.push(d.pc);
    }
    !sites.is_empty() && crate::machine::code::hookpages::hook_all(uc, &sites)
}

/// At a block's entry: whether the singles it reads before writing are all
/// boxed. If one is not, its readers get their hooks (fp.rs then reads the
/// canonical NaN there), and `smc.fresh` asks for the block to be
/// translated again when any hook is new.
pub(in crate::machine) fn check_entry<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    block: &crate::machine::code::block::Block<O::BlockData>,
) {
    let Some(flow) = block.fp.as_ref() else {
        return;
    };
    if flow.live_in == 0 || flow.slow.get() {
        return;
    }
    if all_boxed(uc, flow.live_in) {
        return;
    }
    flow.slow.set(true);
    for d in &block.insns {
        if flow.entry_readers.binary_search(&d.pc).is_ok()
            && let Some(i) = d.insn
        {
            uc.get_data_mut().code.intercepts.insert(d.pc, i);
        }
    }
    if crate::machine::code::hookpages::hook_all(uc, &flow.entry_readers) {
        uc.get_data_mut().code.smc.fresh = Some((block.start, block.end.max(block.start + 1)));
    }
}

//! Snapshot variants in a scenario: loading them, the cores they can run
//! on, and what a scenario of real kernels gets by default.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_spanned::Spanned;

use super::super::{Locator, ScenarioError, Variant, dto};
use super::load_elf;
use crate::cost::Profile;
use crate::machine::{Program, ResumeState};

/// A variant's own guest: its ELF, or its snapshot (with the hart state).
pub(super) fn variant_program(
    loc: &Locator<'_>,
    base: &Path,
    v: &dto::VariantDto,
    elfs: &mut Vec<(PathBuf, Rc<Program>)>,
    snaps: &mut Vec<(PathBuf, Rc<Program>, Rc<ResumeState>)>,
) -> Result<(Rc<Program>, Option<Rc<ResumeState>>), ScenarioError> {
    match (&v.elf, &v.snapshot) {
        (Some(e), None) => {
            if let Some(k) = v.vmlinux.as_ref().or(v.kernel_src.as_ref()) {
                return Err(loc.span(k, "vmlinux and kernel_src go with snapshot, not elf"));
            }
            Ok((load_elf(loc, base, e, elfs)?, None))
        }
        (Some(e), Some(_)) => Err(loc.span(e, "a variant names an elf or a snapshot, not both")),
        (None, Some(s)) => {
            let dir = base.join(s.get_ref());
            if let Some((_, p, r)) = snaps.iter().find(|(d, _, _)| *d == dir) {
                return Ok((p.clone(), Some(r.clone())));
            }
            let vmlinux = v.vmlinux.as_ref().map(|p| base.join(p.get_ref()));
            let src = v.kernel_src.as_ref().map(|p| base.join(p.get_ref()));
            if let (Some(k), Some(d)) = (&v.kernel_src, &src)
                && !d.is_dir()
            {
                return Err(loc.span(k, format!("kernel_src {}: not a directory", d.display())));
            }
            let l = crate::snapshot::variant::load(&dir, vmlinux.as_deref(), src.as_deref())
                .map_err(|e| match (&v.vmlinux, e.in_vmlinux()) {
                    (Some(k), true) => loc.span(k, e.to_string()),
                    _ => loc.span(s, e.to_string()),
                })?;
            let (p, r) = (Rc::new(l.program), Rc::new(l.resume));
            snaps.push((dir, p.clone(), r.clone()));
            Ok((p, Some(r)))
        }
        (None, None) => Err(loc.span(&v.name, "this variant names no guest")),
    }
}

/// A snapshot with vector state runs only on a core with V 1.0 at the
/// snapshot's VLEN (the snapshot records its VLEN, and a profile with
/// another is refused): the variant's own `core`, else every `cores` entry.
pub(super) fn check_vector_cores(
    loc: &Locator<'_>,
    f: &dto::ScenarioFile,
    variants: &[Variant],
    cores: &[Rc<Profile>],
) -> Result<(), ScenarioError> {
    let no_cores = Vec::new();
    let core_names = f.cores.as_ref().map_or(&no_cores, |c| c.get_ref());
    for (v, dv) in variants.iter().zip(f.variants.get_ref()) {
        let Some(vlen) = v
            .resume
            .as_ref()
            .and_then(|r| r.vector.as_ref())
            .map(|x| x.vlen)
        else {
            continue;
        };
        let applies: Vec<(&Rc<Profile>, &Spanned<String>)> = match (&v.core, &dv.core) {
            (Some(p), Some(span)) => vec![(p, span)],
            _ => cores.iter().zip(core_names).collect(),
        };
        for (p, span) in applies {
            let has = p.vector.present.value && p.vector_isa == "v1.0";
            if has && p.vector.vlen.value == vlen {
                continue;
            }
            let msg = if has {
                format!(
                    "core '{}' has VLEN {}, but variant '{}' resumes from a snapshot taken at VLEN {vlen}: use a core with VLEN {vlen}, or take the snapshot again with `trapscope snapshot --core {}`",
                    p.name, p.vector.vlen.value, v.name, p.name
                )
            } else {
                format!(
                    "core '{}' has no V 1.0 unit, but variant '{}' resumes from a snapshot with vector state (VLEN {vlen}): use a core with V at VLEN {vlen}",
                    p.name, v.name
                )
            };
            return Err(loc.span(span, msg));
        }
    }
    Ok(())
}

/// The top of the loop of trapscope's own init programs (assets/init/).
pub const INIT_LOOP: &str = "init_loop";
/// Warm-up and timed iterations of a snapshot's loop when [measure] is absent.
pub const DEFAULT_COUNT: (u64, u64) = (10, 100);

/// A real kernel's phases, by the functions of its trap paths (Linux 6.x,
/// generic entry): the trap entry in entry.S, the C handler of a syscall,
/// a page fault or an interrupt and what it calls, signal delivery on the
/// way out, the scheduler when a task blocks, and the way out. Phases
/// nest: the innermost phase function on the call stack names an
/// instruction's phase (a signal delivered from syscall_exit_to_user_mode
/// is `signal`, a switch inside a read's wait is `schedule`). Those the
/// vmlinux lacks are left out.
pub(super) fn kernel_phases(p: &Program) -> Vec<(String, Vec<String>)> {
    [
        ("entry", &["handle_exception"][..]),
        ("syscall", &["do_trap_ecall_u"][..]),
        ("fault", &["do_page_fault"][..]),
        ("irq", &["do_irq"][..]),
        ("signal", &["arch_do_signal_or_restart"][..]),
        ("schedule", &["__schedule"][..]),
        (
            "exit",
            &["syscall_exit_to_user_mode", "ret_from_exception"][..],
        ),
    ]
    .into_iter()
    .map(|(name, syms)| {
        let present = syms.iter().filter(|s| p.symbol(s).is_some());
        (name.to_string(), present.map(|s| s.to_string()).collect())
    })
    .filter(|(_, syms): &(String, Vec<String>)| !syms.is_empty())
    .collect()
}

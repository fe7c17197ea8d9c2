//! A vector kernel's review takes one snapshot per VLEN: a hart's VLEN is
//! fixed when QEMU boots it (and the kernel sizes its vector state by it),
//! so each core with V 1.0 runs the snapshot taken at its own VLEN, and the
//! cores without V a snapshot taken without V. A kernel without V is one
//! group, as before.

use crate::cost::Profile;

/// A VLEN (None: no V) and the cores that run its snapshots.
#[derive(Debug, PartialEq, Eq)]
pub struct Group {
    pub vlen: Option<u32>,
    pub cores: Vec<String>,
}

/// The VLEN a core's snapshot needs on a vector kernel: its V 1.0 unit's.
fn vlen_of(p: &Profile) -> Option<u32> {
    (p.vector.present.value && p.vector_isa == "v1.0").then_some(p.vector.vlen.value)
}

/// The groups of `cores` (in their order, the no-V group first): one for a
/// kernel without V; per VLEN for one with V. `only`: `--vlen`, keeping
/// that VLEN's group alone.
pub fn groups(
    cores: &[String],
    vector_kernel: bool,
    only: Option<u32>,
) -> anyhow::Result<Vec<Group>> {
    if !vector_kernel {
        if let Some(v) = only {
            anyhow::bail!(
                "--vlen {v}: neither kernel has V (no riscv_v_first_use_handler in its vmlinux: CONFIG_RISCV_ISA_V is off)"
            );
        }
        return Ok(vec![Group {
            vlen: None,
            cores: cores.to_vec(),
        }]);
    }
    let mut out: Vec<Group> = Vec::new();
    for c in cores {
        let vlen = vlen_of(&Profile::find(c).map_err(anyhow::Error::msg)?);
        if only.is_some() && vlen != only {
            tell!(
                "trapscope: review: {c}: {}, not VLEN {}: left out (--vlen)",
                vlen.map_or("no V 1.0".to_string(), |v| format!("VLEN {v}")),
                only.unwrap_or(0)
            );
            continue;
        }
        match out.iter_mut().find(|g| g.vlen == vlen) {
            Some(g) => g.cores.push(c.clone()),
            None => out.push(Group {
                vlen,
                cores: vec![c.clone()],
            }),
        }
    }
    out.sort_by_key(|g| g.vlen);
    if out.is_empty() {
        anyhow::bail!(
            "--vlen {}: none of the cores asked for has V 1.0 at that VLEN",
            only.unwrap_or(0)
        );
    }
    Ok(out)
}

/// Whether a vmlinux's symbols hold the kernel's V support
/// (`riscv_v_first_use_handler`, built with CONFIG_RISCV_ISA_V).
pub fn has_v(vmlinux: &[u8]) -> bool {
    use object::{Object, ObjectSymbol};
    object::File::parse(vmlinux).is_ok_and(|f| {
        f.symbols()
            .any(|s| s.name() == Ok("riscv_v_first_use_handler"))
    })
}

/// A group's heading when a review has more than one.
pub fn heading(g: &Group) -> String {
    match g.vlen {
        Some(v) => format!("V at VLEN {v} ({})", g.cores.join(", ")),
        None => format!("without V ({})", g.cores.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_vector_kernel_gets_a_group_per_vlen() {
        let cores = names(&["u74", "x60", "c910", "x280"]);
        let g = groups(&cores, true, None).unwrap();
        // The shipped profiles: X60 V 1.0 at VLEN 256, X280 at 512.
        assert_eq!(
            g,
            vec![
                Group {
                    vlen: None,
                    cores: names(&["u74", "c910"])
                },
                Group {
                    vlen: Some(256),
                    cores: names(&["x60"])
                },
                Group {
                    vlen: Some(512),
                    cores: names(&["x280"])
                },
            ]
        );
        let one = groups(&cores, true, Some(512)).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].cores, names(&["x280"]));
        assert!(groups(&cores, true, Some(128)).is_err());
    }

    #[test]
    fn a_kernel_without_v_is_one_group() {
        let cores = names(&["u74", "x60"]);
        let g = groups(&cores, false, None).unwrap();
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].vlen, None);
        let e = groups(&cores, false, Some(256)).unwrap_err().to_string();
        assert!(e.contains("CONFIG_RISCV_ISA_V"), "{e}");
    }
}

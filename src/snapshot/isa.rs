//! Which of a hart's extensions trapscope cannot run, from the device
//! tree's `riscv,isa` string (ISA manual, "ISA Extension Naming
//! Conventions": the base, single-letter extensions, then multi-letter ones
//! separated by underscores, each with an optional version `2p1`) and its
//! `riscv,isa-extensions` list.

use super::fdt::CpuIsa;

/// Extensions trapscope runs, lowercase. Besides i m a f d c and the S and
/// U modes: Zicsr and Zifencei (unicorn runs them natively); Zicntr, because
/// trapscope intercepts cycle/time/instret (machine/csr.rs) and answers from
/// the model; Zmmul, Zaamo, Zalrsc, Zca and Zcd, which are parts of M, A and
/// C (with D) that newer QEMUs also list by name; Sdtrig, the debug trigger
/// trapscope implements (machine/trigger.rs). Not Zihpm: trapscope has no
/// programmable counters (`hpmcounter3..31`). And the names that add no
/// instruction but state what the platform's main memory does (the
/// RVA profiles' Ziccamoa, Ziccif, Zicclsm, Ziccrse and Ssccptr, which
/// QEMU 10 lists): trapscope's RAM takes AMOs and LR/SC, is fetched
/// atomically per instruction, completes misaligned loads and stores, and
/// holds the page tables trapscope walks. Under privileged spec 1.12 QEMU 10
/// also lists the profiles' other named features, which state what the
/// hart already does: Zic64b and Za64rs (64-byte cache blocks and
/// reservation sets: no instruction here depends on them, Zicbo* is off),
/// Sscounterenw, Sstvala, Sstvecd and Ssu64xl (writable scounteren bits,
/// stval written for faults, direct-mode stvec, UXL = 64: trapscope does
/// each), and the Sh* ones, which constrain the H extension (off).
const SUPPORTED: &[&str] = &[
    "i",
    "m",
    "a",
    "f",
    "d",
    "c",
    "s",
    "u",
    "zicsr",
    "zifencei",
    "zicntr",
    "zmmul",
    "zaamo",
    "zalrsc",
    "zca",
    "zcd",
    "sdtrig",
    "ziccamoa",
    "ziccif",
    "zicclsm",
    "ziccrse",
    "ssccptr",
    "zic64b",
    "za64rs",
    "sscounterenw",
    "sstvala",
    "sstvecd",
    "ssu64xl",
    "shcounterenw",
    "shgatpa",
    "shtvala",
    "shvsatpa",
    "shvstvala",
    "shvstvecd",
];

/// Supported with V only: V itself and what it implies (the V spec's
/// "Standard Vector Extensions": Zve*, Zvl*b).
fn vector_part(ext: &str) -> bool {
    ext == "v"
        || ext.starts_with("zve")
        || ext
            .strip_prefix("zvl")
            .and_then(|r| r.strip_suffix('b'))
            .is_some_and(|n| n.parse::<u32>().is_ok())
}

/// The extensions of `isa` trapscope lacks, by name, in the order they
/// appear (the `riscv,isa` string first, then `riscv,isa-extensions`); a
/// base other than rv64 is named too. `vector`: the snapshot runs with
/// trapscope's V unit.
pub fn unsupported_extensions(isa: &CpuIsa, vector: bool) -> Vec<String> {
    let mut names = parse(&isa.isa);
    if let Some(list) = &isa.extensions {
        // The binding's list holds bare names (no versions).
        names.extend(list.iter().map(|e| e.to_ascii_lowercase()));
    }
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let ok = SUPPORTED.contains(&n.as_str()) || (vector && vector_part(&n));
        if !ok && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Whether `isa` names extension `name` (lowercase, e.g. `v`), in its
/// `riscv,isa` string or its extension list. `g` counts as its parts.
pub fn has_extension(isa: &CpuIsa, name: &str) -> bool {
    parse(&isa.isa).iter().any(|e| e == name)
        || isa
            .extensions
            .iter()
            .flatten()
            .any(|e| e.eq_ignore_ascii_case(name))
}

/// `2p1`, `2` or nothing at the end of an extension name.
fn strip_version(name: &str) -> &str {
    let body = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let minor_of = body
        .strip_suffix('p')
        .filter(|b| b.ends_with(|c: char| c.is_ascii_digit()));
    match minor_of {
        Some(b) if body.len() < name.len() => b.trim_end_matches(|c: char| c.is_ascii_digit()),
        _ => body,
    }
}

/// Every extension named in a `riscv,isa` string, lowercase; `g` expands to
/// `imafd_zicsr_zifencei` (ISA manual, "G" in the naming chapter).
fn parse(isa: &str) -> Vec<String> {
    let isa = isa.trim().to_ascii_lowercase();
    let mut out = Vec::new();
    let (singles, multi) = match isa.strip_prefix("rv64") {
        Some(rest) => match rest.find('_') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, ""),
        },
        None => {
            let digits: String = isa
                .chars()
                .skip(2)
                .take_while(char::is_ascii_digit)
                .collect();
            out.push(match () {
                _ if isa.is_empty() => "(empty riscv,isa)".to_string(),
                _ if isa.starts_with("rv") && !digits.is_empty() => format!("rv{digits}"),
                _ => isa.clone(),
            });
            return out;
        }
    };
    let mut chars = singles.char_indices().peekable();
    let mut rest_multi = String::new();
    while let Some((i, c)) = chars.next() {
        if matches!(c, 'z' | 'x') {
            // A multi-letter extension written without its underscore (`s`
            // stays a letter: older strings say `rv64imafdcsu`).
            rest_multi = singles[i..].to_string();
            break;
        }
        if c == 'g' {
            out.extend(["i", "m", "a", "f", "d", "zicsr", "zifencei"].map(String::from));
        } else if c.is_ascii_alphabetic() {
            out.push(c.to_string());
        } else {
            // A version number after a letter: digits, then `p` and digits.
            continue;
        }
        // Skip this letter's version (`i2p1`), leaving a following extension `p` alone.
        while chars.peek().is_some_and(|(_, n)| n.is_ascii_digit()) {
            chars.next();
            if let Some(&(j, 'p')) = chars.peek()
                && singles[j + 1..].starts_with(|n: char| n.is_ascii_digit())
            {
                chars.next();
            }
        }
    }
    for m in rest_multi.split('_').chain(multi.split('_')) {
        let m = strip_version(m);
        if !m.is_empty() {
            out.push(m.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn isa(s: &str) -> CpuIsa {
        CpuIsa {
            isa: s.into(),
            extensions: None,
            mmu_type: None,
        }
    }

    #[test]
    fn qemu_7_2_default_rv64_lacks_seven() {
        // QEMU 7.2's `-cpu rv64` with no options (read from its device tree).
        let got = unsupported_extensions(
            &isa("rv64imafdch_zicsr_zifencei_zihintpause_zba_zbb_zbc_zbs_sstc"),
            false,
        );
        assert_eq!(
            got,
            ["h", "zihintpause", "zba", "zbb", "zbc", "zbs", "sstc"]
        );
    }

    #[test]
    fn the_pinned_cpu_is_fully_supported() {
        assert!(unsupported_extensions(&isa("rv64imafdc_zicsr_zifencei"), false).is_empty());
        assert_eq!(
            unsupported_extensions(&isa("rv64imafdcv_zicsr_zifencei"), false),
            ["v"]
        );
        assert!(unsupported_extensions(&isa("rv64imafdcv_zicsr_zifencei"), true).is_empty());
        // What QEMU 10.0.2 gives for the pinned CPU, without and with V
        // (the named features state what memory and the hart already do).
        assert!(
            unsupported_extensions(
                &isa("rv64imafdc_ziccamoa_ziccif_zicclsm_ziccrse_zicntr_zicsr_zifencei_ssccptr"),
                false
            )
            .is_empty()
        );
        assert!(
            unsupported_extensions(
                &isa("rv64imafdcv_zic64b_ziccamoa_ziccif_zicclsm_ziccrse_zicntr_zicsr_zifencei_zmmul_za64rs_zaamo_zalrsc_zca_zcd_zve32f_zve32x_zve64f_zve64d_zve64x_shcounterenw_shgatpa_shtvala_shvsatpa_shvstvala_shvstvecd_ssccptr_sscounterenw_sstvala_sstvecd_ssu64xl"),
                true
            )
            .is_empty()
        );
        // QEMU 8.2's `rv64i,sv39=true,g=true,c=true,s=true,u=true` (its commit message).
        let bare = isa("rv64imafdc_zicntr_zicsr_zifencei_zihpm_zca_zcd");
        assert_eq!(unsupported_extensions(&bare, false), ["zihpm"]);
    }

    #[test]
    fn g_versions_case_and_missing_underscores() {
        assert!(unsupported_extensions(&isa("RV64GC"), false).is_empty());
        assert!(
            unsupported_extensions(
                &isa("rv64i2p1m2p0a2p1f2p2d2p2c2p0_zicsr2p0_zifencei2p0"),
                false
            )
            .is_empty()
        );
        assert_eq!(
            unsupported_extensions(&isa("rv64imafdczicsr_zba1p0"), false),
            ["zba"]
        );
        assert_eq!(
            unsupported_extensions(&isa("rv64imafdcp_zicsr"), false),
            ["p"]
        );
        assert_eq!(
            unsupported_extensions(&isa("rv64ima2p1p_zicsr"), false),
            ["p"]
        );
        assert!(unsupported_extensions(&isa("rv64imafdcsu"), false).is_empty());
    }

    #[test]
    fn asking_for_one_extension() {
        assert!(has_extension(&isa("rv64imafdcv_zicsr"), "v"));
        assert!(!has_extension(&isa("rv64imafdc_zicsr_zve64d"), "v"));
        assert!(has_extension(&isa("rv64imafdc_zicsr_zve64d"), "zve64d"));
        assert!(has_extension(&isa("rv64gc"), "zifencei"));
        let mut i = isa("rv64i");
        i.extensions = Some(vec!["V".into()]);
        assert!(has_extension(&i, "v"));
    }

    #[test]
    fn other_bases_are_named() {
        assert_eq!(unsupported_extensions(&isa("rv32imac"), false), ["rv32"]);
        assert_eq!(unsupported_extensions(&isa("rv128i"), false), ["rv128"]);
        assert_eq!(unsupported_extensions(&isa("rv64e"), false), ["e"]);
        assert_eq!(
            unsupported_extensions(&isa(""), false),
            ["(empty riscv,isa)"]
        );
    }

    #[test]
    fn extension_list_is_checked_too() {
        let mut i = isa("rv64imafdcv_zicsr");
        i.extensions = Some(
            [
                "i", "m", "v", "zve64d", "zvl128b", "Zicbom", "zicsr", "zvlxb",
            ]
            .map(String::from)
            .to_vec(),
        );
        assert_eq!(unsupported_extensions(&i, true), ["zicbom", "zvlxb"]);
        assert_eq!(
            unsupported_extensions(&i, false),
            ["v", "zve64d", "zvl128b", "zicbom", "zvlxb"]
        );
    }
}

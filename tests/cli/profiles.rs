//! The shipped core profiles (assets/cores/*.toml) load, carry the values
//! REFERENCE.md gives with their sources, keep its "unverified" marks, and
//! never pass off trap or CSR costs as sourced. Malformed profiles fail with
//! `file:line:col`.

use std::path::{Path, PathBuf};

use trapscope::cost::{Basis, Param, Profile};

const CORES: [&str; 6] = ["c910", "generic", "p8700", "u74", "x280", "x60"];

fn core(name: &str) -> Profile {
    Profile::find(name).unwrap_or_else(|e| panic!("profile {name}: {e}"))
}

fn fixture(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cores")
        .join(file)
}

/// The parameter's value, after checking that it cites a source.
fn sourced<T: Copy + std::fmt::Debug>(what: &str, p: &Param<T>) -> T {
    assert!(
        matches!(p.basis, Basis::Source(_)),
        "{what} = {:?} should cite a source, has {:?}",
        p.value,
        p.basis
    );
    p.value
}

fn is_assumption<T>(p: &Param<T>) -> bool {
    matches!(p.basis, Basis::Assumption(_))
}

fn basis_text<T>(p: &Param<T>) -> &str {
    match &p.basis {
        Basis::Source(s) | Basis::Assumption(s) => s,
    }
}

#[test]
fn all_six_profiles_load_by_name_and_by_path() {
    let names = Profile::names();
    for name in CORES {
        assert!(
            names.iter().any(|n| n == name),
            "{name} missing from {names:?}"
        );
        let p = core(name);
        assert_eq!(p.name, name, "`name` must equal the file stem");
        assert!(!p.title.is_empty(), "{name}: empty title");
        assert!(!p.board.is_empty(), "{name}: empty board");
        let by_path = Profile::load(&Profile::dir().join(format!("{name}.toml")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(by_path, p);
    }
}

#[test]
fn profiles_are_internally_consistent() {
    for name in CORES {
        let p = core(name);
        let v = &p.vector;
        if v.present.value {
            assert!(
                v.vlen.value > 0 && v.dlen.value > 0,
                "{name}: V without VLEN/DLEN"
            );
            assert_eq!(
                v.vlen.value % v.dlen.value,
                0,
                "{name}: VLEN not a multiple of DLEN"
            );
        } else {
            assert_eq!(
                (v.vlen.value, v.dlen.value, v.vsetvl.value),
                (0, 0, 0),
                "{name}: no V, so no vector costs"
            );
        }
        for (field, entries) in [
            ("bht_entries", p.core.bht_entries.value),
            ("btb_entries", p.core.btb_entries.value),
        ] {
            assert!(
                entries.is_power_of_two(),
                "{name}: {field} = {entries} is not a power of two"
            );
        }
        // An out-of-order core has a window; an in-order one has none and
        // retires what it issues.
        if p.core.out_of_order.value {
            assert!(p.core.window.value > 0, "{name}: OoO without a window");
        } else {
            assert_eq!(p.core.window.value, 0, "{name}: in-order with a window");
        }
        assert!(
            p.core.frontend_stages.value < p.core.pipeline_depth.value,
            "{name}: the front end is part of the pipeline"
        );
    }
}

#[test]
fn u74_values_are_reference_md_figures() {
    let p = core("u74");
    // REFERENCE.md Core facts, row "SiFive U74 (JH7110)": 1.5 GHz top OPP (jh7110.dtsi).
    assert_eq!(sourced("u74 clock_ghz", &p.core.clock_ghz), 1.5);
    // Same row: dual-issue, in-order (llvm RISCVSchedSiFive7.td).
    assert_eq!(sourced("u74 issue_width", &p.core.issue_width), 2);
    assert!(!sourced("u74 out_of_order", &p.core.out_of_order));
    // Same row: LLVM SiFive7 model, load latency 3.
    assert_eq!(sourced("u74 load", &p.latency.load), 3);
    // Same row: LLVM SiFive7 model, mul 3.
    assert_eq!(sourced("u74 mul", &p.latency.mul), 3);
    // Same row: LLVM SiFive7 model, div 66.
    assert_eq!(sourced("u74 div", &p.latency.div), 66);
    // Same row: RAS 6 or 12 entries (sources disagree).
    assert!([6, 12].contains(&p.core.ras_depth.value));
    // Timebase: jh7110 DT timebase-frequency = <4000000> (brief; not a REFERENCE.md row).
    assert_eq!(sourced("u74 timebase_hz", &p.core.timebase_hz), 4_000_000.0);
    // No V on the JH7110's U74.
    assert!(!p.vector.present.value);
}

#[test]
fn c910_values_are_reference_md_figures() {
    let p = core("c910");
    // REFERENCE.md Core facts, row "T-Head C910 (TH1520)": 1.848 GHz top OPP (TH1520 DT OPP table).
    assert_eq!(sourced("c910 clock_ghz", &p.core.clock_ghz), 1.848);
    // Same row: out-of-order, multi-issue.
    assert!(sourced("c910 out_of_order", &p.core.out_of_order));
    assert!(p.core.issue_width.value > 1);
    // Same row: RAS 12 speculative entries (openc910 ct_ifu_ras.v).
    assert_eq!(sourced("c910 ras_depth", &p.core.ras_depth), 12);
    // Same row: XTheadVector (RVV 0.7.1), VLEN 128.
    assert!(sourced("c910 vector.present", &p.vector.present));
    assert_eq!(sourced("c910 vlen", &p.vector.vlen), 128);
    assert!(basis_text(&p.vector.vlen).contains("XTheadVector"));
    assert!(basis_text(&p.vector.present).contains("XTheadVector"));
    // TH1520 DT timebase-frequency = <3000000> (brief; not a REFERENCE.md row).
    assert_eq!(
        sourced("c910 timebase_hz", &p.core.timebase_hz),
        3_000_000.0
    );
}

#[test]
fn x280_values_are_reference_md_figures() {
    let p = core("x280");
    // REFERENCE.md Core facts, row "SiFive X280 (Blackhole)": U7-derived, dual-issue, in-order.
    assert_eq!(sourced("x280 issue_width", &p.core.issue_width), 2);
    assert!(!sourced("x280 out_of_order", &p.core.out_of_order));
    // Same row: VLEN 512, DLEN 256 (llvm RISCVProcessors.td + RISCVSchedSiFive7.td).
    assert!(sourced("x280 vector.present", &p.vector.present));
    assert_eq!(sourced("x280 vlen", &p.vector.vlen), 512);
    assert_eq!(sourced("x280 dlen", &p.vector.dlen), 256);
    // Same row: vsetvli latency 3.
    assert_eq!(sourced("x280 vsetvl", &p.vector.vsetvl), 3);
    // Same row: whole-register load/store of n regs occupies 1 + 2n.
    assert_eq!(sourced("x280 whole_reg_base", &p.vector.whole_reg_base), 1);
    assert_eq!(
        sourced("x280 whole_reg_per_reg", &p.vector.whole_reg_per_reg),
        2
    );
    // Same row: the SiFive7 model, so the U74's scalar figures (row "SiFive U74").
    let u74 = core("u74");
    assert_eq!(sourced("x280 load", &p.latency.load), 3);
    assert_eq!(sourced("x280 mul", &p.latency.mul), 3);
    assert_eq!(sourced("x280 div", &p.latency.div), 66);
    let pipes = |p: &Profile| -> Vec<String> { p.issue.rows().into_iter().map(|r| r.1).collect() };
    assert_eq!(pipes(&p), pipes(&u74), "the same SiFive7 pipes");
}

#[test]
fn p8700_values_are_reference_md_figures() {
    let p = core("p8700");
    // REFERENCE.md Core facts, row "MIPS P8700": out-of-order, 4-wide decode.
    assert!(sourced("p8700 out_of_order", &p.core.out_of_order));
    assert_eq!(p.core.issue_width.value, 4);
    // Same row: LLVM mispredict penalty 8 (llvm RISCVSchedMIPSP8700.td).
    assert_eq!(
        sourced("p8700 mispredict_branch", &p.core.mispredict_branch),
        8
    );
    // Same row: LLVM load 4.
    assert_eq!(sourced("p8700 load", &p.latency.load), 4);
    // Same row: LLVM ALU 1.
    assert_eq!(sourced("p8700 alu", &p.latency.alu), 1);
    // Same row: LLVM mul 4.
    assert_eq!(sourced("p8700 mul", &p.latency.mul), 4);
    // Same row: LLVM div 7 and jal/jalr 1, in LLVM's later form of the model
    // (PR #123865 removed a duplicate WriteJalr; the first form had div 8,
    // jal/jalr 2).
    assert_eq!(sourced("p8700 div", &p.latency.div), 7);
    assert_eq!(sourced("p8700 jump_link", &p.latency.jump_link), 1);
    // Same row: no V.
    assert!(!sourced("p8700 vector.present", &p.vector.present));
    assert_eq!(p.vector.vlen.value, 0);
}

#[test]
fn x60_values_are_reference_md_figures() {
    let p = core("x60");
    // REFERENCE.md Core facts, row "SpacemiT X60 (K1)": 1.6-2.0 GHz.
    let ghz = p.core.clock_ghz.value;
    assert!(
        (1.6..=2.0).contains(&ghz),
        "x60 clock {ghz} outside 1.6-2.0 GHz"
    );
    // Same row: dual-issue in-order (llvm RISCVSchedSpacemitX60.td).
    assert_eq!(sourced("x60 issue_width", &p.core.issue_width), 2);
    assert!(!sourced("x60 out_of_order", &p.core.out_of_order));
    // Same row: mispredict 9.
    assert_eq!(
        sourced("x60 mispredict_branch", &p.core.mispredict_branch),
        9
    );
    // Same row: AMO 12.
    assert_eq!(sourced("x60 amo", &p.latency.amo), 12);
    // Same row: LR/SC 8.
    assert_eq!(sourced("x60 lr", &p.latency.lr), 8);
    assert_eq!(sourced("x60 sc", &p.latency.sc), 8);
    // Same row: VLEN 256, DLEN 128.
    assert!(sourced("x60 vector.present", &p.vector.present));
    assert_eq!(sourced("x60 vlen", &p.vector.vlen), 256);
    assert_eq!(sourced("x60 dlen", &p.vector.dlen), 128);
}

#[test]
fn values_reference_md_calls_unverified_stay_unverified() {
    let cases = [
        // Row "T-Head C910": mispredict penalty unverified.
        ("c910", "mispredict_branch"),
        // Row "T-Head C910": clock of the measurement unverified.
        ("c910", "clock_ghz"),
        // Row "SiFive X280": clock unverified.
        ("x280", "clock_ghz"),
        // Row "MIPS P8700": clock, depth, RAS unverified (depth has no field;
        // the depth-derived trap/refill costs are assumptions).
        ("p8700", "clock_ghz"),
        ("p8700", "ras_depth"),
        // Row "SiFive U74": the return penalty is read from the U7 manual's
        // indirect-jump figure, still unverified as such.
        ("u74", "mispredict_return"),
    ];
    for (name, field) in cases {
        let unverified = core(name).unverified();
        assert!(
            unverified.contains(&field),
            "{name}.{field} must be marked unverified (unverified: {unverified:?})"
        );
    }
    // The U74's RAS depth is the U7 core manual's, which settled the
    // disagreement between gem5's two figures.
    let u74 = core("u74");
    assert!(!u74.core.ras_depth.unverified);
    assert!(basis_text(&u74.core.ras_depth).contains("U7 core manual"));
}

#[test]
fn trap_and_csr_costs_are_assumptions_everywhere() {
    // REFERENCE.md: no vendor publishes a trap's cost, so those values are
    // assumptions and say so; the one published CSR-flush cost is the U7
    // core manual's (the U74's `csr_flush` cites it), every other is an
    // assumption too.
    for name in CORES {
        let p = core(name);
        let params = [
            ("trap_entry", &p.core.trap_entry),
            ("trap_return", &p.core.trap_return),
            ("csr_flush", &p.serialise.csr_flush),
        ];
        // A value derived from the vendor's own RTL (the C910's) may say so as
        // its source, but then it is a derivation, and unverified: the RTL
        // is not the silicon measured.
        for (field, param) in params {
            let manual = field == "csr_flush"
                && name == "u74"
                && basis_text(param).starts_with("the U7 core manual")
                && !param.unverified;
            assert!(
                manual
                    || is_assumption(param)
                    || (basis_text(param).starts_with("derived from the RTL") && param.unverified),
                "{name}.{field} must be an assumption: {:?}",
                param.basis
            );
        }
    }
}

#[test]
fn generic_core_is_all_assumptions() {
    let p = core("generic");
    for (field, value, basis, _) in p.rows() {
        assert!(
            matches!(basis, Basis::Assumption(_)),
            "generic.{field} = {value} should be an assumption, has {basis:?}"
        );
    }
    assert_eq!(p.core.issue_width.value, 1);
    assert!(!p.core.out_of_order.value);
}

#[test]
fn a_value_without_a_basis_names_file_line_and_column() {
    let path = fixture("no_basis.toml");
    let err = Profile::load(&path).expect_err("must not load").to_string();
    // Line 47 is `mul = { value = 3 }`; the value starts at column 7.
    assert!(err.contains("no_basis.toml:47:7:"), "{err}");
    assert!(
        err.contains("'latency.mul' needs a `source` or an `assumption`"),
        "{err}"
    );
    // The same through `find` with a path, as the CLI's --core takes it.
    let err = Profile::find("tests/fixtures/cores/no_basis.toml")
        .expect_err("must not load")
        .to_string();
    assert!(
        err.contains("tests/fixtures/cores/no_basis.toml:47:7:"),
        "{err}"
    );
}

#[test]
fn a_value_with_two_bases_names_file_line_and_column() {
    let err = Profile::load(&fixture("both_bases.toml"))
        .expect_err("must not load")
        .to_string();
    // Line 17 is `ras_depth = { value = 8, source = ..., assumption = ... }`; column 13.
    assert!(err.contains("both_bases.toml:17:13:"), "{err}");
    assert!(
        err.contains("'core.ras_depth' has both a source and an assumption"),
        "{err}"
    );
}

#[test]
fn a_toml_syntax_error_names_file_line_and_column() {
    let err = Profile::load(&fixture("syntax_error.toml"))
        .expect_err("must not load")
        .to_string();
    // Line 6 opens an inline table `clock_ghz = { value = 1.0, assumption = "round"`
    // (47 characters) and ends without `}`: TOML reports the end of that line.
    assert!(err.contains("syntax_error.toml:6:48:"), "{err}");
}

#[test]
fn an_unknown_core_lists_the_known_ones() {
    let err = Profile::find("nope").expect_err("no such core").to_string();
    assert!(err.contains("unknown core 'nope'"), "{err}");
    for name in CORES {
        assert!(err.contains(name), "{name} missing from: {err}");
    }
}

//! PT_LOAD segments too large for the machine, or outside the address
//! space, are refused at once with the program header named; large ones
//! within the limit are mapped as regions (never page by page).

use crate::common;

use std::time::Duration;

use common::{Load, SPIN, elf, fails_one_line, scratch, trapscope_within, write};

const BASE: u64 = 0x8000_0000;
const SECOND: Duration = Duration::from_secs(1);

#[test]
fn a_one_tib_segment_is_refused_naming_file_header_address_and_size() {
    let dir = scratch("huge-tib");
    let f = write(
        &dir,
        "tib.elf",
        &elf(BASE, &[Load::code(BASE, 1 << 40, &SPIN)]),
    );
    let out = trapscope_within(&["elf", &f], SECOND);
    fails_one_line(
        &out,
        2,
        &[
            "tib.elf",
            "program header 0",
            "0x80000000",
            "1 TiB",
            "limit of 4 GiB",
            "--mem-limit",
        ],
    );
}

#[test]
fn a_segment_of_2_pow_63_minus_1_leaves_the_physical_address_space() {
    let dir = scratch("huge-63");
    let f = write(
        &dir,
        "big.elf",
        &elf(BASE, &[Load::code(BASE, (1 << 63) - 1, &SPIN)]),
    );
    let out = trapscope_within(&["elf", &f], SECOND);
    fails_one_line(
        &out,
        2,
        &[
            "big.elf",
            "program header 0",
            "0x80000000",
            "0x7fffffffffffffff",
            "56-bit physical address space",
        ],
    );
}

#[test]
fn a_segment_that_wraps_the_address_space_is_refused() {
    let dir = scratch("huge-wrap");
    let at = 0xffff_ffff_ffff_f000;
    let f = write(&dir, "wrap.elf", &elf(at, &[Load::code(at, 0x2000, &SPIN)]));
    let out = trapscope_within(&["elf", &f], SECOND);
    fails_one_line(
        &out,
        2,
        &[
            "wrap.elf",
            "program header 0",
            "0xfffffffffffff000",
            "wraps",
        ],
    );
}

#[test]
fn the_header_that_takes_the_total_over_the_limit_is_named() {
    // Two 3 GiB segments: each fits, together they take 6 GiB > 4 GiB.
    let dir = scratch("huge-total");
    let second = BASE + (3 << 30);
    let f = write(
        &dir,
        "two.elf",
        &elf(
            BASE,
            &[
                Load::code(BASE, 3 << 30, &SPIN),
                Load::code(second, 3 << 30, &[]),
            ],
        ),
    );
    let out = trapscope_within(&["elf", &f], SECOND);
    fails_one_line(
        &out,
        2,
        &["two.elf", "program header 1", "0x140000000", "6 GiB"],
    );
    // Raised limit: both load, and the guest runs its `j .` (reported at once
    // as a spin that no interrupt can end, 125).
    let out = trapscope_within(
        &["elf", &f, "--mem-limit", "8G", "--budget", "1000"],
        SECOND,
    );
    fails_one_line(&out, 125, &["spins forever at 0x80000000"]);
}

#[test]
fn a_three_gib_segment_maps_at_once_and_runs() {
    let dir = scratch("huge-3g");
    let f = write(
        &dir,
        "three.elf",
        &elf(BASE, &[Load::code(BASE, 3 << 30, &SPIN)]),
    );
    let out = trapscope_within(&["elf", &f, "--budget", "1000"], SECOND);
    fails_one_line(&out, 125, &["spins forever at 0x80000000"]);
    // A lower limit refuses it.
    let out = trapscope_within(&["elf", &f, "--mem-limit", "1G"], SECOND);
    fails_one_line(
        &out,
        2,
        &["three.elf", "program header 0", "limit of 1 GiB"],
    );
}

#[test]
fn overlapping_and_adjacent_segments_merge() {
    // Code at BASE, a writable segment overlapping its page, and one right
    // after it: all three map (one page shared), and `j .` runs.
    let dir = scratch("huge-merge");
    let data = Load {
        vaddr: BASE + 0x800,
        memsz: 0x1000,
        bytes: vec![1; 16],
        flags: 6,
    };
    let next = Load {
        vaddr: BASE + 0x2000,
        memsz: 0x10_0000,
        bytes: Vec::new(),
        flags: 6,
    };
    let f = write(
        &dir,
        "merge.elf",
        &elf(BASE, &[Load::code(BASE, 0x1000, &SPIN), data, next]),
    );
    let out = trapscope_within(&["elf", &f, "--budget", "100"], SECOND);
    fails_one_line(&out, 125, &["spins forever at 0x80000000"]);
}

#[test]
fn mem_limit_reaches_run_compare_and_check() {
    // The minikernel takes more than 4 KiB: each command refuses it.
    for args in [
        &["run", "scenarios/ras-trap-entry.toml", "--mem-limit", "4K"][..],
        &[
            "compare",
            "scenarios/ras-trap-entry.toml",
            "--mem-limit",
            "4K",
        ],
        &[
            "check",
            "scenarios/ras-trap-entry.toml",
            "--mem-limit",
            "4K",
        ],
    ] {
        let out = trapscope_within(args, Duration::from_secs(10));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("minikernel.elf") && err.contains("limit of 4 KiB"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn many_separate_segments_are_refused_and_many_adjacent_ones_merge() {
    let dir = scratch("huge-many");
    // 300 one-page segments with a page between each: 300 regions, over 256.
    let mut loads = vec![Load::code(BASE, 0x1000, &SPIN)];
    loads.extend((1..300).map(|i| Load::code(BASE + i * 0x2000, 0x1000, &[])));
    let f = write(&dir, "apart.elf", &elf(BASE, &loads));
    let out = trapscope_within(&["elf", &f], SECOND);
    // The 257th region is program header 256's.
    fails_one_line(
        &out,
        2,
        &[
            "apart.elf",
            "program header 256",
            "more than 256 separate memory regions",
        ],
    );
    // 10,000 adjacent pages: one region.
    let mut loads = vec![Load::code(BASE, 0x1000, &SPIN)];
    loads.extend((1..10_000).map(|i| Load::code(BASE + i * 0x1000, 0x1000, &[])));
    let f = write(&dir, "adjacent.elf", &elf(BASE, &loads));
    let out = trapscope_within(&["elf", &f, "--budget", "100"], Duration::from_secs(3));
    // Loaded and ran: its `j .` is reported at once as an endless spin.
    fails_one_line(&out, 125, &["spins forever at 0x80000000"]);
}

#[test]
fn strict_segments_is_accepted_by_every_running_command() {
    let out = trapscope_within(
        &[
            "elf",
            "assets/guest/bad/loop_forever.elf",
            "--strict-segments",
            "--budget",
            "10",
        ],
        SECOND,
    );
    fails_one_line(&out, 124, &["budget of 10"]);
    for args in [
        &[
            "run",
            "tests/fixtures/exit_code.toml",
            "-v",
            "zero",
            "--strict-segments",
        ][..],
        &[
            "check",
            "tests/fixtures/exit_code_expected.toml",
            "--strict-segments",
        ],
    ] {
        let out = trapscope_within(args, Duration::from_secs(10));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // compare runs both variants: `three` exits 3 (exit 1), so it ran.
    let out = trapscope_within(
        &[
            "compare",
            "tests/fixtures/exit_code.toml",
            "--strict-segments",
        ],
        Duration::from_secs(10),
    );
    fails_one_line(&out, 1, &["variant three on generic", "code 3"]);
}

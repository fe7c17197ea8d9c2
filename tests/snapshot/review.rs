//! `trapscope review`: its argument checks (no QEMU needed), and, on
//! trapscope's two minikernels (`--elf`, through the same snapshot, cache
//! and report code as two kernel builds), that its report is exactly what
//! `compare` and `diff` print on the scenario it writes, and that a second
//! run takes both snapshots from the cache.

use crate::common;
use crate::snapshot_util;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use common::{fails_one_line, scratch};

const LIMIT: Duration = Duration::from_secs(300);

fn review_env(args: &[&str], cache: &Path) -> Output {
    let start = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_CACHE_HOME", cache)
        .args(args)
        .output()
        .unwrap();
    assert!(start.elapsed() < LIMIT, "review took {:?}", start.elapsed());
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_directory_without_a_kernel_is_refused_in_one_line() {
    let d = scratch("review-missing");
    let (a, b) = (d.join("a"), d.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let args = ["review", a.to_str().unwrap(), b.to_str().unwrap()];
    fails_one_line(&review_env(&args, &d), 2, &["no vmlinux and no Image"]);
    std::fs::write(a.join("vmlinux"), b"not an elf").unwrap();
    fails_one_line(
        &review_env(&args, &d),
        2,
        &["no arch/riscv/boot/Image and no Image"],
    );
    std::fs::remove_file(a.join("vmlinux")).unwrap();
    std::fs::write(a.join("Image"), b"i").unwrap();
    fails_one_line(&review_env(&args, &d), 2, &["no vmlinux (the build's ELF"]);
    let file = a.join("Image");
    let args = ["review", file.to_str().unwrap(), b.to_str().unwrap()];
    fails_one_line(&review_env(&args, &d), 2, &["not a directory"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_same_build_twice_is_reported_before_booting() {
    if !snapshot_util::binutils_or_skip() {
        return;
    }
    let d = scratch("review-same");
    let (a, b) = (d.join("a"), d.join("b"));
    for side in [&a, &b] {
        std::fs::create_dir_all(side.join("arch/riscv/boot")).unwrap();
        std::fs::write(side.join("arch/riscv/boot/Image"), b"i").unwrap();
        snapshot_util::vmlinux(side, "vmlinux", Some("0123456789abcdef"));
    }
    let args = ["review", a.to_str().unwrap(), b.to_str().unwrap()];
    let out = review_env(&args, &d);
    fails_one_line(&out, 2, &["same build", "build id 0123456789abcdef"]);
    // The check comes before any cache or QEMU: nothing was written.
    assert!(!d.join("trapscope").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn vector_work_on_kernels_without_v_is_refused_before_booting() {
    if !snapshot_util::binutils_or_skip() {
        return;
    }
    let d = scratch("review-vlen");
    let (a, b) = (d.join("a"), d.join("b"));
    for (side, id) in [(&a, "0123456789abcdef"), (&b, "fedcba9876543210")] {
        std::fs::create_dir_all(side.join("arch/riscv/boot")).unwrap();
        std::fs::write(side.join("arch/riscv/boot/Image"), b"i").unwrap();
        // No riscv_v_first_use_handler: built without CONFIG_RISCV_ISA_V.
        snapshot_util::vmlinux(side, "vmlinux", Some(id));
    }
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    fails_one_line(
        &review_env(&["review", a, b, "--vlen", "256"], &d),
        2,
        &["--vlen 256", "CONFIG_RISCV_ISA_V"],
    );
    fails_one_line(
        &review_env(&["review", a, b, "--init", "vector-v1"], &d),
        2,
        &["--init vector-v1", "neither kernel has V"],
    );
    fails_one_line(
        &review_env(&["review", "x", "y", "--init", "nope"], &d),
        2,
        &["--init nope", "pagefault"],
    );
    assert!(!d.join("trapscope").exists(), "nothing cached");
    let _ = std::fs::remove_dir_all(&d);
}

/// `review` of minikernel.elf against minikernel-sv39.elf on the u74,
/// writing its scenario into `dir`.
fn minikernels(dir: &Path, format: &str) -> Output {
    let file = dir.join("r.toml");
    review_env(
        &[
            "review",
            "--elf",
            "assets/guest/minikernel.elf",
            "assets/guest/minikernel-sv39.elf",
            "--ecall-symbol",
            "user_syscall_ecall",
            "--loop-symbol",
            "bench_timed_loop",
            // The minikernel's loop runs 100 times (user.S's
            // knob_iterations): stop at the 2nd, time 20 after 10 warm-up.
            "--at",
            "2",
            "--iterations",
            "20",
            "--core",
            "u74",
            "--format",
            format,
            "--scenario-out",
            file.to_str().unwrap(),
        ],
        dir,
    )
}

fn ok(o: &Output) {
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn the_review_is_compare_then_diff_on_the_scenario_it_wrote() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let d = scratch("review-md");
    let out = minikernels(&d, "md");
    ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("booting for a snapshot").count(), 2, "{err}");
    let file = d.join("r.toml");
    let f = file.to_str().unwrap();
    // The snapshots sit beside the file, not in the cache.
    let toml = std::fs::read_to_string(&file).unwrap();
    assert!(toml.contains("snapshot = \"r.snapshots/before\""), "{toml}");
    assert!(d.join("r.snapshots/after/snapshot.json").is_file());
    let run = |args: &[&str]| {
        let o = review_env(args, &d);
        ok(&o);
        stdout(&o)
    };
    let compare = run(&["compare", f, "--core", "u74", "--format", "md"]);
    let diff = run(&[
        "diff", f, "before", "after", "--core", "u74", "--format", "md",
    ]);
    assert_eq!(stdout(&out), format!("{compare}\n{diff}"));
    assert!(compare.contains("| u74 | before |"), "{compare}");
    assert!(diff.contains("Path diff"), "{diff}");

    // Again: both snapshots come from the cache, and the report is the same.
    let again = minikernels(&d, "md");
    ok(&again);
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(err.matches("snapshot from the cache").count(), 2, "{err}");
    assert!(!err.contains("booting"), "{err}");
    assert_eq!(stdout(&again), stdout(&out));

    // --clear-cache empties it, and says how much went.
    let cleared = review_env(&["review", "--clear-cache"], &d);
    ok(&cleared);
    assert!(String::from_utf8_lossy(&cleared.stderr).contains("removed 2 cached snapshots"));
    assert!(!d.join("trapscope/snapshots").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_json_holds_compares_and_diffs_documents() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let d = scratch("review-json");
    let out = minikernels(&d, "json");
    ok(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let f = d.join("r.toml");
    let f = f.to_str().unwrap();
    assert_eq!(v["scenario"].as_str(), Some(f));
    let c = review_env(&["compare", f, "--core", "u74", "--format", "json"], &d);
    ok(&c);
    let compare: serde_json::Value = serde_json::from_str(&stdout(&c)).unwrap();
    assert_eq!(v["compare"], compare);
    let diff = review_env(
        &[
            "diff", f, "before", "after", "--core", "u74", "--format", "json",
        ],
        &d,
    );
    ok(&diff);
    let diff: serde_json::Value = serde_json::from_str(&stdout(&diff)).unwrap();
    assert_eq!(v["diffs"], serde_json::json!([diff]));
    let _ = std::fs::remove_dir_all(&d);
}

//! llvm-mca as an oracle for the in-order cost model: straight-line kernels
//! (tests/data/mca/*.s) are run through LLVM's scheduling model of the same
//! core and through trapscope's, and their steady states must agree.
//!
//! - **Steady state**, in both tools: (cycles of 2N iterations − cycles of
//!   N) / N, so that the pipeline's fill and drain cancel out.
//! - **trapscope's side**: the kernel is assembled with
//!   `riscv64-linux-gnu-as`, its `.text` decoded, and the instructions fed
//!   to `CostModel` directly (each completed, falling through, predicted),
//!   the pipeline state carried from one iteration to the next. No guest
//!   runs.
//! - **llvm-mca's side**: `llvm-mca -mtriple=riscv64 -mcpu=CPU -iterations=N`
//!   on the same source, its "Total Cycles". It must be LLVM 19 or later:
//!   the `llvm-mca` on a bookworm PATH is LLVM 14, which has an older U74
//!   model and ignores `sifive-x280` with a warning; "not a recognized
//!   processor" fails the test.
//! - **Agreement**: within 20% or 1 cycle per iteration, whichever is
//!   larger.
//! - **Known differences** (`KNOWN`): a kernel on which the models differ
//!   for a reason written down, with that reason. A kernel that differs for
//!   a reason nobody wrote down fails, and so does a listed kernel that
//!   agrees (its row is stale).
//!
//! Only the U74 and the X280 have both: LLVM has no C910 or P8700 model and
//! llvm-mca no X60 model. Without llvm-mca 19 or binutils the test says why
//! and passes, except under CI's TRAPSCOPE_REQUIRE_LLVM_MCA=1.

use std::path::{Path, PathBuf};
use std::process::Command;

use trapscope::cost::{At, CostModel, MILLI, Profile};
use trapscope::isa::decode_range;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// (trapscope's core, llvm-mca's `-mcpu`).
const CORES: [(&str, &str); 2] = [("u74", "sifive-u74"), ("x280", "sifive-x280")];

/// Iterations: N and 2N.
const N: u64 = 100;

/// Kernels the two models cost differently, each for a reason written down:
/// (core, kernel, why). Both cores are SiFive 7-series, so the reasons are
/// the same for each.
const KNOWN: &[(&str, &str, &str)] = &[
    ("u74", "alu_to_address", EARLY_ALU),
    ("x280", "alu_to_address", EARLY_ALU),
    ("u74", "csrw_sstatus", CSR_FLUSH),
    ("x280", "csrw_sstatus", CSR_FLUSH),
    ("u74", "store_alu_mix", WRITE_BACK),
    ("x280", "store_alu_mix", WRITE_BACK),
    ("u74", "fdiv_independent", FP_DIVIDER),
    ("x280", "fdiv_independent", FP_DIVIDER),
];

/// trapscope 1 cycle, LLVM 3: an ALU op whose operands are ready executes
/// in AG and is fully bypassed (LLVM review D153666, the profile's
/// `alu_early`), so an address consumer waits 1 cycle; LLVM's model runs
/// every ALU op late (WriteIALU latency 3) and joins only ALU, branch and
/// store-data readers to the bypass.
const EARLY_ALU: &str = "early ALU (D153666)";
/// trapscope charges the profile's `csr_flush`: a write of sstatus flushes
/// the pipeline (the Rocket rule the FU540 manual describes); LLVM has no
/// way to express a flush and costs the write as one CSR op.
const CSR_FLUSH: &str = "CSR-write flush";
/// LLVM's in-order issue stage keeps write-back in program order
/// (InOrderIssueStage's LastWriteBackCycle): a store after a 3-cycle ALU op
/// waits so as not to finish first. On the U74 every instruction passes the
/// same execution stages AG, M1, M2, WB (D153666), so write-back is in order
/// without a stall, and trapscope charges none.
const WRITE_BACK: &str = "in-order write-back";
/// LLVM holds the FP divider for 55 cycles per `fdiv.d` (26 per `.s`), so
/// independent divides queue behind one another; trapscope charges an FP
/// divide's latency to its consumers (`fp_div`) but does not model the
/// divider's occupancy, so independent divides overlap. Kernel paths do not
/// divide in floating point.
const FP_DIVIDER: &str = "FP divider occupancy not modelled";

/// llvm-mca 19 or later, by name or on the PATH; else why not.
fn llvm_mca() -> Result<PathBuf, String> {
    let mut seen = Vec::new();
    for name in ["llvm-mca-21", "llvm-mca-20", "llvm-mca-19", "llvm-mca"] {
        let Ok(out) = Command::new(name).arg("--version").output() else {
            continue;
        };
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        match major(&text) {
            Some(v) if v >= 19 => return Ok(PathBuf::from(name)),
            Some(v) => seen.push(format!("{name} is LLVM {v}")),
            None => seen.push(format!("{name} gives no LLVM version")),
        }
    }
    Err(if seen.is_empty() {
        "no llvm-mca (install Debian's llvm-19)".to_string()
    } else {
        format!(
            "{}; LLVM 19 or later is needed (Debian's llvm-19)",
            seen.join(", ")
        )
    })
}

/// The major version in `llvm-mca --version`'s "LLVM version 19.1.7".
fn major(text: &str) -> Option<u32> {
    let at = text.find("LLVM version ")? + "LLVM version ".len();
    text[at..].split('.').next()?.trim().parse().ok()
}

/// The tools, or None after saying why (a failure under CI).
fn tools() -> Option<PathBuf> {
    let binutils = ["riscv64-linux-gnu-as", "riscv64-linux-gnu-objcopy"]
        .iter()
        .all(|t| Command::new(t).arg("--version").output().is_ok());
    let why = match (llvm_mca(), binutils) {
        (Ok(mca), true) => return Some(mca),
        (Err(e), _) => e,
        (Ok(_), false) => "riscv64-linux-gnu-as/-objcopy not installed \
                           (binutils-riscv64-linux-gnu)"
            .to_string(),
    };
    assert!(
        std::env::var_os("TRAPSCOPE_REQUIRE_LLVM_MCA").is_none(),
        "TRAPSCOPE_REQUIRE_LLVM_MCA is set, but: {why}"
    );
    eprintln!("skipping the llvm-mca comparison: {why}");
    None
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{cmd:?}: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned() + &err
}

/// The kernel's `.text`, assembled.
fn text_of(kernel: &Path, dir: &Path) -> Vec<u8> {
    let (obj, bin) = (dir.join("k.o"), dir.join("k.bin"));
    run(Command::new("riscv64-linux-gnu-as")
        .args(["-march=rv64gcv", "-mabi=lp64d", "-o"])
        .arg(&obj)
        .arg(kernel));
    run(Command::new("riscv64-linux-gnu-objcopy")
        .args(["-O", "binary", "-j", ".text"])
        .arg(&obj)
        .arg(&bin));
    std::fs::read(&bin).unwrap()
}

/// llvm-mca's total cycles for `iterations` of the kernel.
fn mca_cycles(mca: &Path, cpu: &str, kernel: &Path, iterations: u64) -> u64 {
    let out = run(Command::new(mca)
        .args(["-mtriple=riscv64", &format!("-mcpu={cpu}")])
        .arg(format!("-iterations={iterations}"))
        .arg(kernel));
    assert!(
        !out.contains("not a recognized processor"),
        "llvm-mca does not know {cpu}: {out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("Total Cycles:"))
        .unwrap_or_else(|| panic!("no Total Cycles from llvm-mca: {out}"));
    line["Total Cycles:".len()..].trim().parse().unwrap()
}

/// trapscope's cycles (milli) for `iterations` of the decoded kernel.
fn model_milli(p: &Profile, bytes: &[u8], iterations: u64) -> u64 {
    let insns = decode_range(0x1000, bytes);
    let m = CostModel::new(p);
    let t = m.build(&insns);
    let mut st = m.start();
    let mut total = 0;
    for _ in 0..iterations {
        for i in 0..insns.len() {
            let at = At {
                i,
                completed: true,
                taken: false,
                misp: None,
            };
            m.charge(&mut st, &t, at, |_, v, _| total += v);
        }
    }
    total
}

fn kernels() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("tests/data/mca"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    out.sort();
    out
}

#[test]
fn llvm_mca_and_the_in_order_model_agree_on_straight_line_kernels() {
    let Some(mca) = tools() else { return };
    let dir = std::env::temp_dir().join(format!("trapscope-mca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut wrong = Vec::new();
    let mut table = Vec::new();
    for (core, cpu) in CORES {
        let p = Profile::load(&Path::new(ROOT).join(format!("assets/cores/{core}.toml"))).unwrap();
        for k in kernels() {
            let name = k.file_stem().unwrap().to_string_lossy().into_owned();
            let bytes = text_of(&k, &dir);
            let ours = (model_milli(&p, &bytes, 2 * N) - model_milli(&p, &bytes, N)) as f64
                / (N * MILLI) as f64;
            let theirs =
                (mca_cycles(&mca, cpu, &k, 2 * N) - mca_cycles(&mca, cpu, &k, N)) as f64 / N as f64;
            let agree = (ours - theirs).abs() <= (0.2 * theirs).max(1.0);
            let known = KNOWN.iter().find(|(c, n, _)| *c == core && *n == name);
            table.push(format!(
                "{core:5} {name:20} trapscope {ours:6.2}  llvm-mca {theirs:6.2}{}",
                if agree { "" } else { "  differ" }
            ));
            match (agree, known) {
                (true, None) | (false, Some(_)) => {}
                (false, None) => wrong.push(format!(
                    "{core} {name}: trapscope {ours:.2} cycles per iteration, llvm-mca {theirs:.2}, \
                     and no reason is written down in KNOWN"
                )),
                (true, Some(_)) => wrong.push(format!(
                    "{core} {name}: the models now agree ({ours:.2} and {theirs:.2}): remove its \
                     row from KNOWN"
                )),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{}", table.join("\n"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_version_is_read_from_llvm_mcas_banner() {
    assert_eq!(
        major("Debian LLVM version 19.1.7\n  Optimized build."),
        Some(19)
    );
    assert_eq!(
        major("LLVM (http://llvm.org/):\n  LLVM version 14.0.6\n"),
        Some(14)
    );
    assert_eq!(major("something else"), None);
}

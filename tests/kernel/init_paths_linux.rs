//! The trap-path inits (pagefault, pagefault-file, signal, pipe:
//! guest-asm/init/) on a real
//! Linux kernel: `trapscope snapshot --init NAME` stops each before its
//! 100th marker, `trapscope run --format json` runs the three snapshots, and
//! the kernel's path per iteration must be the one the init was written to
//! take, its user side the hand counts of tests/kernel/init_paths.rs, and two runs
//! the same figures. Kernels are never in the repository: it runs when asked,
//! `TRAPSCOPE_LINUX=DIR cargo test --test kernel -- --ignored
//! init_paths_linux`, DIR holding `Image` and `vmlinux`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use serde_json::Value;
use trapscope::isa::{self, AluOp, Op};
use trapscope::machine::Program;
use trapscope::scenario::Scenario;
use trapscope::session::RunOpts;
use trapscope::session::path::{self, PathRun, Which};

use crate::snapshot_util;

/// The inits, their markers, and what their iterations hold by hand:
/// traps (pagefault: the store's fault; signal: kill's ecall and the vDSO's
/// rt_sigreturn; pipe: write and read in each process) and user
/// instructions (tests/kernel/init_paths.rs: pagefault 4 retired + the store's
/// faulting run; signal 9 + the handler's 6 + the vDSO's 2; pipe 18 + 17).
const INITS: [(&str, &str, f64, f64); 4] = [
    ("pagefault", "init_touch", 1.0, 5.0),
    ("pagefault-file", "init_touch", 1.0, 5.0),
    ("signal", "init_ecall", 2.0, 17.0),
    ("pipe", "init_ecall", 4.0, 35.0),
];

/// `snapshot`'s default `--at`.
const AT: u64 = 100;

/// Below 2^38: the user half of Sv39 (priv spec §4.4.1, the kernel's
/// addresses are the sign-extended upper half).
fn is_user(pc: u64) -> bool {
    pc < 1 << 38
}

fn init_elf(name: &str) -> Program {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("assets/init/{name}.elf"));
    Program::load(&p).unwrap()
}

fn sym(p: &Program, name: &str) -> u64 {
    p.symbol(name)
        .unwrap_or_else(|| panic!("no symbol {name}"))
        .addr
}

fn trapscope(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "trapscope {args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// Each function's instructions in one iteration, from
/// `functions_per_iteration`.
fn functions(v: &Value) -> Vec<(String, f64)> {
    let f = v["functions_per_iteration"].as_array().unwrap();
    let pair = |f: &Value| {
        (
            f["name"].as_str().unwrap().into(),
            f["instructions"].as_f64().unwrap(),
        )
    };
    f.iter().map(pair).collect()
}

/// How many times the recorded iteration entered the function `name`: its
/// first instruction run.
fn entries(run: &PathRun, name: &str) -> usize {
    let at = sym(&run.program, name);
    run.path.steps.iter().filter(|s| s.pc == at).count()
}

#[test]
#[ignore = "needs a kernel: TRAPSCOPE_LINUX=DIR cargo test --test kernel -- --ignored init_paths_linux"]
fn trap_path_inits_take_their_paths_on_linux() {
    let Some((dir, image, vmlinux)) = snapshot_util::linux_kernel("initpaths") else {
        return;
    };
    let mut toml = "title = \"trap paths\"\npatch = \"none\"\ncores = [\"u74\"]\n".to_string();
    for (name, marker, _, _) in INITS {
        let t = Instant::now();
        let out = dir.join(name);
        let o = out.to_str().unwrap();
        let (i, v) = (image.to_str().unwrap(), vmlinux.to_str().unwrap());
        trapscope(&[
            "snapshot",
            "--kernel",
            i,
            "--vmlinux",
            v,
            "--init",
            name,
            "-o",
            o,
        ]);
        eprintln!("{name}: snapshot in {:.1} s", t.elapsed().as_secs_f64());
        // Stopped before the 100th marker, with s1 (x9) = 99 checked.
        let m: Value =
            serde_json::from_slice(&std::fs::read(out.join("snapshot.json")).unwrap()).unwrap();
        let elf = init_elf(name);
        let hex = |v: &Value| u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16);
        assert_eq!(hex(&m["hart"]["pc"]), Ok(sym(&elf, marker)), "{name}");
        assert_eq!(hex(&m["init"]["loop_top"]), Ok(sym(&elf, "init_loop")));
        assert_eq!(m["init"]["counter"].as_u64(), Some(AT - 1), "{name}: x9");
        toml += &format!("[[variants]]\nname = \"{name}\"\nsnapshot = \"{name}\"\n");
    }
    let scen = dir.join("paths.toml");
    std::fs::write(&scen, &toml).unwrap();
    let s = scen.to_str().unwrap();

    let t = Instant::now();
    let json = trapscope(&["run", s, "--format", "json", "--core", "u74"]);
    eprintln!("run: {:.1} s", t.elapsed().as_secs_f64());
    let again = trapscope(&["run", s, "--format", "json", "--core", "u74"]);
    let (a, b): (Value, Value) = (
        serde_json::from_str(&json).unwrap(),
        serde_json::from_str(&again).unwrap(),
    );
    assert_eq!(a["variants"], b["variants"], "two runs, the same figures");

    let scenario = Scenario::load(&scen).unwrap();
    for (v, (name, _, traps, user)) in a["variants"].as_array().unwrap().iter().zip(INITS) {
        assert_eq!(v["variant"], name);
        assert_eq!(v["outcome"], "loop-ended", "{name}: {v:#}");
        assert_eq!(v["window_closed"], true, "{name}");
        let per = &v["insns_per_iteration"];
        assert_eq!(
            v["traps_per_iteration"].as_f64(),
            Some(traps),
            "{name}: traps"
        );
        assert_eq!(per["user"].as_f64(), Some(user), "{name}: user");
        let f = functions(v);
        let of = |n: &str| f.iter().find(|x| x.0 == n).map(|x| x.1);
        eprintln!(
            "{name}: {} instructions an iteration, {} functions",
            per["total"],
            f.len()
        );
        // One iteration of the window, recorded instruction by instruction.
        let variant = scenario.variant(name).unwrap();
        // On the U74, as the figures above: a pipe iteration's path
        // depends on the clock, and without a core model time counts
        // instructions, a hundred times faster than the kernel was told.
        let u74 = RunOpts {
            core: Some(std::rc::Rc::new(
                trapscope::cost::Profile::find("u74").unwrap(),
            )),
            ..RunOpts::default()
        };
        let run = path::record(&scenario, variant, &u74, Which::Nth(50)).unwrap();
        let steps = &run.path.steps;
        let users: Vec<u64> = steps
            .iter()
            .map(|s| s.pc)
            .filter(|&pc| is_user(pc))
            .collect();
        assert_eq!(users.len() as f64, user, "{name}: user steps");
        let elf = init_elf(name);
        let outside: Vec<&path::Step> = steps
            .iter()
            .filter(|s| is_user(s.pc) && !elf.is_mapped_exec(s.pc))
            .collect();
        match name {
            "pagefault" | "pagefault-file" => {
                // The anonymous page's path, or the file's fault-around of
                // the window's cached pages.
                let last = if name == "pagefault" {
                    "handle_page_fault"
                } else {
                    "filemap_map_pages"
                };
                for n in ["handle_exception", "do_page_fault", "handle_mm_fault", last] {
                    assert!(of(n).is_some_and(|x| x > 0.0), "{name}: {n}");
                    assert_eq!(entries(&run, n), 1, "{name}: {n} entered once");
                }
                // The marker runs twice (its fault, its retry), the top once,
                // and trapscope counts both runs as executed (machine/hooks.rs
                // on_exception: the trapping instruction ends the retired
                // range, as an ecall does): 4 + 1.
                let touch = sym(&elf, "init_touch");
                assert_eq!(users.iter().filter(|&&pc| pc == touch).count(), 2);
                assert_eq!(of("init_main"), Some(5.0));
                assert!(outside.is_empty());
            }
            "signal" => {
                for n in ["arch_do_signal_or_restart", "init_handler"] {
                    assert!(of(n).is_some_and(|x| x > 0.0), "{name}: {n}");
                    assert_eq!(entries(&run, n), 1, "{name}: {n} entered once");
                }
                assert_eq!(entries(&run, "handle_exception"), 2, "two traps");
                assert_eq!(
                    (of("init_main"), of("init_handler")),
                    (Some(9.0), Some(6.0))
                );
                // The vDSO's rt_sigreturn (not in the ELF): `li a7, 139`
                // (rt_sigreturn, asm-generic/unistd.h), `ecall`.
                let insns: Vec<isa::Insn> = outside
                    .iter()
                    .map(|s| isa::decode(&s.raw.to_le_bytes()[..usize::from(s.len)]).unwrap())
                    .collect();
                assert_eq!(insns.len(), 2, "{name}: the vDSO's instructions");
                let li = (insns[0].op, insns[0].rd, insns[0].rs1, insns[0].imm);
                assert_eq!(li, (Op::AluImm(AluOp::Add), 17, 0, 139), "li a7, 139");
                assert_eq!(insns[1].op, Op::Ecall);
                assert_eq!(entries(&run, "__riscv_sys_rt_sigreturn"), 1);
            }
            _ => {
                // Two context switches: the parent's read blocks, then
                // the child's.
                for n in ["__schedule", "__switch_to"] {
                    assert!(of(n).is_some_and(|x| x > 0.0), "{name}: {n}");
                    assert_eq!(entries(&run, n), 2, "{name}: {n} twice");
                }
                assert_eq!(
                    (of("init_main"), of("init_child")),
                    (Some(18.0), Some(17.0))
                );
                assert!(outside.is_empty());
            }
        }
        report_functions(name, &run);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lists the recorded iteration's functions in the order first run, with
/// the instructions each ran: what a reader checks the path against.
fn report_functions(name: &str, run: &PathRun) {
    let mut seen: Vec<(String, usize)> = Vec::new();
    for s in &run.path.steps {
        let f = run
            .program
            .symbol_at(s.pc)
            .map_or(format!("{:#x}", s.pc), |x| x.0.name.clone());
        match seen.iter_mut().find(|x| x.0 == f) {
            Some(x) => x.1 += 1,
            None => seen.push((f, 1)),
        }
    }
    let list: Vec<String> = seen.iter().map(|(f, n)| format!("{f} {n}")).collect();
    eprintln!("{name}: iteration 50: {}", list.join(", "));
}

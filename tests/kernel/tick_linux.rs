//! The `tick` init on a real Linux kernel: `trapscope snapshot --init tick`
//! stops at the kernel's entry for the 100th supervisor timer interrupt
//! taken at the init's spin, with interrupts left on; `trapscope run` then
//! delivers the ticks itself on the model's clock, skipping each spin to
//! the timer's deadline. Per iteration (one tick) the path must be the
//! interrupt path the init was written to take, its user side the one jump
//! (guest-asm/init/tick.S, by hand), and two runs on one core the same
//! events. Kernels are never in the repository: it runs when asked,
//! `TRAPSCOPE_LINUX=DIR cargo test --test kernel -- --ignored
//! tick_linux`, DIR holding `Image` and `vmlinux`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use serde_json::Value;
use trapscope::machine::Program;
use trapscope::scenario::Scenario;
use trapscope::session::RunOpts;
use trapscope::session::path::{self, Which};

use crate::snapshot_util;

fn trapscope(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "trapscope {args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

fn hex(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

#[test]
#[ignore = "needs a kernel: TRAPSCOPE_LINUX=DIR cargo test --test kernel -- --ignored tick_linux"]
fn the_tick_init_measures_the_timer_interrupt_path_on_linux() {
    let Some((dir, image, vmlinux)) = snapshot_util::linux_kernel("tick") else {
        return;
    };
    let out = dir.join("tick");
    let t = Instant::now();
    trapscope(&[
        "snapshot",
        "--kernel",
        image.to_str().unwrap(),
        "--vmlinux",
        vmlinux.to_str().unwrap(),
        "--init",
        "tick",
        "-o",
        out.to_str().unwrap(),
    ]);
    eprintln!("tick: snapshot in {:.1} s", t.elapsed().as_secs_f64());

    // Stopped at the trap handler, for an S timer interrupt taken at the
    // spin, with the interrupts the kernel enabled still enabled.
    let m: Value =
        serde_json::from_slice(&std::fs::read(out.join("snapshot.json")).unwrap()).unwrap();
    let elf =
        Program::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/init/tick.elf"))
            .unwrap();
    let spin = elf.symbol("init_loop").unwrap().addr;
    let handler = hex(&m["init"]["tick_handler"]);
    assert_eq!(hex(&m["hart"]["pc"]), handler);
    assert_eq!(hex(&m["init"]["ecall"]), spin);
    let csr = |name: &str| {
        let c = m["hart"]["csrs"].as_array().unwrap().iter();
        c.clone()
            .find(|c| c["name"] == name)
            .map(|c| hex(&c["value"]))
    };
    assert_eq!(csr("scause"), Some(1 << 63 | 5), "S timer interrupt");
    assert_eq!(csr("sepc"), Some(spin), "taken at the spin");
    assert_ne!(csr("mie"), Some(0), "interrupts kept on");

    let scen = dir.join("tick.toml");
    std::fs::write(
        &scen,
        "title = \"tick\"\npatch = \"none\"\ncores = [\"u74\", \"c910\"]\n[[variants]]\nname = \"tick\"\nsnapshot = \"tick\"\n",
    )
    .unwrap();
    let s = scen.to_str().unwrap();
    // The snapshot's program: the vmlinux's symbols and the init's.
    let scenario = Scenario::load(&scen).unwrap();
    let variant = scenario.variant("tick").unwrap();
    let kernel = variant.program.clone();
    assert_eq!(
        Some(handler),
        kernel.symbol("handle_exception").map(|s| s.addr)
    );
    for core in ["u74", "c910"] {
        let t = Instant::now();
        let json = trapscope(&["run", s, "--format", "json", "--core", core]);
        eprintln!("{core}: run in {:.1} s", t.elapsed().as_secs_f64());
        let again = trapscope(&["run", s, "--format", "json", "--core", core]);
        let (a, b): (Value, Value) = (
            serde_json::from_str(&json).unwrap(),
            serde_json::from_str(&again).unwrap(),
        );
        assert_eq!(
            a["variants"], b["variants"],
            "{core}: two runs, the same events"
        );
        let v = &a["variants"][0];
        assert_eq!(v["outcome"], "loop-ended", "{core}: {v:#}");
        assert_eq!(v["iterations"], 100, "{core}");
        // One tick an iteration: the firmware's machine timer interrupt and
        // the kernel's supervisor timer interrupt, 110 each (10 warm-up).
        assert_eq!(v["interrupts"]["m_timer"], 110, "{core}");
        assert_eq!(v["interrupts"]["s_timer"], 110, "{core}");
        // The user side is the one jump (tick.S), the spin skipped.
        assert_eq!(
            v["insns_per_iteration"]["user"].as_f64(),
            Some(1.0),
            "{core}"
        );
        assert!(v["insns_per_iteration"]["firmware"].as_f64().unwrap() > 0.0);
        // The wait is idle time, outside the per-iteration cycles.
        let e = &v["estimate"];
        let idle = e["phases"]["idle"].as_f64().unwrap();
        let work: f64 = e["phases"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| *k != "idle")
            .map(|(_, x)| x.as_f64().unwrap())
            .sum();
        assert!(idle > 100.0 * work, "{core}: idle {idle}, work {work}");
        assert!((e["cycles_per_iteration"].as_f64().unwrap() - work).abs() < 0.01);
        eprintln!(
            "{core}: {} instructions, {} cycles an iteration",
            v["insns_per_iteration"]["total"], e["cycles_per_iteration"]
        );
    }

    // One recorded tick: the interrupt path, entered once each.
    let run = path::record(&scenario, variant, &RunOpts::default(), Which::Nth(50)).unwrap();
    let entries = |name: &str| {
        let at = kernel.symbol(name).unwrap().addr;
        run.path.steps.iter().filter(|s| s.pc == at).count()
    };
    for n in ["handle_exception", "do_irq", "riscv_timer_interrupt"] {
        assert_eq!(entries(n), 1, "{n} entered once");
    }
    assert!(
        entries("sbi_set_timer") >= 1,
        "the next event set through the SBI"
    );
    // The init's code is its only user code (the firmware's, in M-mode at
    // RAM's base, is low too: told apart by the init's own segments).
    let user: Vec<u64> = run
        .path
        .steps
        .iter()
        .map(|s| s.pc)
        .filter(|&pc| elf.is_mapped_exec(pc))
        .collect();
    assert_eq!(user, vec![spin], "the spin's jump, once");
    let _ = std::fs::remove_dir_all(&dir);
}

//! Ctrl-C (SIGINT) ends `bench` promptly, with exit 130, in every section:
//! the TUI's own code that bench drives (key-to-frame, time travel) stops
//! a long action at the interrupt flag and clears it, as it does for Esc,
//! so bench once went on, and its idle catch-up spun on a variant that
//! could not advance. SIGINT also sets a flag nothing clears
//! (machine/sigint.rs).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Runs `bench args`, waits for a stdout line containing `section`, then
/// `after`, sends SIGINT, and asserts exit 130 within a few seconds.
fn interrupt_in(args: &[&str], section: &str, after: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("bench")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    let start = Instant::now();
    let mut seen = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(l) if l.contains(section) => break,
            Ok(l) => seen.push(l),
            Err(mpsc::RecvTimeoutError::Timeout) if start.elapsed() < Duration::from_secs(600) => {}
            Err(e) => {
                let _ = child.kill();
                panic!("{args:?}: no {section:?} line ({e}); output: {seen:#?}");
            }
        }
    }
    std::thread::sleep(after);
    let sent = Instant::now();
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("{args:?}: still running 5 s after SIGINT in {section:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err);
    assert_eq!(status.code(), Some(130), "{args:?} in {section:?}: {err}");
    assert_eq!(err, "trapscope: interrupted (Ctrl-C)\n", "{args:?}");
}

#[test]
fn ctrl_c_in_the_key_to_frame_section_exits_130() {
    interrupt_in(
        &["--iterations", "100", "--repeats", "1", "--depths", ""],
        "TUI key-to-frame",
        Duration::from_millis(500),
    );
}

#[test]
fn ctrl_c_while_bench_measures_the_storm_rule_exits_130() {
    // The last section, and the longest: its guests run millions of
    // instructions each, and the signal lands in one of them.
    interrupt_in(
        &["--iterations", "100", "--repeats", "1", "--depths", ""],
        "The storm rule",
        Duration::from_millis(1000),
    );
}

#[test]
fn ctrl_c_while_time_travel_runs_deep_exits_130() {
    // `:run 10000000` takes seconds: the signal lands inside it.
    interrupt_in(
        &["--travel-only", "--depths", "10000000"],
        "Time travel deep into a run",
        Duration::from_millis(1500),
    );
}

#[test]
fn ctrl_c_while_time_travel_samples_its_keys_exits_130() {
    // A shallow depth: the run is over at once, and the signal lands in
    // the other variant's catch-up or the keys sampled after it.
    interrupt_in(
        &["--travel-only", "--depths", "100000"],
        "Time travel deep into a run",
        Duration::from_millis(1500),
    );
}

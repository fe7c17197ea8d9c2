//! Key-to-frame latency of the TUI, measured without a terminal: each action
//! followed by a full draw into a 160×45 test backend (`trapscope bench`).
//! The test backend cannot fail (its error type is `Infallible`), so its
//! results are taken apart with `let Ok(..)`.

use std::rc::Rc;
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::TuiError;
use super::render;
use super::state::AppState;
use super::update::Action;
use crate::qemu::QemuError;
use crate::scenario::Scenario;

/// Latencies of one kind of action, in microseconds.
#[derive(Debug, serde::Serialize)]
pub struct Latency {
    pub action: String,
    pub samples: usize,
    pub median_us: u64,
    pub max_us: u64,
    /// Of which drawing (median).
    pub draw_median_us: u64,
}

/// Ends a measurement early when SIGINT reached the process: the TUI's
/// own code stops a long action on it and carries on, as it would at Esc.
fn go_on() -> Result<(), TuiError> {
    if crate::machine::sigint::signalled() {
        return Err(TuiError::Interrupted);
    }
    Ok(())
}

fn summarise(action: &str, mut total: Vec<u64>, mut draw: Vec<u64>) -> Latency {
    total.sort_unstable();
    draw.sort_unstable();
    Latency {
        action: action.into(),
        samples: total.len(),
        median_us: total.get(total.len() / 2).copied().unwrap_or(0),
        max_us: total.last().copied().unwrap_or(0),
        draw_median_us: draw.get(draw.len() / 2).copied().unwrap_or(0),
    }
}

pub fn measure(s: Scenario) -> Result<Vec<Latency>, TuiError> {
    let mut app = AppState::new(Rc::new(s), None)?;
    let Ok(mut term) = Terminal::new(TestBackend::new(160, 45));
    let mut out = Vec::new();
    let plan: [(&str, Action, usize); 5] = [
        ("s (step)", Action::Step, 2000),
        ("t (run to trap)", Action::RunToTrap, 200),
        ("b (step back)", Action::StepBack, 50),
        ("Tab (switch variant)", Action::SwitchVariant, 20),
        ("n (step over)", Action::StepOver, 200),
    ];
    for (name, action, n) in plan {
        let (mut total, mut draw) = (Vec::new(), Vec::new());
        for _ in 0..n {
            go_on()?;
            let t0 = Instant::now();
            app.update(action.clone());
            let t1 = Instant::now();
            let Ok(_) = term.draw(|f| render::draw(f, &app));
            draw.push(t1.elapsed().as_micros() as u64);
            total.push(t0.elapsed().as_micros() as u64);
        }
        out.push(summarise(name, total, draw));
    }
    Ok(out)
}

/// The status line's figures for the last key, in microseconds:
/// (update, draw, to screen). All three are of one key's batch on one
/// clock: "to screen" runs from when the key was read to when its frame
/// was drawn, so it holds the update and the draw, and what is left is
/// the time the key waited behind an earlier action.
pub fn shown(key_at: Instant, update_us: u64, draw_us: u64, drawn: Instant) -> (u64, u64, u64) {
    let total = drawn.saturating_duration_since(key_at).as_micros() as u64;
    (update_us, draw_us, total.max(update_us + draw_us))
}

/// Time travel deep into a run (docs/guides/time-travel.md): the keys that go back or
/// across, at a depth, with the memory the checkpoints hold there.
#[derive(Debug, serde::Serialize)]
pub struct Travel {
    /// Instructions into the run.
    pub depth: u64,
    /// Getting there with `:run` (forward, checkpoints taken), in ms.
    pub run_ms: f64,
    pub keys: Vec<Latency>,
    /// Checkpoints held, by every variant's machine, and their bytes.
    pub checkpoints: usize,
    pub checkpoint_bytes: usize,
    /// The stream of retired blocks reverse-continue searches, in bytes.
    pub stream_bytes: usize,
    /// One checkpoint taken, and one restored (nothing to write back: what
    /// comparing the RAM costs), in microseconds.
    pub take_us: u64,
    pub restore_us: u64,
}

fn timed(
    app: &mut AppState,
    term: &mut Terminal<TestBackend>,
    f: impl FnOnce(&mut AppState),
) -> (u64, u64) {
    let t0 = Instant::now();
    f(app);
    let t1 = Instant::now();
    let Ok(_) = term.draw(|f| render::draw(f, app));
    (
        t0.elapsed().as_micros() as u64,
        t1.elapsed().as_micros() as u64,
    )
}

/// `b` ×50, `B` ×10 (the breakpoint at the power-on entry, so each search
/// goes back the whole depth), `B` ×20 with the breakpoint once per
/// iteration, and Tab ×20, at each depth; the guest's `iterations` knob is
/// raised so that the run is longer than the deepest.
pub fn travel(s: Scenario, depths: &[u64]) -> Result<Vec<Travel>, TuiError> {
    let deepest = depths.iter().copied().max().unwrap_or(0);
    let mut out = Vec::new();
    let sc = Rc::new(s);
    let iter_sym = sc.measure.as_ref().map(|m| m.iteration.clone());
    for &depth in depths {
        go_on()?;
        let mut app = AppState::open(sc.clone(), None, Default::default())?;
        if sc.knob("iterations").is_ok() {
            app.command(&format!("set iterations={}", deepest / 100 + 1000));
        }
        let Ok(mut term) = Terminal::new(TestBackend::new(160, 45));
        let t = Instant::now();
        app.command(&format!("run {depth}"));
        let run_ms = t.elapsed().as_secs_f64() * 1e3;
        go_on()?;
        if app.live.executed() < depth {
            return Err(TuiError::EndedBefore {
                executed: app.live.executed(),
                depth,
            });
        }
        // The other variant catches up as the TUI would while it waits.
        while app.idle_pending() {
            go_on()?;
            app.idle_step(std::time::Duration::from_millis(50));
        }
        let mut keys = Vec::new();
        let mut sample = |app: &mut AppState,
                          term: &mut Terminal<TestBackend>,
                          name: &str,
                          n: usize,
                          before: &dyn Fn(&mut AppState, usize),
                          action: Action|
         -> Result<(), TuiError> {
            let (mut total, mut draw) = (Vec::new(), Vec::new());
            for i in 0..n {
                go_on()?;
                before(app, i);
                let (t, d) = timed(app, term, |a| a.update(action.clone()));
                total.push(t);
                draw.push(d);
            }
            keys.push(summarise(name, total, draw));
            Ok(())
        };
        sample(
            &mut app,
            &mut term,
            "b (step back)",
            50,
            &|_, _| {},
            Action::StepBack,
        )?;
        let entry = app.live.program().entry;
        let here = app.live.executed();
        app.breakpoints = [entry].into();
        sample(
            &mut app,
            &mut term,
            "B (hit at power-on)",
            10,
            &|a, i| a.go_to(here - i as u64 * 7),
            Action::ReverseContinue,
        )?;
        app.go_to(here);
        let iter_addr = iter_sym
            .as_ref()
            .and_then(|n| app.live.program().symbol(n).map(|s| s.addr));
        if let Some(a) = iter_addr {
            app.breakpoints = [a].into();
            sample(
                &mut app,
                &mut term,
                "B (hit each iteration)",
                20,
                &|_, _| {},
                Action::ReverseContinue,
            )?;
        }
        app.breakpoints.clear();
        if sc.variants.len() > 1 {
            sample(
                &mut app,
                &mut term,
                "Tab (switch variant)",
                20,
                &|_, _| {},
                Action::SwitchVariant,
            )?;
        }
        let t = Instant::now();
        let cp = app.live.m.checkpoint()?;
        let take_us = t.elapsed().as_micros() as u64;
        let t = Instant::now();
        app.live.m.restore(&cp)?;
        let restore_us = t.elapsed().as_micros() as u64;
        drop(cp);
        let stores = std::iter::once(&app.live)
            .chain(app.parked.iter().flatten())
            .filter_map(|l| l.cps.as_ref());
        let (mut checkpoints, mut checkpoint_bytes) = (0, 0);
        for c in stores {
            checkpoints += c.len();
            checkpoint_bytes += c.bytes();
        }
        let stream_bytes = std::iter::once(&app.live)
            .chain(app.parked.iter().flatten())
            .map(|l| l.stats().stream.bytes())
            .sum();
        out.push(Travel {
            depth,
            run_ms,
            keys,
            checkpoints,
            checkpoint_bytes,
            stream_bytes,
            take_us,
            restore_us,
        });
    }
    Ok(out)
}

/// The first frame as the terminal's TUI makes it, from the start of the
/// process (`process_start`): the state opened lazily, the machine at the
/// lesson's start, one full draw.
pub fn first_frame(s: Scenario, process_start: Instant) -> Result<f64, TuiError> {
    let mut app = AppState::open(Rc::new(s), None, Default::default())?;
    app.go_to_start();
    let Ok(mut term) = Terminal::new(TestBackend::new(160, 45));
    let Ok(_) = term.draw(|f| render::draw(f, &app));
    Ok(process_start.elapsed().as_secs_f64() * 1e3)
}

/// The same on a snapshot (when QEMU is installed): trapscope's Sv39
/// minikernel booted in qemu-system-riscv64 and stopped at its 5th user
/// ecall (in the warm-up, before the timed loop reads its `iterations`
/// knob), as two variants: the dispatch before and after seed 003. The
/// snapshot directory and scenario live in a temporary directory.
/// `Ok(Err(_))` with the reason when QEMU is missing.
pub fn travel_snapshot(depths: &[u64]) -> Result<Result<Vec<Travel>, QemuError>, TuiError> {
    use crate::qemu::take::{Booted, Config, Guest};
    if let Err(e) = crate::qemu::find_binary() {
        return Ok(Err(e));
    }
    let dir = crate::output::scratch_dir("trapscope-bench-snap")?;
    let elf = crate::project_dir().join("assets/guest/minikernel-sv39.elf");
    let cfg = Config {
        guest: Guest::Elf(elf),
        at: 5,
        ecall_symbol: "user_syscall_ecall".into(),
        loop_symbol: "bench_timed_loop".into(),
        vlen: None,
        mem_mib: 128,
        append: String::new(),
        boot_timeout: std::time::Duration::from_secs(60),
        ticks: false,
        reproducible: true,
    };
    let r = (|| -> Result<Vec<Travel>, TuiError> {
        let mut quiet = |_: &str| {};
        let mut b = Booted::start(&cfg, &mut quiet)?;
        b.run_to(cfg.at, &mut quiet)?;
        b.quiesce()?;
        b.save(&dir.join("snap"))?;
        drop(b);
        let p = dir.join("snapshot-bench.toml");
        crate::output::replace(
            &p,
            "title = \"bench on a snapshot\"\npatch = \"seed 003\"\ncores = [\"u74\"]\n\
             [knobs.iterations]\nsymbol = \"knob_iterations\"\ndefault = 100\n\
             [knobs.ras_friendly_entry]\nsymbol = \"knob_ras_friendly_entry\"\ndefault = 0\n\
             [[variants]]\nname = \"before\"\nsnapshot = \"snap\"\n\
             [[variants]]\nname = \"after\"\nsnapshot = \"snap\"\nknobs = { ras_friendly_entry = 1 }\n\
             [measure]\nstart = \"bench_timed_loop\"\nend = \"bench_timed_done\"\niteration = \"bench_timed_loop\"\n"
                .as_bytes(),
        )?;
        let s = Scenario::load(&p)?;
        travel(s, depths)
    })();
    drop(dir);
    r.map(Ok)
}

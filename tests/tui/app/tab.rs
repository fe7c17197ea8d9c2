//! Tab between variants (split from app.rs, whose app it uses): it keeps the
//! iteration and event, lands in the same iteration of the timed loop, and
//! between two builds finds the same function and offset.

use super::*;

#[test]
fn tab_keeps_the_iteration_and_event() {
    let mut s = app();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    let pc = s.live.m.pc();
    s.update(Action::SwitchVariant);
    assert_eq!(s.variant_name(), "after");
    assert_eq!(s.live.m.pc(), pc, "same place in the shared syscall code");
    assert_eq!(s.live.traps.len(), 1);
}

#[test]
fn tab_in_the_timed_loop_lands_in_the_same_iteration() {
    let mut s = app();
    s.command("break sys_getppid");
    // 10 warm-up calls, then 3 timed ones: the 13th stop is in iteration 3.
    for _ in 0..13 {
        s.update(Action::Continue);
    }
    assert_eq!(s.live.stats().iteration_hits, 3);
    let pc = s.live.m.pc();
    s.update(Action::SwitchVariant);
    assert_eq!(s.variant_name(), "after");
    assert_eq!(s.live.stats().iteration_hits, 3);
    assert_eq!(s.live.m.pc(), pc);
}

/// Two builds of one kernel put the same function at different addresses
/// (the Sv39 build of the minikernel has its paging set-up before the
/// syscall code: sys_getppid is at 0x8020050a in one, 0x802005f4 in the
/// other, `nm`). Tab lands at the same function and offset, not the same pc.
#[test]
fn tab_between_two_builds_finds_the_same_function_and_offset() {
    let dir = std::env::temp_dir().join(format!("trapscope-tab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let guest = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest");
    let toml = format!(
        "title = \"t\"\npatch = \"p\"\n[[variants]]\nname = \"plain\"\nelf = \"{}\"\n[[variants]]\nname = \"sv39\"\nelf = \"{}\"\n",
        guest.join("minikernel.elf").display(),
        guest.join("minikernel-sv39.elf").display()
    );
    let p = dir.join("two-builds.toml");
    std::fs::write(&p, toml).unwrap();
    let mut s = AppState::new(Rc::new(Scenario::load(&p).unwrap()), None).unwrap();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    s.update(Action::Step);
    s.update(Action::Step);
    let here = s.live.program().describe(s.live.m.pc());
    assert_eq!(here, "sys_getppid+0x4", "two 2-byte steps into it");
    let before = s.live.m.pc();
    let plain_sources = s.sources.clone();
    s.update(Action::SwitchVariant);
    assert_eq!(s.variant_name(), "sv39");
    assert_eq!(s.live.program().describe(s.live.m.pc()), here);
    assert_ne!(s.live.m.pc(), before, "another address in the other build");
    // Its own sources (another build may have another tree) and the
    // breakpoint at its own sys_getppid.
    assert!(!Rc::ptr_eq(&plain_sources, &s.sources));
    let bp = s.live.program().symbol("sys_getppid").unwrap().addr;
    assert!(s.breakpoints.contains(&bp), "{:x?}", s.breakpoints);
    let _ = std::fs::remove_dir_all(&dir);
}

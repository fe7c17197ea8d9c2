//! Source lines come from files no newer than the build whose line table
//! names them: a kernel tree rebuilt for the other variant of a pair must
//! not lend its new lines to the old build (Program::built).

use std::path::Path;
use std::time::{Duration, SystemTime};

use trapscope::machine::Program;
use trapscope::session::source::Sources;

fn minikernel() -> Program {
    Program::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf"))
        .unwrap()
}

#[test]
fn a_source_changed_after_the_build_is_not_shown() {
    let mut p = minikernel();
    let pc = p.symbol("handle_exception").unwrap().addr;
    let loc = p.loc(pc).unwrap();
    // A build long before any file in the checkout was written.
    p.built = vec![Some(SystemTime::UNIX_EPOCH + Duration::from_secs(1)); p.files.len()];
    let mut src = Sources::default();
    assert_eq!(
        src.line(&p, loc),
        None,
        "the newer file's line is not shown"
    );
    assert!(Sources::stale(&p, loc.file), "and it is said why");
}

#[test]
fn a_source_older_than_the_build_is_shown() {
    let mut p = minikernel();
    let pc = p.symbol("handle_exception").unwrap().addr;
    let loc = p.loc(pc).unwrap();
    let later = SystemTime::now() + Duration::from_secs(3600);
    p.built = vec![Some(later); p.files.len()];
    let mut src = Sources::default();
    assert!(src.line(&p, loc).is_some());
    assert!(!Sources::stale(&p, loc.file));
    // Without a build time (an ELF guest), nothing is compared.
    p.built.clear();
    assert!(Sources::default().line(&p, loc).is_some());
}

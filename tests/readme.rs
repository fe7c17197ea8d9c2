//! The scenario example in README.md is a valid scenario.

use std::path::Path;

use trapscope::scenario::Scenario;

#[test]
fn the_readme_scenario_example_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme
        .find("```toml\ntitle =")
        .expect("the scenario example")
        + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    // As if it were scenarios/example.toml, so its relative paths resolve.
    let s = Scenario::parse(&root.join("scenarios/example.toml"), &readme[start..end]).unwrap();
    assert_eq!(s.variants.len(), 1);
    assert_eq!(s.script.len(), 1);
    assert_eq!(s.cores.len(), 2);
}

/// The README's error examples are what the commands print: each
/// `$ trapscope ARGS` line is run from the repository root, and the lines up
/// to `[exit N]` must be its stderr, and N its status.
#[test]
fn the_readme_error_examples_are_what_trapscope_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let marker = "<!-- readme-checked:";
    let at = readme.find(marker).expect("the checked examples");
    let start = at + readme[at..].find("```console\n").unwrap() + "```console\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let mut lines = readme[start..end].lines().peekable();
    let mut checked = 0;
    while let Some(cmd) = lines.next() {
        let args = cmd.strip_prefix("$ trapscope ").expect("a command line");
        let mut want = Vec::new();
        let status: i32 = loop {
            let l = lines.next().expect("an [exit N] line");
            if let Some(n) = l.strip_prefix("[exit ").and_then(|r| r.strip_suffix(']')) {
                break n.parse().unwrap();
            }
            want.push(l);
        };
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .current_dir(root)
            .args(args.split_whitespace())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().collect::<Vec<_>>(), want, "$ trapscope {args}");
        assert_eq!(out.status.code(), Some(status), "$ trapscope {args}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} examples");
}

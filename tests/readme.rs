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

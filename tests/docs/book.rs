//! The documentation holds together: README.md is a front page, the pages
//! under docs/ are an mdBook that SUMMARY.md lists whole, and every relative
//! link in README.md, ARCHITECTURE.md and the book reaches a file, and a
//! heading in it when it names one. (tests/docs/readme.rs and
//! tests/docs/readme_generated.rs check the samples on every page.)

use crate::pages;

use crate::pages::{anchors, is_external, links, markdown_under, read, rel, root, slug};

/// Where a link written on `page` leads: the file (relative to the root,
/// `..` resolved) and the anchor, if any.
fn resolve(page: &str, target: &str) -> (String, Option<String>) {
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (target, None),
    };
    if path.is_empty() {
        return (page.to_string(), anchor);
    }
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                assert!(
                    parts.pop().is_some(),
                    "{page}: {target} leads out of the repository"
                );
            }
            c => parts.push(c),
        }
    }
    (parts.join("/"), anchor)
}

/// What is wrong with the relative links of one file, if anything.
fn broken_links(page: &str) -> Vec<String> {
    broken_links_in(page, &read(page))
}

/// What is wrong with the relative links of `text`, read as if it were
/// `page`.
fn broken_links_in(page: &str, text: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for (line, target) in links(text) {
        if is_external(&target) {
            continue;
        }
        if target.is_empty() {
            bad.push(format!("{page}:{line}: an empty link"));
            continue;
        }
        let (file, anchor) = resolve(page, &target);
        let path = root().join(&file);
        if !path.exists() {
            bad.push(format!("{page}:{line}: {target}: no file {file}"));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if !file.ends_with(".md") {
            bad.push(format!(
                "{page}:{line}: {target}: an anchor into {file}, which is no page"
            ));
            continue;
        }
        if !anchors(&read(&file)).contains(&anchor) {
            bad.push(format!(
                "{page}:{line}: {target}: {file} has no heading #{anchor}"
            ));
        }
    }
    bad
}

/// README.md, ARCHITECTURE.md and every page under docs/.
fn linked_files() -> Vec<String> {
    let mut files = pages::pages();
    files.push("ARCHITECTURE.md".into());
    files
}

#[test]
fn every_relative_link_reaches_a_file_and_a_heading() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in linked_files() {
        checked += links(&read(&f)).len();
        bad.extend(broken_links(&f));
    }
    assert!(checked > 150, "only {checked} links found");
    assert!(
        bad.is_empty(),
        "{} broken links:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The pages SUMMARY.md lists, relative to docs/, in its order.
fn summary_pages() -> Vec<String> {
    let summary = read("docs/SUMMARY.md");
    links(&summary)
        .into_iter()
        .map(|(line, t)| {
            assert!(
                !is_external(&t) && !t.contains('#'),
                "SUMMARY.md:{line}: {t} is not a page"
            );
            t
        })
        .collect()
}

/// What `book.toml`'s `[build]` table says, read as TOML.
fn book_toml() -> toml::Table {
    read("docs/book.toml")
        .parse()
        .expect("docs/book.toml is TOML")
}

#[test]
fn summary_lists_every_page_and_only_pages_that_exist() {
    let listed = summary_pages();
    let mut seen = Vec::new();
    for p in &listed {
        assert!(
            root().join("docs").join(p).is_file(),
            "SUMMARY.md lists {p}, which does not exist"
        );
        assert!(!seen.contains(p), "SUMMARY.md lists {p} twice");
        seen.push(p.clone());
    }
    // book.toml excludes nothing: every page is in the book.
    let book = book_toml();
    assert!(
        book.get("preprocessor").is_none(),
        "a preprocessor: the pages would not read as they are"
    );
    let docs = root().join("docs");
    let missing: Vec<String> = markdown_under(&docs)
        .iter()
        .map(|p| rel(p).strip_prefix("docs/").unwrap().to_string())
        .filter(|p| p != "SUMMARY.md" && !listed.contains(p))
        .collect();
    assert!(
        missing.is_empty(),
        "pages SUMMARY.md does not list: {missing:?}"
    );
    assert!(listed.len() > 20, "only {} pages listed", listed.len());
    assert!(listed.contains(&"decisions.md".to_string()));
}

#[test]
fn the_book_reads_docs_itself_and_builds_where_git_ignores() {
    let book = book_toml();
    assert_eq!(
        book["book"]["src"].as_str(),
        Some("."),
        "docs/ is the book's source"
    );
    let build = book["build"]["build-dir"].as_str().expect("a build-dir");
    let (dir, _) = resolve("docs/book.toml", build);
    assert!(
        !dir.starts_with("docs/") && !dir.is_empty(),
        "the build dir {dir} is inside the source"
    );
    let ignore = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    assert!(
        ignore
            .lines()
            .any(|l| l.trim() == format!("/{dir}") || l.trim() == format!("/{dir}/")),
        ".gitignore does not ignore /{dir}"
    );
    assert_eq!(book["build"]["create-missing"].as_bool(), Some(false));
}

#[test]
fn no_page_uses_preprocessor_syntax() {
    let mut bad = Vec::new();
    for p in pages::pages() {
        for (n, l) in read(&p).lines().enumerate() {
            if l.contains("{{#") {
                bad.push(format!("{p}:{}: {l}", n + 1));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "mdBook preprocessor syntax that the tests cannot expand:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_readme_is_a_front_page() {
    let readme = read("README.md");
    let n = readme.lines().count();
    assert!(
        n <= 200,
        "README.md has {n} lines: the front page keeps to 200, the rest goes under docs/"
    );
    let targets: Vec<String> = links(&readme).into_iter().map(|(_, t)| t).collect();
    for page in [
        "docs/reference/cli.md",
        "docs/reference/scenario-format.md",
        "docs/measurements/fidelity.md",
        "docs/getting-started.md",
    ] {
        assert!(
            targets.iter().any(|t| t == page),
            "README.md does not link {page}"
        );
    }
    for cmd in ["cargo run --release", "cargo test"] {
        assert!(readme.contains(cmd), "README.md does not give `{cmd}`");
    }
    assert!(readme.contains("<!-- generated by tests/docs/readme_generated.rs: tui-screen "));
}

/// Every shipped scenario is in the scenario tables of the front page and
/// of the book, and each row names a scenario that exists.
#[test]
fn the_scenario_tables_list_every_shipped_scenario() {
    let mut shipped: Vec<String> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    shipped.sort();
    assert!(shipped.len() >= 10, "{shipped:?}");
    for page in ["README.md", "docs/scenarios.md"] {
        let text = read(page);
        let mut rows: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("| [`"))
            .filter_map(|l| l.split_once('`').map(|(n, _)| n.to_string()))
            .collect();
        rows.sort();
        assert_eq!(rows, shipped, "{page}'s scenario table");
    }
}

#[test]
fn the_link_reader_finds_links_and_anchors_as_the_renderers_do() {
    assert_eq!(
        slug("The path diff: `trapscope diff`"),
        "the-path-diff-trapscope-diff"
    );
    assert_eq!(slug("The reviewer's recipe"), "the-reviewers-recipe");
    assert_eq!(
        slug("LR/SC loops and AMOs (seed 004)"),
        "lrsc-loops-and-amos-seed-004"
    );
    assert_eq!(
        slug("What the model does and does not do (yet)"),
        "what-the-model-does-and-does-not-do-yet"
    );
    assert_eq!(slug("`trapscope verify`"), "trapscope-verify");
    assert_eq!(slug("snake_case and-dash"), "snake_case-and-dash");
    assert_eq!(slug("A [link](x.md) inside"), "a-link-inside");
    let text = "# A\n\nSee [b](b.md#x), ![i](i.png) and `[no](link.md)`.\n\
                ```\n[nor](this.md)\n# Not a heading\n```\n\
                [over a\nline](c.md) [ext](https://example.org)\n[ref]: d.md\n## A\n";
    let got: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        got,
        ["b.md#x", "i.png", "c.md", "https://example.org", "d.md"]
    );
    assert_eq!(anchors(text), ["a", "a-1"]);
    assert!(is_external("https://example.org") && is_external("mailto:a@b"));
    assert!(!is_external("guides/x.md") && !is_external("#a:b") && !is_external("../a.md"));
    assert_eq!(
        resolve("docs/guides/a.md", "../b.md#c"),
        ("docs/b.md".into(), Some("c".into()))
    );
    assert_eq!(
        resolve("docs/a.md", "../ARCHITECTURE.md"),
        ("ARCHITECTURE.md".into(), None)
    );
    assert_eq!(
        resolve("README.md", "#x"),
        ("README.md".into(), Some("x".into()))
    );
}

/// The link checker flags what is broken: a missing file, a missing heading,
/// an anchor into a file that is no page; and passes what is whole.
#[test]
fn the_link_checker_flags_broken_links() {
    let text = "[a](patch-review.md#the-reviewers-recipe) [b](nope.md)\n\
                [c](patch-review.md#nope) [d](../../Cargo.toml#x)\n\
                [e](../../ARCHITECTURE.md) [f](#the-reviewers-recipe) [g](https://x.org/y)\n";
    let bad = broken_links_in("docs/guides/patch-review.md", text);
    assert_eq!(bad.len(), 3, "{bad:#?}");
    assert!(
        bad[0].starts_with("docs/guides/patch-review.md:1: nope.md: no file"),
        "{}",
        bad[0]
    );
    assert!(bad[1].contains("has no heading #nope"), "{}", bad[1]);
    assert!(bad[2].contains("which is no page"), "{}", bad[2]);
    // The same page's links, read from another depth, miss.
    let page = read("docs/reference/cli.md");
    assert!(broken_links_in("docs/reference/cli.md", &page).is_empty());
    assert!(broken_links_in("docs/x/y/cli.md", &page).len() > 5);
}

/// Every test file a page names (`tests/...rs`) exists, and every
/// `cargo test --test NAME` names a test binary, so that a reader sent to a
/// test finds it (the tests moved into groups once; this keeps the pages
/// from drifting again).
#[test]
fn the_tests_the_pages_name_exist() {
    let mut pages: Vec<String> = crate::pages::pages();
    pages.push("ARCHITECTURE.md".into());
    pages.push("guest-asm/README.md".into());
    let binaries: Vec<String> = std::fs::read_dir(root().join("tests"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("main.rs").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for page in &pages {
        let text = read(page);
        for (at, _) in text.match_indices("tests/") {
            let word: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || "_/.".contains(*c))
                .collect();
            let word = word.trim_end_matches('.');
            if !word.ends_with(".rs") || word.contains("NAME") {
                continue;
            }
            // A path inside the repository, not one under another root
            // (src/isa/tests/...).
            if at > 0 && text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '/') {
                continue;
            }
            seen += 1;
            if !root().join(word).exists() {
                wrong.push(format!("{page}: {word}"));
            }
        }
        for (at, _) in text.match_indices("--test ") {
            let name: String = text[at + "--test ".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() || name == "NAME" {
                continue;
            }
            seen += 1;
            if !binaries.contains(&name) {
                wrong.push(format!("{page}: --test {name}"));
            }
        }
    }
    assert!(seen > 10, "only {seen} test names found");
    assert!(
        wrong.is_empty(),
        "pages name tests that do not exist (binaries: {binaries:?}):\n{}",
        wrong.join("\n")
    );
}

//! Where `review`'s snapshots live (the cache, a scratch directory, or the
//! directory beside `--scenario-out`), and the scenario it builds from
//! them: one variant per side and init, a `[[pair]]` per init.

use std::path::{Path, PathBuf};

use crate::snapshot::format;

/// One variant of the built scenario.
pub struct Variant {
    pub name: String,
    /// Its snapshot directory as the scenario names it.
    pub snapshot: String,
}

/// The snapshot files a copy takes (`snapshot -o DIR` writes these).
const FILES: [&str; 4] = [
    format::MANIFEST,
    format::RAM_FILE,
    format::INIT_FILE,
    format::CONSOLE_FILE,
];

/// Puts the snapshot of `from` into `to` (made if missing), each file hard
/// linked when it can be (the cache replaces files whole, never in place,
/// so a link stays the snapshot it was), copied otherwise.
pub fn copy_snapshot(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for f in FILES {
        let src = from.join(f);
        if !src.exists() {
            continue;
        }
        let dst = to.join(f);
        let _ = std::fs::remove_file(&dst);
        if std::fs::hard_link(&src, &dst).is_err() {
            std::fs::copy(&src, &dst)
                .map_err(|e| format!("{} → {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

/// The directory beside `--scenario-out FILE` for its snapshots:
/// `FILE`'s name with `.snapshots` for its extension.
pub fn beside(file: &Path) -> PathBuf {
    file.with_extension("snapshots")
}

/// `--scenario-out FILE` for one of several VLEN groups: `FILE` itself for
/// the group without a tag, else `STEM-vlenN.toml` beside it.
pub fn for_group(file: &Path, tag: &str) -> PathBuf {
    if tag.is_empty() {
        return file.to_path_buf();
    }
    let stem = file.file_stem().unwrap_or_default().to_string_lossy();
    let ext = file
        .extension()
        .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
    file.with_file_name(format!("{stem}{tag}{ext}"))
}

/// A TOML string literal.
fn lit(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The scenario's text: the variants (in pairs, before then after, per
/// init), every core asked for, and the init's loop measured as
/// `trapscope snapshot`'s scenarios measure it (10 warm-up iterations,
/// then `iterations`, 100 by default).
pub fn scenario_toml(
    title: &str,
    patch: &str,
    cores: &[String],
    variants: &[Variant],
    pairs: &[(String, String, String)],
    loop_symbol: &str,
    iterations: u64,
) -> String {
    let mut o = String::new();
    o.push_str("# Written by `trapscope review`; run it again with\n");
    o.push_str("# `trapscope compare` or `trapscope diff` on this file.\n");
    o.push_str(&format!("title = {}\npatch = {}\n", lit(title), lit(patch)));
    let cs: Vec<String> = cores.iter().map(|c| lit(c)).collect();
    o.push_str(&format!("cores = [{}]\n", cs.join(", ")));
    for v in variants {
        o.push_str(&format!(
            "\n[[variants]]\nname = {}\nsnapshot = {}\n",
            lit(&v.name),
            lit(&v.snapshot)
        ));
    }
    for (b, a, label) in pairs {
        o.push_str(&format!(
            "\n[[pair]]\nbefore = {}\nafter = {}\nlabel = {}\n",
            lit(b),
            lit(a),
            lit(label)
        ));
    }
    o.push_str(&format!(
        "\n[measure]\niteration = {}\nwarmup = 10\niterations = {iterations}\n",
        lit(loop_symbol)
    ));
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scenario_reads_back_as_written() {
        let t = scenario_toml(
            "a \"quoted\" title",
            "p",
            &["u74".into(), "x60".into()],
            &[
                Variant {
                    name: "before".into(),
                    snapshot: "/c/k1".into(),
                },
                Variant {
                    name: "after".into(),
                    snapshot: "r.snapshots/after".into(),
                },
            ],
            &[("before".into(), "after".into(), "getppid".into())],
            "init_loop",
            100,
        );
        let v: toml::Value = toml::from_str(&t).unwrap();
        assert_eq!(v["title"].as_str(), Some("a \"quoted\" title"));
        assert_eq!(v["cores"].as_array().unwrap().len(), 2);
        assert_eq!(
            v["variants"][1]["snapshot"].as_str(),
            Some("r.snapshots/after")
        );
        assert_eq!(v["pair"][0]["after"].as_str(), Some("after"));
        assert_eq!(v["measure"]["iterations"].as_integer(), Some(100));
    }

    #[test]
    fn snapshots_go_beside_the_file() {
        assert_eq!(beside(Path::new("d/r.toml")), Path::new("d/r.snapshots"));
        assert_eq!(beside(Path::new("r")), Path::new("r.snapshots"));
    }
}

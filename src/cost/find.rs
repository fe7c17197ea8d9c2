//! Finding a core profile: a shipped one by name (`assets/cores/NAME.toml`)
//! or a user's own by path, the shipped names, and which of them run V at a
//! given VLEN (what to suggest for a snapshot with vector state).

use std::path::{Path, PathBuf};

use super::Profile;
use crate::located::ScenarioError;

/// Why `Profile::find` found no profile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FindError {
    /// No shipped profile has the name; `known` are the shipped names.
    #[error(
        "unknown core '{name}' (cores: {}; or give a path to a profile .toml)",
        known.join(", ")
    )]
    Unknown { name: String, known: Vec<String> },
    /// The file is not a valid profile (with its `file:line:col`).
    #[error(transparent)]
    Load(#[from] ScenarioError),
}

impl Profile {
    /// The shipped profiles directory.
    pub fn dir() -> PathBuf {
        crate::project_dir().join("assets").join("cores")
    }

    /// A shipped profile by name (`u74`), or a path to a user's own `.toml`.
    pub fn find(name_or_path: &str) -> Result<Profile, FindError> {
        let p = Path::new(name_or_path);
        if name_or_path.ends_with(".toml") || p.components().count() > 1 {
            return Ok(Profile::load(p)?);
        }
        let path = Profile::dir().join(format!("{name_or_path}.toml"));
        if !path.exists() {
            return Err(FindError::Unknown {
                name: name_or_path.to_string(),
                known: Profile::names(),
            });
        }
        Ok(Profile::load(&path)?)
    }

    /// The shipped profiles that run V 1.0 at `vlen` bits (what a snapshot
    /// taken at that VLEN needs), by name.
    pub fn with_v(vlen: u32) -> Vec<String> {
        Profile::names()
            .into_iter()
            .filter(|n| {
                Profile::find(n).is_ok_and(|p| {
                    p.vector.present.value && p.vector.vlen.value == vlen && p.vector_isa == "v1.0"
                })
            })
            .collect()
    }

    /// What to run a snapshot with vector state at `vlen` on instead of a
    /// core without V: the shipped profiles that have it, or a profile of
    /// the user's own.
    pub fn advice_for_vlen(vlen: u32) -> String {
        let cores = Profile::with_v(vlen);
        if cores.is_empty() {
            format!(
                "no shipped profile runs V 1.0 at VLEN {vlen}: give --core a profile of your own that does"
            )
        } else {
            format!(
                "run it with --core {} (or a variant's `core`)",
                cores.join(" or --core ")
            )
        }
    }

    pub fn names() -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(Profile::dir())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter_map(|e| {
                        let p = e.path();
                        if p.extension()? != "toml" {
                            return None;
                        }
                        Some(p.file_stem()?.to_string_lossy().into_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }
}

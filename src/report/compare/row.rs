//! One (core, variant) row of `compare`: the figures every rendering of
//! it reads (the text and Markdown tables, JSON, `[seed_table]`, the
//! paths that differ between cores). A leaf of its own so that those read
//! it without importing `compare.rs`, which imports them.

use std::collections::BTreeMap;

use serde::Serialize;

/// One (core, variant) row; these names are read by other tools.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub core: String,
    pub variant: String,
    pub cycles_per_iteration: f64,
    pub ns_per_iteration: f64,
    pub instructions_per_iteration: f64,
    /// Events per iteration.
    pub events: BTreeMap<String, f64>,
    /// Cycles per phase per iteration.
    pub phases: BTreeMap<String, f64>,
    /// Cycles per iteration by cost category.
    pub breakdown: BTreeMap<String, f64>,
    /// The figure measured on hardware, or null (none, or held out).
    pub reference_ns: Option<f64>,
    /// The figures given with `--measured`, or null.
    pub given_ns: Option<f64>,
    pub given_cycles: Option<f64>,
    pub unverified: Vec<String>,
    /// The figures' bands (`session::band`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<crate::session::EstimateBand>,
}

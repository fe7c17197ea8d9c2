//! The words a profile's name fields may hold (`bypass_from`, `bypass_to`,
//! `csr_write_flush`, `vector.waits_at`) and how a comma list of them is
//! split. A leaf of its own: the model reads the words (`class.rs`,
//! `model.rs`) and the load checks them (`validate.rs`), and the load must
//! not import the model, which imports the profile.

/// The names `bypass_from` may list.
pub const BYPASS_FROM: [&str; 7] = ["alu", "load", "mul", "div", "csr", "jump", "amo"];
/// The names `bypass_to` may list.
pub const BYPASS_TO: [&str; 5] = ["alu", "branch", "store_data", "mul", "jalr"];
/// The names `csr_write_flush` may be.
pub const FLUSH_RULES: [&str; 4] = ["all", "rocket", "status", "none"];
/// The names `vector.waits_at` may list.
pub const VECTOR_WAITS: [&str; 4] = ["status_write", "vsetvl", "vmv.x.s", "csr"];

/// The names of a comma list, trimmed, empty ones dropped.
pub fn list(s: &str) -> impl Iterator<Item = &str> {
    s.split(',').map(str::trim).filter(|x| !x.is_empty())
}

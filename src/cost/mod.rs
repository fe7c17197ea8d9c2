//! Cycle accounting: core profiles and the cost model.

pub mod model;
pub mod profile;
pub mod validate;

pub use model::{At, BlockCost, Cat, CostModel, Ledger, MILLI, N_CATS};
pub use profile::{Basis, Param, Profile};

#[cfg(test)]
mod tests;

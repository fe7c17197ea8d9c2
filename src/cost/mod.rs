//! Cycle accounting: core profiles and the cost model.

pub mod class;
pub mod depends;
mod find;
mod inorder;
pub mod ledger;
pub mod model;
mod params;
pub mod profile;
pub mod validate;
mod window;
mod words;

pub use find::FindError;
pub use model::{At, BlockCost, Cat, CostModel, Ledger, MILLI, N_CATS, PipeState};
pub use profile::{Basis, Param, Profile};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fp;
#[cfg(test)]
mod tests_group;

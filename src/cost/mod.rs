//! Cycle accounting: core profiles and the cost model.

pub mod class;
pub mod depends;
pub mod ends;
mod find;
mod inorder;
pub mod ledger;
pub mod model;
mod params;
pub mod profile;
mod ranged;
pub mod validate;
mod window;
mod words;

pub use ends::{Ends, Val};
pub use find::FindError;
pub use model::{At, BlockCost, Cat, CostModel, Ledger, MILLI, N_CATS, PipeState};
pub use profile::{Basis, Param, Profile, Ranged};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fp;
#[cfg(test)]
mod tests_group;

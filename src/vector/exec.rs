//! PLACEHOLDER (being written by the V-unit helper; overwrite freely).
use super::{Effect, VHost, VInsn, VTrap, VUnit};
pub fn execute(_: &mut VUnit, _: &VInsn, _: &mut impl VHost) -> Result<Effect, VTrap> {
    Err(VTrap::Unsupported("the V unit is being written".into()))
}

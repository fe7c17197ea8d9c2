//! PLACEHOLDER (being written by the V-unit helper; overwrite freely).
use super::VTrap;
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VOp {}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VInsn {
    pub op: Option<VOp>,
}
pub fn decode(raw: u32) -> Result<VInsn, VTrap> {
    Err(VTrap::Unsupported(format!(
        "{raw:#x}: the V unit is being written"
    )))
}

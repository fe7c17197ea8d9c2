//! `[[reference]]` tables: figures measured on hardware, each checked
//! against the scenario's cores, variants and phases, errors at
//! `file:line:col`.

use std::rc::Rc;

use super::super::{Locator, Reference, ScenarioError, Variant, dto};
use crate::cost::Profile;

/// The references, checked: a known variant, a core it runs on (its own
/// `core`, else one in `cores`), positive
/// figures, and a per-event figure's phase and event count.
pub(super) fn references(
    loc: &Locator<'_>,
    declared: &[dto::ReferenceDto],
    cores: &[Rc<Profile>],
    variants: &[Variant],
    phases: &[(String, Vec<String>)],
) -> Result<Vec<Reference>, ScenarioError> {
    let mut references = Vec::new();
    for r in declared {
        let Some(variant) = variants.iter().find(|v| v.name == *r.variant.get_ref()) else {
            return Err(loc.span(
                &r.variant,
                format!("reference for unknown variant '{}'", r.variant.get_ref()),
            ));
        };
        // A variant with its own `core` runs there alone; the others run
        // on every core in `cores`.
        match &variant.core {
            Some(own) if own.name != *r.core.get_ref() => {
                return Err(loc.span(
                    &r.core,
                    format!(
                        "reference for core '{}', but variant '{}' runs on its own core ({})",
                        r.core.get_ref(),
                        variant.name,
                        own.name
                    ),
                ));
            }
            Some(_) => {}
            None if !cores.iter().any(|c| c.name == *r.core.get_ref()) => {
                return Err(loc.span(
                    &r.core,
                    format!(
                        "reference for core '{}', which is not in `cores`",
                        r.core.get_ref()
                    ),
                ));
            }
            None => {}
        }
        for (what, v) in [("ns", r.ns), ("cycles", r.cycles)] {
            if let Some(x) = v
                && !(x.is_finite() && x > 0.0)
            {
                return Err(loc.span(
                    &r.variant,
                    format!(
                        "reference for '{}': {what} = {x} is not a positive figure",
                        r.variant.get_ref()
                    ),
                ));
            }
        }
        let per_event = match (&r.phase, r.per) {
            (None, None) => None,
            (Some(ph), Some(n)) if n.is_finite() && n > 0.0 => {
                if !phases.iter().any(|(name, _)| name == ph.get_ref()) {
                    return Err(loc.span(
                        ph,
                        format!("reference phase '{}' is not in [phases]", ph.get_ref()),
                    ));
                }
                if r.ns.is_some() {
                    return Err(loc.span(
                        ph,
                        "a per-event reference gives `cycles` (per event), not `ns`".to_string(),
                    ));
                }
                Some((ph.get_ref().clone(), n))
            }
            (Some(ph), _) => {
                return Err(loc.span(
                    ph,
                    "a reference with a `phase` needs `per`, a positive number of events per iteration"
                        .to_string(),
                ));
            }
            (None, Some(_)) => {
                return Err(loc.span(
                    &r.variant,
                    "a reference with `per` needs the `phase` whose cycles it divides".to_string(),
                ));
            }
        };
        references.push(Reference {
            core: r.core.get_ref().clone(),
            variant: r.variant.get_ref().clone(),
            ns: r.ns,
            cycles: r.cycles,
            per_event,
            comparable: r.comparable,
            what: r.what.clone(),
            source: r.source.clone(),
        });
    }
    Ok(references)
}

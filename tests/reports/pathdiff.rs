//! The before/after path diff (`trapscope diff`, `report::pathdiff`): the
//! total difference is the iterations' own cycle difference, text fits a
//! mail, the RAS mispredicts of seed 003 land where the guest program puts
//! them, and bad input gets one line and exit 2.

use crate::common;

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use trapscope::cost::{Cat, Profile};
use trapscope::report::pathdiff::{self, Line, Op, PathDiff};
use trapscope::scenario::Scenario;
use trapscope::session::RunOpts;
use trapscope::session::path::{self, Which};

/// Paths thousands of edits apart.
mod alignment;
/// The iterations compared and their totals.
mod iterations;
/// Text, JSON and bad input.
mod output;
/// Where seed 003's RAS mispredicts land.
mod seed_003;

const LIMIT: Duration = Duration::from_secs(60);

fn scenario(name: &str) -> Scenario {
    Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name),
    )
    .unwrap()
}

fn opts(core: Option<&str>, step: bool) -> RunOpts {
    RunOpts {
        core: core.map(|c| Rc::new(Profile::find(c).unwrap())),
        single_step: step,
        ..RunOpts::default()
    }
}

fn ras(l: &Line) -> bool {
    l.events.iter().any(|(c, _)| *c == Cat::RasMispredicts)
}

//! A run's band made a little at a time (the TUI's cycles pane, while it
//! waits for keys): each step costs one combination, and the band is
//! taken once every combination it needs is in the input's cache.

use std::rc::Rc;
use std::time::Instant;

use super::{Assign, BandInput, EstimateBand, of_work};

/// The band of a run's per-iteration figure, under way.
pub struct BandJob {
    input: Rc<BandInput>,
    todo: Vec<Assign>,
}

impl BandJob {
    pub fn new(input: Rc<BandInput>) -> BandJob {
        let mut j = BandJob {
            input,
            todo: Vec::new(),
        };
        j.plan();
        j
    }

    /// The combinations the band still needs: a dry run of `of_work`
    /// that costs nothing and notes what it would have costed. The ones
    /// it picks from others' results (all-low, all-high) come in a second
    /// round, once those are in.
    fn plan(&mut self) {
        self.input.dry.set(true);
        let _ = of_work(&[(&self.input, 1.0)]);
        self.input.dry.set(false);
        self.todo = self.input.missing.take();
    }

    /// Costs combinations until `until`; the band once it is complete.
    pub fn advance(&mut self, until: Instant) -> Option<EstimateBand> {
        loop {
            match self.todo.pop() {
                Some(a) => {
                    let _ = self.input.window(&a);
                }
                None => {
                    self.plan();
                    if self.todo.is_empty() {
                        return of_work(&[(&self.input, 1.0)]);
                    }
                }
            }
            if Instant::now() >= until {
                return None;
            }
        }
    }
}

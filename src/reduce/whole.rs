//! One change of everything at once: [`Whole`] switches off every unit of
//! a view in a single candidate, for views whose units only make sense
//! together (the layout view: the whitespace of a whole result laid out
//! again, kept or not as one).

use super::{Proposal, Search, Step, Units};
use crate::syntax::Mask;

/// Proposes switching off every present unit, once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Whole {
    done: bool,
}

impl Search for Whole {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        if self.done {
            return None;
        }
        let all = units.present_bfs(mask);
        (!all.is_empty()).then_some(Proposal::Off(all))
    }

    fn expect(&self) -> bool {
        // a change of whitespace seldom matters to a test
        true
    }

    fn step(&self) -> Step {
        Step::Whole
    }

    fn feedback(&mut self, _interesting: bool) {
        self.done = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::run;
    use crate::reduce::testing::{flat, FnOracle};

    #[test]
    fn everything_goes_in_one_candidate_or_nothing_does() {
        let tree = flat(5);
        let units = Units::new(&tree);
        for outcome in [true, false] {
            let mut seen = Vec::new();
            let mut oracle = FnOracle::new(&units, |present: &[_]| {
                seen.push(present.len());
                outcome
            });
            let mut mask = Mask::new(tree.len());
            let n = run(Whole::default(), &units, &mut mask, &mut oracle).expect("finished");
            drop(oracle);
            assert_eq!(seen, [0], "one candidate, with every unit off");
            assert_eq!(n, usize::from(outcome));
            assert_eq!(mask.count_off(), if outcome { 5 } else { 0 });
        }
    }
}

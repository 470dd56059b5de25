//! The oracle's side of a forecast of the plan (see
//! [`crate::reduce::ahead`]): what it asks of the session's
//! [`Forecaster`], and what it tells the forecast from its tests so far.
//!
//! With `-j`, free workers test ahead the texts a forecast names, while the
//! pass in flight ends. A forecast starts from the outcomes settled so far
//! and those the scheduler assumes; past its guessed branch, the other
//! branch of its first guess is forecast too, for a few texts. Invariant:
//! a forecast only names texts; their outcomes reach the plan through the
//! cache, as those of tests of the very text a candidate has.

use super::check::Checker;
use super::predict::Odds;
use super::tuning::BRANCH_TEXTS;
use crate::reduce::ahead::{Forecast, ForecastRequest, Seen, TestHistory};
use crate::reduce::Context;

/// What the plan will test after the pass in flight, if that pass ends as
/// guessed: the session's views of the plan, run again from the start.
pub(crate) trait Forecaster {
    /// The texts, the likeliest to be needed first, and the text the plan
    /// ends on if the forecast gets there.
    fn forecast(&mut self, request: ForecastRequest<'_>, history: &dyn TestHistory) -> Forecast;
}

/// What the evaluator's tests so far tell a forecast: the odds it guesses
/// by, and the texts tested or running.
pub(super) struct OracleHistory<'e, 'a> {
    pub odds: &'e Odds,
    pub checker: &'e Checker<'a>,
}

impl TestHistory for OracleHistory<'_, '_> {
    fn chance(&self, context: Context, expect: bool) -> f64 {
        self.odds.chance(context, expect)
    }

    fn seen(&self, text: &[u8]) -> Seen {
        self.checker.seen(text)
    }
}

/// Up to `want` texts `forecaster` says the plan will test after the
/// outcomes `outcomes` ends with, while their chance is at least
/// `floors.0` (`sure`: the chance that those outcomes hold); then, on the
/// workers left, up to [`BRANCH_TEXTS`] of the other branch of its first
/// guess, while their chance is at least `floors.1`. `outcomes` is given
/// back as it was.
pub(super) fn forecast_with_branch(
    forecaster: &mut dyn Forecaster,
    history: &OracleHistory<'_, '_>,
    outcomes: &mut Vec<bool>,
    want: usize,
    sure: f64,
    floors: (f64, f64),
) -> Forecast {
    let request = ForecastRequest { outcomes: outcomes.as_slice(), want, sure, floor: floors.0 };
    let mut forecast = forecaster.forecast(request, history);
    // the other branch of its first guess, on the workers left
    let left = want.saturating_sub(forecast.texts.len()).min(BRANCH_TEXTS);
    if let Some(branch) = forecast.branch.take().filter(|b| left > 0 && b.chance >= floors.1) {
        let given = outcomes.len();
        outcomes.extend_from_slice(&branch.outcomes);
        let request = ForecastRequest {
            outcomes: outcomes.as_slice(),
            want: left,
            sure: branch.chance,
            floor: floors.1,
        };
        for text in forecaster.forecast(request, history).texts {
            if !forecast.texts.contains(&text) {
                forecast.texts.push(text);
            }
        }
        outcomes.truncate(given);
    }
    forecast
}

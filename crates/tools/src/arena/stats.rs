//! Match statistics as engine testers compute them: game pairs (one opening played with
//! both colours) counted by their five outcomes, the Elo estimate with its interval from
//! those counts, and the generalised SPRT's log-likelihood ratio.
//!
//! The formulas are fishtest's (official-stockfish/fishtest, `server/fishtest/stats/`):
//! - the Elo estimate is `stat_util.get_elo` on pentanomial counts: the mean score of a
//!   game `mu` and its variance from the pairs (so the correlation inside a pair, which the
//!   shared opening causes, is in the interval), `mu +- 1.96 sigma / sqrt(games)`, each
//!   end turned into logistic Elo;
//! - the log-likelihood ratio is `LLRcalc.LLR_logistic`: the maximum-likelihood
//!   distribution of the five outcomes whose expected score is `L(elo0)`, against the one
//!   whose expected score is `L(elo1)` (`MLE_expected`: the secular equation of
//!   "support_MLE_multinomial", solved here by bisection), times the number of pairs.
//!
//! Elo here is logistic Elo, the scale of every other number of the arena: a score share
//! `s` is `-400 log10(1/s - 1)` Elo. (Fishtest's default is normalised Elo; logistic Elo is
//! its other model and the one cutechess-cli and OpenBench print.) Zero counts are
//! replaced by 1e-3 before either computation, as fishtest's `regularize` does, so a
//! match with no losses still has a finite estimate.

use serde::Serialize;
use std::fmt;
use thiserror::Error;

/// How often each of the five outcomes of a game pair happened, from the first player's
/// side: index = the pair's points in half points (0: lost both, 1: a loss and a draw,
/// 2: a win and a loss or two draws, 3: a win and a draw, 4: won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

/// The quantile of the standard normal law at 0.975.
const Z95: f64 = 1.959_963_984_540_054;
/// What fishtest's `regularize` puts in place of a zero count.
const REGULARIZE: f64 = 1e-3;

/// An Elo difference with its 95% interval and the likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    /// The probability that the first player is the stronger (fishtest's LOS).
    pub los: f64,
}

/// The logistic expected score of an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of a score share, clamped to [0.001, 0.999] as fishtest
/// clamps it, so that a clean sweep reads about +1200, not infinity.
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Pentanomial {
    /// Counts one pair from the first player's points in its two games (0, 0.5 or 1
    /// each).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The first player's mean score a game, from the raw counts.
    pub fn score(&self) -> f64 {
        let pairs = self.pairs();
        if pairs == 0 {
            return 0.5;
        }
        let points: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(i, &n)| i as f64 / 4.0 * f64::from(n))
            .sum();
        points / f64::from(pairs)
    }

    /// The counts as a distribution over the pair scores 0, 1/4, ..., 1 (zeros
    /// regularised), with the number of pairs it stands for.
    fn distribution(&self) -> (f64, [f64; 5]) {
        let counts = self
            .counts
            .map(|n| if n == 0 { REGULARIZE } else { f64::from(n) });
        let total: f64 = counts.iter().sum();
        (total, counts.map(|n| n / total))
    }

    /// The Elo difference with its 95% interval (fishtest's `get_elo`), or `None` before
    /// the first pair.
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.pairs() == 0 {
            return None;
        }
        let (pairs, p) = self.distribution();
        // As fishtest's `stats`: a pair is two games, and the spread is that of a pair's
        // points (i/2) around twice the mean a game, per game.
        let games = 2.0 * pairs;
        let mu: f64 = (0..5).map(|i| p[i] * pairs * (i as f64 / 2.0)).sum::<f64>() / games;
        let pair_mean = 2.0 * mu;
        let var: f64 = (0..5)
            .map(|i| p[i] * pairs * (i as f64 / 2.0 - pair_mean).powi(2))
            .sum::<f64>()
            / games;
        let spread = var.sqrt() / games.sqrt();
        Some(EloEstimate {
            elo: elo_of_score(mu),
            low: elo_of_score(mu - Z95 * spread),
            high: elo_of_score(mu + Z95 * spread),
            los: normal_cdf((mu - 0.5) / spread),
        })
    }

    /// The generalised log-likelihood ratio of H1 (the Elo difference is `elo1`) against
    /// H0 (it is `elo0`) for these pairs, in logistic Elo (fishtest's `LLR_logistic`).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (pairs, p) = self.distribution();
        let fit0 = most_likely_with_mean(&p, expected_score(elo0));
        let fit1 = most_likely_with_mean(&p, expected_score(elo1));
        pairs
            * (0..5)
                .map(|i| p[i] * (fit1[i].ln() - fit0[i].ln()))
                .sum::<f64>()
    }
}

/// The distribution over the pair scores 0, 1/4, ..., 1 that is most likely to have
/// produced the observed `p` among those whose mean is `mean` (0 < mean < 1). Lagrange
/// gives it as `p_i / (1 + x (a_i - mean))` for the `x` at which its mean is `mean`: the
/// root of the secular equation `sum p_i b_i / (1 + x b_i) = 0`, `b_i = a_i - mean`, which
/// decreases in `x` between its poles `-1/max b` and `-1/min b`, so bisection finds it.
fn most_likely_with_mean(p: &[f64; 5], mean: f64) -> [f64; 5] {
    let b: [f64; 5] = std::array::from_fn(|i| i as f64 / 4.0 - mean);
    let secular = |x: f64| -> f64 { (0..5).map(|i| p[i] * b[i] / (1.0 + x * b[i])).sum() };
    let (mut low, mut high) = (-1.0 / b[4], -1.0 / b[0]);
    let margin = 1e-12 * (high - low);
    (low, high) = (low + margin, high - margin);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if secular(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let x = 0.5 * (low + high);
    std::array::from_fn(|i| p[i] / (1.0 + x * b[i]))
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26 for erf, to
/// about 1e-7: plenty for a likelihood of superiority printed as a percentage).
fn normal_cdf(z: f64) -> f64 {
    if !z.is_finite() {
        return if z > 0.0 { 1.0 } else { 0.0 };
    }
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// A sequential probability ratio test between two Elo differences.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The largest chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The largest chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Which hypothesis a finished SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Hypothesis {
    H0,
    H1,
}

#[derive(Debug, Error, PartialEq)]
pub enum SprtError {
    #[error("--sprt '{0}': expected elo0=A,elo1=B[,alpha=0.05,beta=0.05]")]
    Syntax(String),
    #[error("--sprt: {0} must be a number")]
    NotANumber(String),
    #[error("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order { elo0: f64, elo1: f64 },
    #[error("--sprt: {name} must be between 0 and 0.5, not {value}")]
    Error { name: &'static str, value: f64 },
}

impl Sprt {
    /// Wald's bounds on the log-likelihood ratio: below the first H0 is accepted, above
    /// the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The hypothesis a log-likelihood ratio accepts, if it has crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = SprtError;

    /// `elo0=A,elo1=B[,alpha=X,beta=Y]`.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for piece in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = piece
                .split_once('=')
                .ok_or_else(|| SprtError::Syntax(text.to_owned()))?;
            let number = value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| SprtError::NotANumber(name.trim().to_owned()))?;
            match name.trim() {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                _ => return Err(SprtError::Syntax(text.to_owned())),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(SprtError::Syntax(text.to_owned()));
        };
        if elo0 >= elo1 {
            return Err(SprtError::Order { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::Error { name, value });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl fmt::Display for Hypothesis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Hypothesis::H0 => "H0",
            Hypothesis::H1 => "H1",
        })
    }
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;

//! Elo ratings by maximum likelihood: the Bradley-Terry model on the Elo scale, fitted to
//! every game at once, with 95% intervals from the observed Fisher information.
//!
//! P(i scores against j) = 1 / (1 + 10^((r_j - r_i) / 400)); a draw counts as half a win
//! and half a loss. Ratings are relative, so one player (the anchor) is fixed at 0 and
//! every interval is an interval for the difference from the anchor.

use serde::Serialize;
use thiserror::Error;

/// Elo points per natural-log-odds unit: 400 / ln 10.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The normal quantile for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub elo: f64,
    /// Standard error of `elo`, i.e. of the difference from the anchor.
    pub stderr: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Clone, Debug, PartialEq, Error)]
pub enum EloError {
    #[error("score and game tables must both be {n} x {n}")]
    Shape { n: usize },
    #[error("anchor {anchor} is not one of the {n} players")]
    Anchor { anchor: usize, n: usize },
    #[error("the results have no finite best fit (a player won or lost every game, or players never met); add a prior")]
    NoFiniteMaximum,
}

/// Head-to-head results: `score[i][j]` points of player i against player j (win 1, draw
/// 1/2) in `games[i][j]` games. `score[i][j] + score[j][i] == games[i][j]`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHead {
    pub score: Vec<Vec<f64>>,
    pub games: Vec<Vec<f64>>,
}

impl HeadToHead {
    pub fn new(n: usize) -> HeadToHead {
        HeadToHead {
            score: vec![vec![0.0; n]; n],
            games: vec![vec![0.0; n]; n],
        }
    }

    pub fn players(&self) -> usize {
        self.score.len()
    }

    /// Records one game; `points` is what `a` scored (1, 1/2 or 0).
    pub fn add(&mut self, a: usize, b: usize, points: f64) {
        self.score[a][b] += points;
        self.score[b][a] += 1.0 - points;
        self.games[a][b] += 1.0;
        self.games[b][a] += 1.0;
    }

    /// The same results plus `draws` virtual draws between every player and `anchor`: a
    /// weak prior that keeps a player who won or lost everything at a finite rating.
    pub fn with_prior(&self, anchor: usize, draws: f64) -> HeadToHead {
        let mut out = self.clone();
        for i in 0..self.players() {
            if i != anchor && draws > 0.0 {
                out.score[i][anchor] += draws / 2.0;
                out.score[anchor][i] += draws / 2.0;
                out.games[i][anchor] += draws;
                out.games[anchor][i] += draws;
            }
        }
        out
    }

    /// Log-likelihood of ratings `elo` (one per player).
    pub fn log_likelihood(&self, elo: &[f64]) -> f64 {
        let n = self.players();
        let mut total = 0.0;
        for i in 0..n {
            for j in 0..n {
                let s = self.score[i][j];
                if i != j && s > 0.0 {
                    // Each game appears once from each side: i's points against j, j's against i.
                    total += s * log_sigmoid((elo[i] - elo[j]) / ELO_PER_NAT);
                }
            }
        }
        total
    }

    fn check(&self) -> Result<usize, EloError> {
        let n = self.players();
        let square = |t: &Vec<Vec<f64>>| t.len() == n && t.iter().all(|row| row.len() == n);
        if square(&self.score) && square(&self.games) {
            Ok(n)
        } else {
            Err(EloError::Shape { n })
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// ln(sigmoid(x)) without overflow for large |x|.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Maximum-likelihood ratings with `anchor` at 0. Newton's method on the concave
/// log-likelihood, with step halving; the interval is +-1.96 standard errors from the
/// inverse of the observed information (the negated Hessian) at the optimum.
pub fn fit_elo(results: &HeadToHead, anchor: usize) -> Result<Vec<Rating>, EloError> {
    let n = results.check()?;
    if anchor >= n {
        return Err(EloError::Anchor { anchor, n });
    }
    // Work in natural log-odds units; the anchor stays at 0, the others are free.
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let mut theta = vec![0.0; n];
    let log_lik = |theta: &[f64]| {
        let elo: Vec<f64> = theta.iter().map(|t| t * ELO_PER_NAT).collect();
        results.log_likelihood(&elo)
    };
    let mut current = log_lik(&theta);
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..200 {
        let (gradient, info) = gradient_and_information(results, &theta, &free);
        information = info;
        let Some(inverse) = invert(&information) else {
            return Err(EloError::NoFiniteMaximum);
        };
        let step: Vec<f64> = (0..free.len())
            .map(|a| (0..free.len()).map(|b| inverse[a][b] * gradient[b]).sum())
            .collect();
        let mut scale = 1.0;
        let mut accepted = false;
        for _ in 0..40 {
            let mut trial = theta.clone();
            for (a, &i) in free.iter().enumerate() {
                trial[i] += scale * step[a];
            }
            let value = log_lik(&trial);
            if value >= current - 1e-12 {
                theta = trial;
                current = value;
                accepted = true;
                break;
            }
            scale /= 2.0;
        }
        let size = step.iter().fold(0.0f64, |m, s| m.max(s.abs())) * scale;
        if theta.iter().any(|t| t.abs() * ELO_PER_NAT > 10_000.0) {
            return Err(EloError::NoFiniteMaximum);
        }
        if !accepted || size < 1e-10 {
            break;
        }
    }
    let (gradient, info) = gradient_and_information(results, &theta, &free);
    if gradient.iter().any(|g| g.abs() > 1e-6) {
        return Err(EloError::NoFiniteMaximum);
    }
    information = info;
    let covariance = invert(&information).ok_or(EloError::NoFiniteMaximum)?;
    let mut ratings = vec![
        Rating {
            elo: 0.0,
            stderr: 0.0,
            low: 0.0,
            high: 0.0,
        };
        n
    ];
    for (a, &i) in free.iter().enumerate() {
        let elo = theta[i] * ELO_PER_NAT;
        let stderr = covariance[a][a].max(0.0).sqrt() * ELO_PER_NAT;
        ratings[i] = Rating {
            elo,
            stderr,
            low: elo - Z95 * stderr,
            high: elo + Z95 * stderr,
        };
    }
    Ok(ratings)
}

/// Gradient of the log-likelihood and the observed information (minus the Hessian), both
/// over the free players, in natural units.
fn gradient_and_information(
    results: &HeadToHead,
    theta: &[f64],
    free: &[usize],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = results.players();
    let mut gradient = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let games = results.games[i][j];
            if i == j || games == 0.0 {
                continue;
            }
            let p = sigmoid(theta[i] - theta[j]);
            gradient[i] += results.score[i][j] - games * p;
            let w = games * p * (1.0 - p);
            info[i][i] += w;
            info[i][j] -= w;
        }
    }
    let reduced_gradient = free.iter().map(|&i| gradient[i]).collect();
    let reduced_info = free
        .iter()
        .map(|&i| free.iter().map(|&j| info[i][j]).collect())
        .collect();
    (reduced_gradient, reduced_info)
}

/// Gauss-Jordan inverse with partial pivoting; `None` when (nearly) singular.
fn invert(matrix: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..n {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(n: usize, games: &[(usize, usize, u32, u32, u32)]) -> HeadToHead {
        // (a, b, wins of a, draws, losses of a)
        let mut h = HeadToHead::new(n);
        for &(a, b, w, d, l) in games {
            for _ in 0..w {
                h.add(a, b, 1.0);
            }
            for _ in 0..d {
                h.add(a, b, 0.5);
            }
            for _ in 0..l {
                h.add(a, b, 0.0);
            }
        }
        h
    }

    #[test]
    fn a_75_percent_score_is_about_191_elo() {
        let h = results(2, &[(0, 1, 150, 0, 50)]);
        let ratings = fit_elo(&h, 0).expect("fits");
        let expected = 400.0 * 3f64.log10();
        assert!((ratings[1].elo + expected).abs() < 1e-6, "{ratings:?}");
        assert_eq!(ratings[0].elo, 0.0);
        // Draws count as half a win: 100 wins and 100 draws in 200 games is also 75%.
        let h = results(2, &[(0, 1, 100, 100, 0)]);
        let ratings = fit_elo(&h, 1).expect("fits");
        assert!((ratings[0].elo - expected).abs() < 1e-6, "{ratings:?}");
        // One virtual draw moves 200 games only a little.
        let h = results(2, &[(0, 1, 150, 0, 50)]).with_prior(0, 1.0);
        let ratings = fit_elo(&h, 0).expect("fits");
        assert!((ratings[1].elo + 191.0).abs() < 2.0, "{ratings:?}");
    }

    #[test]
    fn the_interval_of_two_players_matches_the_binomial_standard_error() {
        // For two players the information is n p (1 - p) per natural unit squared.
        let h = results(2, &[(0, 1, 30, 0, 70)]);
        let ratings = fit_elo(&h, 0).expect("fits");
        let expected = ELO_PER_NAT / (100.0f64 * 0.3 * 0.7).sqrt();
        assert!((ratings[1].stderr - expected).abs() < 1e-6, "{ratings:?}");
        assert!((ratings[1].high - ratings[1].low - 2.0 * Z95 * expected).abs() < 1e-6);
        assert!(ratings[1].low < ratings[1].elo && ratings[1].elo < ratings[1].high);
    }

    #[test]
    fn the_fit_matches_a_brute_force_search_of_the_likelihood() {
        let h = results(3, &[(0, 1, 3, 2, 7), (0, 2, 1, 1, 10), (1, 2, 4, 3, 5)]);
        let ratings = fit_elo(&h, 0).expect("fits");
        // Coarse grid, then a fine grid around the best coarse point.
        let ll = |a: f64, b: f64| h.log_likelihood(&[0.0, a, b]);
        let mut best = (f64::NEG_INFINITY, 0.0, 0.0);
        for a in (-400..=800).step_by(4) {
            for b in (-400..=800).step_by(4) {
                let v = ll(a as f64, b as f64);
                if v > best.0 {
                    best = (v, a as f64, b as f64);
                }
            }
        }
        let (_, ca, cb) = best;
        for da in -80..=80 {
            for db in -80..=80 {
                let (a, b) = (ca + da as f64 * 0.05, cb + db as f64 * 0.05);
                let v = ll(a, b);
                if v > best.0 {
                    best = (v, a, b);
                }
            }
        }
        let (grid_ll, a, b) = best;
        assert!(
            (ratings[1].elo - a).abs() < 0.1,
            "{ratings:?} vs ({a}, {b})"
        );
        assert!(
            (ratings[2].elo - b).abs() < 0.1,
            "{ratings:?} vs ({a}, {b})"
        );
        let fit_ll = ll(ratings[1].elo, ratings[2].elo);
        assert!(
            fit_ll >= grid_ll - 1e-9,
            "fit {fit_ll} below grid {grid_ll}"
        );
    }

    #[test]
    fn players_with_equal_records_get_equal_ratings() {
        let h = results(3, &[(0, 1, 2, 0, 8), (0, 2, 2, 0, 8), (1, 2, 5, 0, 5)]);
        let ratings = fit_elo(&h, 0).expect("fits");
        assert!(
            (ratings[1].elo - ratings[2].elo).abs() < 1e-6,
            "{ratings:?}"
        );
        assert!(ratings[1].elo > 200.0);
    }

    #[test]
    fn a_perfect_record_needs_the_prior_to_get_a_finite_rating() {
        let h = results(3, &[(0, 1, 5, 2, 3), (0, 2, 0, 0, 10), (1, 2, 0, 0, 10)]);
        assert_eq!(fit_elo(&h, 0), Err(EloError::NoFiniteMaximum));
        let ratings = fit_elo(&h.with_prior(0, 1.0), 0).expect("finite with the prior");
        assert!(ratings[2].elo > ratings[1].elo + 100.0, "{ratings:?}");
        assert!(ratings[2].elo.is_finite() && ratings[2].stderr.is_finite());
        assert!(
            ratings[2].stderr > 50.0,
            "a perfect record is uncertain: {ratings:?}"
        );
    }

    #[test]
    fn the_anchor_is_zero_and_shapes_are_checked() {
        let h = results(3, &[(0, 1, 5, 0, 5), (1, 2, 6, 0, 4), (0, 2, 7, 0, 3)]);
        let ratings = fit_elo(&h, 2).expect("fits");
        assert_eq!(ratings[2].elo, 0.0);
        assert_eq!(ratings[2].stderr, 0.0);
        assert_eq!(fit_elo(&h, 3), Err(EloError::Anchor { anchor: 3, n: 3 }));
        let mut bad = h.clone();
        bad.games.pop();
        assert_eq!(fit_elo(&bad, 0), Err(EloError::Shape { n: 3 }));
    }
}

use super::*;

/// Pentanomial counts with fishtest's own answers for them: the log-likelihood ratio
/// (`LLRcalc.LLR_logistic(elo0, elo1, counts)`) and the Elo estimate with its interval
/// and LOS (`stat_util.get_elo(counts)`), computed by running fishtest's
/// `server/fishtest/stats` code (scipy's `brentq` and `norm`) on these inputs. The first
/// two count vectors are the examples at the end of fishtest's `stat_util.py`.
/// Counts, elo0, elo1, fishtest's LLR, and fishtest's (Elo, low, high, LOS).
type Reference = ([u32; 5], f64, f64, f64, [f64; 4]);

const FISHTEST: [Reference; 6] = [
    (
        [10789, 19328, 33806, 19402, 10543],
        -3.0,
        1.0,
        2.131_067_811_794_080_7,
        [
            -0.773_577_335_916_542_3,
            -2.051_167_691_664_677,
            0.503_992_099_791_366_6,
            0.117_658_858_032_775_1,
        ],
    ),
    (
        [1187, 7410, 13475, 7378, 1164],
        -3.0,
        1.0,
        2.861_527_180_594_63,
        [
            -0.442_607_799_223_684_1,
            -2.172_477_799_080_058,
            1.287_240_256_155_426_4,
            0.308_013_879_122_690_3,
        ],
    ),
    (
        [39, 2226, 31451, 2412, 40],
        0.2,
        0.9,
        2.162_542_580_048_359_3,
        [
            0.902_981_048_809_024,
            0.240_452_846_369_797_94,
            1.565_515_818_333_108_6,
            0.996_222_097_335_420_7,
        ],
    ),
    (
        [2, 5, 20, 12, 9],
        0.0,
        10.0,
        0.882_331_487_396_238_5,
        [
            77.249_839_341_784_65,
            24.985_975_318_181_968,
            133.227_569_822_271_36,
            0.998_235_415_631_953_7,
        ],
    ),
    (
        [0, 1, 3, 10, 26],
        0.0,
        50.0,
        5.343_412_590_341_166,
        [
            348.149_636_363_284_9,
            267.913_537_052_595_1,
            473.925_874_179_692_13,
            1.0,
        ],
    ),
    (
        [3, 0, 4, 1, 0],
        -10.0,
        10.0,
        -0.459_660_839_771_152_46,
        [
            -112.276_514_192_896_57,
            -299.527_812_898_867_47,
            25.276_858_370_482_298,
            0.055_891_445_300_044_564,
        ],
    ),
];

#[test]
fn the_log_likelihood_ratio_matches_fishtests() {
    for (counts, elo0, elo1, llr, _) in FISHTEST {
        let got = Pentanomial { counts }.llr(elo0, elo1);
        assert!(
            (got - llr).abs() < 1e-6 * llr.abs().max(1.0),
            "{counts:?} [{elo0}, {elo1}]: {got} against fishtest's {llr}"
        );
    }
}

#[test]
fn the_elo_estimate_and_its_interval_match_fishtests() {
    for (counts, _, _, _, [elo, low, high, los]) in FISHTEST {
        let got = Pentanomial { counts }.elo().expect("pairs were played");
        for (name, value, want) in [
            ("elo", got.elo, elo),
            ("low", got.low, low),
            ("high", got.high, high),
        ] {
            assert!(
                (value - want).abs() < 1e-6 * want.abs().max(1.0),
                "{counts:?} {name}: {value} against fishtest's {want}"
            );
        }
        // The normal distribution function here is good to about 1e-7.
        assert!((got.los - los).abs() < 1e-6, "{counts:?} LOS {}", got.los);
    }
}

/// The log-likelihood of observed frequencies `p` under the distribution `q`.
fn log_likelihood(p: &[f64; 5], q: &[f64; 5]) -> f64 {
    (0..5).map(|i| p[i] * q[i].ln()).sum()
}

#[test]
fn the_fitted_distribution_is_the_most_likely_one_with_its_mean() {
    // Checked from the definition, not from the method: the fit is a distribution, has the
    // required mean, and every small move that keeps both (along a direction orthogonal to
    // (1, ..., 1) and to the scores) makes the observed counts less likely.
    let observed = Pentanomial {
        counts: [4, 9, 30, 14, 7],
    };
    let (_, p) = observed.distribution();
    let scores: [f64; 5] = std::array::from_fn(|i| i as f64 / 4.0);
    for mean in [0.3, 0.5, 0.55, 0.7] {
        let q = most_likely_with_mean(&p, mean);
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{q:?}");
        let q_mean: f64 = (0..5).map(|i| q[i] * scores[i]).sum();
        assert!((q_mean - mean).abs() < 1e-9, "mean {q_mean} for {mean}");
        assert!(q.iter().all(|&x| x > 0.0));
        // Directions that keep the total and the mean: (1,-2,1,0,0), (0,1,-2,1,0),
        // (0,0,1,-2,1), and their sums.
        let directions = [
            [1.0, -2.0, 1.0, 0.0, 0.0],
            [0.0, 1.0, -2.0, 1.0, 0.0],
            [0.0, 0.0, 1.0, -2.0, 1.0],
            [1.0, -1.0, -1.0, 1.0, 0.0],
            [1.0, -1.0, 0.0, -1.0, 1.0],
        ];
        let best = log_likelihood(&p, &q);
        for d in directions {
            for step in [-1e-3, 1e-3] {
                let moved: [f64; 5] = std::array::from_fn(|i| q[i] + step * d[i]);
                assert!(
                    log_likelihood(&p, &moved) < best,
                    "mean {mean}: moving by {step} along {d:?} is more likely"
                );
            }
        }
    }
}

#[test]
fn the_estimate_is_the_mean_score_in_elo() {
    // Without zero counts the estimate is exactly the logistic Elo of the mean score.
    let pairs = Pentanomial {
        counts: [1, 2, 3, 4, 5],
    };
    let score = (2.0 * 0.25 + 3.0 * 0.5 + 4.0 * 0.75 + 5.0) / 15.0;
    assert!((pairs.score() - score).abs() < 1e-12);
    let estimate = pairs.elo().expect("pairs");
    assert!((estimate.elo - (-400.0 * (1.0 / score - 1.0).log10())).abs() < 1e-9);
    assert!(estimate.low < estimate.elo && estimate.elo < estimate.high);
    // 75% is 400 log10 3 Elo.
    assert!((elo_of_score(0.75) - 400.0 * 3f64.log10()).abs() < 1e-9);
    assert!((expected_score(elo_of_score(0.62)) - 0.62).abs() < 1e-12);
    assert_eq!(Pentanomial::default().elo(), None);
}

#[test]
fn a_pair_counts_its_points_in_half_points() {
    let mut pairs = Pentanomial::default();
    pairs.add_pair(1.0, 1.0);
    pairs.add_pair(1.0, 0.0);
    pairs.add_pair(0.5, 0.5);
    pairs.add_pair(0.0, 0.5);
    pairs.add_pair(1.0, 0.5);
    pairs.add_pair(0.0, 0.0);
    assert_eq!(pairs.counts, [1, 1, 2, 1, 1]);
    assert_eq!(pairs.pairs(), 6);
}

#[test]
fn wald_bounds_and_verdicts() {
    let sprt: Sprt = "elo0=0,elo1=10".parse().expect("valid");
    let (lower, upper) = sprt.bounds();
    // alpha = beta = 0.05: ln(0.05/0.95) and ln(0.95/0.05).
    assert!((lower + 19f64.ln()).abs() < 1e-12 && (upper - 19f64.ln()).abs() < 1e-12);
    assert_eq!(sprt.verdict(3.0), Some(Hypothesis::H1));
    assert_eq!(sprt.verdict(-3.0), Some(Hypothesis::H0));
    assert_eq!(sprt.verdict(0.0), None);
    let strict: Sprt = "elo0=-5, elo1=5, alpha=0.01, beta=0.1"
        .parse()
        .expect("valid");
    assert_eq!((strict.alpha, strict.beta), (0.01, 0.1));
    assert_eq!(strict.to_string().parse::<Sprt>(), Ok(strict));
}

#[test]
fn bad_sprt_settings_are_refused_with_their_reason() {
    for (text, want) in [
        ("elo0=0", "expected elo0=A,elo1=B"),
        ("elo0=5,elo1=0", "must be below elo1"),
        ("elo0=0,elo1=x", "elo1 must be a number"),
        ("elo0=0,elo1=5,alpha=0.7", "alpha must be between 0 and 0.5"),
        ("elo0=0,elo1=5,gamma=1", "expected elo0=A,elo1=B"),
    ] {
        let error = text.parse::<Sprt>().expect_err(text).to_string();
        assert!(error.contains(want), "{text}: {error}");
    }
}

#[test]
fn a_strong_lead_accepts_h1_and_an_even_match_leans_to_h0() {
    let sprt: Sprt = "elo0=0,elo1=50".parse().expect("valid");
    let lead = Pentanomial {
        counts: [0, 1, 3, 10, 26],
    };
    assert_eq!(
        sprt.verdict(lead.llr(sprt.elo0, sprt.elo1)),
        Some(Hypothesis::H1)
    );
    let even = Pentanomial {
        counts: [10, 20, 40, 20, 10],
    };
    assert!(even.llr(sprt.elo0, sprt.elo1) < 0.0);
    assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
}

//! Seeded randomness, the same on every platform: xoshiro256++ from `rand_xoshiro` (the
//! rust-random project's portable generators, whose streams never change between
//! versions, unlike `rand`'s `SmallRng`), seeded through SplitMix64, with the few draws the
//! players and the search need. Every stochastic player plays the same games from the same
//! seed natively and in the browser.

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};

/// SplitMix64's output for state `x`: spreads related seeds (1, 2, 3..) far apart.
pub fn splitmix64(x: u64) -> u64 {
    SplitMix64::seed_from_u64(x).next_u64()
}

#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    /// Any seed, 0 included, spread over the whole state by SplitMix64.
    pub fn new(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n` > 0), without modulo bias worth speaking of (Lemire's method).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly chosen element; `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len()))
        }
    }

    /// A uniformly chosen square of a non-empty bitboard.
    pub fn choose_bit(&mut self, bits: u64) -> Option<u8> {
        let count = bits.count_ones() as usize;
        if count == 0 {
            return None;
        }
        let mut rest = bits;
        for _ in 0..self.below(count) {
            rest &= rest - 1;
        }
        Some(rest.trailing_zeros() as u8)
    }
}

impl Rng {
    /// A standard normal sample (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit(); // in (0, 1], so the log is finite
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A standard Gumbel sample, -ln(-ln U).
    pub fn gumbel(&mut self) -> f64 {
        // U in (0, 1): both logarithms stay finite.
        let u = self.unit().max(f64::MIN_POSITIVE);
        -(-u.ln()).ln()
    }

    /// A Gamma(shape, 1) sample (Marsaglia and Tsang), `shape` > 0.
    pub fn gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            // Boost to shape + 1, then scale back (the standard trick for small shapes).
            let u = 1.0 - self.unit();
            return self.gamma(shape + 1.0) * u.powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v <= 0.0 {
                continue;
            }
            let u = 1.0 - self.unit();
            if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    /// A sample of the symmetric Dirichlet(alpha) distribution over `n` outcomes.
    pub fn dirichlet(&mut self, alpha: f64, n: usize) -> Vec<f64> {
        let draws: Vec<f64> = (0..n).map(|_| self.gamma(alpha)).collect();
        let sum: f64 = draws.iter().sum();
        if sum > 0.0 {
            draws.iter().map(|d| d / sum).collect()
        } else {
            vec![1.0 / n as f64; n]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_xoshiro256_plus_plus_seeded_by_splitmix64() {
        // The reference algorithms (Blackman and Vigna; Steele, Lea and Flood), written out
        // plainly: the crate must give exactly these numbers, or every seeded game and
        // test result would change under our feet.
        let mut x = 42u64;
        let mut splitmix = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut s = [splitmix(), splitmix(), splitmix(), splitmix()];
        let mut rng = Rng::new(42);
        for _ in 0..100 {
            let want = (s[0].wrapping_add(s[3])).rotate_left(23).wrapping_add(s[0]);
            let t = s[1] << 17;
            s[2] ^= s[0];
            s[3] ^= s[1];
            s[1] ^= s[2];
            s[0] ^= s[3];
            s[2] ^= t;
            s[3] = s[3].rotate_left(45);
            assert_eq!(rng.next_u64(), want);
        }
        assert_eq!(splitmix64(41), {
            let mut y = 41u64;
            y = y.wrapping_add(0x9e37_79b9_7f4a_7c15);
            y = (y ^ (y >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            y = (y ^ (y >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            y ^ (y >> 31)
        });
    }

    #[test]
    fn the_same_seed_gives_the_same_stream_and_different_seeds_differ() {
        let a: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..5)
            .scan(Rng::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn gamma_and_dirichlet_samples_have_the_right_means() {
        let mut rng = Rng::new(11);
        for shape in [0.3, 1.0, 4.0] {
            let mean: f64 = (0..40_000).map(|_| rng.gamma(shape)).sum::<f64>() / 40_000.0;
            assert!(
                (mean - shape).abs() < 0.05 * shape.max(1.0),
                "shape {shape}: mean {mean}"
            );
        }
        let sample = rng.dirichlet(0.3, 10);
        assert!((sample.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(sample.iter().all(|p| *p >= 0.0));
    }

    #[test]
    fn gumbel_samples_have_the_euler_mascheroni_mean() {
        let mut rng = Rng::new(12);
        let mean: f64 = (0..40_000).map(|_| rng.gumbel()).sum::<f64>() / 40_000.0;
        assert!((mean - 0.5772).abs() < 0.03, "{mean}");
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = Rng::new(1);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7)] += 1;
        }
        for count in counts {
            assert!((9_000..11_000).contains(&count), "{counts:?}");
        }
    }

    #[test]
    fn choose_bit_picks_only_set_bits_and_each_of_them() {
        let mut rng = Rng::new(3);
        let bits = 0b1011_0000_0001u64;
        let mut seen = 0u64;
        for _ in 0..200 {
            let b = rng.choose_bit(bits).expect("non-empty");
            assert!(bits & (1 << b) != 0);
            seen |= 1 << b;
        }
        assert_eq!(seen, bits);
        assert_eq!(rng.choose_bit(0), None);
    }
}

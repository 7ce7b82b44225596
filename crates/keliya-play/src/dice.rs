//! Randomness from a named, portable stream: the same seed gives the same bytes on every platform.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

pub struct Dice {
    rng: ChaCha8Rng,
}

impl Dice {
    pub fn new(seed: u64) -> Self {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Seed of game `index` of a simulation with `master` seed, independent of thread count and order.
    pub fn game_seed(master: u64, index: u64) -> u64 {
        splitmix(master ^ splitmix(index.wrapping_add(0x9e37_79b9_7f4a_7c15)))
    }

    /// Uniform integer in `0..n` without modulo bias (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        loop {
            if let Some(i) = below_or_reject(self.rng.next_u64(), n) {
                return i as usize;
            }
        }
    }

    /// Uniform float in [0, 1) with 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Index drawn from a list of probabilities.
    pub fn weighted(&mut self, probabilities: impl Iterator<Item = f64> + Clone) -> usize {
        let total: f64 = probabilities.clone().sum();
        let mut x = self.unit() * total;
        let mut last = 0;
        for (i, p) in probabilities.enumerate() {
            last = i;
            if x < p {
                return i;
            }
            x -= p;
        }
        last
    }
}

/// `x % n` when `x` is below the largest multiple of `n` that fits, `None` (draw again) otherwise, so
/// that every residue is equally likely. That multiple is above `u64::MAX - n`, so below that bound,
/// nearly every draw, it needs no working out: one division per draw, not two.
#[inline]
fn below_or_reject(x: u64, n: u64) -> Option<u64> {
    if x <= u64::MAX - n || x < u64::MAX - u64::MAX % n {
        Some(x % n)
    } else {
        None
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<usize> = {
            let mut d = Dice::new(7);
            (0..20).map(|_| d.below(6)).collect()
        };
        let b: Vec<usize> = {
            let mut d = Dice::new(7);
            (0..20).map(|_| d.below(6)).collect()
        };
        assert_eq!(a, b);
        assert!(a.iter().all(|&x| x < 6));
        assert_ne!(Dice::game_seed(1, 0), Dice::game_seed(1, 1));
    }

    #[test]
    fn a_draw_is_kept_or_rejected_as_by_the_largest_multiple() {
        // The rule written out: keep `x` below the largest multiple of `n` in range, as `x % n`.
        let plain = |x: u64, n: u64| (x < u64::MAX - u64::MAX % n).then(|| x % n);
        let mut dice = Dice::new(3);
        for n in [
            1,
            2,
            3,
            6,
            7,
            1000,
            u64::MAX / 3 + 1,
            u64::MAX / 2 + 7,
            u64::MAX - 1,
            u64::MAX,
        ] {
            let zone = u64::MAX - u64::MAX % n;
            let near = [
                0,
                1,
                u64::MAX - n,
                u64::MAX - n + 1,
                zone - 1,
                zone,
                u64::MAX,
            ];
            let random = (0..200).map(|_| dice.rng.next_u64());
            for x in near.into_iter().chain(random) {
                assert_eq!(below_or_reject(x, n), plain(x, n), "x {x}, n {n}");
            }
        }
        // Where the largest multiple is far below the range's end, the draws above it are rejected.
        let n = u64::MAX / 2 + 7;
        assert_eq!(below_or_reject(u64::MAX - 1, n), None);
        assert_eq!(below_or_reject(n - 1, n), Some(n - 1));
    }
}

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
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.rng.next_u64();
            if x < zone {
                return (x % n) as usize;
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
}

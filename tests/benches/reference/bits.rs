//! Random bits for the references, drawn from the dice of keliya-play 62 at a time and spent a few at a
//! time: a uniform choice among `n` takes the bits of `n - 1` and draws again when they make `n` or more
//! (exactly uniform, as `Dice::below`, at a fraction of its cost per draw).

use keliya_play::Dice;

pub struct Bits {
    dice: Dice,
    pool: u64,
    left: u32,
}

impl Bits {
    pub fn new(seed: u64) -> Bits {
        Bits {
            dice: Dice::new(seed),
            pool: 0,
            left: 0,
        }
    }

    /// `k` fresh random bits (`k <= 31`).
    #[inline]
    pub fn take(&mut self, k: u32) -> u32 {
        if self.left < k {
            // Every 62-bit number is equally likely: 2^62 divides 2^64, so nothing is rejected.
            self.pool = self.dice.below(1 << 62) as u64;
            self.left = 62;
        }
        let x = (self.pool & ((1u64 << k) - 1)) as u32;
        self.pool >>= k;
        self.left -= k;
        x
    }

    /// A uniform number in `0..n` (`0 < n <= 2^31`).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        let k = 32 - (n - 1).leading_zeros();
        loop {
            let x = self.take(k);
            if x < n {
                return x;
            }
        }
    }
}

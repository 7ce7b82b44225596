//! Piece counts per (site, kind), with what the move search and the repetition cap ask of them most
//! kept up to date beside them: on boards of up to 128 places, which sites hold a piece of each kind
//! and which hold any, as bit sets (read as one word on boards of up to 64); and on every board, a hash
//! of the counts.
//!
//! Every write goes through [`Counts::set`], so the two can never disagree with the counts. Reading a
//! count stays one load (the list is plain); `sites_with(p)` and a drop's `sites() where empty(x)` become
//! a walk over set bits instead of a test of every site.

/// Piece counts, `cells[site * kinds + kind]`, with their bit sets and hash.
pub struct Counts {
    cells: Vec<u16>,
    kinds: u32,
    /// `cell * site_of >> 32` is the cell's site: the division by `kinds`, as a multiplication (exact
    /// for every cell of a board with bit sets, see the test).
    site_of: u64,
    /// Whether the bit sets are kept: at most 128 sites and [`SET_KINDS`] kinds of piece.
    sets: bool,
    /// Whether they are also read as 64-bit sets (at most 64 sites), as the board's reach is.
    narrow: bool,
    /// Bit `s`: some piece stands on site `s` (sites 64 to 127 in `occupied_high`, bit `s - 64`).
    occupied: u64,
    /// Bit `s` of `with[k]`: a piece of kind `k` stands on site `s` (and of `with_high[k]`, on site
    /// `s + 64`). Kept as words apart so that a board of up to 64 places, where the search is
    /// hottest, works on one word.
    with: [u64; SET_KINDS],
    occupied_high: u64,
    with_high: [u64; SET_KINDS],
    /// The pieces of each kind on the whole board, off-board places included (kept with the sets:
    /// `total(p)` is read after every drop of a sowing that checks conservation).
    totals: [u64; SET_KINDS],
    /// Each count times its cell's weight ([`weight`]), summed: kept with every change, so that the
    /// repetition cap does not read the whole board every turn.
    hash: u64,
}

/// The most kinds of piece for which the bit sets are kept (the race games have eight).
pub(crate) const SET_KINDS: usize = 8;

/// The sites where a piece of any kind stands, from the sets of each kind: the words are read
/// whole, without a branch, which costs less than looking at a site's counts kind by kind.
#[inline]
fn any_kind(sets: &[u64; SET_KINDS]) -> u64 {
    sets.iter().fold(0, |any, &set| any | set)
}

impl Counts {
    /// Counts of `kinds` kinds of piece per site.
    pub fn new(cells: &[u16], kinds: usize) -> Counts {
        let list = cells.to_vec();
        let kinds = kinds.max(1);
        let sites = cells.len().div_ceil(kinds);
        let mut counts = Counts {
            cells: list,
            kinds: kinds as u32,
            site_of: (1u64 << 32) / kinds as u64 + 1,
            // (A list that is not whole sites, which no game makes, keeps none.)
            sets: sites <= 128 && kinds <= SET_KINDS && cells.len().is_multiple_of(kinds),
            narrow: sites <= 64 && kinds <= SET_KINDS && cells.len().is_multiple_of(kinds),
            occupied: 0,
            with: [0; SET_KINDS],
            occupied_high: 0,
            with_high: [0; SET_KINDS],
            totals: [0; SET_KINDS],
            hash: 0,
        };
        // (Most cells of a starting position are empty, and an empty cell adds nothing.)
        for cell in 0..counts.cells.len() {
            let n = counts.cells[cell];
            if n > 0 {
                counts.hash = counts
                    .hash
                    .wrapping_add(u64::from(n).wrapping_mul(weight(cell)));
                if counts.sets {
                    counts.mark(cell, 0, n);
                }
            }
        }
        counts
    }

    /// Sets the count of one cell (a site and kind, as `site * kinds + kind`).
    #[inline]
    pub fn set(&mut self, cell: usize, n: u16) {
        let old = std::mem::replace(&mut self.cells[cell], n);
        let change = u64::from(n).wrapping_sub(u64::from(old));
        self.hash = self.hash.wrapping_add(change.wrapping_mul(weight(cell)));
        if self.sets {
            self.mark(cell, old, n);
        }
    }

    /// [`Counts::set`], or false when there is no such cell.
    pub fn try_set(&mut self, cell: usize, n: u16) -> bool {
        let fits = cell < self.cells.len();
        if fits {
            self.set(cell, n);
        }
        fits
    }

    /// Takes every piece off.
    pub fn remove_all(&mut self) {
        self.cells.iter_mut().for_each(|c| *c = 0);
        self.occupied = 0;
        self.with = [0; SET_KINDS];
        self.occupied_high = 0;
        self.with_high = [0; SET_KINDS];
        self.totals = [0; SET_KINDS];
        self.hash = 0;
    }

    /// The bit sets and totals after `cell` was set from `old` to `n`.
    #[inline]
    fn mark(&mut self, cell: usize, old: u16, n: u16) {
        let site = ((cell as u64 * self.site_of) >> 32) as usize;
        let kind = cell - site * self.kinds as usize;
        self.totals[kind] = (self.totals[kind] + u64::from(n)) - u64::from(old);
        if site >= 64 {
            return self.mark_high(site, kind, n);
        }
        let bit = 1u64 << site;
        if n > 0 {
            self.with[kind] |= bit;
            self.occupied |= bit;
        } else {
            self.with[kind] &= !bit;
            // The site stays occupied while a piece of another kind stands there.
            self.occupied &= !bit | any_kind(&self.with);
        }
    }

    /// [`Counts::mark`]'s sets for a site from 64 on (out of the way of the boards that fit one word).
    #[cold]
    fn mark_high(&mut self, site: usize, kind: usize, n: u16) {
        let bit = 1u64 << (site - 64);
        if n > 0 {
            self.with_high[kind] |= bit;
            self.occupied_high |= bit;
        } else {
            self.with_high[kind] &= !bit;
            self.occupied_high &= !bit | any_kind(&self.with_high);
        }
    }

    /// Bit `s` set when a piece of kind `kind` stands on site `s`; `None` where the sets are not kept.
    #[inline]
    pub(crate) fn sites_with(&self, kind: usize) -> Option<u64> {
        self.with.get(kind).copied().filter(|_| self.narrow)
    }

    /// Bit `s` set when some piece stands on site `s`; `None` where the sets are not kept.
    #[inline]
    pub(crate) fn occupied_sites(&self) -> Option<u64> {
        self.narrow.then_some(self.occupied)
    }

    /// Whether no piece stands on `site`, from the sets; `None` where they are not kept.
    #[inline]
    pub(crate) fn vacant(&self, site: usize) -> Option<bool> {
        let word = if site < 64 {
            self.occupied
        } else {
            self.occupied_high
        };
        self.sets.then_some(word >> (site & 63) & 1 == 0)
    }

    /// [`Counts::sites_with`] on boards of up to 128 places.
    #[inline]
    pub(crate) fn sites_with_wide(&self, kind: usize) -> Option<u128> {
        let (low, high) = (self.with.get(kind)?, self.with_high[kind]);
        self.sets
            .then_some(u128::from(*low) | u128::from(high) << 64)
    }

    /// [`Counts::occupied_sites`] on boards of up to 128 places.
    #[inline]
    pub(crate) fn occupied_wide(&self) -> Option<u128> {
        self.sets
            .then_some(u128::from(self.occupied) | u128::from(self.occupied_high) << 64)
    }

    /// Bit `s` set when no piece stands on site `s`; every bit where the sets are not kept (for tests
    /// that may rule a listing out, never in).
    #[inline]
    pub(crate) fn vacant_or_all(&self) -> u64 {
        if self.narrow {
            !self.occupied
        } else {
            u64::MAX
        }
    }

    /// Bit `s` set when a piece of kind `kind` stands on site `s`; every bit where the sets are not
    /// kept.
    #[inline]
    pub(crate) fn holding_or_all(&self, kind: usize) -> u64 {
        self.sites_with(kind).unwrap_or(u64::MAX)
    }

    /// The pieces of kind `kind` on the whole board, off-board places included; `None` where the
    /// sets are not kept.
    #[inline]
    pub(crate) fn total(&self, kind: usize) -> Option<u64> {
        self.totals.get(kind).copied().filter(|_| self.sets)
    }

    /// A hash of the counts alone, kept with every change (see [`weight`]).
    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }
}

/// The weight of a cell in [`Counts::hash`]: the hash is the sum of every count times its cell's
/// weight (wrapping), so a change of a count changes it by one multiplication. The weights are
/// 64-bit mixes (the finaliser of SplitMix64) of the cell's index, worked out when the program is
/// compiled for the first cells and when asked for the rest.
#[inline]
pub(crate) fn weight(cell: usize) -> u64 {
    match WEIGHTS.get(cell) {
        Some(&key) => key,
        None => mix(cell as u64),
    }
}

const WEIGHTS: [u64; 1024] = {
    let mut keys = [0; 1024];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = mix(i as u64);
        i += 1;
    }
    keys
};

/// Odd (so that no count is lost to a weight's factors of two) and well mixed.
const fn mix(i: u64) -> u64 {
    let mut x = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (x ^ (x >> 31)) | 1
}

impl Clone for Counts {
    fn clone(&self) -> Counts {
        Counts {
            cells: self.cells.clone(),
            kinds: self.kinds,
            site_of: self.site_of,
            sets: self.sets,
            narrow: self.narrow,
            occupied: self.occupied,
            with: self.with,
            occupied_high: self.occupied_high,
            with_high: self.with_high,
            totals: self.totals,
            hash: self.hash,
        }
    }
}

impl std::ops::Deref for Counts {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        &self.cells
    }
}

/// Counts are equal when their cells are (the sets and the hash follow from them).
impl PartialEq for Counts {
    fn eq(&self, other: &Counts) -> bool {
        self.cells == other.cells
    }
}
impl Eq for Counts {}
impl std::hash::Hash for Counts {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells.hash(state)
    }
}

impl std::fmt::Debug for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.cells.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sets and the hash kept change by change are the ones worked out afresh, whatever the
    /// order of the changes, on boards with and without sets.
    #[test]
    fn what_is_kept_beside_the_counts_follows_every_change() {
        for (sites, kinds) in [
            (10, 2),
            (64, 1),
            (35, 8),
            (21, 3),
            (65, 2),
            (73, 8),
            (128, 2),
            (129, 1),
            (12, 9),
        ] {
            let mut counts = Counts::new(&vec![0; sites * kinds], kinds);
            let mut seed = 0x1234_5678_u64;
            for step in 0..2000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let cell = (seed >> 33) as usize % (sites * kinds);
                let n = if step % 3 == 0 {
                    0
                } else {
                    (seed >> 20) as u16 % 3
                };
                counts.set(cell, n);
                let fresh = Counts::new(&counts, kinds);
                assert_eq!(counts.hash(), fresh.hash(), "{sites}x{kinds}, step {step}");
                assert_eq!(counts.occupied_sites(), fresh.occupied_sites());
                assert_eq!(counts.occupied_wide(), fresh.occupied_wide());
                for kind in 0..kinds {
                    assert_eq!(counts.sites_with(kind), fresh.sites_with(kind));
                    assert_eq!(counts.sites_with_wide(kind), fresh.sites_with_wide(kind));
                    assert_eq!(counts.total(kind), fresh.total(kind));
                    if let Some(total) = counts.total(kind) {
                        let sum: u64 = counts
                            .iter()
                            .skip(kind)
                            .step_by(kinds)
                            .map(|&c| u64::from(c))
                            .sum();
                        assert_eq!(total, sum);
                    }
                }
                if let Some(occupied) = fresh.occupied_wide() {
                    for site in 0..sites {
                        let cells = &counts[site * kinds..(site + 1) * kinds];
                        assert_eq!(occupied >> site & 1 == 1, cells.iter().any(|&c| c > 0));
                        assert_eq!(fresh.vacant(site), Some(cells.iter().all(|&c| c == 0)));
                        for (kind, &c) in cells.iter().enumerate() {
                            let with = fresh.sites_with_wide(kind).unwrap_or(0);
                            assert_eq!(with >> site & 1 == 1, c > 0);
                        }
                    }
                    // The narrow sets are the wide ones, where they are read.
                    if let Some(narrow) = fresh.occupied_sites() {
                        assert_eq!(u128::from(narrow), occupied);
                    }
                }
            }
            assert_eq!(counts.occupied_sites().is_some(), sites <= 64 && kinds <= 8);
            assert_eq!(counts.occupied_wide().is_some(), sites <= 128 && kinds <= 8);
        }
        // A list that is not whole sites keeps no sets, and setting its last cell is no panic.
        let mut counts = Counts::new(&[1, 0, 2], 2);
        assert_eq!(counts.occupied_sites(), None);
        counts.set(2, 0);
        assert_eq!(counts.hash(), Counts::new(&[1, 0, 0], 2).hash());
    }

    /// The multiplication that stands for the division by the number of kinds is exact on every
    /// board with sets.
    #[test]
    fn the_site_of_a_cell_is_its_index_divided_by_the_kinds() {
        for kinds in 1..=SET_KINDS {
            let counts = Counts::new(&[], kinds);
            for cell in 0..128 * kinds {
                assert_eq!(
                    ((cell as u64 * counts.site_of) >> 32) as usize,
                    cell / kinds
                );
            }
        }
    }

    #[test]
    fn emptying_a_cell_leaves_no_trace_in_the_hash() {
        let mut counts = Counts::new(&[0; 8], 2);
        let empty = counts.hash();
        counts.set(3, 5);
        assert_ne!(counts.hash(), empty);
        counts.set(3, 0);
        assert_eq!(counts.hash(), empty);
        counts.set(5, 1);
        counts.remove_all();
        assert_eq!(counts.hash(), empty);
        assert_eq!(counts.occupied_sites(), Some(0));
    }
}

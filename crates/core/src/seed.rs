//! Deterministic seeds: every trial's random stream is a pure function of
//! (experiment seed, method configuration, instance, trial), so any result row re-runs alone.

use rand::SeedableRng;

/// The random generator every method uses.
pub type Rng = rand_chacha::ChaCha8Rng;

/// A generator from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// The seed of one trial. `method` should name the method and its parameters (e.g.
/// `grasp alpha=0.3`), `instance` the puzzle (e.g. `datasets/x.txt:12`). Stable across
/// platforms and releases: FNV-1a over the fields, finished with SplitMix64.
pub fn derive_seed(experiment: u64, method: &str, instance: &str, trial: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator byte keeps ("ab","c") and ("a","bc") apart.
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    eat(&experiment.to_le_bytes());
    eat(method.as_bytes());
    eat(instance.as_bytes());
    eat(&trial.to_le_bytes());
    splitmix64(h)
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    #[test]
    fn stable_and_distinct() {
        let a = derive_seed(1, "prop", "x.txt:1", 0);
        assert_eq!(a, derive_seed(1, "prop", "x.txt:1", 0));
        assert_ne!(a, derive_seed(1, "prop", "x.txt:1", 1));
        assert_ne!(a, derive_seed(2, "prop", "x.txt:1", 0));
        assert_ne!(derive_seed(1, "ab", "c", 0), derive_seed(1, "a", "bc", 0));
        // Pinned: a change here silently changes every published result.
        assert_eq!(
            derive_seed(42, "grasp alpha=0.3", "seeds/000.txt:5", 3),
            0xc9b45bbfcea7b4e9
        );
        let mut r = rng_from_seed(7);
        let x: u64 = r.random();
        assert_eq!(x, rng_from_seed(7).random::<u64>());
    }
}

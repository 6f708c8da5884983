//! A shard of a run ([`Shard`]): every N-th task of the plan from the K-th, so that N machines
//! (or N runs one after another) share one experiment and `merge` joins their folders.

use std::fmt;
use std::str::FromStr;

use crate::error::RunError;

/// The K-th of N shards (1 ≤ K ≤ N): the tasks whose index is K − 1 modulo N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    k: usize,
    n: usize,
}

impl Shard {
    /// Shard `k` of `n`; `None` unless 1 ≤ k ≤ n.
    pub fn new(k: usize, n: usize) -> Option<Shard> {
        (1 <= k && k <= n).then_some(Shard { k, n })
    }

    /// K, from 1.
    pub fn k(self) -> usize {
        self.k
    }

    /// N.
    pub fn n(self) -> usize {
        self.n
    }

    /// Does the task at `index` (of the plan's stable order) belong to this shard?
    pub fn holds(self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// `K/N`, as `--shard` takes it and meta.json records it.
impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Reads `K/N` (spaces around either number allowed); the error names what is wrong.
impl FromStr for Shard {
    type Err = RunError;

    fn from_str(s: &str) -> Result<Shard, RunError> {
        let bad = |why: String| RunError::Shard(format!("--shard {s}: {why}"));
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| bad("expected k/N, e.g. 1/4".to_string()))?;
        let number = |what: &str, t: &str| {
            let t = t.trim();
            match t.parse::<usize>() {
                Ok(0) => Err(bad(format!(
                    "{what}: 0 is less than 1: give a whole number of at least 1"
                ))),
                Ok(v) => Ok(v),
                Err(_) if t.strip_prefix('-').is_some_and(digits) => Err(bad(format!(
                    "{what}: {t} is negative: give a whole number of at least 1"
                ))),
                Err(_) if digits(t.strip_prefix('+').unwrap_or(t)) => Err(bad(format!(
                    "{what}: {t} is too large: give a whole number of at least 1"
                ))),
                Err(_) => Err(bad(format!(
                    "{what}: `{t}` is not a whole number: give a whole number of at least 1"
                ))),
            }
        };
        let (k, n) = (number("k", k)?, number("N", n)?);
        Shard::new(k, n)
            .ok_or_else(|| bad(format!("k = {k} is more than N = {n} (need 1 <= k <= N)")))
    }
}

/// Every run of a non-empty string of ASCII digits.
fn digits(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_k_of_n_and_say_what_is_wrong() {
        let s: Shard = " 2 / 4".parse().unwrap();
        assert_eq!((s.k(), s.n(), s.to_string()), (2, 4, "2/4".to_string()));
        assert!((0..8).filter(|&i| s.holds(i)).eq([1, 5]));
        let e = |t: &str| t.parse::<Shard>().unwrap_err().to_string();
        assert_eq!(e("3"), "--shard 3: expected k/N, e.g. 1/4");
        assert_eq!(
            e("5/4"),
            "--shard 5/4: k = 5 is more than N = 4 (need 1 <= k <= N)"
        );
        assert_eq!(
            e("0/4"),
            "--shard 0/4: k: 0 is less than 1: give a whole number of at least 1"
        );
        assert_eq!(
            e("1/x"),
            "--shard 1/x: N: `x` is not a whole number: give a whole number of at least 1"
        );
    }
}

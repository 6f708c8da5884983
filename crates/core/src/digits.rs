//! Candidate sets: a fixed-width bitset of digits.
//!
//! `DigitSet<1>` is one machine word and covers every order up to 8 (N ≤ 64); wider orders use
//! `DigitSet<2>` (N ≤ 128) or `DigitSet<4>` (N ≤ 256). Methods pick the width once per puzzle
//! with [`crate::for_width`] (from [`crate::Order::words`]) and run monomorphised code, so
//! 9×9 pays for one word only.

use std::fmt;

/// Runs `$body` with the const `$w` bound to the candidate-set width (64-bit words) that
/// `$order` needs: 1 for orders 2..=8, 2 for 9..=11, 4 for 12..=16.
///
/// Why three widths: a `DigitSet<W>` is a `[u64; W]` held by value in every cell's state, so
/// the narrowest width that fits is the fastest; `W` is a const generic, so the choice is
/// made once per puzzle here and all the code below it is monomorphised. 3 words would save
/// little over 4 (orders 12..=13 only) and cost a third copy of every method.
///
/// `$body` is expanded once per width; its value must have one type for all three (a boxed
/// trait object, a result, an enum built per width through a trait).
///
/// ```
/// use sudoku_core::{for_width, DigitSet, Order};
///
/// fn words<const W: usize>(set: DigitSet<W>) -> usize {
///     set.words().len()
/// }
/// let order = Order::new(10).unwrap();
/// assert_eq!(for_width!(order, W => words(DigitSet::<W>::full(order.size()))), 2);
/// ```
#[macro_export]
macro_rules! for_width {
    ($order:expr, $w:ident => $body:expr) => {
        match $crate::Order::words($order) {
            1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            _ => {
                const $w: usize = 4;
                $body
            }
        }
    };
}

/// A set of digits `1..=N`, digit `d` stored at bit `d - 1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DigitSet<const W: usize>([u64; W]);

/// One-word candidate set (orders 2..=8).
pub type Digits64 = DigitSet<1>;

impl<const W: usize> Default for DigitSet<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> DigitSet<W> {
    /// No digit.
    pub const EMPTY: Self = DigitSet([0; W]);

    /// The largest digit this width holds.
    pub const CAPACITY: usize = 64 * W;

    /// Every digit `1..=size`.
    #[inline]
    pub fn full(size: usize) -> Self {
        debug_assert!(size <= Self::CAPACITY);
        let mut w = [0u64; W];
        for (i, word) in w.iter_mut().enumerate() {
            let lo = i * 64;
            if size >= lo + 64 {
                *word = u64::MAX;
            } else if size > lo {
                *word = (1u64 << (size - lo)) - 1;
            }
        }
        DigitSet(w)
    }

    /// The set holding only `d`.
    #[inline]
    pub fn single(d: usize) -> Self {
        let mut s = Self::EMPTY;
        s.insert(d);
        s
    }

    /// Is `d` in the set?
    #[inline]
    pub fn contains(&self, d: usize) -> bool {
        let b = d - 1;
        self.0[b / 64] >> (b % 64) & 1 == 1
    }

    /// Adds `d`.
    #[inline]
    pub fn insert(&mut self, d: usize) {
        let b = d - 1;
        self.0[b / 64] |= 1 << (b % 64);
    }

    /// Removes `d`; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, d: usize) -> bool {
        let b = d - 1;
        let mask = 1u64 << (b % 64);
        let had = self.0[b / 64] & mask != 0;
        self.0[b / 64] &= !mask;
        had
    }

    /// Number of digits in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Is the set empty?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The smallest digit, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize + 1);
            }
        }
        None
    }

    /// The digit, if the set holds exactly one.
    #[inline]
    pub fn only(&self) -> Option<usize> {
        if self.len() == 1 {
            self.first()
        } else {
            None
        }
    }

    /// The digits in increasing order.
    #[inline]
    pub fn iter(&self) -> DigitIter<W> {
        DigitIter {
            words: self.0,
            word: 0,
        }
    }

    /// Digits in both sets.
    #[inline]
    pub fn intersection(&self, other: &Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(other.0.iter()) {
            *a &= b;
        }
        DigitSet(w)
    }

    /// Digits in either set.
    #[inline]
    pub fn union(&self, other: &Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        DigitSet(w)
    }

    /// Digits in `self` and not in `other`.
    #[inline]
    pub fn difference(&self, other: &Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(other.0.iter()) {
            *a &= !b;
        }
        DigitSet(w)
    }

    /// The raw words, lowest digits first.
    #[inline]
    pub fn words(&self) -> &[u64; W] {
        &self.0
    }

    /// A set from raw words (bit `d - 1` is digit `d`).
    #[inline]
    pub fn from_words(words: [u64; W]) -> Self {
        DigitSet(words)
    }
}

impl<const W: usize> FromIterator<usize> for DigitSet<W> {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut s = Self::EMPTY;
        for d in iter {
            s.insert(d);
        }
        s
    }
}

impl<const W: usize> fmt::Debug for DigitSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the digits of a [`DigitSet`], smallest first.
pub struct DigitIter<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for DigitIter<W> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let w = &mut self.words[self.word];
            if *w != 0 {
                let b = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + b + 1);
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_word() {
        let mut s = Digits64::full(9);
        assert_eq!(s.len(), 9);
        assert!(s.remove(5));
        assert!(!s.remove(5));
        assert!(!s.contains(5));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 2, 3, 4, 6, 7, 8, 9]);
        assert_eq!(Digits64::single(7).only(), Some(7));
        assert_eq!(Digits64::full(64).len(), 64);
    }

    #[test]
    fn wide_sets_cross_word_boundaries() {
        let s = DigitSet::<4>::full(225);
        assert_eq!(s.len(), 225);
        assert!(s.contains(225) && !s.contains(226));
        let t: DigitSet<4> = [64, 65, 128, 129, 200].into_iter().collect();
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![64, 65, 128, 129, 200]);
        assert_eq!(t.intersection(&s).len(), 5);
        assert_eq!(s.difference(&t).len(), 220);
        assert_eq!(DigitSet::<2>::full(100).first(), Some(1));
        assert_eq!(DigitSet::<2>::single(100).only(), Some(100));
    }
}

//! `mmcol::crossover`: the crossover for list colourings of Latin squares. A colour is a
//! symbol here, not an interchangeable label as in graph colouring: a vertex's list says which
//! symbols it may hold, so a colour class keeps its symbol when it passes to the child (where
//! GPX, the greedy partition crossover of Galinier and Hao, renames classes). The child is
//! built class by class: each time the largest class, counted over the vertices not yet
//! coloured, of a symbol the child has not taken yet, from whichever parent holds it larger;
//! its vertices take that symbol and leave the other parent's classes. What no class covers
//! at the end (a vertex whose symbol in each parent went to the other's class) takes the
//! symbol of its list that clashes least with the child so far.

use rand::seq::SliceRandom as _;
use rand::Rng as _;
use sudoku_core::Rng;

use crate::tabu::TabuSearch;

/// What one crossover did, for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Made {
    /// Vertices the classes covered.
    pub(crate) inherited: usize,
    /// Vertices left to the fill.
    pub(crate) filled: usize,
}

/// The child of `a` and `b` (assignments of `search`'s graph, slots per vertex; `size`
/// symbols). `search` is only read for the graph (its assignment is left alone).
pub(crate) fn cross(
    search: &mut TabuSearch,
    a: &[u32],
    b: &[u32],
    size: usize,
    rng: &mut Rng,
) -> (Vec<u32>, Made) {
    let nv = a.len();
    let sym = |s: &TabuSearch, p: &[u32], v: usize| s.slot_digit(p[v]) as usize;
    // Each parent's classes, bucketed by symbol: members[at[d]..at[d + 1]].
    let classes = |p: &[u32]| {
        let mut at = vec![0u32; size + 1];
        for v in 0..nv {
            at[sym(search, p, v) + 1] += 1;
        }
        for d in 0..size {
            at[d + 1] += at[d];
        }
        let mut next = at.clone();
        let mut members = vec![0u32; nv];
        for v in 0..nv {
            let d = sym(search, p, v);
            members[next[d] as usize] = v as u32;
            next[d] += 1;
        }
        (at, members)
    };
    let parents = [(a, classes(a)), (b, classes(b))];
    // left[k][d]: vertices of parent k's class d not yet coloured.
    let mut left: [Vec<u32>; 2] = [
        (0..size)
            .map(|d| parents[0].1 .0[d + 1] - parents[0].1 .0[d])
            .collect(),
        (0..size)
            .map(|d| parents[1].1 .0[d + 1] - parents[1].1 .0[d])
            .collect(),
    ];
    let mut child = vec![u32::MAX; nv];
    let mut placed = vec![false; nv];
    let mut taken = vec![false; size];
    let mut inherited = 0;
    for _ in 0..size {
        // The largest class of a symbol not taken, from either parent, ties at random.
        let (mut most, mut pick, mut ties) = (0u32, None, 0u32);
        for d in (0..size).filter(|&d| !taken[d]) {
            for (k, l) in left.iter().enumerate() {
                let here = l[d];
                if here == 0 || here < most {
                    continue;
                }
                if here > most {
                    (most, ties) = (here, 0);
                }
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    pick = Some((k, d));
                }
            }
        }
        let Some((k, d)) = pick else { break };
        taken[d] = true;
        let (p, (at, members)) = &parents[k];
        for &v in &members[at[d] as usize..at[d + 1] as usize] {
            let v = v as usize;
            if placed[v] {
                continue;
            }
            placed[v] = true;
            child[v] = p[v];
            inherited += 1;
            left[0][sym(search, a, v)] -= 1;
            left[1][sym(search, b, v)] -= 1;
        }
    }
    let mut rest: Vec<usize> = (0..nv).filter(|&v| !placed[v]).collect();
    rest.shuffle(rng);
    for &v in &rest {
        let (mut least, mut pick, mut ties) = (u32::MAX, 0, 0u32);
        for s in search.slot_range(v) {
            let k = search.clashes_with(v, s, &child, &placed);
            if k < least {
                (least, pick, ties) = (k, s, 1);
            } else if k == least {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    pick = s;
                }
            }
        }
        child[v] = pick;
        placed[v] = true;
    }
    (
        child,
        Made {
            inherited,
            filled: rest.len(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tabu::TabuConfig;
    use sudoku_core::rng_from_seed;
    use sudoku_fixtures::carved_pattern;

    #[test]
    fn a_child_keeps_what_its_parents_share() {
        let p = carved_pattern(4, 0.4, 3);
        let mut rng = rng_from_seed(1);
        let mut s = TabuSearch::new(&p, &TabuConfig::default(), &mut rng).unwrap();
        let a = s.new_start(false, &mut rng);
        let b = s.new_start(false, &mut rng);
        let (same, made) = cross(&mut s, &a, &a, 16, &mut rng);
        assert_eq!(same, a, "the child of one parent twice is that parent");
        assert_eq!((made.inherited, made.filled), (a.len(), 0));
        let (child, made) = cross(&mut s, &a, &b, 16, &mut rng);
        assert_eq!(made.inherited + made.filled, a.len());
        assert!(made.inherited > made.filled, "{made:?}");
        let agree = (0..a.len()).filter(|&v| a[v] == b[v]);
        for v in agree {
            assert_eq!(child[v], a[v], "vertex {v}: both parents hold one colour");
        }
        // Every colour the child gives is one of the vertex's own.
        for (v, &c) in child.iter().enumerate() {
            assert!(s.slot_range(v).contains(&c));
        }
    }
}

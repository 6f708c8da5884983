//! One AllDifferent constraint made generalised-arc-consistent by Régin's matching-based
//! filter (J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs",
//! AAAI 1994).
//!
//! The variables and their values form a bipartite graph. A maximum matching that covers every
//! variable is a solution of the constraint; an edge (variable, value) belongs to some such
//! matching exactly when, in the graph oriented with matching edges variable → value and the
//! others value → variable, it is matched, or lies on a cycle (both ends in one strongly
//! connected component), or can be reached from a free (unmatched) value. Every other edge is
//! removed.
//!
//! Incremental use: the matching is kept between calls. When domains shrink, only the matched
//! edges that left their domain are dropped and their variables re-matched by augmenting paths
//! (breadth-first, so the paths are short); a matching found under smaller domains stays valid
//! under the larger ones that backtracking restores, so it never needs undoing.

use sudoku_core::DigitSet;

/// No assignment satisfies the constraint: some set of variables has fewer values left than it
/// has members (a Hall violation), so no matching covers every variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Infeasible;

/// Scratch space for the filter, sized for values `1..=64 * W` and reused across calls and
/// constraints.
pub(crate) struct Scratch<const W: usize> {
    /// Per value: the variable the augmenting search reached it from.
    via: Vec<u16>,
    queue: Vec<u16>,
    /// Per value: Tarjan's visit index (0 = not visited in this call) and low link.
    index: Vec<u16>,
    low: Vec<u16>,
    stack: Vec<u16>,
    frames: Vec<(u16, DigitSet<W>)>,
    /// Per value: its strongly connected component, an index into `comps`.
    comp: Vec<u16>,
    comps: Vec<DigitSet<W>>,
    reached: Vec<bool>,
    /// Augmenting paths found (matching repairs), over the life of the scratch.
    pub(crate) augments: u64,
}

impl<const W: usize> Scratch<W> {
    pub(crate) fn new() -> Self {
        let values = DigitSet::<W>::CAPACITY + 1;
        Scratch {
            via: vec![0; values],
            queue: Vec::with_capacity(values),
            index: vec![0; values],
            low: vec![0; values],
            stack: Vec::with_capacity(values),
            frames: Vec::with_capacity(values),
            comp: vec![0; values],
            comps: Vec::with_capacity(values),
            reached: Vec::with_capacity(values),
            augments: 0,
        }
    }
}

/// Filters `dom` (one domain per variable) to generalised arc consistency, repairing the
/// matching `mate` (per variable: its value, 0 for none) / `owner` (per value: its variable + 1,
/// 0 for none; indexable by every value of the domains) first. On [`Infeasible`] the domains
/// are untouched and the matching is a valid partial one.
pub(crate) fn filter<const W: usize>(
    mate: &mut [u16],
    owner: &mut [u16],
    dom: &mut [DigitSet<W>],
    s: &mut Scratch<W>,
) -> Result<(), Infeasible> {
    let k = dom.len();
    // Matched edges that left their domain are dropped; their variables are matched again.
    for i in 0..k {
        let v = mate[i] as usize;
        if v != 0 && !dom[i].contains(v) {
            owner[v] = 0;
            mate[i] = 0;
        }
    }
    for i in 0..k {
        if mate[i] == 0 && !augment(i, mate, owner, dom, s) {
            return Err(Infeasible);
        }
    }
    let (mut matched, mut all) = (DigitSet::<W>::EMPTY, DigitSet::<W>::EMPTY);
    // The values of variables with one value left: each is a component of its own, and
    // there is nothing to prune at its variable.
    let mut fixed = DigitSet::<W>::EMPTY;
    for i in 0..k {
        matched.insert(mate[i] as usize);
        all = all.union(&dom[i]);
        if dom[i].len() == 1 {
            fixed.insert(mate[i] as usize);
        }
    }
    // Values reachable from a free value by an alternating path: every edge into them is
    // consistent (the path swaps the matching over to the free value).
    let mut reach = all.difference(&matched);
    if !reach.is_empty() {
        s.reached.clear();
        s.reached.resize(k, false);
        loop {
            let mut grew = false;
            for i in 0..k {
                if !s.reached[i] && !dom[i].intersection(&reach).is_empty() {
                    s.reached[i] = true;
                    reach.insert(mate[i] as usize);
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
    }
    // A cycle through an unreached value meets no reached one (all it reaches would be
    // reached), so the components are taken over the unreached matched values only, less
    // the fixed ones.
    let nodes = matched.difference(&reach).difference(&fixed);
    components(nodes, owner, dom, s);
    for i in 0..k {
        let m = mate[i] as usize;
        if fixed.contains(m) {
            continue;
        }
        let mut keep = reach;
        if !reach.contains(m) {
            keep = keep.union(&s.comps[s.comp[m] as usize]);
        }
        dom[i] = dom[i].intersection(&keep);
    }
    Ok(())
}

/// Matches variable `root` by a shortest augmenting path; `false` if there is none.
fn augment<const W: usize>(
    root: usize,
    mate: &mut [u16],
    owner: &mut [u16],
    dom: &[DigitSet<W>],
    s: &mut Scratch<W>,
) -> bool {
    let mut seen = DigitSet::<W>::EMPTY;
    s.queue.clear();
    s.queue.push(root as u16);
    let mut head = 0;
    while head < s.queue.len() {
        let y = s.queue[head] as usize;
        head += 1;
        let fresh = dom[y].difference(&seen);
        seen = seen.union(&fresh);
        for v in fresh.iter() {
            s.via[v] = y as u16;
            if owner[v] == 0 {
                // Flip the path: each variable on it takes the value it reached next.
                let (mut v, mut y) = (v, y);
                loop {
                    let prev = mate[y] as usize;
                    mate[y] = v as u16;
                    owner[v] = y as u16 + 1;
                    if y == root {
                        break;
                    }
                    v = prev;
                    y = s.via[v] as usize;
                }
                s.augments += 1;
                return true;
            }
            s.queue.push(owner[v] - 1);
        }
    }
    false
}

/// Tarjan's strongly connected components over the matched values `nodes`, with an edge
/// w → v when v is in the domain of w's variable: the value graph of the orientation above,
/// reversed (components do not change under reversal, and this way a node's successors are
/// one domain, read as a bitset). Fills `s.comp` for `nodes` and `s.comps`.
fn components<const W: usize>(
    nodes: DigitSet<W>,
    owner: &[u16],
    dom: &[DigitSet<W>],
    s: &mut Scratch<W>,
) {
    s.comps.clear();
    for v in nodes.iter() {
        s.index[v] = 0;
    }
    let succ = |w: usize| {
        let mut out = dom[owner[w] as usize - 1].intersection(&nodes);
        out.remove(w);
        out
    };
    let mut counter = 0u16;
    let mut on_stack = DigitSet::<W>::EMPTY;
    for r in nodes.iter() {
        if s.index[r] != 0 {
            continue;
        }
        counter += 1;
        (s.index[r], s.low[r]) = (counter, counter);
        s.stack.push(r as u16);
        on_stack.insert(r);
        s.frames.push((r as u16, succ(r)));
        while let Some((v, rest)) = s.frames.last_mut() {
            let v = *v as usize;
            if let Some(w) = rest.first() {
                rest.remove(w);
                if s.index[w] == 0 {
                    counter += 1;
                    (s.index[w], s.low[w]) = (counter, counter);
                    s.stack.push(w as u16);
                    on_stack.insert(w);
                    s.frames.push((w as u16, succ(w)));
                } else if on_stack.contains(w) {
                    s.low[v] = s.low[v].min(s.index[w]);
                }
                continue;
            }
            s.frames.pop();
            if let Some(&(p, _)) = s.frames.last() {
                let p = p as usize;
                s.low[p] = s.low[p].min(s.low[v]);
            }
            if s.low[v] == s.index[v] {
                let id = s.comps.len() as u16;
                let mut set = DigitSet::<W>::EMPTY;
                while let Some(w) = s.stack.pop() {
                    let w = w as usize;
                    on_stack.remove(w);
                    set.insert(w);
                    s.comp[w] = id;
                    if w == v {
                        break;
                    }
                }
                s.comps.push(set);
            }
        }
    }
}

/// One AllDifferent constraint over variables with values in `1..=64 * W`, kept
/// generalised-arc-consistent by [`AllDifferent::filter`]. It remembers its matching between
/// calls (the incremental use of the `gac` solver, one per unit, shown here standalone).
///
/// ```
/// use sudoku_core::DigitSet;
/// use sudoku_logic::gac::AllDifferent;
///
/// // x1 ∈ {1,2}, x2 ∈ {1,2}, x3 ∈ {1,2,3}: x3 must take 3.
/// let mut doms: Vec<DigitSet<1>> =
///     vec![[1, 2].into_iter().collect(), [1, 2].into_iter().collect(), [1, 2, 3].into_iter().collect()];
/// let mut c = AllDifferent::<1>::new(3);
/// c.filter(&mut doms).unwrap();
/// assert_eq!(doms[2], DigitSet::single(3));
/// // A fourth variable with only 1 and 2 left has no room: infeasible.
/// doms.push([1, 2].into_iter().collect());
/// let mut c = AllDifferent::<1>::new(4);
/// assert!(c.filter(&mut doms).is_err());
/// ```
pub struct AllDifferent<const W: usize> {
    mate: Vec<u16>,
    owner: Vec<u16>,
    scratch: Scratch<W>,
}

impl<const W: usize> AllDifferent<W> {
    /// A constraint over `vars` variables, with an empty matching.
    pub fn new(vars: usize) -> Self {
        AllDifferent {
            mate: vec![0; vars],
            owner: vec![0; DigitSet::<W>::CAPACITY + 1],
            scratch: Scratch::new(),
        }
    }

    /// Removes from `domains` (one per variable, as many as [`AllDifferent::new`] was given)
    /// every value that belongs to no solution of the constraint, and only those. A variable
    /// count other than the constructor's resets the matching.
    pub fn filter(&mut self, domains: &mut [DigitSet<W>]) -> Result<(), Infeasible> {
        if domains.len() != self.mate.len() {
            self.mate = vec![0; domains.len()];
            self.owner.fill(0);
        }
        filter(&mut self.mate, &mut self.owner, domains, &mut self.scratch)
    }

    /// Augmenting paths found so far (each repairs the matching by one variable).
    pub fn augmentations(&self) -> u64 {
        self.scratch.augments
    }
}

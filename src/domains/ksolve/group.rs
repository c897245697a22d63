//! The group a defined puzzle's moves generate, by the Schreier-Sims algorithm: its order, and
//! uniformly random elements (positions), for `generate --puzzle FILE --count N`.
//!
//! The group acts on the puzzle's (slot, turn) points, each move as `Ksolve::point_permutations`
//! gives it. The algorithm finds a base (points `b0, b1, ...`) and, for each `i`, the orbit of
//! `bi` under the elements that fix `b0..bi`, with one element taking `bi` to each point of it.
//! Every element is then one product of one such element per level, so the order is the product
//! of the orbits' sizes, and a product of one drawn uniformly per level is drawn uniformly from
//! the group.

/// A permutation of the points: `p[x]` is where `x` goes.
type Perm = Vec<u16>;

/// `a` then `b`.
fn then(a: &[u16], b: &[u16]) -> Perm {
    a.iter().map(|&x| b[usize::from(x)]).collect()
}

fn inverse(a: &[u16]) -> Perm {
    let mut inv = vec![0u16; a.len()];
    for (x, &y) in a.iter().enumerate() {
        inv[usize::from(y)] = x as u16;
    }
    inv
}

fn is_identity(a: &[u16]) -> bool {
    a.iter().enumerate().all(|(x, &y)| usize::from(y) == x)
}

/// One level of the chain: its base point, the generators of its stabilizer subgroup, and for
/// each point of the base point's orbit an element taking the base point there.
struct Level {
    base: usize,
    gens: Vec<Perm>,
    reps: Vec<Option<Perm>>,
}

/// The stabilizer chain of a group of permutations of `n` points.
pub struct Group {
    n: usize,
    levels: Vec<Level>,
}

impl Group {
    /// The group `gens` generate (each a permutation of the same points).
    pub fn new(n: usize, gens: &[Vec<u16>]) -> Group {
        let mut group = Group {
            n,
            levels: Vec::new(),
        };
        for g in gens {
            let (residue, at) = group.sift(g.clone(), 0);
            if !is_identity(&residue) {
                group.extend(residue, 0, at);
            }
        }
        group
    }

    /// `g` with the base points of levels `from..` fixed one by one, as far as the orbits allow:
    /// the rest, and the level whose orbit does not hold its base point's image (or the depth
    /// of the chain).
    fn sift(&self, mut g: Perm, from: usize) -> (Perm, usize) {
        for (i, level) in self.levels.iter().enumerate().skip(from) {
            match &level.reps[usize::from(g[level.base])] {
                Some(rep) => g = then(&g, &inverse(rep)),
                None => return (g, i),
            }
        }
        let depth = self.levels.len();
        (g, depth)
    }

    /// Adds `g`, an element that fixes the base points before level `to` and is not in the
    /// group so far, as a generator of levels `first..=to`: those whose subgroups it belongs to
    /// and may grow (the levels above `first` hold it already).
    fn extend(&mut self, g: Perm, first: usize, to: usize) {
        for k in (first..=to).rev() {
            self.add(g.clone(), k);
        }
    }

    /// `g` as a new generator of level `k` (a new last level if `k` is the depth): the orbit
    /// grows by what `g` reaches, and every new Schreier generator is sifted below.
    fn add(&mut self, g: Perm, k: usize) {
        if k == self.levels.len() {
            let base = (0..self.n)
                .find(|&x| usize::from(g[x]) != x)
                .expect("a generator that moves a point");
            let mut reps = vec![None; self.n];
            reps[base] = Some((0..self.n as u16).collect());
            self.levels.push(Level {
                base,
                gens: Vec::new(),
                reps,
            });
        }
        self.levels[k].gens.push(g.clone());
        let orbit: Vec<usize> = (0..self.n)
            .filter(|&x| self.levels[k].reps[x].is_some())
            .collect();
        for p in orbit {
            self.reach(k, p, &g);
        }
    }

    /// Generator `s` of level `k` applied to orbit point `p`: a new point joins the orbit (and
    /// meets every generator), or the Schreier generator it makes is sifted below.
    fn reach(&mut self, k: usize, p: usize, s: &[u16]) {
        let q = usize::from(s[p]);
        let to_p = self.levels[k].reps[p].clone().expect("an orbit point");
        match &self.levels[k].reps[q] {
            None => {
                self.levels[k].reps[q] = Some(then(&to_p, s));
                let gens = self.levels[k].gens.clone();
                for t in &gens {
                    self.reach(k, q, t);
                }
            }
            Some(to_q) => {
                let schreier = then(&then(&to_p, s), &inverse(to_q));
                let (residue, at) = self.sift(schreier, k + 1);
                if !is_identity(&residue) {
                    self.extend(residue, k + 1, at);
                }
            }
        }
    }

    /// The number of elements.
    pub fn order(&self) -> u128 {
        self.levels
            .iter()
            .map(|l| l.reps.iter().flatten().count() as u128)
            .product()
    }

    /// An element drawn uniformly, `below(m)` giving a number below `m`.
    pub fn random(&self, mut below: impl FnMut(u64) -> u64) -> Perm {
        let mut g: Perm = (0..self.n as u16).collect();
        for level in self.levels.iter().rev() {
            let orbit: Vec<&Perm> = level.reps.iter().flatten().collect();
            g = then(&g, orbit[below(orbit.len() as u64) as usize]);
        }
        g
    }

    /// Whether `g` is an element.
    pub fn contains(&self, g: &[u16]) -> bool {
        is_identity(&self.sift(g.to_vec(), 0).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::Rng;

    /// Symmetric and alternating groups, and a cyclic one, have their textbook orders; random
    /// elements are members and products of members are.
    #[test]
    fn orders_of_known_groups() {
        let cycle = |n: u16| (1..=n).map(|x| x % n).collect::<Perm>();
        let swap = |n: u16| {
            let mut p: Perm = (0..n).collect();
            p.swap(0, 1);
            p
        };
        let three = |n: u16| {
            let mut p: Perm = (0..n).collect();
            p[0] = 1;
            p[1] = 2;
            p[2] = 0;
            p
        };
        for n in [3u16, 5, 8, 12] {
            let factorial: u128 = (1..=u128::from(n)).product();
            let sym = Group::new(n.into(), &[cycle(n), swap(n)]);
            assert_eq!(sym.order(), factorial, "S{n}");
            // An odd cycle and a 3-cycle generate the alternating group.
            if n % 2 == 1 {
                let alt = Group::new(n.into(), &[cycle(n), three(n)]);
                assert_eq!(alt.order(), factorial / 2, "A{n}");
                assert!(!alt.contains(&swap(n)));
            }
            let cyclic = Group::new(n.into(), &[cycle(n)]);
            assert_eq!(cyclic.order(), u128::from(n));
            let mut rng = Rng::new(u64::from(n));
            for _ in 0..20 {
                let g = sym.random(|m| rng.below(m));
                assert!(sym.contains(&g));
                assert_eq!(cyclic.contains(&g), cyclic.contains(&then(&g, &cycle(n))));
            }
        }
    }
}

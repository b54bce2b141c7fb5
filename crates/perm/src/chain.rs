//! An answer for any position, fast but not shortest: a stabiliser chain whose coset
//! representatives are words in the moves, shortened by Minkwitz's method.
//!
//! Level `i` of the chain fixes the base points before `b_i` and holds, for each point `p` of
//! `b_i`'s orbit there, a word that takes `p` to `b_i`. A position sifts through the chain:
//! at each level the word for where the position sent `b_i` brings `b_i` home, and the words
//! one after another solve it. The words are found by Minkwitz's method (1998): every short
//! canonical sequence, then every product of two words of a level, and random sequences while
//! some point has no word, is sifted down the chain; at each level it passes, it (or its
//! inverse) replaces a longer word for the same point, and what is left of it goes on to the
//! next level while it is no longer than a limit (which grows while points lack words). The
//! work is counted in sifts, not seconds, so the words (and the answers) are the same on
//! every run.

use std::collections::HashMap;

use crate::group::Group;
use crate::perm::Perm;
use crate::puzzle::{Puzzle, Turn};
use crate::space::Metric;

/// How much work [`Chain::build`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainBudget {
    /// The most short canonical sequences sifted (all of each length while they fit).
    pub short_words: usize,
    /// The most products of two words sifted while shortening.
    pub products: usize,
    /// The seed of the random sequences that reach the points short words do not.
    pub seed: u64,
    /// The most elements near the identity kept with a shortest word each, to cut stretches
    /// of an answer short.
    pub ball: usize,
}

impl Default for ChainBudget {
    fn default() -> ChainBudget {
        ChainBudget {
            short_words: 50_000,
            products: 50_000,
            seed: 0x5eed_cafe_f00d_d00d,
            ball: 100_000,
        }
    }
}

/// A word in the moves, with its permutation and its length in the metric.
#[derive(Clone, Debug)]
struct Word {
    turns: Vec<Turn>,
    perm: Perm,
    cost: u32,
}

/// What the chain solver needs of the puzzle's moves.
#[derive(Clone, Debug)]
struct Moves {
    gens: Vec<Perm>,
    /// `powers[g][k]`: generator `g` to the power `k`.
    powers: Vec<Vec<Perm>>,
    orders: Vec<u8>,
    commute: Vec<Vec<bool>>,
    metric: Metric,
}

impl Moves {
    fn cost(&self, t: Turn) -> u32 {
        match self.metric {
            Metric::Htm => 1,
            Metric::Qtm => {
                let o = self.orders[usize::from(t.generator)];
                u32::from(t.power.min(o - t.power))
            }
        }
    }

    fn perm(&self, t: Turn) -> &Perm {
        &self.powers[usize::from(t.generator)][usize::from(t.power)]
    }

    fn inverse(&self, t: Turn) -> Turn {
        let o = self.orders[usize::from(t.generator)];
        Turn {
            generator: t.generator,
            power: o - t.power,
        }
    }

    /// Appends `t` to `word`, merging it with an earlier move of its generator that only
    /// commuting moves separate from the end (`R L R'` becomes `L`).
    fn push(&self, word: &mut Vec<Turn>, t: Turn) {
        let g = usize::from(t.generator);
        let mut k = word.len();
        while k > 0 {
            let prev = word[k - 1];
            let h = usize::from(prev.generator);
            if h == g {
                let power =
                    (u16::from(prev.power) + u16::from(t.power)) % u16::from(self.orders[g]);
                if power == 0 {
                    word.remove(k - 1);
                } else {
                    word[k - 1].power = power as u8;
                }
                return;
            }
            if !self.commute[h][g] {
                break;
            }
            k -= 1;
        }
        word.push(t);
    }

    /// `turns` with moves that cancel or merge across commuting moves removed, until
    /// nothing more does.
    fn reduce(&self, turns: &[Turn]) -> Vec<Turn> {
        let mut current = turns.to_vec();
        loop {
            let mut next = Vec::with_capacity(current.len());
            for &t in &current {
                self.push(&mut next, t);
            }
            if next.len() == current.len() {
                return next;
            }
            current = next;
        }
    }

    fn word(&self, turns: Vec<Turn>) -> Word {
        let turns = self.reduce(&turns);
        let n = self.gens.first().map_or(0, Perm::degree);
        let perm = turns
            .iter()
            .fold(Perm::identity(n), |p, &t| p.then(self.perm(t)));
        let cost = turns.iter().map(|&t| self.cost(t)).sum();
        Word { turns, perm, cost }
    }

    /// `a` then `b`, reduced.
    fn product(&self, a: &Word, b: &Word) -> Word {
        let mut turns = a.turns.clone();
        for &t in &b.turns {
            self.push(&mut turns, t);
        }
        let turns = self.reduce(&turns);
        let cost = turns.iter().map(|&t| self.cost(t)).sum();
        Word {
            turns,
            perm: a.perm.then(&b.perm),
            cost,
        }
    }

    fn inverse_word(&self, w: &Word) -> Word {
        Word {
            turns: w.turns.iter().rev().map(|&t| self.inverse(t)).collect(),
            perm: w.perm.inverse(),
            cost: w.cost,
        }
    }
}

/// A small deterministic random generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize) % n
    }
}

/// A stabiliser chain of a puzzle's group whose coset representatives are words in its
/// moves: [`Chain::solve`] answers any position of the group at once, in a number of moves
/// that is not the shortest.
///
/// ```
/// use frontier_perm::{preset, Chain, ChainBudget, Metric};
///
/// let cube = preset("cube2").unwrap().puzzle();
/// let chain = Chain::build(&cube, Metric::Htm, &ChainBudget::default());
/// let position = cube.apply(&cube.parse_moves("R U R' U R U2 R' F")?);
/// let answer = chain.solve(&position).unwrap();
/// assert!(position.then(&cube.apply(&answer)).is_identity());
/// # Ok::<(), frontier_perm::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Chain {
    moves: Moves,
    base: Vec<u8>,
    /// `table[i][slot[i][p]]`: a word that fixes the base points before `i` and takes `p` to
    /// `base[i]`, for each point `p` of `base[i]`'s orbit at level `i`.
    table: Vec<Vec<Option<Word>>>,
    /// `slot[i][p]`: where point `p`'s word is in `table[i]` (`u8::MAX` off the orbit).
    slot: Vec<Vec<u8>>,
    /// The moves of the metric, each a word of one move.
    singles: Vec<Word>,
    /// Every element within a few moves of the identity, with a shortest word.
    ball: HashMap<Perm, Vec<Turn>>,
}

impl Chain {
    /// The chain of `puzzle`'s group, its words counted in `metric`, shortened within
    /// `budget`.
    pub fn build(puzzle: &Puzzle, metric: Metric, budget: &ChainBudget) -> Chain {
        let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
        let n = puzzle.points();
        let orders = (0..gens.len()).map(|g| puzzle.generator_order(g)).collect();
        let commute = gens
            .iter()
            .map(|a| gens.iter().map(|b| a.then(b) == b.then(a)).collect())
            .collect();
        let powers = gens
            .iter()
            .map(|g| (0..g.order().min(255)).map(|k| g.pow(k as i64)).collect())
            .collect();
        let moves = Moves {
            gens: gens.clone(),
            powers,
            orders,
            commute,
            metric,
        };
        let group = Group::with_base_order(n, &gens, &base_order(puzzle));
        let base: Vec<u8> = group.levels().iter().map(|l| l.base).collect();
        let table = group
            .levels()
            .iter()
            .map(|l| {
                let mut row: Vec<Option<Word>> = vec![None; l.orbit.len()];
                // The orbit starts with the base point, whose word is the empty one.
                row[0] = Some(moves.word(Vec::new()));
                row
            })
            .collect::<Vec<_>>();
        let slot = group
            .levels()
            .iter()
            .map(|l| {
                debug_assert_eq!(l.orbit[0], l.base);
                let mut row = vec![u8::MAX; n];
                for (i, &p) in l.orbit.iter().enumerate() {
                    row[usize::from(p)] = i as u8;
                }
                row
            })
            .collect::<Vec<_>>();
        let singles = metric_moves(puzzle, metric)
            .into_iter()
            .map(|t| moves.word(vec![t]))
            .collect::<Vec<_>>();
        let ball = ball(&moves, &singles, budget.ball);
        let mut chain = Chain {
            moves,
            base,
            table,
            slot,
            singles,
            ball,
        };
        // Minkwitz's schedule: short words first, then rounds of shortening by products and
        // of random words, the length limit growing while some point has no word yet.
        let mut limit = 4 * chain.base.len() as u32 + 8;
        chain.short_words(budget.short_words, limit);
        let mut rng = Rng(budget.seed | 1);
        let mut products = budget.products;
        loop {
            let full = chain.is_full();
            let shortened = chain.improve(&mut products, limit);
            if full && (products == 0 || !shortened) {
                break;
            }
            if !chain.is_full() {
                chain.random_words(&mut rng, 256, limit);
                limit += limit / 4;
            }
        }
        chain
    }

    /// The number of levels (base points).
    pub fn levels(&self) -> usize {
        self.base.len()
    }

    /// The longest word of each level, in the metric.
    pub fn longest(&self) -> Vec<u32> {
        self.table
            .iter()
            .map(|row| row.iter().flatten().map(|w| w.cost).max().unwrap_or(0))
            .collect()
    }

    /// Moves that solve `position` (a permutation of the puzzle's points), in the metric
    /// the chain was built for (in `qtm`, only quarter turns), or `None` if the position is
    /// outside the group. Answers are sifted through the chain directly, after each first
    /// move or pair of them, and the same for the inverse position; the shortest few have
    /// their stretches that a shorter word near the identity equals cut short
    /// ([`ChainBudget::ball`]), and the shortest is kept.
    pub fn solve(&self, position: &Perm) -> Option<Vec<Turn>> {
        let empty = self.moves.word(Vec::new());
        let best = self.sift(position, &empty)?;
        let mut prefixes: Vec<Word> = self.singles.clone();
        for a in &self.singles {
            for b in &self.singles {
                if a.turns[0].generator != b.turns[0].generator {
                    prefixes.push(self.moves.product(a, b));
                }
            }
        }
        let inverse = position.inverse();
        let mut found = vec![best];
        for prefix in std::iter::once(&empty).chain(&prefixes) {
            // `position · prefix · rest` is solved: the answer is `prefix rest`.
            if let Some(w) = self.sift(&position.then(&prefix.perm), prefix) {
                found.push(w);
            }
            // `inverse · prefix · rest` is solved, so `position` is `prefix · rest` and the
            // answer is its inverse.
            if let Some(w) = self.sift(&inverse.then(&prefix.perm), prefix) {
                found.push(self.moves.inverse_word(&w));
            }
        }
        found.sort_by_key(|w| w.cost);
        found.truncate(SHORTENED);
        let best = found
            .iter()
            .map(|w| self.shorten(&w.turns))
            .min_by_key(|turns| turns.iter().map(|&t| self.moves.cost(t)).sum::<u32>())
            .expect("one answer at least");
        Some(self.in_metric(&best))
    }

    /// `turns` with stretches of at most [`WINDOW`] moves that a shorter word of the ball
    /// equals replaced by it (the one that saves most from each start), until none is left.
    fn shorten(&self, turns: &[Turn]) -> Vec<Turn> {
        let mut turns = self.moves.reduce(turns);
        let n = self.moves.gens.first().map_or(0, Perm::degree);
        let mut i = 0;
        while i < turns.len() {
            let mut product = Perm::identity(n);
            let mut cost = 0u32;
            let mut cut: Option<(usize, u32, &Vec<Turn>)> = None;
            for (j, &t) in turns.iter().enumerate().skip(i).take(WINDOW) {
                product = product.then(self.moves.perm(t));
                cost += self.moves.cost(t);
                if let Some(short) = self.ball.get(&product) {
                    let saving = cost - short.iter().map(|&t| self.moves.cost(t)).sum::<u32>();
                    if saving > cut.map_or(0, |c| c.1) {
                        cut = Some((j, saving, short));
                    }
                }
            }
            match cut {
                Some((j, _, short)) => {
                    let mut next = turns[..i].to_vec();
                    next.extend_from_slice(short);
                    next.extend_from_slice(&turns[j + 1..]);
                    turns = self.moves.reduce(&next);
                    // What comes before may now cancel with the new stretch.
                    i = i.saturating_sub(WINDOW);
                }
                None => i += 1,
            }
        }
        turns
    }

    /// `prefix` then the words of the chain that bring `position` home, reduced; `None` if
    /// `position` does not sift through. (The word's permutation is left as the identity:
    /// only its moves and length are read.)
    fn sift(&self, position: &Perm, prefix: &Word) -> Option<Word> {
        let mut g = position.clone();
        let mut turns = prefix.turns.clone();
        for (i, &b) in self.base.iter().enumerate() {
            let at = self.slot[i][usize::from(g.image(b))];
            let word = self.table[i].get(usize::from(at))?.as_ref()?;
            g = g.then(&word.perm);
            for &t in &word.turns {
                self.moves.push(&mut turns, t);
            }
        }
        if !g.is_identity() {
            return None;
        }
        let turns = self.moves.reduce(&turns);
        let cost = turns.iter().map(|&t| self.moves.cost(t)).sum();
        Some(Word {
            turns,
            perm: Perm::identity(position.degree()),
            cost,
        })
    }

    /// The moves written in the metric: in `qtm`, a power as that many quarter turns.
    fn in_metric(&self, turns: &[Turn]) -> Vec<Turn> {
        match self.moves.metric {
            Metric::Htm => turns.to_vec(),
            Metric::Qtm => {
                let mut out = Vec::new();
                for &t in turns {
                    let o = self.moves.orders[usize::from(t.generator)];
                    let (count, power) = if t.power <= o - t.power {
                        (t.power, 1)
                    } else {
                        (o - t.power, o - 1)
                    };
                    for _ in 0..count {
                        out.push(Turn {
                            generator: t.generator,
                            power,
                        });
                    }
                }
                out
            }
        }
    }

    /// Whether every point of every level has a word.
    fn is_full(&self) -> bool {
        self.table.iter().all(|row| row.iter().all(Option::is_some))
    }

    /// Whether a word of `cost` would be kept at `slot` of `level`: it has no word yet or a
    /// longer one.
    fn better(&self, level: usize, slot: usize, cost: u32) -> bool {
        self.table[level][slot]
            .as_ref()
            .is_none_or(|old| old.cost > cost)
    }

    /// Sifts `w` (which fixes the base points before `from`) down the chain: at each level
    /// it and its inverse are kept for the points they take home if they are shorter than
    /// the words there, then it goes on divided by the level's word, while it is no longer
    /// than `limit[level]`.
    fn sift_in(&mut self, mut w: Word, from: usize, limit: &[u32]) {
        for (level, &most) in limit.iter().enumerate().skip(from) {
            if w.perm.is_identity() || w.cost > most {
                return;
            }
            let b = self.base[level];
            // `w` takes `home` to the base point; its inverse takes `away` there.
            let home = usize::from(self.slot[level][usize::from(w.perm.inverse().image(b))]);
            let away = usize::from(self.slot[level][usize::from(w.perm.image(b))]);
            if self.better(level, home, w.cost) {
                self.table[level][home] = Some(w.clone());
            }
            if self.better(level, away, w.cost) {
                self.table[level][away] = Some(self.moves.inverse_word(&w));
            }
            let word = self.table[level][away].as_ref().expect("kept just now");
            w = self.moves.product(&w, word);
        }
    }

    /// The length limit of each level: the longest word from that level on, or `most` while
    /// some point from that level on has no word.
    fn limits(&self, most: u32) -> Vec<u32> {
        let mut limit = vec![0u32; self.base.len()];
        let mut longest = 0u32;
        for i in (0..self.base.len()).rev() {
            for w in &self.table[i] {
                longest = longest.max(w.as_ref().map_or(most, |w| w.cost.min(most)));
            }
            limit[i] = longest;
        }
        limit
    }

    /// Sifts `count` random sequences of the metric's moves (no generator twice in a row),
    /// each as long as the chain has levels.
    fn random_words(&mut self, rng: &mut Rng, count: usize, most: u32) {
        let limit = self.limits(most);
        for _ in 0..count {
            let mut turns: Vec<Turn> = Vec::new();
            while turns.len() < self.base.len() {
                let t = self.singles[rng.below(self.singles.len())].turns[0];
                if turns.last().is_none_or(|l| l.generator != t.generator) {
                    turns.push(t);
                }
            }
            let w = self.moves.word(turns);
            self.sift_in(w, 0, &limit);
        }
    }

    /// Sifts the canonical sequences of the metric's moves, shortest first, at most `most`,
    /// none longer than `length`.
    fn short_words(&mut self, most: usize, length: u32) {
        let singles = self.singles.clone();
        let mut layer: Vec<Word> = vec![self.moves.word(Vec::new())];
        let mut sifted = 0usize;
        while !layer.is_empty() && sifted < most {
            let limit = self.limits(length);
            let mut next = Vec::new();
            for w in &layer {
                for s in &singles {
                    let t = s.turns[0];
                    if let Some(&last) = w.turns.last() {
                        let (a, b) = (usize::from(last.generator), usize::from(t.generator));
                        let again = self.moves.metric == Metric::Qtm
                            && last.power == t.power
                            && self.moves.orders[a] > 2;
                        if (a == b && !again) || (a != b && self.moves.commute[a][b] && b < a) {
                            continue;
                        }
                    }
                    if sifted == most {
                        return;
                    }
                    let mut turns = w.turns.clone();
                    turns.push(t);
                    let word = Word {
                        cost: w.cost + s.cost,
                        perm: w.perm.then(&s.perm),
                        turns,
                    };
                    self.sift_in(word.clone(), 0, &limit);
                    sifted += 1;
                    // Words past the budget would not be sifted, so they are not kept.
                    if next.len() < most - sifted {
                        next.push(word);
                    }
                }
            }
            layer = next;
        }
    }

    /// One round of products of two words of one level, each sifted from that level, while
    /// `budget` (counted down) lasts; whether it shortened some word.
    fn improve(&mut self, budget: &mut usize, most: u32) -> bool {
        let before = self.total_cost();
        for level in 0..self.base.len() {
            let words: Vec<Word> = self.table[level].iter().flatten().cloned().collect();
            let limit = self.limits(most);
            for x in &words {
                for y in &words {
                    if *budget == 0 {
                        return self.total_cost() < before;
                    }
                    *budget -= 1;
                    let w = self.moves.product(x, y);
                    self.sift_in(w, level, &limit);
                }
            }
        }
        self.total_cost() < before
    }

    fn total_cost(&self) -> u64 {
        self.table
            .iter()
            .flatten()
            .flatten()
            .map(|w| u64::from(w.cost))
            .sum()
    }
}

/// The answers through the chain that [`Chain::shorten`] works on, the shortest first.
const SHORTENED: usize = 8;

/// The longest stretch of an answer [`Chain::shorten`] looks at.
const WINDOW: usize = 24;

/// The elements within a few moves of the identity, each with a shortest word, found layer by
/// layer while the next layer keeps the whole within `most` elements.
fn ball(moves: &Moves, singles: &[Word], most: usize) -> HashMap<Perm, Vec<Turn>> {
    let n = moves.gens.first().map_or(0, Perm::degree);
    let mut ball: HashMap<Perm, Vec<Turn>> = HashMap::new();
    ball.insert(Perm::identity(n), Vec::new());
    let mut layer: Vec<(Perm, Vec<Turn>)> = vec![(Perm::identity(n), Vec::new())];
    // Every layer is a move longer (a quarter turn, in qtm: the singles are quarter turns).
    while !layer.is_empty() && ball.len() + layer.len() * singles.len() <= most {
        let mut next = Vec::new();
        for (perm, word) in &layer {
            for s in singles {
                let p = perm.then(&s.perm);
                if ball.contains_key(&p) {
                    continue;
                }
                let mut w = word.clone();
                moves.push(&mut w, s.turns[0]);
                ball.insert(p.clone(), w.clone());
                next.push((p, w));
            }
        }
        layer = next;
    }
    ball
}

/// The moves of `metric`: every power of each generator (`htm`), or each generator and its
/// inverse (`qtm`).
fn metric_moves(puzzle: &Puzzle, metric: Metric) -> Vec<Turn> {
    let mut out = Vec::new();
    for g in 0..puzzle.generators().len() {
        let order = puzzle.generator_order(g);
        let powers: Vec<u8> = match metric {
            Metric::Htm => (1..order).collect(),
            Metric::Qtm if order == 2 => vec![1],
            Metric::Qtm => vec![1, order - 1],
        };
        for power in powers {
            out.push(Turn {
                generator: g as u8,
                power,
            });
        }
    }
    out
}

/// The order in which points become base points: the points of smaller orbits first (of two
/// of one size, the later one first), each orbit from its highest point. On the cubes of the
/// presets this places the D layer's pieces first and the U layer's last, which gives shorter
/// words than the opposite order (a median of 61 moves against 70 on random 3x3x3 positions).
fn base_order(puzzle: &Puzzle) -> Vec<u8> {
    let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
    let mut orbits = crate::group::orbits(puzzle.points(), &gens);
    orbits.sort_by_key(|o| std::cmp::Reverse(o.len()));
    let mut order: Vec<u8> = orbits.into_iter().flatten().collect();
    order.reverse();
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::preset;

    #[test]
    fn cancelling_moves_merge_across_commuting_ones() {
        let cube = preset("cube3").unwrap().puzzle();
        let chain = Chain::build(
            &cube,
            Metric::Htm,
            &ChainBudget {
                short_words: 100,
                products: 100,
                seed: 1,
                ball: 60_000,
            },
        );
        let turns = cube.parse_moves("R L R' U U U2 D F").unwrap();
        let names: Vec<String> = chain
            .moves
            .reduce(&turns)
            .iter()
            .map(|&t| cube.turn_name(t))
            .collect();
        assert_eq!(names, ["L", "D", "F"]);
        // Six times R U R' U' is the identity: the whole stretch goes.
        let sexy = cube.parse_moves(&"R U R' U' ".repeat(6)).unwrap();
        assert_eq!(chain.shorten(&sexy), []);
        // R U R' U' R: the ball (three moves deep) knows nothing shorter than its five moves.
        let five = cube.parse_moves("R U R' U' R").unwrap();
        assert_eq!(
            chain.shorten(&five),
            cube.parse_moves("R U R' U' R").unwrap()
        );
    }

    #[test]
    fn every_point_of_every_level_has_a_word_that_takes_it_home() {
        let cube = preset("pyraminx").unwrap().puzzle();
        let chain = Chain::build(&cube, Metric::Htm, &ChainBudget::default());
        assert!(chain.is_full());
        for (i, row) in chain.table.iter().enumerate() {
            for p in 0..cube.points() {
                let at = chain.slot[i][p];
                if let Some(w) = row.get(usize::from(at)).and_then(Option::as_ref) {
                    assert_eq!(w.perm.image(p as u8), chain.base[i]);
                    for &b in &chain.base[..i] {
                        assert_eq!(w.perm.image(b), b);
                    }
                    assert_eq!(cube.apply(&w.turns), w.perm);
                }
            }
        }
    }
}

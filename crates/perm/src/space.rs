//! A puzzle as a search space: compact states over the points its generators move, the moves
//! of a metric, and canonical move sequences.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use frontier_search::{Cost, Reversible, Space, Words};

use crate::perm::Perm;
use crate::prune::Tables;
use crate::puzzle::{Puzzle, Turn};

/// How moves are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Every power of a generator counts 1 (as the half-turn metric does for the cube).
    #[default]
    Htm,
    /// Only the generators and their inverses are moves, each counting 1.
    Qtm,
}

impl Metric {
    /// `htm` or `qtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A metric name that is neither `htm` nor `qtm`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown metric {0:?} (expected htm or qtm)")]
pub struct UnknownMetric(pub String);

impl FromStr for Metric {
    type Err = UnknownMetric;
    fn from_str(s: &str) -> Result<Metric, UnknownMetric> {
        match s {
            "htm" => Ok(Metric::Htm),
            "qtm" => Ok(Metric::Qtm),
            _ => Err(UnknownMetric(s.to_string())),
        }
    }
}

/// One move of a metric on the compact positions.
#[derive(Clone, Debug)]
pub(crate) struct MoveDef {
    pub(crate) turn: Turn,
    /// Where the piece at each compact position goes.
    pub(crate) map: Box<[u8]>,
    /// The index of the inverse move.
    pub(crate) inverse: usize,
}

/// The puzzle on its moved points only (fixed points never change), with the moves of one
/// metric, each point's colour as a dense number, and which generators commute.
#[derive(Clone, Debug)]
pub struct Model {
    /// The puzzle's point at each compact position.
    pub(crate) points: Vec<u8>,
    /// The compact position of each puzzle point (`u8::MAX` for a fixed point).
    pub(crate) index: Vec<u8>,
    /// The colour at each compact position in the solved state, numbered densely.
    pub(crate) goal: Vec<u8>,
    pub(crate) colours: usize,
    pub(crate) moves: Vec<MoveDef>,
    /// `commute[a][b]`: generators `a` and `b` commute.
    commute: Vec<Vec<bool>>,
    orders: Vec<u8>,
    bits: u32,
    metric: Metric,
}

impl Model {
    /// The model of `puzzle` in `metric`.
    pub fn new(puzzle: &Puzzle, metric: Metric) -> Model {
        let gens: Vec<&Perm> = puzzle.generators().iter().map(|g| &g.perm).collect();
        let mut moved = vec![false; puzzle.points()];
        for g in &gens {
            for p in g.support() {
                moved[usize::from(p)] = true;
            }
        }
        let points: Vec<u8> = (0..puzzle.points())
            .filter(|&p| moved[p])
            .map(|p| p as u8)
            .collect();
        let mut index = vec![u8::MAX; puzzle.points()];
        for (i, &p) in points.iter().enumerate() {
            index[usize::from(p)] = i as u8;
        }
        let mut dense = vec![u8::MAX; 256];
        let mut colours = 0usize;
        let goal = points
            .iter()
            .map(|&p| {
                let c = usize::from(puzzle.colours()[usize::from(p)]);
                if dense[c] == u8::MAX {
                    dense[c] = colours as u8;
                    colours += 1;
                }
                dense[c]
            })
            .collect();
        let orders: Vec<u8> = (0..gens.len()).map(|g| puzzle.generator_order(g)).collect();
        let mut moves = Vec::new();
        for (g, perm) in gens.iter().enumerate() {
            let order = orders[g];
            let powers: Vec<u8> = match metric {
                Metric::Htm => (1..order).collect(),
                Metric::Qtm if order == 2 => vec![1],
                Metric::Qtm => vec![1, order - 1],
            };
            for power in powers {
                let p = perm.pow(i64::from(power));
                let map = points
                    .iter()
                    .map(|&q| index[usize::from(p.image(q))])
                    .collect();
                moves.push(MoveDef {
                    turn: Turn {
                        generator: g as u8,
                        power,
                    },
                    map,
                    inverse: 0,
                });
            }
        }
        for i in 0..moves.len() {
            let t = moves[i].turn;
            let want =
                (orders[usize::from(t.generator)] - t.power) % orders[usize::from(t.generator)];
            moves[i].inverse = moves
                .iter()
                .position(|m| m.turn.generator == t.generator && m.turn.power == want)
                .expect("the metrics hold each move's inverse");
        }
        let commute = gens
            .iter()
            .map(|a| gens.iter().map(|b| a.then(b) == b.then(a)).collect())
            .collect();
        let bits = (usize::BITS - (colours.max(2) - 1).leading_zeros()).max(1);
        Model {
            points,
            index,
            goal,
            colours,
            moves,
            commute,
            orders,
            bits,
            metric,
        }
    }

    /// Names the model: its metric, and a hash of its moves (on the compact positions) and of
    /// its solved colours. Two models with one fingerprint have the same states and moves.
    pub fn fingerprint(&self) -> String {
        let mut bytes = Vec::new();
        for m in &self.moves {
            bytes.extend_from_slice(&m.map);
            bytes.push(0xff);
        }
        bytes.extend_from_slice(&self.goal);
        format!(
            "{} {} moves {:016x}",
            self.metric,
            self.moves.len(),
            xxhash_rust::xxh3::xxh3_64(&bytes)
        )
    }

    /// The metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The number of moved points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether no point moves.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The moves of the metric, in order.
    pub fn turns(&self) -> impl Iterator<Item = Turn> + '_ {
        self.moves.iter().map(|m| m.turn)
    }

    /// The 64-bit words a packed state takes.
    pub fn words(&self) -> usize {
        (self.points.len() * self.bits as usize).div_ceil(64).max(1)
    }

    /// Whether `next` may follow `last` in a canonical sequence: never the same generator
    /// twice (in the quarter-turn metric, the same quarter turn again, unless two make the
    /// identity),
    /// and two commuting generators only in increasing order.
    #[inline]
    pub fn may_follow(&self, last: Turn, next: Turn) -> bool {
        let (a, b) = (usize::from(last.generator), usize::from(next.generator));
        if a == b {
            return self.metric == Metric::Qtm && last.power == next.power && self.orders[a] > 2;
        }
        !(self.commute[a][b] && b < a)
    }

    /// The colours at the compact positions of `position` (a permutation of the puzzle's
    /// points that maps moved points to moved points): the piece at `p` is at `p^position`.
    pub fn colours_of(&self, position: &Perm) -> Vec<u8> {
        let mut state = vec![0u8; self.points.len()];
        for (i, &p) in self.points.iter().enumerate() {
            state[usize::from(self.index[usize::from(position.image(p))])] = self.goal[i];
        }
        state
    }

    fn pack<const W: usize>(&self, colours: &[u8]) -> Packed<W> {
        let mut words = [0u64; W];
        let bits = self.bits as usize;
        for (i, &c) in colours.iter().enumerate() {
            let at = i * bits;
            words[at / 64] |= u64::from(c) << (at % 64);
            if at % 64 + bits > 64 {
                words[at / 64 + 1] |= u64::from(c) >> (64 - at % 64);
            }
        }
        Packed(words)
    }

    fn unpack<const W: usize>(&self, state: &Packed<W>, out: &mut [u8]) {
        let bits = self.bits as usize;
        let mask = (1u64 << bits) - 1;
        for (i, c) in out.iter_mut().enumerate().take(self.points.len()) {
            let at = i * bits;
            let mut v = state.0[at / 64] >> (at % 64);
            if at % 64 + bits > 64 {
                v |= state.0[at / 64 + 1] << (64 - at % 64);
            }
            *c = (v & mask) as u8;
        }
    }
}

/// A state packed in `W` words: each compact position's colour in as many bits as the
/// colours need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Packed<const W: usize>([u64; W]);

/// Its `W` words, for a distributed exploration.
impl<const W: usize> Words for Packed<W> {
    const WORDS: usize = W;
    #[inline]
    fn put(&self, out: &mut Vec<u64>) {
        self.0.put(out);
    }
    #[inline]
    fn take(words: &[u64]) -> Self {
        Packed(<[u64; W]>::take(words))
    }
}

/// A puzzle position to solve, as a [`Space`] (and [`Reversible`]) over states of `W` words
/// (at least [`Model::words`]); the heuristic is the largest of the pruning tables' values.
pub struct PermSpace<'a, const W: usize> {
    model: &'a Model,
    tables: Option<&'a Tables>,
    start: Packed<W>,
    goal: Packed<W>,
}

impl<'a, const W: usize> PermSpace<'a, W> {
    /// The space from `start` (colours at the compact positions, see [`Model::colours_of`]),
    /// with the heuristic of `tables` if given (built for the same model).
    pub fn new(model: &'a Model, tables: Option<&'a Tables>, start: &[u8]) -> Self {
        assert!(model.words() <= W, "a state needs {} words", model.words());
        PermSpace {
            model,
            tables,
            start: model.pack(start),
            goal: model.pack(&model.goal),
        }
    }

    /// The colours at the compact positions of `state`, as [`Model::colours_of`] gives them.
    pub fn colours(&self, state: &Packed<W>) -> Vec<u8> {
        let mut out = vec![0u8; self.model.points.len()];
        self.model.unpack(state, &mut out);
        out
    }

    fn step(
        &self,
        state: &Packed<W>,
        moves: impl Iterator<Item = usize>,
        mut out: impl FnMut(Turn, Packed<W>),
        inverse: bool,
    ) {
        let n = self.model.points.len();
        let mut buf = [0u8; 256];
        let mut next = [0u8; 256];
        self.model.unpack(state, &mut buf);
        for m in moves {
            let def = &self.model.moves[m];
            let map = if inverse {
                &self.model.moves[def.inverse].map
            } else {
                &def.map
            };
            for i in 0..n {
                next[usize::from(map[i])] = buf[i];
            }
            out(def.turn, self.model.pack(&next[..n]));
        }
    }
}

impl<const W: usize> Space for PermSpace<'_, W> {
    type State = Packed<W>;
    type Move = Turn;

    fn start(&self) -> Packed<W> {
        self.start
    }

    fn is_goal(&self, state: &Packed<W>) -> bool {
        *state == self.goal
    }

    fn successors(&self, state: &Packed<W>, last: Option<&Turn>, out: impl FnMut(Turn, Packed<W>)) {
        let model = self.model;
        let moves = (0..model.moves.len())
            .filter(|&m| last.is_none_or(|&l| model.may_follow(l, model.moves[m].turn)));
        self.step(state, moves, out, false);
    }

    fn max_step_cost(&self) -> Option<Cost> {
        Some(1)
    }

    fn undirected(&self) -> bool {
        true
    }

    fn heuristic(&self, state: &Packed<W>) -> Cost {
        let Some(tables) = self.tables else { return 0 };
        let mut buf = [0u8; 256];
        self.model.unpack(state, &mut buf);
        Cost::from(tables.estimate(&buf[..self.model.points.len()]))
    }
}

impl<const W: usize> Reversible for PermSpace<'_, W> {
    fn goals(&self) -> Vec<Packed<W>> {
        vec![self.goal]
    }

    fn predecessors(&self, state: &Packed<W>, out: impl FnMut(Turn, Packed<W>)) {
        self.step(state, 0..self.model.moves.len(), out, true);
    }
}

//! The cube as a search space for the engine.

use frontier_search::{Cost, Reversible, Space};

use crate::cube::Cube;
use crate::heuristic::Heuristic;
use crate::moves::{Metric, Move};

/// Solving a cube: start from a scrambled [`Cube`], reach [`Cube::SOLVED`] by the moves of a
/// [`Metric`] (18 face moves in HTM, 12 quarter turns in QTM), each costing 1.
///
/// `successors` prunes with the last move (no face twice in a row, opposite faces in one
/// order; see [`Metric::may_follow`]); `predecessors` apply inverse moves, labelled with the
/// move that leads forward; the heuristic is the admissible [`Heuristic`], built on first use.
///
/// ```
/// use frontier_cube::{Cube, CubeSpace, Metric, Notation};
/// use frontier_search::{bidirectional, Config, Status};
///
/// let cube = Cube::from_scramble("R U F'", Notation::Wca).unwrap();
/// let outcome = bidirectional(&CubeSpace::new(cube, Metric::Htm), &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// let solution = outcome.into_solution().unwrap();
/// assert_eq!(frontier_cube::write_moves(&solution.moves, Notation::Wca), "F U' R'");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CubeSpace {
    start: Cube,
    metric: Metric,
}

impl CubeSpace {
    /// Solving `start` in `metric`.
    pub fn new(start: Cube, metric: Metric) -> CubeSpace {
        CubeSpace { start, metric }
    }

    /// The metric whose moves the search uses.
    pub fn metric(&self) -> Metric {
        self.metric
    }
}

impl Space for CubeSpace {
    type State = Cube;
    type Move = Move;

    fn start(&self) -> Cube {
        self.start
    }

    fn is_goal(&self, cube: &Cube) -> bool {
        cube.is_solved()
    }

    #[inline]
    fn successors(&self, cube: &Cube, last: Option<&Move>, mut out: impl FnMut(Move, Cube)) {
        for &mv in self.metric.moves() {
            if let Some(&last) = last {
                if !self.metric.may_follow(last, mv) {
                    continue;
                }
            }
            out(mv, cube.apply(mv));
        }
    }

    fn heuristic(&self, cube: &Cube) -> Cost {
        Heuristic::get(self.metric).estimate(*cube)
    }

    /// Every move costs 1, in either metric.
    fn max_step_cost(&self) -> Option<Cost> {
        Some(1)
    }

    /// Every turn is undone by its inverse, which is in both metrics' move sets.
    fn undirected(&self) -> bool {
        true
    }
}

impl Reversible for CubeSpace {
    fn goals(&self) -> Vec<Cube> {
        vec![Cube::SOLVED]
    }

    #[inline]
    fn predecessors(&self, cube: &Cube, mut out: impl FnMut(Move, Cube)) {
        for &mv in self.metric.moves() {
            out(mv, cube.apply(mv.inverse()));
        }
    }
}

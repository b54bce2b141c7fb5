//! A perfect index of a puzzle's states, where they are few enough: the engine's dense
//! strategy then explores them at two bits an index, no state stored.
//!
//! Each orbit of positions is one [`Part`] of the index: where its pieces are, every colour
//! tracked (a rank of combinations), or where the orbit's points are distinct and fall into
//! rigid blocks (a cube corner's three facets), where one point of each block is, the rest of
//! the block following from it.

use crate::group::orbits;
use crate::perm::Perm;
use crate::prune::{spread, Part, BLANK};
use crate::space::Model;

/// The largest index bound given: the engine's dense arrays stop at 2^35 entries.
const MOST: u64 = 1 << 35;

/// One orbit's share of the index.
#[derive(Clone, Debug)]
struct Share {
    part: Part,
    /// The colour of each item the part tracks.
    colour_of: Vec<u8>,
    /// In block mode, for each item and each compact position of its tracked point, the
    /// other points of its block as (compact position, colour); empty otherwise.
    rest: Vec<Vec<Vec<(u8, u8)>>>,
}

/// A perfect index of a model's states: the parts' ranks, the first varying fastest.
#[derive(Clone, Debug)]
pub(crate) struct Dense {
    shares: Vec<Share>,
    bound: u64,
}

impl Dense {
    /// The index of `model`'s states, if its bound is at most [`MOST`].
    pub(crate) fn of(model: &Model) -> Option<Dense> {
        let gens: Vec<Perm> = model
            .moves
            .iter()
            .map(|m| Perm::from_images(m.map.to_vec()).expect("a move permutes the positions"))
            .collect();
        let mut shares = Vec::new();
        let mut bound = 1u64;
        for orbit in orbits(model.len(), &gens) {
            if orbit.len() < 2 {
                continue;
            }
            let share = Share::blocks(model, &orbit, &gens).or_else(|| Share::whole(model, &orbit))?;
            bound = bound.saturating_mul(share.part.len);
            if bound > MOST {
                return None;
            }
            shares.push(share);
        }
        Some(Dense { shares, bound })
    }

    /// The number of indexes.
    pub(crate) fn bound(&self) -> u64 {
        self.bound
    }

    /// The index of a state (its colours at the compact positions).
    pub(crate) fn index(&self, colours: &[u8]) -> u64 {
        let mut cells = [BLANK; 256];
        let mut index = 0u64;
        let mut mult = 1u64;
        for share in &self.shares {
            let cells = &mut cells[..share.part.orbit.len()];
            share.part.cells_into(colours, cells);
            index += share.part.rank(cells) * mult;
            mult *= share.part.len;
        }
        index
    }

    /// The colours at the compact positions of the state of `index` (one the index gave).
    pub(crate) fn colours_at(&self, mut index: u64, colours: &mut [u8]) {
        let mut cells = [BLANK; 256];
        let mut picks = Vec::new();
        for share in &self.shares {
            let part = &share.part;
            let cells = &mut cells[..part.orbit.len()];
            part.unrank(index % part.len, cells, &mut picks);
            index /= part.len;
            for (&cell, &at) in cells.iter().zip(&part.orbit) {
                if cell == BLANK {
                    continue;
                }
                colours[usize::from(at)] = share.colour_of[usize::from(cell)];
                if let Some(rest) = share.rest.get(usize::from(cell)) {
                    for &(p, c) in &rest[usize::from(at)] {
                        colours[usize::from(p)] = c;
                    }
                }
            }
        }
    }
}

impl Share {
    /// Every colour of the orbit tracked.
    fn whole(model: &Model, orbit: &[u8]) -> Option<Share> {
        let mut order: Vec<u8> = Vec::new();
        for &i in orbit {
            let c = model.goal[usize::from(i)];
            if !order.contains(&c) {
                order.push(c);
            }
        }
        let part = Part::new(model, orbit, &order, None);
        (part.len <= MOST).then_some(Share {
            part,
            colour_of: order,
            rest: Vec::new(),
        })
    }

    /// One point of each block tracked, where the orbit's points are distinct and each
    /// block's other points are where its tracked point says (checked over every position
    /// the moves take the tracked point to); `None` if they are not.
    fn blocks(model: &Model, orbit: &[u8], gens: &[Perm]) -> Option<Share> {
        let mut seen = vec![false; model.colours];
        let distinct = orbit
            .iter()
            .all(|&i| !std::mem::replace(&mut seen[usize::from(model.goal[usize::from(i)])], true));
        if !distinct {
            return None;
        }
        // Without a finer block system the orbit is one block (a tip of a Pyraminx, turning
        // in place): one point tracked, if it tells where the others are.
        let (positions, blocks) = match spread(orbit, gens) {
            (positions, Some(blocks)) => (positions, blocks),
            (_, None) => (orbit.to_vec(), vec![orbit.to_vec()]),
        };
        let tracked: Vec<u8> = positions[..blocks.len()].to_vec();
        let order: Vec<u8> = tracked.iter().map(|&i| model.goal[usize::from(i)]).collect();
        let part = Part::new(model, orbit, &order, Some(&blocks));
        if part.len > MOST {
            return None;
        }
        let mut rest = Vec::with_capacity(tracked.len());
        for &t in &tracked {
            let block = blocks.iter().find(|b| b.contains(&t))?;
            let others: Vec<u8> = block.iter().copied().filter(|&p| p != t).collect();
            // Where the others are for each position of the tracked point, by a search over
            // the moves from the solved state; two answers for one position: not rigid.
            let mut at: Vec<Option<Vec<u8>>> = vec![None; model.len()];
            at[usize::from(t)] = Some(others.clone());
            let mut queue = vec![(t, others)];
            while let Some((q, others)) = queue.pop() {
                for g in gens {
                    let next_q = g.image(q);
                    let next: Vec<u8> = others.iter().map(|&p| g.image(p)).collect();
                    match &at[usize::from(next_q)] {
                        Some(known) if *known != next => return None,
                        Some(_) => {}
                        None => {
                            at[usize::from(next_q)] = Some(next.clone());
                            queue.push((next_q, next));
                        }
                    }
                }
            }
            let colours: Vec<u8> = block
                .iter()
                .copied()
                .filter(|&p| p != t)
                .map(|p| model.goal[usize::from(p)])
                .collect();
            rest.push(
                at.into_iter()
                    .map(|o| {
                        o.map_or_else(Vec::new, |o| o.into_iter().zip(colours.iter().copied()).collect())
                    })
                    .collect(),
            );
        }
        Some(Share {
            part,
            colour_of: order,
            rest,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset;
    use crate::space::Metric;

    #[test]
    fn indexes_and_states_agree() {
        for name in ["cube2", "pyraminx", "skewb", "topspin10"] {
            let puzzle = preset(name).unwrap().puzzle();
            let model = Model::new(&puzzle, Metric::Htm);
            let dense = Dense::of(&model).unwrap();
            let mut position = Perm::identity(puzzle.points());
            let mut out = vec![0u8; model.len()];
            for g in puzzle.generators().iter().cycle().take(40) {
                position = position.then(&g.perm);
                let colours = model.colours_of(&position);
                let index = dense.index(&colours);
                assert!(index < dense.bound(), "{name}");
                dense.colours_at(index, &mut out);
                assert_eq!(out, colours, "{name}");
            }
        }
        // The 2x2x2: seven corners placed and twisted, 7! 3^7 indexes.
        let cube2 = Model::new(&preset("cube2").unwrap().puzzle(), Metric::Htm);
        assert_eq!(Dense::of(&cube2).unwrap().bound(), 5040 * 2187);
        assert!(Dense::of(&Model::new(&preset("cube3").unwrap().puzzle(), Metric::Htm)).is_none());
    }
}

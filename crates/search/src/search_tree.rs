//! The first levels of a space's search tree, for drawing: [`search_tree`].

use std::hash::Hash;

use rustc_hash::FxHashSet;

use crate::space::Space;

/// The most nodes [`search_tree`] counts (without keeping them) to say how many it left out;
/// past it the count is given as "more than".
const MOST_COUNTED: u64 = 1 << 24;

/// One node of a [`SearchTree`]: a move from its parent's state and the state it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode<S, M> {
    /// The index in [`SearchTree::nodes`] of the node this one hangs from; `None` at the first
    /// level (the moves from the start).
    pub parent: Option<u32>,
    /// The level: 1 for the moves from the start.
    pub depth: u32,
    /// The move from the parent's state.
    pub mv: M,
    /// The state the move leads to.
    pub state: S,
    /// Whether the state was met before, at the start or at an earlier node in breadth-first
    /// order: the node a search with a seen-set would not expand.
    pub seen_before: bool,
}

/// The first levels of a search tree, as a search without a seen-set unfolds it: every path
/// from the start, repeated states included (and marked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchTree<S, M> {
    /// The nodes kept, in breadth-first order (each level left to right), so that a node's
    /// parent comes before it.
    pub nodes: Vec<TreeNode<S, M>>,
    /// How many nodes of the levels asked for are not in `nodes` (the cap cut them off).
    pub left_out: u64,
    /// Whether `left_out` is only a lower bound: counting stopped at a few million nodes.
    pub left_out_at_least: bool,
}

impl<S, M> SearchTree<S, M> {
    /// The same tree with each state turned into another form (an encoding into the layout it
    /// stands for).
    pub fn map_states<T>(self, mut f: impl FnMut(S) -> T) -> SearchTree<T, M> {
        SearchTree {
            nodes: (self.nodes.into_iter())
                .map(|n| TreeNode {
                    parent: n.parent,
                    depth: n.depth,
                    mv: n.mv,
                    state: f(n.state),
                    seen_before: n.seen_before,
                })
                .collect(),
            left_out: self.left_out,
            left_out_at_least: self.left_out_at_least,
        }
    }

    /// The indices of the children of `node` (`None`: of the start), in order.
    pub fn children(&self, node: Option<u32>) -> impl Iterator<Item = u32> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(move |(_, n)| n.parent == node)
            .map(|(i, _)| i as u32)
    }
}

/// The first `depth` levels of the search tree of `space` from its start, breadth first, at most
/// `max_nodes` of them kept; the rest are counted (up to a few million) in
/// [`SearchTree::left_out`].
///
/// Every transition of [`Space::successors`] is kept (`last` is `None`: no move is skipped as
/// redundant after its parent's), so the tree is the space's own, as the board seed draws it; a
/// goal is expanded like any other state.
///
/// ```
/// use frontier_search::{search_tree, Space};
///
/// /// A ring of 4 states; each step goes one way or the other.
/// struct Ring;
/// impl Space for Ring {
///     type State = u8;
///     type Move = i8;
///     fn start(&self) -> u8 { 0 }
///     fn is_goal(&self, _: &u8) -> bool { false }
///     fn successors(&self, s: &u8, _: Option<&i8>, mut out: impl FnMut(i8, u8)) {
///         out(1, (s + 1) % 4);
///         out(-1, (s + 3) % 4);
///     }
/// }
///
/// let tree = search_tree(&Ring, 2, 100);
/// assert_eq!(tree.nodes.len(), 2 + 4);
/// // 1 then -1 comes back to the start; 1 then 1 and -1 then -1 both reach 2.
/// let seen: Vec<bool> = tree.nodes.iter().map(|n| n.seen_before).collect();
/// assert_eq!(seen, [false, false, false, true, true, true]);
/// assert_eq!(search_tree(&Ring, 3, 4).left_out, 2 + 4 + 8 - 4);
/// ```
pub fn search_tree<P>(space: &P, depth: u32, max_nodes: usize) -> SearchTree<P::State, P::Move>
where
    P: Space,
    P::State: Hash + Eq,
{
    let mut nodes: Vec<TreeNode<P::State, P::Move>> = Vec::new();
    let mut seen = FxHashSet::default();
    let start = space.start();
    seen.insert(start.clone());
    // The kept nodes of the level being expanded: [from, to) in `nodes`.
    let mut level_start = 0;
    let mut full = false;
    if depth > 0 {
        space.successors(&start, None, |mv, state| {
            full |= !keep(&mut nodes, &mut seen, max_nodes, None, 1, mv, state);
        });
    }
    for level in 2..=depth {
        if full {
            break;
        }
        let level_end = nodes.len();
        for parent in level_start..level_end {
            if full {
                break;
            }
            let state = nodes[parent].state.clone();
            space.successors(&state, None, |mv, state| {
                full |= !keep(
                    &mut nodes,
                    &mut seen,
                    max_nodes,
                    Some(parent as u32),
                    level,
                    mv,
                    state,
                );
            });
        }
        level_start = level_end;
    }
    let (total, at_least) = count_nodes(space, depth);
    SearchTree {
        left_out: total.saturating_sub(nodes.len() as u64),
        left_out_at_least: at_least,
        nodes,
    }
}

/// Adds a node unless `max_nodes` are kept already; false when it was left out.
fn keep<S: Hash + Eq + Clone, M>(
    nodes: &mut Vec<TreeNode<S, M>>,
    seen: &mut FxHashSet<S>,
    max_nodes: usize,
    parent: Option<u32>,
    depth: u32,
    mv: M,
    state: S,
) -> bool {
    if nodes.len() >= max_nodes {
        return false;
    }
    let seen_before = !seen.insert(state.clone());
    nodes.push(TreeNode {
        parent,
        depth,
        mv,
        state,
        seen_before,
    });
    true
}

/// The nodes in the first `depth` levels, counted depth first without keeping them, and
/// whether the count stopped at [`MOST_COUNTED`].
fn count_nodes<P: Space>(space: &P, depth: u32) -> (u64, bool) {
    fn walk<P: Space>(space: &P, state: &P::State, left: u32, count: &mut u64) {
        if left == 0 || *count >= MOST_COUNTED {
            return;
        }
        space.successors(state, None, |_, next| {
            if *count < MOST_COUNTED {
                *count += 1;
                walk(space, &next, left - 1, count);
            }
        });
    }
    let mut count = 0;
    walk(space, &space.start(), depth, &mut count);
    (count, count >= MOST_COUNTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts in binary: from n, to 2n and 2n + 1 (a tree with no repeated state).
    struct Binary;
    impl Space for Binary {
        type State = u64;
        type Move = u8;
        fn start(&self) -> u64 {
            1
        }
        fn is_goal(&self, _: &u64) -> bool {
            false
        }
        fn successors(&self, n: &u64, _: Option<&u8>, mut out: impl FnMut(u8, u64)) {
            out(0, 2 * n);
            out(1, 2 * n + 1);
        }
    }

    #[test]
    fn levels_come_whole_and_in_breadth_first_order() {
        let tree = search_tree(&Binary, 3, 100);
        let states: Vec<u64> = tree.nodes.iter().map(|n| n.state).collect();
        assert_eq!(states, (2..16).collect::<Vec<_>>());
        assert!(tree.nodes.iter().all(|n| !n.seen_before));
        assert_eq!((tree.left_out, tree.left_out_at_least), (0, false));
        // Each node's parent holds half its number.
        for node in &tree.nodes {
            let parent = node.parent.map_or(1, |p| tree.nodes[p as usize].state);
            assert_eq!(parent, node.state / 2);
            assert_eq!(node.depth, 63 - node.state.leading_zeros());
        }
        let under_root: Vec<u32> = tree.children(None).collect();
        assert_eq!(under_root, [0, 1]);
        assert_eq!(tree.children(Some(1)).collect::<Vec<_>>(), [4, 5]);
    }

    #[test]
    fn a_cap_keeps_the_first_nodes_and_counts_the_rest() {
        let tree = search_tree(&Binary, 10, 5);
        assert_eq!(tree.nodes.len(), 5);
        assert_eq!(tree.left_out, (1 << 11) - 2 - 5);
        assert!(!tree.left_out_at_least);
        let deep = search_tree(&Binary, 40, 5);
        assert!(deep.left_out_at_least);
        assert_eq!(deep.left_out, MOST_COUNTED - 5);
        assert!(search_tree(&Binary, 0, 5).nodes.is_empty());
    }
}

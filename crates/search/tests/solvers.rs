//! Every solver against independent oracles on random small graphs, and every limit.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use frontier_search::{
    astar, bfs, bidirectional, dfs, explore, idastar, iddfs, ucs, Config, Cost, Limit, Outcome,
    Reversible, Space, Status, MAX_WEIGHT,
};
use proptest::prelude::*;

mod common;
use common::{Dense, Indexed, Rank};

/// [`Config::parallel_from`]'s default: layers this narrow stay on one thread.
const DEFAULT_PARALLEL_FROM: usize = 1 << 15;

/// A directed graph with weighted edges; states are node numbers, moves are edge numbers.
#[derive(Clone, Debug)]
struct Graph {
    nodes: u32,
    edges: Vec<(u32, u32, Cost)>,
    goals: Vec<u32>,
    /// Admissible estimates of the cheapest cost to a goal (computed by the test's oracle).
    estimate: Vec<Cost>,
    /// Whether every edge has its reverse (declared to the engine through `undirected`).
    undirected: bool,
    /// What the graph tells the engine through `max_step_cost`.
    max_step: Option<Cost>,
}

impl Graph {
    /// The same graph with every edge cost and estimate multiplied by `factor`.
    fn scaled(&self, factor: Cost) -> Graph {
        Graph {
            edges: (self.edges.iter())
                .map(|&(from, to, cost)| (from, to, cost * factor))
                .collect(),
            estimate: self.estimate.iter().map(|&e| e * factor).collect(),
            ..self.clone()
        }
    }

    /// The same graph, telling the engine its dearest edge's cost.
    fn declaring_its_max_step(&self) -> Graph {
        let max_step = self
            .edges
            .iter()
            .map(|&(_, _, cost)| cost)
            .max()
            .unwrap_or(0);
        Graph {
            max_step: Some(max_step),
            ..self.clone()
        }
    }
}

impl Space for Graph {
    type State = u32;
    type Move = usize;

    fn start(&self) -> u32 {
        0
    }

    fn is_goal(&self, node: &u32) -> bool {
        self.goals.contains(node)
    }

    fn successors(&self, node: &u32, _last: Option<&usize>, mut out: impl FnMut(usize, u32)) {
        for (i, &(from, to, _)) in self.edges.iter().enumerate() {
            if from == *node {
                out(i, to);
            }
        }
    }

    fn step_cost(&self, _from: &u32, edge: &usize) -> Cost {
        self.edges[*edge].2
    }

    fn heuristic(&self, node: &u32) -> Cost {
        self.estimate[*node as usize]
    }

    fn undirected(&self) -> bool {
        self.undirected
    }

    fn max_step_cost(&self) -> Option<Cost> {
        self.max_step
    }
}

/// A node's number is a perfect index, for [`explore_indexed`].
impl Rank for Graph {
    fn bound(&self) -> u64 {
        u64::from(self.nodes)
    }

    fn rank(&self, node: &u32) -> u64 {
        u64::from(*node)
    }

    fn unrank(&self, rank: u64) -> Option<u32> {
        u32::try_from(rank).ok()
    }
}

impl Reversible for Graph {
    fn goals(&self) -> Vec<u32> {
        self.goals.clone()
    }

    fn predecessors(&self, node: &u32, mut out: impl FnMut(usize, u32)) {
        for (i, &(from, to, _)) in self.edges.iter().enumerate() {
            if to == *node {
                out(i, from);
            }
        }
    }
}

/// Oracle: the fewest moves from node 0 to every node (plain BFS over the edge list).
/// The most moves a path from the start can take without visiting a state twice (brute force).
fn oracle_longest_simple_path(graph: &Graph) -> usize {
    fn longest(graph: &Graph, node: u32, on_path: &mut Vec<bool>) -> usize {
        on_path[node as usize] = true;
        let mut most = 0;
        for &(from, to, _) in &graph.edges {
            if from == node && !on_path[to as usize] {
                most = most.max(1 + longest(graph, to, on_path));
            }
        }
        on_path[node as usize] = false;
        most
    }
    longest(graph, 0, &mut vec![false; graph.nodes as usize])
}

fn oracle_depths(graph: &Graph) -> Vec<Option<usize>> {
    let mut depth = vec![None; graph.nodes as usize];
    depth[0] = Some(0);
    let mut queue = VecDeque::from([0u32]);
    while let Some(node) = queue.pop_front() {
        for &(from, to, _) in &graph.edges {
            if from == node && depth[to as usize].is_none() {
                depth[to as usize] = Some(depth[node as usize].unwrap() + 1);
                queue.push_back(to);
            }
        }
    }
    depth
}

/// Oracle: the cheapest cost from every node to a goal (Bellman-Ford backwards; tiny graphs).
fn oracle_costs_to_goal(graph: &Graph) -> Vec<Option<Cost>> {
    let mut cost = vec![None; graph.nodes as usize];
    for &g in &graph.goals {
        cost[g as usize] = Some(0);
    }
    for _ in 0..graph.nodes {
        for &(from, to, c) in &graph.edges {
            if let Some(rest) = cost[to as usize] {
                if cost[from as usize].is_none_or(|known| rest + c < known) {
                    cost[from as usize] = Some(rest + c);
                }
            }
        }
    }
    cost
}

/// Oracle: the cheapest cost from node 0 to a goal in at most `limit` moves (Bellman-Ford by
/// number of moves).
fn oracle_cheapest_within(graph: &Graph, limit: u32) -> Option<Cost> {
    let mut reach: Vec<Option<Cost>> = vec![None; graph.nodes as usize];
    reach[0] = Some(0);
    let mut best = graph.goals.contains(&0).then_some(0);
    for _ in 0..limit {
        let mut next: Vec<Option<Cost>> = vec![None; graph.nodes as usize];
        for &(from, to, c) in &graph.edges {
            if let Some(g) = reach[from as usize] {
                let g = g + c;
                if next[to as usize].is_none_or(|known| g < known) {
                    next[to as usize] = Some(g);
                }
            }
        }
        for &goal in &graph.goals {
            if let Some(g) = next[goal as usize] {
                best = Some(best.map_or(g, |b: Cost| b.min(g)));
            }
        }
        reach = next;
    }
    best
}

/// A random graph with 1..24 nodes, random edges of cost 1..=9, random goals, and a heuristic
/// that is a random fraction of the true remaining cost (so admissible, often inconsistent).
fn graphs() -> impl Strategy<Value = Graph> {
    graphs_of(1..24, 3)
}

/// [`graphs`] with a number of nodes in `nodes` and fewer than `per_node` edges a node.
fn graphs_of(nodes: std::ops::Range<u32>, per_node: usize) -> impl Strategy<Value = Graph> {
    nodes.prop_flat_map(move |nodes| {
        let edge = (0..nodes, 0..nodes, 1u64..10);
        (
            Just(nodes),
            prop::collection::vec(edge, 0..(nodes as usize * per_node)),
            prop::collection::vec(0..nodes, 0..3),
            prop::collection::vec(0u64..=100, nodes as usize),
        )
            .prop_map(|(nodes, edges, goals, percents)| {
                let mut graph = Graph {
                    nodes,
                    edges,
                    goals,
                    estimate: vec![0; nodes as usize],
                    undirected: false,
                    max_step: None,
                };
                let to_goal = oracle_costs_to_goal(&graph);
                graph.estimate = to_goal
                    .iter()
                    .zip(&percents)
                    .map(|(cost, p)| cost.map_or(1000, |c| c * p / 100))
                    .collect();
                graph
            })
    })
}

/// Checks that a solved outcome's path is real: consecutive states joined by the named edges,
/// from the start to a goal, with the reported cost.
fn assert_replays(graph: &Graph, outcome: &Outcome<u32, usize>) {
    let solution = outcome.solution().expect("solved outcome has a solution");
    assert_eq!(solution.states.len(), solution.moves.len() + 1);
    assert_eq!(solution.states[0], 0);
    let mut cost = 0;
    for (i, &edge) in solution.moves.iter().enumerate() {
        let (from, to, c) = graph.edges[edge];
        assert_eq!(
            from, solution.states[i],
            "edge {edge} does not leave state {i}"
        );
        assert_eq!(
            to,
            solution.states[i + 1],
            "edge {edge} does not reach state {}",
            i + 1
        );
        cost += c;
    }
    assert!(graph.goals.contains(solution.states.last().unwrap()));
    assert_eq!(solution.cost, cost);
}

/// Oracle: how many nodes lie at each distance from node 0.
fn oracle_layers(graph: &Graph) -> Vec<u64> {
    let depths = oracle_depths(graph);
    let deepest = depths.iter().flatten().max().copied().unwrap_or(0);
    let mut layers = vec![0u64; deepest + 1];
    for d in depths.iter().flatten() {
        layers[*d] += 1;
    }
    layers
}

fn reachable(graph: &Graph) -> u64 {
    oracle_depths(graph).iter().flatten().count() as u64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn shortest_solvers_agree_with_the_oracle(graph in graphs()) {
        let config = Config::default();
        let depths = oracle_depths(&graph);
        let shortest = graph.goals.iter().filter_map(|&g| depths[g as usize]).min();
        // Bounded: on a cyclic graph without a solution iddfs proves exhaustion only once the
        // bound passes the longest simple path, and its tree grows exponentially with the bound
        // (`tree_searches_prove_small_cyclic_graphs_unsolvable` has graphs small enough).
        let bounded = Config::default().max_depth(shortest.map_or(6, |l| l as u32 + 2));
        for (name, outcome) in [
            ("bfs", bfs(&graph, &config)),
            ("par_bfs", bfs(&graph, &two_threads(&config))),
            ("par_bfs, narrow layers", bfs(&graph, &narrow(&config))),
            ("par_bfs, handed over", bfs(&graph, &handed_over(&config))),
            ("bfs_indexed", bfs(&Indexed(&graph), &config)),
            ("bidirectional", bidirectional(&graph, &config)),
            ("par_bidirectional", bidirectional(&graph, &two_threads(&config))),
            ("par_bidirectional, narrow layers", bidirectional(&graph, &narrow(&config))),
            ("iddfs", iddfs(&graph, &bounded)),
        ] {
            match shortest {
                Some(length) => {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    prop_assert_eq!(outcome.solution().unwrap().len(), length, "{}", name);
                    assert_replays(&graph, &outcome);
                }
                None => prop_assert_ne!(outcome.status(), Status::Solved, "{}", name),
            }
        }
    }

    #[test]
    fn cheapest_solvers_agree_with_the_oracle(graph in graphs()) {
        let cheapest = oracle_costs_to_goal(&graph)[0];
        // A cheapest path has at most `nodes - 1` edges; the bound keeps the unsolvable
        // cases' tree small (see `shortest_solvers_agree_with_the_oracle`).
        let bounded = Config::default().max_depth(cheapest.map_or(4, |_| graph.nodes));
        for (name, outcome) in [
            ("ucs", ucs(&graph, &Config::default())),
            ("astar", astar(&graph, &Config::default())),
            ("idastar", idastar(&graph, &bounded)),
            ("idastar, max step told", idastar(&graph.declaring_its_max_step(), &bounded)),
        ] {
            match cheapest {
                Some(cost) => {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    prop_assert_eq!(outcome.solution().unwrap().cost, cost, "{}", name);
                    assert_replays(&graph, &outcome);
                }
                None => prop_assert_ne!(outcome.status(), Status::Solved, "{}", name),
            }
        }
        // Costs past 32 bits: the open list moves to its wide entries as they appear.
        let factor = 1 << 33;
        let large = graph.scaled(factor);
        for (name, outcome) in [
            ("ucs, costs past 32 bits", ucs(&large, &Config::default())),
            ("astar, costs past 32 bits", astar(&large, &Config::default())),
        ] {
            match cheapest {
                Some(cost) => {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    let found = outcome.solution().unwrap().cost;
                    prop_assert_eq!(found, cost * factor, "{}", name);
                    assert_replays(&large, &outcome);
                }
                None => prop_assert_ne!(outcome.status(), Status::Solved, "{}", name),
            }
        }
    }

    #[test]
    fn cheapest_solvers_keep_to_a_depth_limit(graph in graphs(), limit in 0u32..6) {
        // ucs and astar kept one path a state: with a depth limit, the cheap path that reached
        // a state at the limit hid a dearer one with moves left, and a dearer answer came out
        // as the cheapest (cost 100 where 6 was within the depth).
        let cheapest = oracle_cheapest_within(&graph, limit);
        let config = Config::default().max_depth(limit);
        for (name, outcome) in [
            ("ucs", ucs(&graph, &config)),
            ("astar", astar(&graph, &config)),
            ("idastar", idastar(&graph, &config)),
            // Told the dearest step, idastar stops once its bound covers every path within
            // the limit: no later than the search above, and with the same answer.
            ("idastar, max step told", idastar(&graph.declaring_its_max_step(), &config)),
            // Told it, astar leaves out the states the heuristic puts out of the limit's reach.
            ("astar, max step told", astar(&graph.declaring_its_max_step(), &config)),
        ] {
            match cheapest {
                Some(cost) => {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    let solution = outcome.solution().unwrap();
                    prop_assert_eq!(solution.cost, cost, "{}", name);
                    prop_assert!(solution.len() <= limit as usize, "{}", name);
                    assert_replays(&graph, &outcome);
                }
                None => prop_assert_ne!(outcome.status(), Status::Solved, "{}", name),
            }
        }
    }

    #[test]
    fn weighted_searches_keep_to_a_depth_limit(
        graph in graphs(),
        limit in 0u32..6,
        weight in 1.0f64..4.0,
    ) {
        // Told the dearest step, weighted IDA* stops once its bound covers every path within
        // the limit, as weighted: `g + w·h` may pass the dearest path's cost by the weight.
        // Both leave out the states whose heuristic puts the goal past the limit: never one
        // on a path within it.
        let cheapest = oracle_cheapest_within(&graph, limit);
        let config = Config::default().weight(weight).max_depth(limit);
        let told = graph.declaring_its_max_step();
        for (name, outcome) in [("idastar", idastar(&told, &config)), ("astar", astar(&told, &config))] {
            match cheapest {
                Some(cost) => {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    let solution = outcome.solution().unwrap();
                    prop_assert!(solution.cost >= cost && solution.cost as f64 <= weight * cost as f64);
                    prop_assert!(solution.len() <= limit as usize, "{}", name);
                    assert_replays(&graph, &outcome);
                }
                None => prop_assert_ne!(outcome.status(), Status::Solved, "{}", name),
            }
        }
    }

    #[test]
    fn weighted_solvers_stay_within_their_weight(graph in graphs(), weight in 1.0f64..4.0) {
        // Weighted A* and IDA* (Pohl 1970; Korf 1993): with an admissible heuristic, the
        // solution costs at most `weight` times the cheapest.
        let cheapest = oracle_costs_to_goal(&graph)[0];
        let config = Config::default().weight(weight);
        let bounded = config.clone().max_depth(cheapest.map_or(4, |_| graph.nodes));
        for (name, outcome) in [
            ("astar", astar(&graph, &config)),
            ("idastar", idastar(&graph, &bounded)),
            ("idastar, max step told", idastar(&graph.declaring_its_max_step(), &bounded)),
        ] {
            match cheapest {
                Some(cost) => {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    let found = outcome.solution().unwrap().cost;
                    prop_assert!(found >= cost, "{}: {} below the cheapest {}", name, found, cost);
                    prop_assert!(
                        found as f64 <= weight * cost as f64,
                        "{}: {} above {} x {}", name, found, weight, cost
                    );
                    assert_replays(&graph, &outcome);
                }
                None => prop_assert_ne!(outcome.status(), Status::Solved, "{}", name),
            }
        }
        // A weight past MAX_WEIGHT counts as MAX_WEIGHT: still guided, still bounded.
        let huge = Config::default().weight(1e300);
        let outcome = idastar(&graph, &huge.max_depth(cheapest.map_or(4, |_| graph.nodes)));
        if let Some(cost) = cheapest {
            let found = outcome.solution().map(|s| s.cost);
            prop_assert!(found.is_some_and(|f| f as f64 <= MAX_WEIGHT * cost as f64), "{:?}", found);
        }
    }

    #[test]
    fn tree_searches_prove_small_cyclic_graphs_unsolvable(graph in graphs_of(1..8, 3)) {
        // Without limits, iddfs and idastar end on every finite graph: an iteration that cuts
        // off no simple path proves that no goal is reachable. Before, they deepened forever
        // on any cycle; the timeout turns that into a failure here.
        let depths = oracle_depths(&graph);
        let shortest = graph.goals.iter().filter_map(|&g| depths[g as usize]).min();
        let cheapest = oracle_costs_to_goal(&graph)[0];
        let config = Config::default().timeout(Duration::from_secs(20));
        for (name, outcome, best) in [
            ("iddfs", iddfs(&graph, &config), shortest.map(|l| l as Cost)),
            ("idastar", idastar(&graph, &config), cheapest),
        ] {
            match best {
                Some(best) => {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    let solution = outcome.solution().unwrap();
                    let found = if name == "iddfs" { solution.len() as Cost } else { solution.cost };
                    prop_assert_eq!(found, best, "{}", name);
                    assert_replays(&graph, &outcome);
                }
                None => prop_assert_eq!(outcome.status(), Status::Exhausted, "{}", name),
            }
        }
    }

    #[test]
    fn searches_with_a_seen_set_prove_exhaustion_within_a_depth_limit(
        mut graph in graphs(),
        limit in 0u32..8,
    ) {
        // No goal: the reachable set reaches `deepest` moves out. Within a depth limit at least
        // that deep, the searches saw it all and prove there is no goal; they said the depth
        // limit stopped them (ucs and astar until they too looked past the limit).
        graph.goals.clear();
        let deepest = oracle_depths(&graph).iter().flatten().max().copied().unwrap_or(0);
        let expected = if deepest as u32 <= limit {
            Status::Exhausted
        } else {
            Status::Limit(Limit::Depth)
        };
        let config = Config::default().max_depth(limit);
        for (name, outcome) in [
            ("bfs", bfs(&graph, &config)),
            ("bfs_indexed", bfs(&Indexed(&graph), &config)),
            ("par_bfs", bfs(&graph, &two_threads(&config))),
            ("par_bfs, handed over", bfs(&graph, &handed_over(&config))),
            ("ucs", ucs(&graph, &config)),
            ("astar", astar(&graph, &config)),
        ] {
            prop_assert_eq!(outcome.status(), expected, "{}", name);
        }
        // dfs may reach a state first by a longer path and leave it at the limit, so a limit
        // as deep as the reachable set does not make it see everything; but it proves
        // exhaustion only when it has, and never from a limit shallower than the set.
        let outcome = dfs(&graph, &config);
        if deepest as u32 > limit {
            prop_assert_eq!(outcome.status(), Status::Limit(Limit::Depth));
        } else {
            let longest_simple_path = graph.nodes - 1;
            if limit >= longest_simple_path {
                prop_assert_eq!(outcome.status(), Status::Exhausted);
            }
        }
    }

    #[test]
    fn tree_searches_prove_exhaustion_within_a_depth_limit(
        mut graph in graphs_of(1..8, 3),
        limit in 0u32..8,
    ) {
        // No goal: a depth limit cuts something off exactly when a path that visits no state
        // twice is longer than the limit. They said the limit stopped them whenever it was
        // reached, even at a dead end.
        graph.goals.clear();
        let expected = if oracle_longest_simple_path(&graph) > limit as usize {
            Status::Limit(Limit::Depth)
        } else {
            Status::Exhausted
        };
        let config = Config::default().max_depth(limit).timeout(Duration::from_secs(20));
        prop_assert_eq!(iddfs(&graph, &config).status(), expected, "iddfs");
        prop_assert_eq!(idastar(&graph, &config).status(), expected, "idastar");
    }

    #[test]
    fn dfs_finds_a_valid_path_exactly_when_one_exists(graph in graphs()) {
        let outcome = dfs(&graph, &Config::default());
        let solvable = graph.goals.iter().any(|&g| oracle_depths(&graph)[g as usize].is_some());
        if solvable {
            prop_assert_eq!(outcome.status(), Status::Solved);
            assert_replays(&graph, &outcome);
        } else {
            prop_assert_eq!(outcome.status(), Status::Exhausted);
        }
    }

    #[test]
    fn unsolvable_means_the_whole_reachable_set_was_stored(mut graph in graphs()) {
        // Make every goal unreachable: goals are nodes no edge enters, other than the start.
        let entered: Vec<u32> = graph.edges.iter().map(|e| e.1).collect();
        graph.goals = (1..graph.nodes).filter(|n| !entered.contains(n)).collect();
        let expected = reachable(&graph);
        for (name, outcome) in [
            ("bfs", bfs(&graph, &Config::default())),
            ("par_bfs", bfs(&graph, &two_threads(&Config::default()))),
            ("par_bfs, narrow layers", bfs(&graph, &narrow(&Config::default()))),
            ("par_bfs, handed over", bfs(&graph, &handed_over(&Config::default()))),
            ("dfs", dfs(&graph, &Config::default())),
            ("ucs", ucs(&graph, &Config::default())),
            ("astar", astar(&graph, &Config::default())),
        ] {
            prop_assert_eq!(outcome.status(), Status::Exhausted, "{}", name);
            prop_assert_eq!(outcome.stats().stored, expected, "{}", name);
        }
        prop_assert_eq!(bidirectional(&graph, &Config::default()).status(), Status::Exhausted);
        for config in [two_threads(&Config::default()), narrow(&Config::default())] {
            prop_assert_eq!(bidirectional(&graph, &config).status(), Status::Exhausted);
        }
    }

    #[test]
    fn explore_layers_are_the_bfs_distances(
        mut graph in graphs(),
        threads in 1usize..3,
        parallel_from in prop_oneof![Just(0usize), Just(DEFAULT_PARALLEL_FROM)],
        undirected in any::<bool>(),
    ) {
        if undirected {
            // Give every edge its reverse, and say so: explore then keeps only three layers.
            let reversed: Vec<_> = graph.edges.iter().map(|&(a, b, c)| (b, a, c)).collect();
            graph.edges.extend(reversed);
            graph.undirected = true;
        }
        let expected = oracle_layers(&graph);
        let deepest = expected.len() - 1;
        let config = Config::default().threads(threads).parallel_from(parallel_from);
        let serial = explore(&graph, &config);
        for exploration in [explore(&graph, &config), serial] {
            prop_assert_eq!(&exploration.layers, &expected);
            prop_assert!(exploration.is_complete());
            prop_assert_eq!(exploration.states(), reachable(&graph));
            if undirected {
                // Frontier search holds at most three layers at a time.
                let widest_three = expected
                    .windows(3)
                    .map(|w| w.iter().sum())
                    .max()
                    .unwrap_or(exploration.states());
                prop_assert!(exploration.stats.stored <= widest_three);
                // `stored` is the most held at once, so at least the widest layer.
                prop_assert!(exploration.stats.stored >= *expected.iter().max().unwrap());
            } else {
                prop_assert_eq!(exploration.stats.stored, exploration.states());
            }
        }

        // With a perfect index: every state a bit, three layers of states held.
        let serial = explore(&Indexed(&graph), &config);
        for indexed in [explore(&Indexed(&graph), &config), serial] {
            prop_assert_eq!(&indexed.layers, &expected);
            prop_assert!(indexed.is_complete());
            let widest_three = expected.windows(3).map(|w| w.iter().sum()).max();
            prop_assert!(indexed.stats.stored <= widest_three.unwrap_or(indexed.states()));
        }

        // Over ranks and their inverse: two bits a rank, every state counted once, by any
        // number of threads.
        for threads in [1, 2] {
            let dense = explore(&Dense(&graph), &Config::default().threads(threads));
            prop_assert_eq!(&dense.layers, &expected);
            prop_assert!(dense.is_complete());
            prop_assert_eq!(dense.stats.expanded, reachable(&graph));
        }

        // Cut at a depth: the layers up to it, complete only if nothing lies deeper.
        let cut = deepest.saturating_sub(1) as u32;
        for partial in [
            explore(&graph, &Config::default().max_depth(cut)),
            explore(&Indexed(&graph), &Config::default().max_depth(cut)),
            explore(&Dense(&graph), &Config::default().max_depth(cut)),
            explore(&Dense(&graph), &Config::default().max_depth(cut).threads(2)),
        ] {
            prop_assert_eq!(&partial.layers[..], &expected[..=cut as usize]);
            prop_assert_eq!(partial.is_complete(), deepest <= cut as usize);
        }
    }

    #[test]
    fn max_states_bounds_what_is_stored(graph in graphs(), max in 1u64..10) {
        let branching = graph.edges.len() as u64;
        for (name, outcome) in [
            ("bfs", bfs(&graph, &Config::default().max_states(max))),
            ("par_bfs", bfs(&graph, &two_threads(&Config::default().max_states(max)))),
            ("par_bfs, narrow layers", bfs(&graph, &narrow(&Config::default().max_states(max)))),
            ("par_bfs, handed over", bfs(&graph, &handed_over(&Config::default().max_states(max)))),
            ("dfs", dfs(&graph, &Config::default().max_states(max))),
            ("ucs", ucs(&graph, &Config::default().max_states(max))),
            ("bidirectional", bidirectional(&graph, &Config::default().max_states(max))),
            ("par_bidirectional", bidirectional(&graph, &two_threads(&Config::default().max_states(max)))),
            ("par_bidirectional, narrow layers", bidirectional(&graph, &narrow(&Config::default().max_states(max)))),
        ] {
            // A store is checked after each expansion, so it may pass the budget by one
            // expansion's successors (plus the goals, for the backward search) and no more.
            prop_assert!(outcome.stats().stored <= max + branching + graph.goals.len() as u64,
                "{}: stored {} with budget {}", name, outcome.stats().stored, max);
            if outcome.status() == Status::Limit(Limit::States) && name != "ucs" {
                // (ucs also counts its open list against the budget)
                prop_assert!(outcome.stats().stored > max, "{}", name);
            }
        }
    }
}

/// The natural numbers, counting up forever: no goal, no end.
struct Endless;

impl Space for Endless {
    type State = u64;
    type Move = ();

    fn start(&self) -> u64 {
        0
    }

    /// A goal no search gets near, for the backward side of bidirectional search.
    fn is_goal(&self, n: &u64) -> bool {
        *n == u64::MAX
    }

    fn successors(&self, n: &u64, _: Option<&()>, mut out: impl FnMut((), u64)) {
        out((), n + 1);
    }
}

impl Reversible for Endless {
    fn goals(&self) -> Vec<u64> {
        vec![u64::MAX]
    }

    fn predecessors(&self, n: &u64, mut out: impl FnMut((), u64)) {
        out((), n - 1);
    }
}

/// An endless binary tree: n reaches 2n + 1 and 2n + 2.
struct BinaryTree;

impl Space for BinaryTree {
    type State = u64;
    type Move = bool;

    fn start(&self) -> u64 {
        0
    }

    fn is_goal(&self, _: &u64) -> bool {
        false
    }

    fn successors(&self, n: &u64, _: Option<&bool>, mut out: impl FnMut(bool, u64)) {
        out(false, 2 * n + 1);
        out(true, 2 * n + 2);
    }
}

#[test]
fn explore_counts_the_same_past_the_depth_limit_however_slow_the_expansions() {
    // The last layer is looked past in batches until one finds a deeper state; what that
    // counts must not depend on the clock (the cube's golden case once counted 23 expansions
    // instead of 87 on a loaded machine, its batches sized by the speed it measured).
    for threads in [1, 2] {
        let config = Config::default().max_depth(8).threads(threads);
        let fast = explore(&BinaryTree, &config);
        // Slow from two layers before the last, so that the speed measured is slow by then.
        let slow = explore(&SlowTree { slow_from: 6 }, &config);
        assert_eq!(slow.layers, fast.layers);
        assert_eq!(
            (slow.stats.expanded, slow.stats.generated),
            (fast.stats.expanded, fast.stats.generated),
            "{threads} threads"
        );
    }
}

#[test]
fn explore_counts_the_last_layer_it_looks_past_as_expanded() {
    // Within 3 moves: the 15 states of layers 0-3 all have their successors generated (those
    // of the last layer to see whether anything lies deeper), 2 each. The last layer's 8 were
    // left out of `expanded` (7 expanded, 30 generated; helper-26).
    for threads in [1, 2] {
        let config = Config::default().max_depth(3).threads(threads);
        let exploration = explore(&BinaryTree, &config);
        assert_eq!(exploration.layers, [1, 2, 4, 8]);
        assert_eq!(exploration.status(), Status::Limit(Limit::Depth));
        let stats = &exploration.stats;
        assert_eq!(
            (stats.expanded, stats.generated),
            (15, 30),
            "{threads} threads"
        );
    }
}

#[test]
fn explore_counts_states_that_are_not_copy_once_each_by_every_strategy() {
    // A 20 x 20 torus whose steps add one to either coordinate, its cells held as vectors (not
    // `Copy`: each successor is a fresh value the explorer must keep or drop), counting its
    // expansions through an atomic, shared by the workers of a parallel exploration. Every
    // strategy (hash table or bits, one thread or two) must count each cell once and expand
    // it once.
    struct Torus(AtomicU64);
    impl Space for Torus {
        type State = Vec<u8>;
        type Move = u8;
        fn start(&self) -> Vec<u8> {
            vec![0, 0]
        }
        fn is_goal(&self, _: &Vec<u8>) -> bool {
            false
        }
        fn successors(&self, cell: &Vec<u8>, _: Option<&u8>, mut out: impl FnMut(u8, Vec<u8>)) {
            self.0.fetch_add(1, Ordering::Relaxed);
            out(0, vec![(cell[0] + 1) % 20, cell[1]]);
            out(1, vec![cell[0], (cell[1] + 1) % 20]);
        }
    }
    impl Rank for Torus {
        fn bound(&self) -> u64 {
            400
        }
        fn rank(&self, cell: &Vec<u8>) -> u64 {
            u64::from(cell[0]) * 20 + u64::from(cell[1])
        }
        fn unrank(&self, rank: u64) -> Option<Vec<u8>> {
            Some(vec![(rank / 20) as u8, (rank % 20) as u8])
        }
    }
    // Cell (x, y) lies x + y steps away: d + 1 cells at d < 20, then 39 - d.
    let expected: Vec<u64> = (0..39u64).map(|d| 20 - d.abs_diff(19)).collect();
    let torus = Torus(AtomicU64::new(0));
    let explorations = [
        explore(&torus, &Config::default()),
        explore(&torus, &two_threads(&Config::default())),
        explore(&Indexed(&torus), &Config::default()),
        explore(&Indexed(&torus), &two_threads(&Config::default())),
        explore(&Dense(&torus), &Config::default()),
        explore(&Dense(&torus), &two_threads(&Config::default())),
    ];
    for exploration in &explorations {
        assert_eq!(exploration.layers, expected);
        assert!(exploration.is_complete());
        assert_eq!(exploration.stats.expanded, 400);
    }
    assert_eq!(
        torus.0.load(Ordering::Relaxed),
        2400,
        "each exploration expands each cell once"
    );
}

type Solver = fn(&Endless, &Config) -> Outcome<u64, ()>;

/// The parallel searches on two threads, handing every layer out to them.
fn two_threads(config: &Config) -> Config {
    config.clone().threads(2).parallel_from(0)
}

/// The parallel searches on two threads with the default [`DEFAULT_PARALLEL_FROM`]: the layers of the
/// small spaces tested here are expanded on one thread.
fn narrow(config: &Config) -> Config {
    config.clone().threads(2)
}

#[test]
fn both_bidirectional_searches_store_every_goal_when_the_start_is_one() {
    // Node 0, the start, is the second of three goals.
    let graph = Graph {
        nodes: 4,
        edges: vec![(0, 1, 1), (1, 2, 1), (2, 3, 1)],
        goals: vec![3, 0, 2],
        estimate: vec![0; 4],
        undirected: false,
        max_step: None,
    };
    for (name, outcome) in [
        ("bidirectional", bidirectional(&graph, &Config::default())),
        (
            "par_bidirectional",
            bidirectional(&graph, &two_threads(&Config::default())),
        ),
    ] {
        assert_eq!(outcome.status(), Status::Solved, "{name}");
        assert_eq!(outcome.solution().unwrap().len(), 0, "{name}");
        // The start, and the three goals on the backward side.
        assert_eq!(outcome.stats().stored, 4, "{name}");
    }
}

/// `par_bfs` on two threads from the first layer of two states: the layers before it grow in
/// one arena, whose states then move to the shards.
fn handed_over(config: &Config) -> Config {
    config.clone().threads(2).parallel_from(2)
}

const SOLVERS: [(&str, Solver); 11] = [
    ("dfs", dfs),
    ("bfs", bfs),
    ("iddfs", iddfs),
    ("ucs", ucs),
    ("astar", astar),
    ("idastar", idastar),
    ("bidirectional", bidirectional),
    ("par_bidirectional", |space, config| {
        bidirectional(space, &two_threads(config))
    }),
    ("par_bfs", |space, config| bfs(space, &two_threads(config))),
    ("par_bidirectional, narrow layers", |space, config| {
        bidirectional(space, &narrow(config))
    }),
    ("par_bfs, narrow layers", |space, config| {
        bfs(space, &narrow(config))
    }),
];

#[test]
fn every_solver_stops_at_the_depth_limit() {
    for (name, solve) in SOLVERS {
        let outcome = solve(&Endless, &Config::default().max_depth(50));
        assert_eq!(outcome.status(), Status::Limit(Limit::Depth), "{name}");
        assert!(outcome.solution().is_none(), "{name}");
    }
}

/// A* with an admissible but inconsistent heuristic expands a state on a dear path first and
/// reaches it again, deeper and cheaper, later. Under a depth limit the cheaper copy must still
/// be expanded: the state expanded shallower does not dominate it, for it cost more.
#[test]
fn a_cheaper_path_found_deeper_is_still_expanded_under_a_depth_limit() {
    // S=0 -5-> X=1 -10-> G=3, and S -1-> Y=2 -1-> X: the cheapest way costs 12 in 3 moves.
    // h(Y) = 11 is exact, h(X) = 0 is low: A* pops X at cost 5 (f = 5) before Y (f = 12),
    // then X again at cost 2.
    let graph = Graph {
        nodes: 4,
        edges: vec![(0, 1, 5), (0, 2, 1), (2, 1, 1), (1, 3, 10)],
        goals: vec![3],
        estimate: vec![0, 0, 11, 0],
        undirected: false,
        max_step: None,
    };
    for limit in [None, Some(3), Some(10)] {
        let config = match limit {
            Some(depth) => Config::default().max_depth(depth),
            None => Config::default(),
        };
        type Solve = fn(&Graph, &Config) -> Outcome<u32, usize>;
        let solvers: [(&str, Solve); 2] = [("astar", astar), ("idastar", idastar)];
        for (name, solve) in solvers {
            let outcome = solve(&graph, &config);
            assert_eq!(outcome.status(), Status::Solved, "{name}, limit {limit:?}");
            let cost = outcome.solution().map(|s| s.cost);
            assert_eq!(cost, Some(12), "{name}, limit {limit:?}");
        }
    }
}

/// Steps of 1 or 2 up to 1,000, each costing 1, with an admissible heuristic (half the way
/// left) under which `g + h` grows by one for every two steps of 1: within 30 moves, IDA* has
/// 16 bounds to go through, the last ones taking in most of the 2^30 paths.
struct Ladder {
    tells_max_step: bool,
}

impl Space for Ladder {
    type State = u64;
    type Move = u8;

    fn start(&self) -> u64 {
        0
    }

    fn is_goal(&self, n: &u64) -> bool {
        *n == 1000
    }

    fn successors(&self, n: &u64, _: Option<&u8>, mut out: impl FnMut(u8, u64)) {
        out(1, n + 1);
        out(2, n + 2);
    }

    fn heuristic(&self, n: &u64) -> Cost {
        1000u64.saturating_sub(*n) / 2
    }

    fn max_step_cost(&self) -> Option<Cost> {
        self.tells_max_step.then_some(1)
    }
}

#[test]
fn idastar_told_the_dearest_step_ends_once_its_bound_covers_the_depth_limit() {
    // Every path within 30 moves costs at most 30, and the start's estimate is 500: the first
    // iteration shows that no goal lies within the limit. Without the rule, the iterations
    // went on for minutes.
    let config = Config::default()
        .max_depth(30)
        .timeout(Duration::from_secs(5));
    let told = idastar(
        &Ladder {
            tells_max_step: true,
        },
        &config,
    );
    assert_eq!(told.status(), Status::Limit(Limit::Depth));
    assert!(told.stats().expanded < 10_000, "{:?}", told.stats());
    let untold = idastar(
        &Ladder {
            tells_max_step: false,
        },
        &config.timeout(Duration::from_millis(200)),
    );
    assert_eq!(untold.status(), Status::Limit(Limit::Time));
}

#[test]
fn weights_past_the_most_count_as_the_most_and_nan_as_none() {
    // Infinity made the search exact, while 1e300 counted as MAX_WEIGHT.
    let weight = |w: f64| Config::default().weight(w).effective_weight();
    assert_eq!(weight(f64::INFINITY), Some(MAX_WEIGHT));
    assert_eq!(weight(1e300), Some(MAX_WEIGHT));
    assert_eq!(weight(2.5), Some(2.5));
    assert_eq!(weight(f64::NAN), None);
    assert_eq!(weight(-1.0), None);
    assert_eq!(weight(1.0), None);
}

#[test]
fn weighted_idastar_told_the_dearest_step_searches_up_to_the_weighted_cost() {
    // 0 -> 1 -> 2 -> 3, each step 1, estimates [2, 2, 1, 0]: with weight 2 the bounds are 4
    // (f(1) = 1 + 2·2 = 5 is cut), then 5, which finds the goal. A bound of 4 already passes
    // the 3 that three steps cost: stopping there would miss the solution within the limit.
    let chain = Graph {
        nodes: 4,
        edges: vec![(0, 1, 1), (1, 2, 1), (2, 3, 1)],
        goals: vec![3],
        estimate: vec![2, 2, 1, 0],
        undirected: false,
        max_step: Some(1),
    };
    let outcome = idastar(&chain, &Config::default().weight(2.0).max_depth(3));
    assert_eq!(outcome.status(), Status::Solved);
    assert_eq!(outcome.solution().unwrap().cost, 3);
}

#[test]
fn every_solver_stops_at_the_time_limit() {
    for (name, solve) in SOLVERS {
        let config = Config::default()
            .timeout(Duration::from_millis(30))
            .max_states(u64::MAX);
        let outcome = solve(&Endless, &config);
        // The store-keeping solvers may run into the u32 id space first on a fast machine.
        assert!(
            matches!(
                outcome.status(),
                Status::Limit(Limit::Time) | Status::Limit(Limit::States)
            ),
            "{name}: {:?}",
            outcome.status()
        );
        assert!(outcome.stats().seconds < 5.0, "{name} overran its timeout");
    }
}

#[test]
fn every_solver_obeys_the_cancel_flag() {
    for (name, solve) in SOLVERS {
        let config = Config::default().cancel(Arc::new(AtomicBool::new(true)));
        let outcome = solve(&Endless, &config);
        assert_eq!(outcome.status(), Status::Limit(Limit::Cancelled), "{name}");
    }
}

#[test]
fn every_storing_solver_obeys_the_state_budget() {
    for (name, solve) in SOLVERS {
        if matches!(name, "iddfs" | "idastar") {
            continue; // they store nothing
        }
        let outcome = solve(&Endless, &Config::default().max_states(10_000));
        assert_eq!(outcome.status(), Status::Limit(Limit::States), "{name}");
        assert!(
            outcome.stats().stored <= 10_002,
            "{name}: {}",
            outcome.stats().stored
        );
        // No room at all: the start is stored and the search stops before expanding it (ucs
        // and astar expanded it first, and stored 2).
        let outcome = solve(&Endless, &Config::default().max_states(0));
        assert_eq!(outcome.status(), Status::Limit(Limit::States), "{name}");
        assert_eq!(outcome.stats().expanded, 0, "{name}");
    }
}

/// A chain 0 -> 1 -> 2 -> 3 whose every step costs half of `u64::MAX`.
struct Dear;

impl Space for Dear {
    type State = u8;
    type Move = ();

    fn start(&self) -> u8 {
        0
    }

    fn is_goal(&self, n: &u8) -> bool {
        *n == 3
    }

    fn successors(&self, n: &u8, _: Option<&()>, mut out: impl FnMut((), u8)) {
        if *n < 3 {
            out((), n + 1);
        }
    }

    fn step_cost(&self, _: &u8, _: &()) -> Cost {
        u64::MAX / 2
    }
}

impl Reversible for Dear {
    fn goals(&self) -> Vec<u8> {
        vec![3]
    }

    fn predecessors(&self, n: &u8, mut out: impl FnMut((), u8)) {
        if *n > 0 {
            out((), n - 1);
        }
    }
}

#[test]
fn path_costs_saturate_instead_of_wrapping() {
    // Three steps of u64::MAX / 2: the sums overflowed (a panic in debug builds, a wrong cost
    // in release), and idastar took its cost bound for "nothing beyond" and said "unsolvable".
    let config = Config::default();
    for (name, outcome) in [
        ("dfs", dfs(&Dear, &config)),
        ("bfs", bfs(&Dear, &config)),
        ("iddfs", iddfs(&Dear, &config)),
        ("ucs", ucs(&Dear, &config)),
        ("astar", astar(&Dear, &config)),
        ("idastar", idastar(&Dear, &config)),
        ("bidirectional", bidirectional(&Dear, &config)),
    ] {
        assert_eq!(outcome.status(), Status::Solved, "{name}");
        let solution = outcome.solution().unwrap();
        assert_eq!((solution.len(), solution.cost), (3, u64::MAX), "{name}");
    }
}

/// A dead end marked by the heuristic's largest value, as spaces often mark one: S(0) reaches
/// A(1) for 0 and B(2) for 10; B reaches the dead end D(3) and E(4) for 0; E reaches the goal
/// G(5) for 0.
struct DeadEnd;

impl Space for DeadEnd {
    type State = u8;
    type Move = u8;

    fn start(&self) -> u8 {
        0
    }

    fn is_goal(&self, n: &u8) -> bool {
        *n == 5
    }

    fn successors(&self, n: &u8, _: Option<&u8>, mut out: impl FnMut(u8, u8)) {
        let next: &[u8] = match n {
            0 => &[1, 2],
            2 => &[3, 4],
            4 => &[5],
            _ => &[],
        };
        for &to in next {
            out(to, to);
        }
    }

    fn step_cost(&self, from: &u8, to: &u8) -> Cost {
        if (*from, *to) == (0, 2) {
            10
        } else {
            0
        }
    }

    fn heuristic(&self, n: &u8) -> Cost {
        if *n == 3 {
            Cost::MAX
        } else {
            0
        }
    }
}

#[test]
fn a_dead_end_marked_by_the_largest_heuristic_is_passed_over() {
    // The open list emptied, took D's f (u64::MAX) as its base, and E's f (10) then overflowed
    // the check of how far below the base it lay: a panic in debug builds, in release an
    // attempt to add 2^64 buckets.
    for (name, outcome) in [
        ("ucs", ucs(&DeadEnd, &Config::default())),
        ("astar", astar(&DeadEnd, &Config::default())),
    ] {
        assert_eq!(outcome.status(), Status::Solved, "{name}");
        let solution = outcome.into_solution().unwrap();
        assert_eq!(
            (solution.moves, solution.cost),
            (vec![2, 4, 5], 10),
            "{name}"
        );
    }
}

/// Three states and no goal: 0 reaches itself, 2 and the dead end 1 (heuristic `Cost::MAX`);
/// 2 reaches 0 and itself. Unit costs.
struct CycleBesideADeadEnd;

impl Space for CycleBesideADeadEnd {
    type State = u8;
    type Move = u8;

    fn start(&self) -> u8 {
        0
    }

    fn is_goal(&self, _: &u8) -> bool {
        false
    }

    fn successors(&self, n: &u8, _: Option<&u8>, mut out: impl FnMut(u8, u8)) {
        let next: &[u8] = match n {
            0 => &[0, 2, 1],
            2 => &[0, 2],
            _ => &[],
        };
        for &to in next {
            out(to, to);
        }
    }

    fn heuristic(&self, n: &u8) -> Cost {
        if *n == 1 {
            Cost::MAX
        } else {
            0
        }
    }
}

#[test]
fn idastar_proves_a_space_unsolvable_past_a_dead_end_marked_by_the_largest_heuristic() {
    // The dead end's cut-off kept every iteration open while the cycles through 0 and 2 raised
    // the bound by one a time: 102 M expansions into a timeout, for three states (helper-26).
    for weight in [1.0, 2.0] {
        let config = Config::default()
            .weight(weight)
            .timeout(Duration::from_secs(20));
        let outcome = idastar(&CycleBesideADeadEnd, &config);
        assert_eq!(outcome.status(), Status::Exhausted, "weight {weight}");
        assert!(outcome.stats().expanded < 100, "{:?}", outcome.stats());
    }
}

/// An endless binary tree whose expansions take two milliseconds each, as a space with costly
/// successors might, from the given depth on (those above it are instant).
struct SlowTree {
    slow_from: u32,
}

impl SlowTree {
    /// Sleeps as long as expanding `n` takes.
    fn pause(&self, n: u64) {
        if (u128::from(n) + 1).ilog2() >= self.slow_from {
            std::thread::sleep(SLOW);
        }
    }
}

/// How long [`SlowTree`] takes to expand a state.
const SLOW: Duration = Duration::from_millis(2);

impl Space for SlowTree {
    type State = u64;
    type Move = bool;

    fn start(&self) -> u64 {
        0
    }

    /// A goal no search gets near, for the backward side of bidirectional search.
    fn is_goal(&self, n: &u64) -> bool {
        *n == u64::MAX
    }

    fn successors(&self, n: &u64, _: Option<&bool>, mut out: impl FnMut(bool, u64)) {
        self.pause(*n);
        out(false, 2 * n + 1);
        out(true, 2 * n + 2);
    }
}

impl Reversible for SlowTree {
    fn goals(&self) -> Vec<u64> {
        vec![u64::MAX]
    }

    fn predecessors(&self, n: &u64, mut out: impl FnMut(bool, u64)) {
        self.pause(*n);
        if *n > 0 {
            out(n.is_multiple_of(2), (n - 1) / 2);
        }
    }
}

#[test]
fn limits_and_progress_come_on_time_however_slow_the_space() {
    // The clock was looked at every 1,024 expansions: two seconds here, against a timeout of
    // 0.1 s, and no progress report in between.
    let timeout = || Config::default().timeout(Duration::from_millis(100));
    type Solve = fn(&SlowTree, &Config) -> Status;
    let solvers: [(&str, Solve); 11] = [
        ("dfs", |s, c| dfs(s, c).status()),
        ("bfs", |s, c| bfs(s, c).status()),
        ("iddfs", |s, c| iddfs(s, c).status()),
        ("ucs", |s, c| ucs(s, c).status()),
        ("astar", |s, c| astar(s, c).status()),
        ("idastar", |s, c| idastar(s, c).status()),
        ("bidirectional", |s, c| bidirectional(s, c).status()),
        ("par_bfs", |s, c| bfs(s, &two_threads(c)).status()),
        ("par_bidirectional", |s, c| {
            bidirectional(s, &two_threads(c)).status()
        }),
        ("explore", |s, c| explore(s, c).status()),
        // Expanded in batches by two threads: a batch of slow states kept the limit waiting.
        ("explore, two threads", |s, c| {
            explore(s, &two_threads(c)).status()
        }),
    ];
    for (name, solve) in solvers {
        let started = std::time::Instant::now();
        let status = solve(&SlowTree { slow_from: 0 }, &timeout());
        let seconds = started.elapsed().as_secs_f64();
        assert_eq!(status, Status::Limit(Limit::Time), "{name}");
        assert!(seconds < 1.0, "{name} stopped after {seconds:.2} s");
    }
    // Instant down to depth 12, then slow: batches sized by the speed of the layers before
    // took the 4,096 states of layer 12 in one (4 s on two threads).
    let started = std::time::Instant::now();
    let sudden = SlowTree { slow_from: 12 };
    let status = explore(&sudden, &two_threads(&timeout())).status();
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(status, Status::Limit(Limit::Time));
    assert!(seconds < 2.0, "explore stopped after {seconds:.2} s");
    let calls = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = Arc::clone(&calls);
    let config = Config::default()
        .timeout(Duration::from_millis(400))
        .progress(move |_| {
            seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
    bfs(&SlowTree { slow_from: 0 }, &config);
    assert!(calls.load(std::sync::atomic::Ordering::Relaxed) >= 2);
}

/// A tree of eight children a state, instant to expand but a millisecond to weigh.
struct HeavyWeights;

impl Space for HeavyWeights {
    type State = u64;
    type Move = u8;

    fn start(&self) -> u64 {
        0
    }

    fn is_goal(&self, _: &u64) -> bool {
        false
    }

    fn successors(&self, n: &u64, _: Option<&u8>, mut out: impl FnMut(u8, u64)) {
        for child in 1..=8 {
            out(child, 8 * n + u64::from(child));
        }
    }

    fn weight(&self, _: &u64) -> u64 {
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_millis(1) {}
        1
    }
}

#[test]
fn explore_weighs_as_it_goes_and_stops_on_time() {
    // A layer's states were weighed all at once, after it was found or when a limit stopped
    // the search, without a look at the clock: here 512 ms for the third layer, against a
    // timeout of 0.1 s.
    for threads in [1, 2] {
        let config = Config::default()
            .timeout(Duration::from_millis(100))
            .threads(threads);
        let started = std::time::Instant::now();
        let exploration = explore(&HeavyWeights, &config);
        let seconds = started.elapsed().as_secs_f64();
        assert_eq!(exploration.status(), Status::Limit(Limit::Time));
        assert!(
            seconds < 0.4,
            "{threads} threads: stopped after {seconds:.2} s"
        );
        // The complete layers hold 8^d states.
        let complete = exploration.layers.len() - 1;
        assert!(complete >= 2, "{:?}", exploration.layers);
        for (depth, &count) in exploration.layers[..complete].iter().enumerate() {
            assert_eq!(count, 1 << (3 * depth));
        }
    }
}

#[test]
fn progress_is_reported_during_long_searches() {
    let calls = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = Arc::clone(&calls);
    let config = Config::default()
        .timeout(Duration::from_millis(350))
        .progress(move |p| {
            assert!(p.expanded > 0);
            seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
    iddfs(&Endless, &config);
    assert!(calls.load(std::sync::atomic::Ordering::Relaxed) >= 1);
}

#[test]
fn a_start_that_is_a_goal_needs_no_moves() {
    let graph = Graph {
        nodes: 2,
        edges: vec![(0, 1, 1)],
        goals: vec![0],
        estimate: vec![0, 0],
        undirected: false,
        max_step: None,
    };
    for (name, outcome) in [
        ("dfs", dfs(&graph, &Config::default())),
        ("bfs", bfs(&graph, &Config::default())),
        ("bfs_indexed", bfs(&Indexed(&graph), &Config::default())),
        ("iddfs", iddfs(&graph, &Config::default())),
        ("ucs", ucs(&graph, &Config::default())),
        ("astar", astar(&graph, &Config::default())),
        ("idastar", idastar(&graph, &Config::default())),
        ("bidirectional", bidirectional(&graph, &Config::default())),
        (
            "par_bidirectional",
            bidirectional(&graph, &two_threads(&Config::default())),
        ),
        ("par_bfs", bfs(&graph, &two_threads(&Config::default()))),
        (
            "par_bidirectional, narrow",
            bidirectional(&graph, &narrow(&Config::default())),
        ),
        ("par_bfs, narrow", bfs(&graph, &narrow(&Config::default()))),
    ] {
        // The solvers that store states stored the start (they said 0).
        let stores = !matches!(name, "iddfs" | "idastar");
        assert!(
            !stores || outcome.stats().stored >= 1,
            "{name}: {:?}",
            outcome.stats()
        );
        let solution = outcome.solution().unwrap();
        assert!(solution.is_empty());
        assert_eq!(solution.states, [0]);
        assert_eq!(solution.cost, 0);
    }
}

#[test]
fn tree_searches_stop_at_the_depth_limit_only_on_a_simple_path() {
    // A cycle 0 -> 1 -> 2 -> 3 -> 0 with a tail 2 -> 4 -> 5 -> 6 and the goal 7 unreachable:
    // the longest simple path, to the tail's end, has 5 moves. The turns around the cycle
    // reach any depth.
    let graph = Graph {
        nodes: 8,
        edges: vec![
            (0, 1, 1),
            (1, 2, 1),
            (2, 3, 1),
            (3, 0, 1),
            (2, 4, 1),
            (4, 5, 1),
            (5, 6, 1),
        ],
        goals: vec![7],
        estimate: vec![0; 8],
        undirected: false,
        max_step: None,
    };
    let within = |depth| Config::default().max_depth(depth);
    type Solve = fn(&Graph, &Config) -> Outcome<u32, usize>;
    let solvers: [(&str, Solve); 2] = [("iddfs", iddfs), ("idastar", idastar)];
    for (name, solve) in solvers {
        // Within 4 moves, the tail's end is cut off: a deeper search might find more.
        assert_eq!(
            solve(&graph, &within(4)).status(),
            Status::Limit(Limit::Depth),
            "{name}"
        );
        // Within 5 moves or more, or without limit, only paths that came back round the cycle
        // are cut off: proven unsolvable (the depth limit used to be blamed, at any depth,
        // and at 5 for the tail's end, where nothing lies beyond).
        for config in [within(5), within(6), within(40), Config::default()] {
            assert_eq!(solve(&graph, &config).status(), Status::Exhausted, "{name}");
        }
    }
}

#[test]
fn tree_searches_prove_unsolvable_on_a_finite_tree() {
    // 0 -> 1 -> 2, goal 3 unreachable and no cycles: one iteration meets no cut-off.
    let graph = Graph {
        nodes: 4,
        edges: vec![(0, 1, 1), (1, 2, 1)],
        goals: vec![3],
        estimate: vec![0; 4],
        undirected: false,
        max_step: None,
    };
    assert_eq!(
        iddfs(&graph, &Config::default()).status(),
        Status::Exhausted
    );
    assert_eq!(
        idastar(&graph, &Config::default()).status(),
        Status::Exhausted
    );
}

/// A line 0, 1, 2, ... with the goal far away and a perfect heuristic: IDA* dives straight to it.
struct Line {
    goal: u64,
}

impl Space for Line {
    type State = u64;
    type Move = ();

    fn start(&self) -> u64 {
        0
    }

    fn is_goal(&self, n: &u64) -> bool {
        *n == self.goal
    }

    fn successors(&self, n: &u64, _: Option<&()>, mut out: impl FnMut((), u64)) {
        out((), n + 1);
    }

    fn heuristic(&self, n: &u64) -> Cost {
        self.goal.saturating_sub(*n)
    }
}

#[test]
fn tree_searches_dive_deeper_than_the_thread_stack() {
    // 300,000 levels of recursion would overflow a test thread's 2 MiB stack many times over;
    // the dive moves to new stack segments as it goes.
    let outcome = idastar(&Line { goal: 300_000 }, &Config::default());
    assert_eq!(outcome.status(), Status::Solved);
    let solution = outcome.solution().unwrap();
    assert_eq!(solution.len(), 300_000);
    assert_eq!(solution.states.last(), Some(&300_000));
}

/// An n x n grid walked from a corner, with 4-neighbour moves; `undirected` says so or not.
struct Grid {
    n: u32,
    undirected: bool,
}

impl Space for Grid {
    type State = (u32, u32);
    type Move = u8;

    fn start(&self) -> (u32, u32) {
        (0, 0)
    }

    fn is_goal(&self, _: &(u32, u32)) -> bool {
        false
    }

    fn successors(
        &self,
        &(x, y): &(u32, u32),
        _: Option<&u8>,
        mut out: impl FnMut(u8, (u32, u32)),
    ) {
        if x + 1 < self.n {
            out(0, (x + 1, y));
        }
        if y + 1 < self.n {
            out(1, (x, y + 1));
        }
        if x > 0 {
            out(2, (x - 1, y));
        }
        if y > 0 {
            out(3, (x, y - 1));
        }
    }

    fn undirected(&self) -> bool {
        self.undirected
    }
}

/// A cell's row-major number is a perfect index.
impl Rank for Grid {
    fn bound(&self) -> u64 {
        u64::from(self.n) * u64::from(self.n)
    }

    fn rank(&self, &(x, y): &(u32, u32)) -> u64 {
        u64::from(y) * u64::from(self.n) + u64::from(x)
    }

    fn unrank(&self, rank: u64) -> Option<(u32, u32)> {
        let n = u64::from(self.n);
        Some(((rank % n) as u32, (rank / n) as u32))
    }
}

impl Grid {
    /// The states at each distance from a corner of an n x n grid: d + 1 at distance d < n,
    /// and 2n - 1 - d beyond.
    fn layers(n: u32) -> Vec<u64> {
        (0..2 * n - 1)
            .map(|d| u64::from(if d < n { d + 1 } else { 2 * n - 1 - d }))
            .collect()
    }
}

#[test]
fn explore_counts_a_space_of_millions_in_the_large_index() {
    // 2100 x 2100 = 4,410,000 states, all held (the grid is not declared undirected): past the
    // size where explore's shards move to the slot table, part way through.
    let n = 2100u32;
    let expected = Grid::layers(n);
    for threads in [1, 2] {
        let grid = Grid {
            n,
            undirected: false,
        };
        let exploration = explore(&grid, &Config::default().threads(threads));
        assert_eq!(exploration.layers, expected, "threads {threads}");
        assert_eq!(exploration.stats.stored, u64::from(n * n));
    }
}

#[test]
fn explore_indexed_counts_a_large_grid_in_bits_with_any_threads() {
    // 1500 x 1500 = 2,250,000 cells, one bit each; layers of up to 1,500 states are held.
    let n = 1500u32;
    for (threads, parallel_from) in [(1, DEFAULT_PARALLEL_FROM), (2, 0)] {
        let grid = Grid {
            n,
            undirected: false,
        };
        let config = Config::default()
            .threads(threads)
            .parallel_from(parallel_from);
        let exploration = explore(&Indexed(&grid), &config);
        assert_eq!(exploration.layers, Grid::layers(n), "threads {threads}");
        assert!(exploration.stats.stored <= 3 * u64::from(n));
    }
}

#[test]
fn explore_dense_counts_a_large_grid_on_any_threads_with_nothing_stored_but_bits() {
    // 1500 x 1500 = 2,250,000 cells, two bits each, in 35 chunks of the array: the chunks
    // are shared out among the threads, and a layer's states lie in several of them.
    let n = 1500u32;
    for undirected in [false, true] {
        for threads in [1, 2] {
            let grid = Grid { n, undirected };
            let exploration = explore(&Dense(&grid), &Config::default().threads(threads));
            assert_eq!(exploration.layers, Grid::layers(n), "threads {threads}");
            assert_eq!(exploration.stats.expanded, u64::from(n * n));
            assert_eq!(exploration.stats.peak_frontier, u64::from(n));
        }
    }
}

#[test]
fn explore_dense_needs_the_arrays_to_fit_the_budget_and_the_start_to_unrank() {
    // A budget of 100 states of 8 bytes holds no 2-bit array of 640 x 640 ranks (102,400
    // bytes): the exploration stores states instead, and stops at the budget.
    let grid = Grid {
        n: 640,
        undirected: true,
    };
    let small = explore(&Dense(&grid), &Config::default().max_states(100));
    assert_eq!(small.status(), Status::Limit(Limit::States));
    let fits = explore(&Dense(&grid), &Config::default().max_states(12_800));
    assert!(fits.is_complete());
    assert_eq!(fits.layers, Grid::layers(640));
    /// A grid whose unrank gives the wrong cell: the start's round trip fails, so it is
    /// explored over its states, and counted right all the same.
    struct Wrong(Grid);
    impl Space for Wrong {
        type State = (u32, u32);
        type Move = u8;
        fn start(&self) -> (u32, u32) {
            self.0.start()
        }
        fn is_goal(&self, _: &(u32, u32)) -> bool {
            false
        }
        fn successors(&self, s: &(u32, u32), m: Option<&u8>, out: impl FnMut(u8, (u32, u32))) {
            self.0.successors(s, m, out)
        }
        fn index_bound(&self) -> Option<u64> {
            Some(self.0.bound())
        }
        fn index(&self, s: &(u32, u32)) -> u64 {
            self.0.rank(s)
        }
        fn state_at(&self, _: u64) -> Option<(u32, u32)> {
            Some((1, 1))
        }
    }
    assert_eq!(
        explore(&Wrong(grid), &Config::default()).layers,
        Grid::layers(640)
    );
}

#[test]
fn both_explorers_stop_at_every_limit_with_that_limit_named() {
    let grid = Grid {
        n: 3000,
        undirected: false,
    };
    type Explorer = fn(&Grid, &Config) -> frontier_search::Exploration;
    let explorers: [(&str, Explorer); 6] = [
        ("explore", explore),
        ("explore_indexed", |g, c| explore(&Indexed(g), c)),
        ("par_explore", |g, c| explore(g, &two_threads(c))),
        ("par_explore_indexed", |g, c| {
            explore(&Indexed(g), &two_threads(c))
        }),
        ("explore_dense", |g, c| explore(&Dense(g), c)),
        ("par_explore_dense", |g, c| {
            explore(&Dense(g), &two_threads(c))
        }),
    ];
    for (name, run) in explorers {
        let limited = run(&grid, &Config::default().max_states(5_000));
        assert_eq!(limited.status(), Status::Limit(Limit::States), "{name}");
        // A layer of this grid has at most 3,000 states: the budget is passed by less.
        assert!(limited.stats.stored <= 5_000 + 4 * 3_000, "{name}");
        assert!(!limited.is_complete());
        let cancelled = run(
            &grid,
            &Config::default().cancel(Arc::new(AtomicBool::new(true))),
        );
        assert_eq!(
            cancelled.status(),
            Status::Limit(Limit::Cancelled),
            "{name}"
        );
        let timed = run(&grid, &Config::default().timeout(Duration::ZERO));
        assert_eq!(timed.status(), Status::Limit(Limit::Time), "{name}");
        let shallow = run(&grid, &Config::default().max_depth(10));
        assert_eq!(shallow.status(), Status::Limit(Limit::Depth), "{name}");
        assert_eq!(shallow.layers, Grid::layers(3000)[..=10], "{name}");
    }
}

#[test]
fn explore_counts_a_large_space_in_shards_with_any_threads() {
    // 640 x 640 = 409,600 states: past the size where explore splits its seen-set into shards.
    let n = 640u32;
    let expected = Grid::layers(n);
    for undirected in [false, true] {
        for threads in [1, 2] {
            let grid = Grid { n, undirected };
            let exploration = explore(&grid, &Config::default().threads(threads));
            assert_eq!(
                exploration.layers, expected,
                "undirected {undirected}, threads {threads}"
            );
            assert!(exploration.is_complete());
            // Frontier search holds three layers; the full seen-set holds everything.
            let bound = if undirected {
                3 * u64::from(n)
            } else {
                u64::from(n * n)
            };
            assert!(exploration.stats.stored <= bound);
        }
    }
}

/// A walk across a [`Grid`] to one cell, searchable from both ends.
struct GridWalk {
    grid: Grid,
    goal: (u32, u32),
}

impl Space for GridWalk {
    type State = (u32, u32);
    type Move = u8;

    fn start(&self) -> (u32, u32) {
        self.grid.start()
    }

    fn is_goal(&self, cell: &(u32, u32)) -> bool {
        *cell == self.goal
    }

    fn successors(&self, cell: &(u32, u32), last: Option<&u8>, out: impl FnMut(u8, (u32, u32))) {
        self.grid.successors(cell, last, out);
    }
}

impl Reversible for GridWalk {
    fn goals(&self) -> Vec<(u32, u32)> {
        vec![self.goal]
    }

    /// Move `k` is undone by move `(k + 2) % 4`, so a neighbour reached by `k` steps back in
    /// with the opposite move.
    fn predecessors(&self, cell: &(u32, u32), mut out: impl FnMut(u8, (u32, u32))) {
        self.grid
            .successors(cell, None, |k, from| out((k + 2) % 4, from));
    }
}

/// A cell's row-major number is a perfect index.
impl Rank for GridWalk {
    fn bound(&self) -> u64 {
        self.grid.bound()
    }

    fn rank(&self, cell: &(u32, u32)) -> u64 {
        self.grid.rank(cell)
    }
}

#[test]
fn bfs_indexed_crosses_a_grid_and_stops_at_every_limit() {
    let n = 1000u32;
    let walk = |goal| GridWalk {
        grid: Grid {
            n,
            undirected: true,
        },
        goal,
    };
    let far = walk((n - 1, n - 1));
    let outcome = bfs(&Indexed(&far), &Config::default());
    assert_eq!(outcome.status(), Status::Solved);
    let solution = outcome.solution().unwrap();
    assert_eq!(solution.len() as u32, 2 * (n - 1));
    for (step, mv) in solution.moves.iter().enumerate() {
        let mut reached = None;
        far.successors(&solution.states[step], None, |m, next| {
            if m == *mv {
                reached = Some(next);
            }
        });
        assert_eq!(reached, Some(solution.states[step + 1]));
    }
    // Every cell, the goal (found last) included.
    assert_eq!(outcome.stats().stored, u64::from(n * n));
    // Off the grid: every cell seen, then "unsolvable".
    let nowhere = walk((n, n));
    let exhausted = bfs(&Indexed(&nowhere), &Config::default());
    assert_eq!(exhausted.status(), Status::Exhausted);
    assert_eq!(exhausted.stats().stored, u64::from(n * n));
    let limited = bfs(&Indexed(&far), &Config::default().max_states(5_000));
    assert_eq!(limited.status(), Status::Limit(Limit::States));
    assert!(limited.stats().stored <= 5_000 + 4);
    let flag = Arc::new(AtomicBool::new(true));
    let cancelled = bfs(&Indexed(&far), &Config::default().cancel(flag));
    assert_eq!(cancelled.status(), Status::Limit(Limit::Cancelled));
    let timed = bfs(&Indexed(&far), &Config::default().timeout(Duration::ZERO));
    assert_eq!(timed.status(), Status::Limit(Limit::Time));
    let shallow = bfs(&Indexed(&far), &Config::default().max_depth(10));
    assert_eq!(shallow.status(), Status::Limit(Limit::Depth));
}

#[test]
fn parallel_searches_cross_a_large_grid_with_any_threads() {
    // 400 x 400 = 160,000 cells: every shard of the parallel searches holds thousands. The
    // shortest walk between two cells is their Manhattan distance.
    let n = 400u32;
    for goal in [(n - 1, n - 1), (n / 2, 3), (0, n - 1)] {
        let walk = GridWalk {
            grid: Grid {
                n,
                undirected: true,
            },
            goal,
        };
        for (threads, parallel_from) in [
            (1, DEFAULT_PARALLEL_FROM),
            (2, 0),
            (2, DEFAULT_PARALLEL_FROM),
            (3, 0),
        ] {
            let config = Config::default()
                .threads(threads)
                .parallel_from(parallel_from);
            for (solver, outcome) in [
                ("par_bidirectional", bidirectional(&walk, &config)),
                ("par_bfs", bfs(&walk, &config)),
            ] {
                let context = format!("{solver}, threads {threads}");
                assert_eq!(outcome.status(), Status::Solved, "{context}");
                // Every state expanded was stored, and so was the one that ended the search,
                // in the last batch (which `stored` missed on two threads).
                assert!(
                    outcome.stats().stored > outcome.stats().expanded,
                    "{context}"
                );
                let solution = outcome.solution().unwrap();
                assert_eq!(solution.len() as u32, goal.0 + goal.1, "{context}");
                assert_eq!(solution.states.first(), Some(&(0, 0)));
                assert_eq!(solution.states.last(), Some(&goal));
                for (step, mv) in solution.moves.iter().enumerate() {
                    let mut reached = None;
                    walk.successors(&solution.states[step], None, |m, next| {
                        if m == *mv {
                            reached = Some(next);
                        }
                    });
                    assert_eq!(reached, Some(solution.states[step + 1]), "{context}");
                }
            }
        }
    }
}

#[test]
fn breadth_first_searches_cross_a_grid_of_millions() {
    // 1500 x 1500 = 2,250,000 cells: the seen-sets outgrow the small index and move to the
    // large one (past 2^20 states) during the search. The answer is the Manhattan distance.
    let n = 1500u32;
    let walk = GridWalk {
        grid: Grid {
            n,
            undirected: true,
        },
        goal: (n - 1, n - 1),
    };
    for (name, outcome) in [
        ("bfs", bfs(&walk, &Config::default())),
        ("bidirectional", bidirectional(&walk, &Config::default())),
    ] {
        assert_eq!(outcome.status(), Status::Solved, "{name}");
        let solution = outcome.solution().unwrap();
        assert_eq!(solution.len() as u32, 2 * (n - 1), "{name}");
        assert_eq!(solution.states.last(), Some(&walk.goal), "{name}");
        for pair in solution.states.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert_eq!(
                a.0.abs_diff(b.0) + a.1.abs_diff(b.1),
                1,
                "{name}: {a:?} -> {b:?}"
            );
        }
    }
    // bfs held every cell when it reached the far corner, found last.
    let stored = bfs(&walk, &Config::default()).stats().stored;
    assert_eq!(stored, u64::from(n * n));
}

/// A ring of `size` states, `n -> n + 1`, each move costing `cost`, with `heuristic` for every
/// state, and no goal (or `goal`).
struct Ring {
    size: u8,
    cost: Cost,
    heuristic: Cost,
    goal: Option<u8>,
}

impl Space for Ring {
    type State = u8;
    type Move = u8;

    fn start(&self) -> u8 {
        0
    }

    fn is_goal(&self, n: &u8) -> bool {
        self.goal == Some(*n)
    }

    fn successors(&self, n: &u8, _: Option<&u8>, mut out: impl FnMut(u8, u8)) {
        out(0, (n + 1) % self.size);
    }

    fn step_cost(&self, _: &u8, _: &u8) -> Cost {
        self.cost
    }

    fn heuristic(&self, _: &u8) -> Cost {
        self.heuristic
    }
}

#[test]
fn tree_searches_end_on_free_cycles_and_saturated_bounds() {
    // Free moves round a ring kept f within the bound forever: the dive went millions of
    // levels deep (1.6 GB of stack) until the timeout. So did a move costing u64::MAX (the
    // bound saturates and takes in every path) and a heuristic of u64::MAX.
    let config = Config::default()
        .timeout(Duration::from_secs(5))
        .max_states(1 << 20);
    for ring in [
        Ring {
            size: 3,
            cost: 0,
            heuristic: 0,
            goal: None,
        },
        Ring {
            size: 3,
            cost: Cost::MAX,
            heuristic: 0,
            goal: None,
        },
        Ring {
            size: 3,
            cost: 1,
            heuristic: Cost::MAX,
            goal: None,
        },
    ] {
        let outcome = idastar(&ring, &config);
        assert_eq!(outcome.status(), Status::Exhausted, "cost {}", ring.cost);
        assert_eq!(iddfs(&ring, &config).status(), Status::Exhausted);
    }
    let free = Ring {
        size: 3,
        cost: 0,
        heuristic: 0,
        goal: Some(2),
    };
    let solution = idastar(&free, &config).into_solution().unwrap();
    assert_eq!((solution.len(), solution.cost), (2, 0));
    // An endless line of free moves: the path's length is bounded by max_states.
    struct FreeLine;
    impl Space for FreeLine {
        type State = u64;
        type Move = ();
        fn start(&self) -> u64 {
            0
        }
        fn is_goal(&self, _: &u64) -> bool {
            false
        }
        fn successors(&self, n: &u64, _: Option<&()>, mut out: impl FnMut((), u64)) {
            out((), n + 1);
        }
        fn step_cost(&self, _: &u64, _: &()) -> Cost {
            0
        }
    }
    let outcome = idastar(&FreeLine, &Config::default().max_states(1000));
    assert_eq!(outcome.status(), Status::Limit(Limit::States));
    assert!(outcome.stats().peak_frontier <= 1000);
}

#[test]
fn iddfs_counts_expanded_only_the_states_it_expanded() {
    // At the bound it skips a state's successors once the next bound is known; it counted the
    // state expanded all the same (1,953 against 1,216 successor calls on a grid).
    struct Grid(std::cell::Cell<u64>);
    impl Space for Grid {
        type State = (u8, u8);
        type Move = u8;
        fn start(&self) -> (u8, u8) {
            (0, 0)
        }
        fn is_goal(&self, _: &(u8, u8)) -> bool {
            false
        }
        fn successors(
            &self,
            &(x, y): &(u8, u8),
            _: Option<&u8>,
            mut out: impl FnMut(u8, (u8, u8)),
        ) {
            self.0.set(self.0.get() + 1);
            out(0, (x.saturating_add(1).min(9), y));
            out(1, (x, y.saturating_add(1).min(9)));
        }
    }
    let grid = Grid(std::cell::Cell::new(0));
    let outcome = iddfs(&grid, &Config::default().max_depth(8));
    assert_eq!(outcome.stats().expanded, grid.0.get());
}

#[test]
fn bidirectional_starts_only_from_real_goals() {
    // 0 -> 1 -> 2, the goal 2; the space also lists 1 among its goals, which is not one: the
    // answer ended at 1.
    struct Line;
    impl Space for Line {
        type State = u8;
        type Move = ();
        fn start(&self) -> u8 {
            0
        }
        fn is_goal(&self, n: &u8) -> bool {
            *n == 2
        }
        fn successors(&self, n: &u8, _: Option<&()>, mut out: impl FnMut((), u8)) {
            if *n < 2 {
                out((), n + 1);
            }
        }
    }
    impl Reversible for Line {
        fn goals(&self) -> Vec<u8> {
            vec![1, 2]
        }
        fn predecessors(&self, n: &u8, mut out: impl FnMut((), u8)) {
            if *n > 0 {
                out((), n - 1);
            }
        }
    }
    for outcome in [
        bidirectional(&Line, &Config::default()),
        bidirectional(&Line, &two_threads(&Config::default())),
    ] {
        assert_eq!(outcome.solution().unwrap().states, [0, 1, 2]);
    }
}

#[test]
fn explore_weights_saturate() {
    // Two states weighing half of u64::MAX each: the layer's count wrapped to 0 in release
    // and overflowed in debug.
    struct Heavy;
    impl Space for Heavy {
        type State = u8;
        type Move = u8;
        fn start(&self) -> u8 {
            0
        }
        fn is_goal(&self, _: &u8) -> bool {
            false
        }
        fn successors(&self, n: &u8, _: Option<&u8>, mut out: impl FnMut(u8, u8)) {
            if *n == 0 {
                out(1, 1);
                out(2, 2);
            }
        }
        fn weight(&self, _: &u8) -> u64 {
            u64::MAX / 2 + 1
        }
    }
    assert_eq!(explore(&Heavy, &Config::default()).layers[1], u64::MAX);
}

#[test]
fn cost_searches_clone_no_move_per_successor() {
    // ucs and astar cloned every successor's move in case it re-linked a state: an allocation
    // a successor for a String move.
    static CLONES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    #[derive(Debug, PartialEq, Eq)]
    struct Counted;
    impl Clone for Counted {
        fn clone(&self) -> Self {
            CLONES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Counted
        }
    }
    struct Square;
    impl Space for Square {
        type State = (u8, u8);
        type Move = Counted;
        fn start(&self) -> (u8, u8) {
            (0, 0)
        }
        fn is_goal(&self, &(x, y): &(u8, u8)) -> bool {
            (x, y) == (20, 20)
        }
        fn successors(
            &self,
            &(x, y): &(u8, u8),
            _: Option<&Counted>,
            mut out: impl FnMut(Counted, (u8, u8)),
        ) {
            out(Counted, (x.saturating_add(1).min(20), y));
            out(Counted, (x, y.saturating_add(1).min(20)));
            out(Counted, (x.saturating_sub(1), y));
        }
    }
    for solve in [ucs::<Square>, astar::<Square>] {
        CLONES.store(0, std::sync::atomic::Ordering::Relaxed);
        let outcome = solve(&Square, &Config::default());
        assert_eq!(outcome.solution().unwrap().len(), 40);
        // The path's moves are cloned once each at most.
        assert!(CLONES.load(std::sync::atomic::Ordering::Relaxed) <= 40);
    }
}

#[test]
fn bidirectional_proves_exhaustion_at_its_depth_limit_when_a_side_is_closed() {
    // 0 -> 1, and the goal 3 behind 2 -> 3: within one move the forward side's last layer,
    // {1}, leads nowhere new, so no goal is reachable (the depth limit was blamed).
    let closed = Graph {
        nodes: 4,
        edges: vec![(0, 1, 1), (2, 3, 1)],
        goals: vec![3],
        estimate: vec![0; 4],
        undirected: false,
        max_step: None,
    };
    // 0 -> 1 -> 2 and 3 -> 4 (the goal): both sides go on past one move.
    let open = Graph {
        nodes: 5,
        edges: vec![(0, 1, 1), (1, 2, 1), (3, 4, 1)],
        goals: vec![4],
        estimate: vec![0; 5],
        undirected: false,
        max_step: None,
    };
    let config = Config::default().max_depth(1);
    for (graph, expected) in [
        (&closed, Status::Exhausted),
        (&open, Status::Limit(Limit::Depth)),
    ] {
        assert_eq!(bidirectional(graph, &config).status(), expected);
        let parallel = bidirectional(graph, &narrow(&config)).status();
        assert_eq!(parallel, expected);
    }
}

/// 0 -> 1 -> ... -> `self.0`, each state also reaching a dead end `n + OFF` beside it: layers
/// of two states, long past the point where explore splits its seen-set into shards.
struct Corridor(u64);

const OFF: u64 = 1 << 40;

impl Space for Corridor {
    type State = u64;
    type Move = ();

    fn start(&self) -> u64 {
        0
    }

    fn is_goal(&self, _: &u64) -> bool {
        false
    }

    fn successors(&self, n: &u64, _: Option<&()>, mut out: impl FnMut((), u64)) {
        if *n < self.0 {
            out((), n + 1);
            out((), n + 1 + OFF);
        }
    }
}

#[test]
fn explore_counts_a_long_corridor_past_the_split_into_shards() {
    // Narrow layers over sharded stores go straight to their shards: 2 million layers took
    // 6.7 s on one thread and 27 s on two, handing out a bucket per shard for each.
    let corridor = Corridor(200_000);
    let mut expected = vec![2u64; 200_001];
    expected[0] = 1;
    for threads in [1, 2] {
        let exploration = explore(&corridor, &Config::default().threads(threads));
        assert!(exploration.is_complete(), "{threads} threads");
        assert_eq!(exploration.layers, expected, "{threads} threads");
    }
}

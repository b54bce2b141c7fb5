//! The distributed exploration against the engine's: the same counts for any number of
//! workers, by ranks or by hashes (a space without a rank), in one process or two on
//! 127.0.0.1; the same after a stop and a resume; checkpoints of another run refused.

use std::hash::Hash;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use frontier_distributed::{explore, CheckpointError, Cluster, Error, Run};
use frontier_perm::{
    preset, with_space, Coords, Metric, Model, Perm, PermSpace, Puzzle as PermPuzzle, WithSpace,
};
use frontier_search::{Config, Exploration, Limit, Space, Words};
use frontier_tiles::{Puzzle, Shape, TilesSpace};
use proptest::prelude::*;

fn tiles(rows: usize, cols: usize) -> TilesSpace<u64> {
    let shape = Shape::new(rows, cols).unwrap();
    let goal = shape.default_goal();
    TilesSpace::new(&Puzzle::new(shape, &goal, &goal).unwrap())
}

fn across<P>(space: &P, workers: usize, config: &Config) -> Exploration
where
    P: Space + Sync,
    P::State: Words + Hash + Eq + Clone,
{
    explore(
        space,
        config,
        &Run::new(Cluster::local(workers), "test"),
        &|_| {},
    )
    .unwrap()
}

#[test]
fn the_8_puzzle_counts_as_the_engine_counts_on_any_number_of_workers() {
    let space = tiles(3, 3);
    let engine = frontier_search::explore(&space, &Config::default());
    // 9!/2 = 181,440 arrangements, the farthest 31 moves away (Reinefeld 1993, "Complete
    // solution of the eight-puzzle"): 32 layers with the start's.
    assert_eq!(engine.states(), 181_440);
    assert_eq!(engine.layers.len(), 32);
    for workers in [1, 2, 3, 4] {
        let run = across(&space, workers, &Config::default());
        assert_eq!(run.layers, engine.layers, "{workers} workers");
        assert!(run.is_complete());
        assert_eq!(run.stats.stored, 181_440);
        assert_eq!(run.stats.expanded, 181_440);
        assert_eq!(run.stats.generated, engine.stats.generated);
    }
}

#[test]
fn the_2x2x2_cube_counts_as_published_on_two_workers() {
    // OEIS A079761: the 2x2x2's positions at each face-turn distance, 3,674,160 in all.
    const CUBE2_HTM: [u64; 12] = [
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
    ];
    use frontier_perm::{preset, CoordSpace, Coords, Metric, Model};
    let model = Model::new(&preset("cube2").unwrap().puzzle(), Metric::Htm);
    let coords = Coords::new(&model).unwrap();
    let solved = model.colours_of(&preset("cube2").unwrap().puzzle().apply(&[]));
    let space = CoordSpace::new(&model, &coords, &solved).unwrap();
    let engine = frontier_search::explore(&space, &Config::default());
    assert_eq!(engine.layers, CUBE2_HTM);
    for workers in [1, 2] {
        let run = across(&space, workers, &Config::default());
        assert_eq!(run.layers, CUBE2_HTM, "{workers} workers");
        assert_eq!(run.stats.stored, 3_674_160);
        // Forwards only: every position expanded once, by its 9 face turns (the engine finds
        // its last layers backwards, generating fewer).
        assert_eq!(run.stats.generated, 3_674_160 * 9);
    }
}

#[test]
fn a_2x4_board_and_a_depth_limit_count_as_the_engine_counts() {
    let space = tiles(2, 4);
    let engine = frontier_search::explore(&space, &Config::default());
    assert_eq!(engine.states(), 20_160); // 8!/2
    assert_eq!(across(&space, 3, &Config::default()).layers, engine.layers);
    for depth in [0, 1, 5, 35, 36, 40] {
        let config = Config::default().max_depth(depth);
        let engine = frontier_search::explore(&space, &config);
        let run = across(&space, 2, &config);
        assert_eq!(run.layers, engine.layers, "depth {depth}");
        assert_eq!(run.limit, engine.limit, "depth {depth}");
    }
}

#[test]
fn arrays_past_the_budget_stop_the_run_as_a_limit() {
    // 181,440 ranks take 45 KB at two bits; 1,000 states of 8 bytes allow 8 KB.
    let run = across(&tiles(3, 3), 2, &Config::default().max_states(1000));
    assert_eq!(run.limit, Some(Limit::States));
    assert!(run.layers.is_empty());
}

/// A directed graph on `0..n`, a node its own rank, each node weighing 1 + its colour.
#[derive(Debug, Clone)]
struct Graph {
    edges: Vec<Vec<u32>>,
    colours: Vec<u8>,
}

impl Space for Graph {
    type State = u32;
    type Move = ();
    fn start(&self) -> u32 {
        0
    }
    fn is_goal(&self, _: &u32) -> bool {
        false
    }
    fn successors(&self, n: &u32, _: Option<&()>, mut out: impl FnMut((), u32)) {
        for &next in &self.edges[*n as usize] {
            out((), next);
        }
    }
    fn weight(&self, n: &u32) -> u64 {
        1 + u64::from(self.colours[*n as usize])
    }
    fn index_bound(&self) -> Option<u64> {
        Some(self.edges.len() as u64)
    }
    fn index(&self, n: &u32) -> u64 {
        u64::from(*n)
    }
    fn state_at(&self, rank: u64) -> Option<u32> {
        (rank < self.edges.len() as u64).then_some(rank as u32)
    }
}

fn graph() -> impl Strategy<Value = Graph> {
    (1usize..300).prop_flat_map(|n| {
        let edges = prop::collection::vec(prop::collection::vec(0..n as u32, 0..4), n);
        let colours = prop::collection::vec(0u8..3, n);
        (edges, colours).prop_map(|(edges, colours)| Graph { edges, colours })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any graph, any number of workers, any depth limit, by ranks or by hashes: the engine's
    /// layers and outcome.
    #[test]
    fn random_graphs_count_as_the_engine_counts(
        graph in graph(),
        workers in 1usize..5,
        depth in prop::option::of(0u32..8),
    ) {
        let config = Config {
            max_depth: depth,
            ..Config::default()
        };
        let engine = frontier_search::explore(&graph, &config);
        let run = across(&graph, workers, &config);
        prop_assert_eq!(&run.layers, &engine.layers);
        prop_assert_eq!(run.limit, engine.limit);
        // The same graph shared out by hashes.
        let run = across(&Unranked(&graph), workers, &config);
        prop_assert_eq!(&run.layers, &engine.layers);
        prop_assert_eq!(run.limit, engine.limit);
    }
}

#[test]
fn a_run_stopped_mid_way_resumes_from_its_checkpoints_with_the_same_counts() {
    let space = tiles(3, 3);
    let whole = frontier_search::explore(&space, &Config::default());
    let dir = tempfile::tempdir().unwrap();
    let run = Run {
        checkpoint: Some(dir.path().join("ckpt")),
        ..Run::new(Cluster::local(3), "tiles 3x3")
    };
    // Cancelled once layer 12 is counted: the workers stop within layer 13.
    let cancel = Arc::new(AtomicBool::new(false));
    let config = Config::default().cancel(Arc::clone(&cancel));
    let stop = |report: &frontier_distributed::LayerReport| {
        if report.depth == 12 {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let stopped = explore(&space, &config, &run, &stop).unwrap();
    assert_eq!(stopped.limit, Some(Limit::Cancelled));
    assert_eq!(stopped.layers[..13], whole.layers[..13]);
    // A fresh run in the same directory is refused: it would mix two runs.
    let fresh = explore(&space, &Config::default(), &run, &|_| {});
    assert!(matches!(
        fresh,
        Err(Error::Checkpoint(CheckpointError::Directory { .. }))
    ));
    let resumed = Run {
        resume: true,
        ..run.clone()
    };
    let done = explore(&space, &Config::default(), &resumed, &|_| {}).unwrap();
    assert_eq!(done.layers, whole.layers);
    assert!(done.is_complete());
    assert_eq!(done.stats.expanded, 181_440);
    assert_eq!(done.stats.generated, whole.stats.generated);
    // A finished run resumes to its answer at once.
    let again = explore(&space, &Config::default(), &resumed, &|_| {}).unwrap();
    assert_eq!(again.layers, whole.layers);
}

#[test]
fn a_depth_limited_run_goes_on_deeper_from_its_checkpoints() {
    let space = tiles(2, 4);
    let whole = frontier_search::explore(&space, &Config::default());
    let dir = tempfile::tempdir().unwrap();
    let run = Run {
        checkpoint: Some(dir.path().to_owned()),
        ..Run::new(Cluster::local(2), "tiles 2x4")
    };
    let shallow = explore(&space, &Config::default().max_depth(10), &run, &|_| {}).unwrap();
    assert_eq!(shallow.limit, Some(Limit::Depth));
    let resumed = Run {
        resume: true,
        ..run
    };
    let deeper = explore(&space, &Config::default(), &resumed, &|_| {}).unwrap();
    assert_eq!(deeper.layers, whole.layers);
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused() {
    let space = tiles(2, 4);
    let dir = tempfile::tempdir().unwrap();
    let run = Run {
        checkpoint: Some(dir.path().to_owned()),
        resume: false,
        ..Run::new(Cluster::local(2), "tiles 2x4")
    };
    explore(&space, &Config::default(), &run, &|_| {}).unwrap();
    let resume = Run {
        resume: true,
        ..run
    };
    // Another space's fingerprint.
    let other = Run {
        fingerprint: "tiles 4x2".to_owned(),
        ..resume.clone()
    };
    let refused = explore(&space, &Config::default(), &other, &|_| {}).unwrap_err();
    assert!(
        refused.to_string().contains("belongs to another run"),
        "{refused}"
    );
    // Another number of workers.
    let more = Run {
        cluster: Cluster::local(3),
        ..resume.clone()
    };
    let refused = explore(&space, &Config::default(), &more, &|_| {}).unwrap_err();
    assert!(
        refused.to_string().contains("a run of 2 workers"),
        "{refused}"
    );
    // A byte changed in the newest file of worker 1.
    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("worker-1-of-2"))
        .collect();
    files.sort_by_key(|p| {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        name.split(".layer-")
            .nth(1)
            .unwrap()
            .trim_end_matches(".ckpt")
            .parse::<u32>()
            .unwrap()
    });
    let newest = files.last().unwrap();
    let mut bytes = std::fs::read(newest).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(newest, bytes).unwrap();
    let refused = explore(&space, &Config::default(), &resume, &|_| {}).unwrap_err();
    assert!(
        matches!(refused, Error::Checkpoint(CheckpointError::Damaged { .. })),
        "{refused}"
    );
    assert!(refused.to_string().contains("checksum"), "{refused}");
}

/// A space with its rank hidden, so that a run shares it out by hashes.
struct Unranked<'a, P>(&'a P);

impl<P: Space> Space for Unranked<'_, P> {
    type State = P::State;
    type Move = P::Move;
    fn start(&self) -> P::State {
        self.0.start()
    }
    fn is_goal(&self, state: &P::State) -> bool {
        self.0.is_goal(state)
    }
    fn successors(
        &self,
        state: &P::State,
        last: Option<&P::Move>,
        out: impl FnMut(P::Move, P::State),
    ) {
        self.0.successors(state, last, out)
    }
    fn weight(&self, state: &P::State) -> u64 {
        self.0.weight(state)
    }
}

#[test]
fn the_8_puzzle_without_its_rank_counts_as_published_on_1_2_3_workers() {
    let eight = tiles(3, 3);
    let space = Unranked(&eight);
    assert_eq!(space.index_bound(), None);
    let engine = frontier_search::explore(&space, &Config::default());
    for workers in [1, 2, 3] {
        let run = across(&space, workers, &Config::default());
        // 9!/2 = 181,440 arrangements, the farthest 31 moves away (Reinefeld 1993).
        assert_eq!(run.states(), 181_440, "{workers} workers");
        assert_eq!(run.layers.len(), 32);
        assert_eq!(run.layers, engine.layers);
        assert!(run.is_complete());
        assert_eq!(run.stats.stored, 181_440);
        assert_eq!(run.stats.expanded, 181_440);
    }
}

/// Explores a permutation puzzle's packed states (which tell identical pieces apart only by
/// colour) on `workers`.
struct Packed {
    workers: usize,
    config: Config,
}

impl WithSpace for Packed {
    type Output = (Exploration, Exploration);
    fn run<const W: usize>(self, space: &PermSpace<'_, W>) -> Self::Output {
        let engine = frontier_search::explore(space, &self.config);
        (engine, across(space, self.workers, &self.config))
    }
}

#[test]
fn a_puzzle_of_identical_pieces_counts_as_the_engine_counts() {
    // TopSpin with 10 tokens makes every arrangement (order 10!); with tokens 1-3, 4-6 and
    // 7-10 alike, the states are the ways to place them: 10!/(3! 3! 4!) = 4,200. Identical
    // pieces have no coordinates to rank them by.
    let text = format!(
        "{}colours: {{1,2,3}} {{4,5,6}} {{7,8,9,10}}\n",
        preset("topspin10").unwrap().text
    );
    let puzzle = PermPuzzle::parse("three colours", &text).unwrap();
    let model = Model::new(&puzzle, Metric::Htm);
    assert!(Coords::new(&model).is_none());
    let solved = model.colours_of(&Perm::identity(puzzle.points()));
    for workers in [1, 2, 3] {
        let config = Config::default();
        let visitor = Packed { workers, config };
        let (engine, run) = with_space(&model, None, &solved, visitor);
        assert_eq!(run.states(), 4_200, "{workers} workers");
        assert_eq!(run.layers, engine.layers);
        assert!(run.is_complete());
    }
}

#[test]
fn hash_shards_past_the_budget_stop_the_run_as_a_limit() {
    let run = across(
        &Unranked(&tiles(3, 3)),
        2,
        &Config::default().max_states(1000),
    );
    assert_eq!(run.limit, Some(Limit::States));
    assert!(run.states() < 181_440);
}

#[test]
fn checkpoints_of_a_space_without_a_rank_resume_to_the_same_counts() {
    let dir = tempfile::tempdir().unwrap();
    let run = Run {
        checkpoint: Some(dir.path().to_owned()),
        ..Run::new(Cluster::local(2), "tiles 3x3, unranked")
    };
    let space = Unranked(&tiles(3, 3));
    let first = explore(&space, &Config::default(), &run, &|_| {}).unwrap();
    assert_eq!(first.states(), 181_440);
    assert!(std::fs::read_dir(dir.path()).unwrap().count() > 0);
    let resumed = Run {
        resume: true,
        ..run
    };
    let again = explore(&space, &Config::default(), &resumed, &|_| {}).unwrap();
    assert_eq!(again.layers, first.layers);
}

#[test]
fn two_processes_on_localhost_count_a_space_without_a_rank_as_one() {
    // Two free ports, closed again just before the processes listen on them.
    let ports: Vec<TcpListener> = (0..2)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let hosts: Vec<String> = (ports.iter())
        .map(|l| format!("127.0.0.1:{}", l.local_addr().unwrap().port()))
        .collect();
    drop(ports);
    let eight = tiles(3, 3);
    let space = Unranked(&eight);
    let engine = frontier_search::explore(&space, &Config::default());
    let runs: Vec<Exploration> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|process| {
                let (space, hosts) = (&space, hosts.clone());
                scope.spawn(move || {
                    let cluster = Cluster {
                        hosts,
                        process,
                        workers: 2,
                    };
                    let run = Run {
                        patience: Duration::from_secs(30),
                        ..Run::new(cluster, "tiles 3x3, unranked")
                    };
                    explore(space, &Config::default(), &run, &|_| {}).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for run in runs {
        assert_eq!(run.layers, engine.layers);
        assert_eq!(run.states(), 181_440);
    }
}

//! `--tree DEPTH`: the first levels of the search tree, drawn the way Haskell's `drawForest`
//! draws a forest (the board seed's picture), or as nested JSON.

use std::io::{self, Write};

use frontier_search::{SearchTree, TreeNode};
use serde_json::{json, Value};

use super::output::count;

/// The most nodes `--tree` draws; the rest are counted in a closing note.
pub const MOST_TREE_NODES: usize = 500;

/// Writes `tree` as `drawForest` does: each node's line, its children below it joined by `|`,
/// `+-` and `` `- ``, a blank line after each tree of the first level. `label` writes a node
/// (its move and a short name of its state); a repeated state is marked `(seen before)`.
pub fn draw_forest<S, M>(
    out: &mut dyn Write,
    tree: &SearchTree<S, M>,
    label: &dyn Fn(&M, &S) -> String,
) -> io::Result<()> {
    let children = children_lists(tree);
    let roots = &children[0];
    for &root in roots {
        let mut lines = Vec::new();
        draw(tree, &children, label, root, &mut lines);
        for line in lines {
            writeln!(out, "{}", line.trim_end())?;
        }
        writeln!(out)?;
    }
    if roots.is_empty() {
        writeln!(out, "(no moves from the start)")?;
    }
    if tree.left_out > 0 {
        writeln!(
            out,
            "({} nodes drawn; {}{} more in these levels left out)",
            count(tree.nodes.len() as u64),
            if tree.left_out_at_least { "over " } else { "" },
            count(tree.left_out)
        )?;
    }
    Ok(())
}

/// The tree as JSON: `{"depth": D, "nodes": N, "left_out": K, "left_out_at_least": bool,
/// "tree": [{"move": .., "state": .., "seen_before": bool, "children": [..]}, ..]}`.
pub fn tree_json<S, M>(
    tree: &SearchTree<S, M>,
    depth: u32,
    mv: &dyn Fn(&M) -> Value,
    state: &dyn Fn(&S) -> String,
) -> Value {
    fn node<S, M>(
        tree: &SearchTree<S, M>,
        children: &[Vec<usize>],
        i: usize,
        mv: &dyn Fn(&M) -> Value,
        state: &dyn Fn(&S) -> String,
    ) -> Value {
        let n = &tree.nodes[i];
        let below: Vec<Value> = children[i + 1]
            .iter()
            .map(|&c| node(tree, children, c, mv, state))
            .collect();
        json!({
            "move": mv(&n.mv),
            "state": state(&n.state),
            "seen_before": n.seen_before,
            "children": below,
        })
    }
    let children = children_lists(tree);
    let forest: Vec<Value> = children[0]
        .iter()
        .map(|&r| node(tree, &children, r, mv, state))
        .collect();
    json!({
        "depth": depth,
        "nodes": tree.nodes.len(),
        "left_out": tree.left_out,
        "left_out_at_least": tree.left_out_at_least,
        "tree": forest,
    })
}

/// `tree` with each state turned into another form (an encoding into the layout it stands
/// for).
pub fn map_tree_states<S, T, M>(tree: SearchTree<S, M>, f: impl Fn(S) -> T) -> SearchTree<T, M> {
    SearchTree {
        nodes: tree
            .nodes
            .into_iter()
            .map(|n| TreeNode {
                parent: n.parent,
                depth: n.depth,
                mv: n.mv,
                state: f(n.state),
                seen_before: n.seen_before,
            })
            .collect(),
        left_out: tree.left_out,
        left_out_at_least: tree.left_out_at_least,
    }
}

/// The children of each node, in order: slot 0 for the start, slot `i + 1` for node `i`.
fn children_lists<S, M>(tree: &SearchTree<S, M>) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); tree.nodes.len() + 1];
    for (i, node) in tree.nodes.iter().enumerate() {
        children[node.parent.map_or(0, |p| p as usize + 1)].push(i);
    }
    children
}

/// The lines of the subtree at `i`, as `Data.Tree.draw` makes them.
fn draw<S, M>(
    tree: &SearchTree<S, M>,
    children: &[Vec<usize>],
    label: &dyn Fn(&M, &S) -> String,
    i: usize,
    lines: &mut Vec<String>,
) {
    let node = &tree.nodes[i];
    let mut line = label(&node.mv, &node.state);
    if node.seen_before {
        line.push_str(" (seen before)");
    }
    lines.push(line);
    let below = &children[i + 1];
    for (k, &child) in below.iter().enumerate() {
        let last = k + 1 == below.len();
        lines.push("|".to_owned());
        let mut sub = Vec::new();
        draw(tree, children, label, child, &mut sub);
        let (first, rest) = if last { ("`- ", "   ") } else { ("+- ", "|  ") };
        for (j, text) in sub.into_iter().enumerate() {
            lines.push(format!("{}{text}", if j == 0 { first } else { rest }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: Option<u32>, depth: u32, mv: char, seen_before: bool) -> TreeNode<u8, char> {
        TreeNode {
            parent,
            depth,
            mv,
            state: 0,
            seen_before,
        }
    }

    #[test]
    fn draws_as_draw_forest_does() {
        // a, with b (children c, d) and e under it; then f alone.
        let tree = SearchTree {
            nodes: vec![
                node(None, 1, 'a', false),
                node(None, 1, 'f', false),
                node(Some(0), 2, 'b', false),
                node(Some(0), 2, 'e', true),
                node(Some(2), 3, 'c', false),
                node(Some(2), 3, 'd', false),
            ],
            left_out: 3,
            left_out_at_least: false,
        };
        let mut out = Vec::new();
        draw_forest(&mut out, &tree, &|mv, _| mv.to_string()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let expected = "a\n|\n+- b\n|  |\n|  +- c\n|  |\n|  `- d\n|\n`- e (seen before)\n\n\
                        f\n\n(6 nodes drawn; 3 more in these levels left out)\n";
        assert_eq!(text, expected);
        let value = tree_json(&tree, 3, &|mv| json!(mv.to_string()), &|_| "s".to_owned());
        assert_eq!(value["tree"][0]["children"][0]["children"][1]["move"], "d");
        assert_eq!(value["tree"][0]["children"][1]["seen_before"], true);
        assert_eq!(value["tree"][1]["children"].as_array().unwrap().len(), 0);
    }
}

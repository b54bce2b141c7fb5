//! `--tree DEPTH`: the first levels of the search tree, drawn the way Haskell's `drawForest`
//! draws a forest (the board seed's picture), or as nested JSON.

use std::io::{self, Write};

use frontier_search::SearchTree;
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
    let mut roots = tree.children(None).peekable();
    let no_moves = roots.peek().is_none();
    for root in roots {
        let mut lines = Vec::new();
        draw(tree, label, root, &mut lines);
        for line in lines {
            writeln!(out, "{}", line.trim_end())?;
        }
        writeln!(out)?;
    }
    if no_moves {
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
        i: u32,
        mv: &dyn Fn(&M) -> Value,
        state: &dyn Fn(&S) -> String,
    ) -> Value {
        let n = &tree.nodes[i as usize];
        let below: Vec<Value> = tree
            .children(Some(i))
            .map(|c| node(tree, c, mv, state))
            .collect();
        json!({
            "move": mv(&n.mv),
            "state": state(&n.state),
            "seen_before": n.seen_before,
            "children": below,
        })
    }
    let forest: Vec<Value> = tree
        .children(None)
        .map(|r| node(tree, r, mv, state))
        .collect();
    json!({
        "depth": depth,
        "nodes": tree.nodes.len(),
        "left_out": tree.left_out,
        "left_out_at_least": tree.left_out_at_least,
        "tree": forest,
    })
}

/// The lines of the subtree at `i`, as `Data.Tree.draw` makes them.
fn draw<S, M>(
    tree: &SearchTree<S, M>,
    label: &dyn Fn(&M, &S) -> String,
    i: u32,
    lines: &mut Vec<String>,
) {
    let node = &tree.nodes[i as usize];
    let mut line = label(&node.mv, &node.state);
    if node.seen_before {
        line.push_str(" (seen before)");
    }
    lines.push(line);
    let below: Vec<u32> = tree.children(Some(i)).collect();
    for (k, &child) in below.iter().enumerate() {
        let last = k + 1 == below.len();
        lines.push("|".to_owned());
        let mut sub = Vec::new();
        draw(tree, label, child, &mut sub);
        let (first, rest) = if last { ("`- ", "   ") } else { ("+- ", "|  ") };
        for (j, text) in sub.into_iter().enumerate() {
            lines.push(format!("{}{text}", if j == 0 { first } else { rest }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use frontier_search::TreeNode;

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

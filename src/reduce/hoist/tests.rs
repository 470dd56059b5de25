//! Tests of hoisting, in turn and in rounds, and of its failure memory.

use std::collections::HashSet;
use std::sync::Arc;

use super::key::hoist_key;
use super::*;
use crate::reduce::memory::Renamed;
use crate::reduce::testing::{
    hoist_tree, hoisting_info, random_hoist_tree, FnOracle, Rng, TextOracle,
};
use crate::reduce::{drive, run};
use crate::syntax::tree::{flags, Action, TreeBuilder};
use crate::syntax::{NodeId, Tree, Unparser};

#[test]
fn hoisting_replaces_a_node_by_a_descendant_of_its_class() {
    let tree = hoist_tree();
    let units = Units::new(&tree);
    // interesting iff the text has the innermost leaf "c": the chain
    // a(b(c)) hoists down to c
    let mut mask = Mask::new(tree.len());
    let mut unparser = Unparser::new();
    let mut oracle = TextOracle { tree: &tree, unparser: &mut unparser, needle: b'c', calls: 0 };
    let hoisted = run(Hoisting::default(), &units, &mut mask, &mut oracle);
    // a straight to c, the end of its chain of single targets
    assert_eq!(hoisted, Ok(1));
    assert_eq!(oracle.calls, 1);
    let mut text = Vec::new();
    Unparser::new().unparse(&tree, &mask, &mut text);
    assert_eq!(text, b"x c y");
}

#[test]
fn hoisting_reports_what_failed_and_skips_what_it_is_told() {
    let tree = hoist_tree();
    let units = Units::new(&tree);
    let mut unparser = Unparser::new();
    // nothing is interesting: every hoist is tried once and fails
    let mut oracle = TextOracle { tree: &tree, unparser: &mut unparser, needle: b'z', calls: 0 };
    let mut hoist = Hoisting::default();
    let mut mask = Mask::new(tree.len());
    let hoisted = drive(&mut hoist, &units, &mut mask, &mut oracle);
    assert_eq!(hoisted, Ok(0));
    let failed: HashSet<_> = hoist.failed().iter().copied().collect();
    assert_eq!(failed.len(), oracle.calls);
    assert!(oracle.calls >= 2, "a(b(c)) has at least two hoists");
    // told to skip them, hoisting tests nothing
    oracle.calls = 0;
    run(Hoisting::skipping(failed), &units, &mut mask, &mut oracle).expect("finished");
    assert_eq!(oracle.calls, 0);
}

/// Runs `search` on `tree` against "interesting iff every node of
/// `need` is present"; the mask and the tests run.
fn hoist_with<S: Search>(
    tree: &Tree,
    search: S,
    pred: impl FnMut(&[NodeId]) -> bool,
) -> (Mask, usize) {
    let units = Units::new(tree);
    let mut mask = Mask::new(tree.len());
    let mut oracle = FnOracle::new(&units, pred);
    run(search, &units, &mut mask, &mut oracle).expect("finished");
    (mask, oracle.calls)
}

/// When no hoist changes whether another passes (the test needs some
/// nodes present, and a hoist passes iff it drops none of them), rounds
/// keep what one hoist at a time keeps, on random trees where every
/// node with children may be replaced by any of them.
#[test]
fn hoist_batch_hoists_what_hoisting_does_when_hoists_do_not_interact() {
    let mut rng = Rng::new(5);
    let mut hoisted = 0;
    for round in 0..200 {
        let tree = random_hoist_tree(&mut rng, 50);
        let units = Units::new(&tree);
        let all = units.present_bfs(&Mask::new(tree.len()));
        let need: Vec<NodeId> = all.iter().copied().filter(|_| rng.chance(0.1)).collect();
        let pred = |p: &[NodeId]| need.iter().all(|n| p.contains(n));
        let (one, _) = hoist_with(&tree, Hoisting::default(), pred);
        let (batch, _) = hoist_with(&tree, HoistBatch::default(), pred);
        assert_eq!(units.present_bfs(&batch), units.present_bfs(&one), "round {round}");
        hoisted += batch.hoists().len();
    }
    assert!(hoisted >= 100, "only {hoisted} hoists");
}

/// "root(h1(x1, yy1), h2(x2, yy2))", every node hoistable, each h by
/// its x (the smaller) first; ids in preorder: 0 root, 1 h1, 2 x1,
/// 3 y1, 4 h2, 5 x2, 6 y2.
fn two_pairs() -> Tree {
    let src = b"((x)(yy))((x)(yy))";
    let mut b = TreeBuilder::new(Arc::from(&src[..]));
    b.open(1, flags::NAMED, 0, src.len());
    for h in [0, 9] {
        for (start, end) in [(h, h + 9), (h + 1, h + 4), (h + 4, h + 8)] {
            let id = b.open(1, flags::NAMED, start, end);
            let n = b.node_mut(id);
            (n.member, n.slot, n.action) = (1, 1, Action::Delete);
            if start != h {
                b.close();
            }
        }
        b.close();
    }
    b.close();
    b.finish(hoisting_info())
}

/// [`two_pairs`]. Interesting while a `y` is left: each h
/// may go to its x alone but not both. The merge fails; in the fold the
/// first is kept and the second fails after it, so it is offered its y
/// in the next round.
#[test]
fn interfering_hoists_keep_the_first_and_offer_the_rest_their_next_target() {
    let tree = two_pairs();
    let units = Units::new(&tree);
    let pred = |p: &[NodeId]| p.contains(&NodeId(3)) || p.contains(&NodeId(6));
    let (batch, calls) = hoist_with(&tree, HoistBatch::default(), pred);
    let (one, _) = hoist_with(&tree, Hoisting::default(), pred);
    assert_eq!(units.present_bfs(&batch), units.present_bfs(&one));
    let hoisted: Vec<(u32, u32)> =
        batch.hoists().iter().map(|h| (h.node.0, h.to.first.0)).collect();
    assert_eq!(hoisted, [(1, 2), (4, 6)]);
    // two probes, the merge, h2 to y2; in the fold, h1 to x1 is the
    // first probe again and h2 to x2 after it the merge, both cached
    assert_eq!(calls, 4);
}

/// [`two_pairs`], interesting while both `y`s are left: each h to its x
/// fails, and its node is offered its y right after, in the same round,
/// before the next node's hoist.
#[test]
fn a_failed_hoist_offers_its_node_the_next_target_in_the_same_round() {
    let tree = two_pairs();
    let mut tried = Vec::new();
    let pred = |p: &[NodeId]| {
        // which x each candidate has lost
        tried.push([2, 5].map(|x| !p.contains(&NodeId(x))));
        p.contains(&NodeId(3)) && p.contains(&NodeId(6))
    };
    let (batch, calls) = hoist_with(&tree, HoistBatch::default(), pred);
    let hoisted: Vec<(u32, u32)> =
        batch.hoists().iter().map(|h| (h.node.0, h.to.first.0)).collect();
    assert_eq!(hoisted, [(1, 3), (4, 6)]);
    // h1 to x1, h1 to y1 (x1 gone), h2 to x2, h2 to y2 (x2 gone),
    // then the merge (both gone)
    assert_eq!(calls, 5);
    assert_eq!(tried, [[false, false], [true, false], [false, false], [false, true], [true, true]]);
}

/// The key of the first hoist of node `node` (by its text) of `text`
/// parsed as `lang`.
fn key(lang: &str, text: &str, node: &str) -> u128 {
    let fe = crate::language::by_name(lang).expect(lang).frontend().expect("front-end");
    let tree = fe.parse(Arc::from(text.as_bytes()));
    let units = Units::new(&tree);
    (0..units.hoistable_count())
        .filter_map(|i| units.hoistable(i))
        .find(|&(id, _)| tree.text(id) == node.as_bytes())
        .map(|(id, targets)| {
            hoist_key(&tree, Hoist { node: id, to: targets[0] }, &Renamed::default())
        })
        .expect(node)
}

#[test]
fn a_hoist_is_known_again_while_what_it_deletes_reads_the_same() {
    let key = |text: &str, node: &str| key("json", text, node);
    // the text around the node changed: the same hoist
    assert_eq!(key("[[1, 2], 3]", "[1, 2]"), key("[7, [1, 2], 3]", "[1, 2]"));
    // the target changed: it would delete the same text, the same hoist
    assert_eq!(key("[[1], 2]", "[1]"), key("[[5], 2]", "[5]"));
    // what it deletes changed: another one
    assert_ne!(key("[[1, 2], 3]", "[1, 2]"), key("[[1, 4], 3]", "[1, 4]"));
}

#[test]
fn a_hoist_is_known_again_after_its_names_were_renamed() {
    let js = crate::language::by_name("js").expect("js").frontend().expect("front-end");
    let parse = |text: &str| js.parse(Arc::from(text.as_bytes()));
    // the known failures of `tree`, as (node, target) texts
    let known = |memory: &HoistMemory, tree: &Tree| {
        let units = Units::new(tree);
        let text = |id: NodeId| String::from_utf8_lossy(tree.text(id)).into_owned();
        let mut known: Vec<(String, String)> = memory
            .known_failures(tree, &units)
            .iter()
            .map(|h| (text(h.node), text(h.to.first)))
            .collect();
        known.sort();
        known
    };
    let pair = |node: &str, to: &str| (node.to_string(), to.to_string());
    let before = parse("let yy = 2\ng(x, yy)\ng(x, zz)\n");
    let units = Units::new(&before);
    let all: Vec<Hoist> = (0..units.hoistable_count())
        .filter_map(|i| units.hoistable(i))
        .flat_map(|(node, targets)| targets.iter().map(move |&to| Hoist { node, to }))
        .collect();
    let mut memory = HoistMemory::default();
    memory.remember(&before, &all);
    assert!(known(&memory, &before).contains(&pair("g(x, yy)", "x")));
    // the renaming pass made `yy` into `a`: what the hoist to `x`
    // deletes reads `a`, known once the memory learns the renaming
    let after = parse("let a = 2\ng(x, a)\ng(x, zz)\n");
    assert!(!known(&memory, &after).contains(&pair("g(x, a)", "x")));
    memory.renamed(&before, &after);
    assert!(known(&memory, &after).contains(&pair("g(x, a)", "x")));
    assert_eq!(known(&memory, &after).len(), known(&memory, &before).len());
    // but not as another name
    let other = parse("let a = 2\ng(x, b)\ng(x, zz)\n");
    assert!(!known(&memory, &other).contains(&pair("g(x, b)", "x")));
}

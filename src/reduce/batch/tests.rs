//! Tests of `Batch`: ddmin and the 1-minimal phase in rounds, users, the fold.

use super::*;
use crate::reduce::testing::{flat, random_tree, FnOracle, Rng};
use crate::reduce::{run, Ddmin, Hdd, OneMinimal};
use std::collections::HashSet;

/// Runs a batch over a flat tree of `n` units; the kept units and the
/// tests run (a candidate seen before is answered from the cache).
fn reduce(batch: Batch, n: usize, pred: impl FnMut(&[NodeId]) -> bool) -> (HashSet<NodeId>, usize) {
    let tree = flat(n);
    let units = Units::new(&tree);
    let mut mask = Mask::new(tree.len());
    let mut oracle = FnOracle::new(&units, pred);
    run(batch, &units, &mut mask, &mut oracle).expect("finished");
    (units.present_bfs(&mask).into_iter().collect(), oracle.calls)
}

fn all(n: usize) -> Vec<NodeId> {
    (1..=n as u32).map(NodeId).collect()
}

/// C source parsed, and its units knowing their uses.
fn c_units(src: &str) -> (crate::syntax::Tree, Units) {
    let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
    let tree = fe.parse(std::sync::Arc::from(src.as_bytes()));
    let units = Units::new(&tree).with_uses(&tree);
    (tree, units)
}

/// A declaration that failed alone because code using it was still
/// there goes, in the round after, together with the code using it
/// that is left; alone it would never be tried again.
#[test]
fn a_declaration_goes_with_its_users_in_the_round_after_it_failed_alone() {
    let src = "typedef int T;\nT f(void) { return 1; }\nT g(void) { return f(); }\n\
               int keep(void) { return 0; }\n";
    let (tree, units) = c_units(src);
    let &[t, f, g, keep] = units.level(0) else { panic!("{:?}", units.level(0)) };
    // as a compiler sees it: every name used must be declared
    let compiles = |p: &[NodeId]| {
        let has = |u| p.contains(&u);
        has(keep) && (!has(g) || has(f)) && (!(has(f) || has(g)) || has(t))
    };
    for (users, kept, tests) in [(false, vec![t, f, keep], 4), (true, vec![keep], 5)] {
        let mut mask = Mask::new(tree.len());
        let items = units.ordered(0, &mask, Order::Backward);
        let mut batch = Batch::ddmin(items.clone(), 4, false);
        if users {
            batch = batch.with_users(units.users(0, &items, &mask));
        }
        let mut oracle = FnOracle::new(&units, compiles);
        run(batch, &units, &mut mask, &mut oracle).expect("finished");
        assert_eq!(units.present_at(0, &mask), kept, "with users: {users}");
        assert_eq!(oracle.calls, tests, "with users: {users}");
    }
}

/// A unit that failed alone while nothing used it is needed, and so is
/// what it uses: no probe takes them with another's users.
#[test]
fn no_probe_takes_a_needed_unit_with_the_users_of_another() {
    let src = "typedef int T;\nT need(void) { return 0; }\nT f(void) { return 1; }\n\
               T g(void) { return f(); }\n";
    let (tree, units) = c_units(src);
    let &[t, need, f, g] = units.level(0) else { panic!("{:?}", units.level(0)) };
    let compiles = |p: &[NodeId]| {
        let has = |u| p.contains(&u);
        has(need) && (!has(g) || has(f)) && has(t)
    };
    let mut mask = Mask::new(tree.len());
    let items = units.ordered(0, &mask, Order::Backward);
    let batch = Batch::ddmin(items.clone(), 4, false).with_users(units.users(0, &items, &mask));
    let mut oracle = FnOracle::new(&units, compiles);
    run(batch, &units, &mut mask, &mut oracle).expect("finished");
    // g goes; f failed alone beside g and is kept (nothing uses it
    // now, but a failed unit is not tried alone again); T with its
    // users would take `need`, which failed alone while nothing used
    // it: that probe is not made
    assert_eq!(units.present_at(0, &mask), [t, need, f]);
    assert_eq!(oracle.calls, 4);
}

/// A failed block of 4 units is tried unit by unit in the next round:
/// halving it would take as many tests for its units, two more for its
/// halves and a round more.
#[test]
fn a_failed_block_of_four_is_tried_unit_by_unit() {
    let need: HashSet<NodeId> = [2u32, 7].map(NodeId).into();
    let (kept, calls) =
        reduce(Batch::ddmin(all(8), 2, false), 8, |p| need.iter().all(|n| p.contains(n)));
    assert_eq!(kept, need);
    // the 2 blocks, the 8 units, the merge of the 6 that passed
    assert_eq!(calls, 2 + 8 + 1);
}

#[test]
fn ddmin_keeps_exactly_the_essential_units() {
    let need: HashSet<NodeId> = [3u32, 17, 18, 40].map(NodeId).into();
    for width in [1, 2, 8, 64] {
        let (kept, _) =
            reduce(Batch::ddmin(all(50), width, false), 50, |p| need.iter().all(|n| p.contains(n)));
        assert_eq!(kept, need, "width {width}");
    }
}

/// Lithium's bound: k essential units among n cost O(k log n) tests.
#[test]
fn ddmin_tests_grow_with_k_log_n() {
    for (n, k) in [(1000usize, 1usize), (1000, 4), (1000, 16), (200, 8)] {
        let need: HashSet<NodeId> = (0..k).map(|i| NodeId((1 + i * n / k) as u32)).collect();
        let (kept, calls) =
            reduce(Batch::ddmin(all(n), 2, false), n, |p| need.iter().all(|x| p.contains(x)));
        assert_eq!(kept, need);
        let bound = 2 * k * ((n as f64).log2().ceil() as usize + 1) + 8;
        assert!(calls <= bound, "n {n} k {k}: {calls} tests > {bound}");
    }
}

/// Interfering blocks (each redundant with the other): the merge fails,
/// the fold keeps the first and the second fails after it.
#[test]
fn interfering_successes_keep_the_first_in_the_fold() {
    // interesting while unit 1 or unit 2 is kept, and unit 4 always
    let pred =
        |p: &[NodeId]| (p.contains(&NodeId(1)) || p.contains(&NodeId(2))) && p.contains(&NodeId(4));
    let (kept, calls) = reduce(Batch::ddmin(all(4), 4, false), 4, pred);
    assert_eq!(kept, [NodeId(2), NodeId(4)].into());
    // four probes, the merge, then the fold: 1 (its probe, cached), 1
    // and 2 (fails), 1 and 3
    assert_eq!(calls, 7);
}

/// A change that takes the last copies of a word when a change before
/// it in the fold takes the others (two copies of what the test
/// needs) is left out of the fold and probed in the next round,
/// beside any other such change: the fold's steps all pass, the
/// interferences fail as probes of one round, and the result is here
/// the one the fold alone gives. Not where more than a third of the
/// fold would be left out.
#[test]
fn changes_taking_the_last_copies_of_a_word_are_probed_after_the_fold() {
    let src = "int f(void) { return ONE; }\nint g(void) { return TWO; }\n\
               int h(void) { return 0; }\nint i(void) { return 0; }\n\
               int j(void) { return 0; }\nint k(void) { return ONE; }\n\
               int m(void) { return TWO; }\n";
    let (tree, plain) = c_units(src);
    let &[f, g, .., k, m] = plain.level(0) else { panic!("{:?}", plain.level(0)) };
    // the test needs a ONE and a TWO
    let pred =
        |p: &[NodeId]| (p.contains(&f) || p.contains(&k)) && (p.contains(&g) || p.contains(&m));
    let words = Units::new(&tree).with_uses(&tree).with_words(&tree);
    let (kept, log, calls) = logged_ddmin(&tree, &plain, pred);
    assert_eq!(kept, [k, m]);
    let single = Step::Probe { single: true };
    // seven probes, the merge, then the fold: f (cached), g, h, i, j,
    // k and m, which fail
    assert_eq!(failed(&log), [Step::Merge, Step::Fold, Step::Fold]);
    let (kept_words, log, calls_words) = logged_ddmin(&tree, &words, pred);
    assert_eq!(kept_words, kept);
    assert_eq!(calls_words, calls, "as many tests");
    // the fold adds f to j; then k and m are probed, and fail
    assert_eq!(failed(&log), [Step::Merge, single, single]);
    assert!(log.iter().all(|&(step, ok)| ok || step != Step::Fold));

    // one of two changes is more than a third: the plain fold
    let src = "int f(void) { return ONE; }\nint k(void) { return ONE; }\n";
    let (tree, plain) = c_units(src);
    let &[f, k] = plain.level(0) else { panic!("{:?}", plain.level(0)) };
    let words = Units::new(&tree).with_uses(&tree).with_words(&tree);
    let pred = |p: &[NodeId]| p.contains(&f) || p.contains(&k);
    let (kept, log, _) = logged_ddmin(&tree, &words, pred);
    assert_eq!(kept, [k]);
    assert_eq!(failed(&log), [Step::Merge, Step::Fold]);
}

/// A batch over level 0 of `units` in source order, logged: the units
/// kept, each candidate's step and outcome, and the tests.
fn logged_ddmin(
    tree: &crate::syntax::Tree,
    units: &Units,
    pred: impl FnMut(&[NodeId]) -> bool,
) -> (Vec<NodeId>, Vec<(Step, bool)>, usize) {
    let mut mask = Mask::new(tree.len());
    let items = units.ordered(0, &mask, Order::Forward);
    let mut oracle = Logged { inner: FnOracle::new(units, pred), log: Vec::new() };
    run(Batch::ddmin(items, 8, false), units, &mut mask, &mut oracle).expect("finished");
    (units.present_at(0, &mask), oracle.log, oracle.inner.calls)
}

/// The steps of the candidates that were not interesting, in order.
fn failed(log: &[(Step, bool)]) -> Vec<Step> {
    log.iter().filter(|(_, ok)| !ok).map(|&(step, _)| step).collect()
}

/// An oracle that logs each candidate's step and outcome.
struct Logged<'u, F> {
    inner: FnOracle<'u, F>,
    log: Vec<(Step, bool)>,
}

impl<F: FnMut(&[NodeId]) -> bool> crate::reduce::Oracle for Logged<'_, F> {
    fn evaluate(
        &mut self,
        candidates: &mut dyn crate::reduce::Candidates,
    ) -> crate::reduce::Verdict {
        while let Some(c) = candidates.next() {
            let interesting = self.inner.test(&c.mask);
            self.log.push((c.context.step, interesting));
            candidates.settle(c.index, interesting);
        }
        crate::reduce::Verdict::Finished
    }
}

/// On a monotone test (removing more never makes it pass again), a
/// unit that failed alone fails after any other removal too, and the
/// fold adds the ones that passed in the sequential order: one round of
/// the batched 1-minimal phase keeps exactly what one pass of
/// [`OneMinimal`] keeps, also when removals interfere (the test wants
/// any one of a few sets of units).
#[test]
fn one_minimal_batch_is_one_minimal_pass_on_monotone_tests() {
    let mut rng = Rng::new(13);
    let mut folds = 0;
    for round in 0..100 {
        let tree = random_tree(&mut rng, 40);
        let units = Units::new(&tree);
        let all = units.present_bfs(&Mask::new(tree.len()));
        let sets: Vec<Vec<NodeId>> = (0..1 + rng.below(3))
            .map(|_| all.iter().copied().filter(|_| rng.chance(0.15)).collect())
            .collect();
        let pred = |p: &[NodeId]| sets.iter().any(|s| s.iter().all(|n| p.contains(n)));
        // the units that may go alone, and whether they interfere
        let none = Mask::new(tree.len());
        let alone: Vec<NodeId> = all
            .iter()
            .copied()
            .filter(|&u| pred(&units.present_bfs(&none.with_off(&[u]))))
            .collect();
        folds += usize::from(alone.len() > 1 && !pred(&units.present_bfs(&none.with_off(&alone))));
        let mut oracle = FnOracle::new(&units, pred);
        let mut batched = Mask::new(tree.len());
        run(Batch::one_minimal(Order::Forward), &units, &mut batched, &mut oracle)
            .expect("finished");
        let mut sequential = Mask::new(tree.len());
        run(OneMinimal::new(Order::Forward), &units, &mut sequential, &mut oracle)
            .expect("finished");
        assert_eq!(units.present_bfs(&batched), units.present_bfs(&sequential), "round {round}");
    }
    assert!(folds >= 10, "only {folds} rounds had interfering removals");
}

/// With fixpoint the result is 1-minimal even when a removal makes
/// another possible (non-monotonic predicates).
#[test]
fn ddmin_to_a_fixpoint_is_one_minimal_on_random_predicates() {
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let n = 1 + rng.below(24);
        let seed = rng.next();
        // a random, deterministic, non-monotonic predicate over the
        // kept set, true of the whole set
        let pred = |p: &[NodeId]| {
            let mut h = seed;
            for id in p {
                h = (h ^ u64::from(id.0)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
            p.len() == n || (p.contains(&NodeId(1)) && !(h >> 32).is_multiple_of(3))
        };
        let width = 1 + rng.below(8);
        let (kept, _) = reduce(Batch::ddmin(all(n), width, true), n, pred);
        let mut kept: Vec<NodeId> = kept.into_iter().collect();
        kept.sort();
        assert!(pred(&kept));
        for u in &kept {
            let without: Vec<NodeId> = kept.iter().copied().filter(|x| x != u).collect();
            assert!(!pred(&without), "removing {u:?} from {kept:?} still passes");
        }
    }
}

/// The 1-minimal phase as a batch: the same result as one unit at a
/// time when removals do not interact, on random trees.
#[test]
fn one_minimal_batch_is_one_tree_minimal() {
    let mut rng = Rng::new(11);
    for _ in 0..50 {
        let tree = random_tree(&mut rng, 40);
        let units = Units::new(&tree);
        let ids: Vec<NodeId> = (1..tree.len() as u32).map(NodeId).collect();
        let need: HashSet<NodeId> = ids.iter().copied().filter(|_| rng.below(5) == 0).collect();
        let pred = |p: &[NodeId]| need.iter().all(|n| p.contains(n) || !units.is_unit(*n));
        let mut mask = Mask::new(tree.len());
        let mut oracle = FnOracle::new(&units, pred);
        run(Hdd::single_pass(Ddmin::Adaptive, Order::Forward), &units, &mut mask, &mut oracle)
            .expect("finished");
        let mut batched = mask.clone();
        while run(Batch::one_minimal(Order::Forward), &units, &mut batched, &mut oracle)
            .is_ok_and(|n| n > 0)
        {}
        while run(OneMinimal::new(Order::Forward), &units, &mut mask, &mut oracle)
            .is_ok_and(|n| n > 0)
        {}
        assert_eq!(units.present_bfs(&batched), units.present_bfs(&mask));
    }
}

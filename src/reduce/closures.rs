//! Dependency-aware cuts: J-Reduce's binary reduction over the top-level
//! items of a tree (Kalhauge and Palsberg, FSE'19).
//!
//! Each item comes with its *closure*: itself and every item it uses, by
//! name, directly or not (see [`dependencies`]). A candidate keeps the
//! closure of a set of items and switches every other item off, so it
//! never drops what a kept item uses. The search keeps a set of items the
//! bug needs (at first none) and, in rounds:
//!
//! 1. tries keeping only their closures; if that passes, it is done;
//! 2. else finds, by binary search over the items still in question (in
//!    source order), the shortest prefix whose closures, with the needed
//!    ones, still pass: the last item of that prefix is needed too, and
//!    every candidate that passed on the way is kept (the items after the
//!    prefix are gone).
//!
//! So a file whose bug needs `k` of its `n` items costs about
//! `k * log2(n)` tests, where HDD's ddmin learns the same a few items at a
//! time. Where the graph misses a use, candidates fail and the search
//! learns more than the bug needs, never a wrong result; it stops after
//! [`IDLE_ROUNDS`] rounds in a row that removed nothing, and leaves the
//! rest to HDD.

use std::sync::Arc;

use super::groups::dependencies;
use super::{Proposal, Search, Step, Units};
use crate::syntax::{Mask, NodeId, Tree};

/// Fewer items than this are left to HDD: a binary search pays over a
/// ddmin only on many.
const MIN_ITEMS: usize = 8;

/// Rounds in a row that remove nothing after which the search stops: the
/// graph is probably missing uses (each such round costs a binary search).
const IDLE_ROUNDS: usize = 2;

/// The binary reduction of a tree's top-level items.
#[derive(Clone, Debug)]
pub(crate) struct Closures {
    /// The top-level units, in source order.
    items: Arc<Vec<NodeId>>,
    /// Per item, its closure: a bit per item.
    closure: Arc<Vec<Bits>>,
    /// The items the bug needs, with their closures.
    needed: Bits,
    /// The items in question this round (present, not needed), in order.
    open: Vec<usize>,
    /// The binary search over prefixes of `open`: keeping the prefix of
    /// `lo` items fails, of `hi` passes.
    lo: usize,
    hi: usize,
    /// What the last proposal was.
    last: Last,
    /// Whether this round removed anything, and how many rounds in a row
    /// did not.
    removed: bool,
    idle: usize,
    done: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// Nothing proposed yet this round.
    Start,
    /// Only the needed items kept.
    Needed,
    /// The prefix of this many open items kept.
    Prefix(usize),
}

impl Closures {
    /// The search over `tree`'s top-level units (nothing to do when there
    /// are few, or the language has no names).
    pub(crate) fn new(tree: &Tree, units: &Units) -> Closures {
        let mut items = Vec::new();
        if units.depth() > 0 {
            for &unit in units.level(0) {
                push_items(tree, units, unit, &mut items);
            }
        }
        let closure = match dependencies(tree, &items) {
            Some(uses) if items.len() >= MIN_ITEMS => closures(&uses),
            _ => Vec::new(),
        };
        Closures {
            done: closure.is_empty(),
            needed: Bits::new(items.len()),
            items: Arc::new(items),
            closure: Arc::new(closure),
            open: Vec::new(),
            lo: 0,
            hi: 0,
            last: Last::Start,
            removed: false,
            idle: 0,
        }
    }

    /// The items kept by keeping the needed ones and the first `k` open
    /// ones, with their closures.
    fn kept(&self, k: usize) -> Bits {
        let mut kept = self.needed.clone();
        for &i in &self.open[..k] {
            kept.or(&self.closure[i]);
        }
        kept
    }

    /// The present items `kept` leaves out.
    fn off(&self, kept: &Bits, units: &Units, mask: &Mask) -> Vec<NodeId> {
        let present = |&(_, id): &(usize, &NodeId)| units.is_present(*id, mask);
        let dropped = |(i, _): &(usize, &NodeId)| !kept.has(*i);
        self.items.iter().enumerate().filter(present).filter(dropped).map(|(_, &id)| id).collect()
    }

    /// The next probe of the binary search, or the item it found needed
    /// and a new round.
    fn bisect(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        while self.hi - self.lo > 1 {
            let mid = (self.lo + self.hi) / 2;
            let off = self.off(&self.kept(mid), units, mask);
            if off.is_empty() {
                // keeps every present item: the current best, which passes
                self.hi = mid;
                continue;
            }
            self.last = Last::Prefix(mid);
            return Some(Proposal::Off(off));
        }
        if self.hi == 0 {
            self.done = true;
            return None;
        }
        let found = self.open[self.hi - 1];
        self.needed.or(&self.closure[found]);
        self.idle = if self.removed { 0 } else { self.idle + 1 };
        if self.idle >= IDLE_ROUNDS {
            self.done = true;
            return None;
        }
        self.last = Last::Start;
        self.propose(units, mask)
    }
}

impl Search for Closures {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        if self.done {
            return None;
        }
        if self.last == Last::Start {
            self.removed = false;
            self.open = (0..self.items.len())
                .filter(|&i| !self.needed.has(i) && units.is_present(self.items[i], mask))
                .collect();
            (self.lo, self.hi) = (0, self.open.len());
            let off = self.off(&self.needed, units, mask);
            if off.is_empty() {
                self.done = true;
                return None;
            }
            self.last = Last::Needed;
            return Some(Proposal::Off(off));
        }
        self.bisect(units, mask)
    }

    fn step(&self) -> Step {
        Step::Closure
    }

    fn feedback(&mut self, interesting: bool) {
        match self.last {
            Last::Needed if interesting => self.done = true,
            Last::Prefix(k) if interesting => {
                self.hi = k;
                self.removed = true;
            }
            Last::Prefix(k) => self.lo = k,
            Last::Needed | Last::Start => {}
        }
    }
}

/// Pushes `unit` as an item, or, for a namespace whose body (its last
/// child) is a block in braces, the items among the units nearest below
/// the body, in preorder (`extern "C" int f();` is one item).
fn push_items(tree: &Tree, units: &Units, unit: NodeId, items: &mut Vec<NodeId>) {
    let braced = |body: &NodeId| tree.children(*body).next().is_some_and(|t| tree.text(t) == b"{");
    let body = tree.children(unit).last().filter(braced);
    let (true, Some(body)) = (tree.policy().kind(tree.node(unit).kind).namespace, body) else {
        items.push(unit);
        return;
    };
    let mut stack: Vec<NodeId> = tree.children(body).collect();
    stack.reverse();
    while let Some(node) = stack.pop() {
        if units.is_unit(node) {
            push_items(tree, units, node, items);
        } else {
            let at = stack.len();
            stack.extend(tree.children(node));
            stack[at..].reverse();
        }
    }
}

/// The closure of every item under `uses` (direct uses, by index).
fn closures(uses: &[Vec<usize>]) -> Vec<Bits> {
    let n = uses.len();
    let mut out: Vec<Bits> = (0..n)
        .map(|i| {
            let mut b = Bits::new(n);
            b.set(i);
            uses[i].iter().for_each(|&j| b.set(j));
            b
        })
        .collect();
    // until nothing grows: most uses point back in the file, so the
    // passes in source order settle in one or two
    loop {
        let mut grew = false;
        for i in 0..n {
            let mut b = out[i].clone();
            for &j in &uses[i] {
                b.or(&out[j]);
            }
            if b != out[i] {
                out[i] = b;
                grew = true;
            }
        }
        if !grew {
            return out;
        }
    }
}

/// A set of item indices.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn has(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn or(&mut self, other: &Bits) {
        self.0.iter_mut().zip(&other.0).for_each(|(a, b)| *a |= b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::run;
    use crate::reduce::testing::FnOracle;

    /// A C file of `n` functions, `f{i}` calling `f{i-1}` when `i % 4` is
    /// not 0 (chains of four), and a `main` calling `f10` and `f41`.
    fn chains(n: usize) -> String {
        let mut text = String::new();
        for i in 0..n {
            let call =
                if i.is_multiple_of(4) { String::from("0") } else { format!("f{}()", i - 1) };
            text += &format!("int f{i}(void) {{ return {call}; }}\n");
        }
        text + "int main(void) { return f10() + f41(); }\n"
    }

    #[test]
    fn a_bug_in_a_few_functions_keeps_their_closures_in_a_binary_search_per_function() {
        let text = chains(64);
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(text.as_bytes()));
        let units = Units::new(&tree);
        let items = units.level(0).to_vec();
        assert_eq!(items.len(), 65);
        let name = |id: &NodeId| {
            let t = String::from_utf8_lossy(tree.text(*id)).into_owned();
            t[4..t.find('(').expect("a call")].to_string()
        };
        let needs = |n: &str| -> Vec<String> {
            match n {
                "main" => vec!["f10".into(), "f41".into()],
                f => {
                    let i: usize = f[1..].parse().expect("a number");
                    if i.is_multiple_of(4) {
                        vec![]
                    } else {
                        vec![format!("f{}", i - 1)]
                    }
                }
            }
        };
        // as a compiler would: every kept function's callees are kept,
        // and the bug is in main
        let mut oracle = FnOracle::new(&units, |present: &[NodeId]| {
            let kept: Vec<String> =
                present.iter().filter(|id| items.contains(id)).map(name).collect();
            kept.contains(&"main".to_string())
                && kept.iter().all(|f| needs(f).iter().all(|g| kept.contains(g)))
        });
        let mut mask = Mask::new(tree.len());
        run(Closures::new(&tree, &units), &units, &mut mask, &mut oracle).expect("not stopped");
        let kept: Vec<String> =
            items.iter().filter(|&&id| units.is_present(id, &mask)).map(name).collect();
        assert_eq!(kept, ["f8", "f9", "f10", "f40", "f41", "main"]);
        // main's closure in one round (no prefix without main passes),
        // then that closure alone: far fewer than one test per function
        assert!(oracle.calls <= 10, "{} tests", oracle.calls);
    }

    #[test]
    fn the_declarations_of_a_namespace_are_items_of_their_own() {
        // chains(64)'s functions in a namespace reopened every sixteen,
        // as a preprocessed file reopens `namespace std`
        let mut text = String::new();
        for (i, line) in chains(64).lines().take(64).enumerate() {
            if i % 16 == 0 {
                text += "namespace n {\n";
            }
            text += line;
            text += "\n";
            if i % 16 == 15 {
                text += "}\n";
            }
        }
        text += "int main() { return n::f10() + n::f41(); }\n";
        let fe = crate::language::by_name("cpp").expect("cpp").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(text.as_bytes()));
        let units = Units::new(&tree);
        let functions: Vec<NodeId> = (0..tree.len() as u32)
            .map(NodeId)
            .filter(|&id| units.is_unit(id) && tree.text(id).starts_with(b"int "))
            .collect();
        assert_eq!(functions.len(), 65);
        let name = |id: &NodeId| {
            let t = String::from_utf8_lossy(tree.text(*id)).into_owned();
            t[4..t.find('(').expect("a call")].to_string()
        };
        let mut oracle = FnOracle::new(&units, |present: &[NodeId]| {
            let kept: Vec<String> =
                present.iter().filter(|id| functions.contains(id)).map(name).collect();
            let needs = |f: &String| match f[1..].parse::<usize>() {
                Ok(i) if !i.is_multiple_of(4) => kept.contains(&format!("f{}", i - 1)),
                Ok(_) => true,
                Err(_) => kept.contains(&"f10".into()) && kept.contains(&"f41".into()),
            };
            kept.contains(&"main".to_string()) && kept.iter().all(needs)
        });
        let mut mask = Mask::new(tree.len());
        run(Closures::new(&tree, &units), &units, &mut mask, &mut oracle).expect("not stopped");
        let kept: Vec<String> =
            functions.iter().filter(|&&id| units.is_present(id, &mask)).map(name).collect();
        assert_eq!(kept, ["f8", "f9", "f10", "f40", "f41", "main"]);
        assert!(oracle.calls <= 10, "{} tests", oracle.calls);
    }

    #[test]
    fn few_items_or_a_language_without_names_are_left_to_hdd() {
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(chains(3).as_bytes()));
        let units = Units::new(&tree);
        let mut mask = Mask::new(tree.len());
        let mut oracle = FnOracle::new(&units, |_: &[NodeId]| true);
        run(Closures::new(&tree, &units), &units, &mut mask, &mut oracle).expect("not stopped");
        assert_eq!(oracle.calls, 0);
        let json = crate::language::by_name("json").expect("json").frontend().expect("fe");
        let tree = json.parse(Arc::from(&b"[1,2,3,4,5,6,7,8,9,10]"[..]));
        let units = Units::new(&tree);
        let mut oracle = FnOracle::new(&units, |_: &[NodeId]| true);
        run(Closures::new(&tree, &units), &units, &mut Mask::new(tree.len()), &mut oracle)
            .expect("not stopped");
        assert_eq!(oracle.calls, 0);
    }
}

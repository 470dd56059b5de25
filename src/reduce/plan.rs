//! Plans: which searches run, in which order, on which parse of the
//! current best.
//!
//! - HDD+ (the default): the dependency-aware cuts over the top-level
//!   items (see [`Closures`]; with coordinated deletion, in languages with
//!   names), then one HDD pass that also hoists each level's nodes
//!   with one or two targets, the renaming pass (each declared name to the
//!   shortest unused one), then a hoisting round and the 1-minimality
//!   phase in turn, then coordinated deletion (a declaration with its
//!   uses), until neither hoisting nor that finds anything.
//! - HDD and HDD*: one HDD pass (HDD* repeats it until a pass removes
//!   nothing), then a hoisting round and the algorithm again while hoisting
//!   finds something; then the renaming pass.
//! - Then the token pass (lines and words as plain text, under the syntax
//!   guard) for malformed input and for code (and, for a small result of
//!   malformed data, once more without the guard, followed, when that
//!   kept more syntax errors, by the tree's HDD pass and the seams between
//!   tags, unguarded too: see [`Plan::cut_through`]): it deletes what no
//!   single node holds (two statements of different blocks, a keyword and
//!   its operand) and reaches past 1-tree-minimal; when it takes at least a
//!   quarter of the text, the tree's passes run again on what is left, and
//!   the token pass after them (rounds); then the shrinking pass (characters of strings); and
//!   the layout pass (the whitespace of the result laid out again, in one
//!   candidate).
//! - With HDD+, all of the above again until a round changes nothing (a
//!   fixpoint: hdd on its own result finds nothing); and last, with
//!   `--format`, the language's formatter (one candidate).
//!
//! Before each pass the current best is parsed again (by the [`Host`]), so
//! every pass works on a tree that matches the text (after replacements
//! and hoists) and that gets smaller as it does. The hoists that failed are
//! remembered across those parses ([`HoistMemory`]).

use std::collections::HashMap;
use std::sync::Arc;

use super::hoist::HoistMemory;
pub(crate) use super::phase::Phase;
use super::{
    drive, Batch, Closures, Coordinated, Ddmin, GroupMemory, Hdd, HoistBatch, Hoisting, OneMinimal,
    Oracle, Order, Renaming, Seams, Search, Stopped, Units, Whole,
};
use crate::syntax::{Mask, TextKey, Tree};

/// Which algorithm a plan runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// One HDD pass.
    Hdd,
    /// HDD until a pass removes nothing.
    HddStar,
    /// HDD, then the 1-tree-minimality phase.
    HddPlus,
}

/// Which tree of the current best text a pass works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum View {
    /// A parse by the input's own front-end.
    Language,
    /// Lines and words, as plain text.
    Text,
    /// The characters of strings and text (see [`crate::syntax::chars`]).
    Chars,
    /// The tokens of declared names, each name to a shorter one (see
    /// [`super::rename`]).
    Rename,
    /// The whitespace between tokens, laid out again (see
    /// [`crate::syntax::layout`]).
    Layout,
    /// The text as the language's formatter writes it (`--format`): one
    /// unit (see [`crate::syntax::layout::formatted`]).
    Format,
}

/// What a plan needs from the world around it.
pub(crate) trait Host {
    /// The current best text as `view` (parsed again only when the text
    /// changed); candidates are unparsed against it from now on. `None`
    /// when the view has nothing to reduce.
    fn view(&mut self, view: View) -> Option<Arc<Tree>>;

    /// The oracle for the candidates of a new pass of `phase`.
    fn oracle(&mut self, phase: Phase) -> &mut dyn Oracle;

    /// A round of the plan's passes starts (see [`Plan::run`]).
    fn start_round(&mut self) {}

    /// The last round has ended; what follows (`--format`) is no round's.
    fn end_rounds(&mut self) {}
}

/// A validated choice of algorithm and passes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub algorithm: Algorithm,
    pub ddmin: Ddmin,
    /// The order of units within a level, for the input's language.
    pub order: Order,
    /// The order of the token pass (plain text's own).
    pub token_order: Order,
    /// Hoist along with the algorithm.
    pub hoist: bool,
    /// With HDD+: delete declarations together with their uses (see
    /// [`Coordinated`]) after the 1-minimal phase.
    pub coordinated: bool,
    /// Run the token pass (lines, then words) after the tree's passes, on
    /// malformed input or where the language says so (`token_pass`).
    pub tokens: bool,
    /// Run the shrinking pass at the end.
    pub shrink: bool,
    /// Give declared names the shortest unused names, after the tree's passes.
    pub rename: bool,
    /// Lay the result out again, as the last candidate but one.
    pub layout: bool,
    /// Run the language's formatter on the result, as the last candidate.
    pub format: bool,
    /// Run ddmin and the 1-minimal phase as [`Batch`]es whose first round
    /// cuts a level into this many blocks, and hoisting as a [`HoistBatch`]
    /// (for many workers).
    pub batch: Option<usize>,
}

impl Plan {
    /// Runs the plan until done or stopped. HDD+ runs its passes in rounds
    /// until a whole round leaves the text as it was, so that hdd run again
    /// on its own result finds nothing: what a late pass removes (the token
    /// pass's lines, a string's characters) can free a node the tree's
    /// passes could not take before. A pass is skipped while the text is the
    /// one it last left unchanged, so the last round costs each pass once on
    /// the result. HDD and HDD* run their passes once.
    pub(crate) fn run(&self, host: &mut dyn Host) -> Result<(), Stopped> {
        let mut memory = Memory::default();
        loop {
            host.start_round();
            let before = substance(host);
            self.round(host, &mut memory)?;
            // a round that only laid the text out again is the last, as one
            // that changed nothing; and since every other pass removes or
            // shortens tokens, the rounds end
            if self.algorithm != Algorithm::HddPlus || substance(host) >= before {
                break;
            }
        }
        host.end_rounds();
        if self.format {
            pass(host, View::Format, Whole::default(), Phase::Format)?;
        }
        Ok(())
    }

    /// One round of the plan's passes on the current best, each skipped
    /// while the text is the one it last left unchanged.
    fn round(&self, host: &mut dyn Host, memory: &mut Memory) -> Result<(), Stopped> {
        let (malformed, token_pass) = host
            .view(View::Language)
            .map_or((false, false), |t| (t.error_count() > 0, t.policy().token_pass));
        match self.algorithm {
            Algorithm::HddPlus => self.hdd_plus(host, memory)?,
            Algorithm::Hdd | Algorithm::HddStar => {
                self.hdd_then_hoist(host, &mut memory.hoists)?;
                if self.rename {
                    pass(host, View::Rename, Renaming::default(), Phase::Rename)?;
                }
            }
        }
        if self.tokens && (malformed || token_pass) {
            once_per_text(host, memory, PassId::Tokens, |host, memory| {
                self.token_rounds(host, memory)
            })?;
        }
        if self.algorithm == Algorithm::HddPlus && self.coordinated {
            // locals made global, once nothing else shortens the text: one
            // made global earlier takes the place of deletions that would
            // have gone further (the token pass finds its way where a
            // local made global early would block it: see BENCHMARKS.md);
            // then the rounds again on what it freed
            once_per_text(host, memory, PassId::Globals, |host, memory| {
                while self.coordinated(host, &mut memory.groups, Coordinated::globals)? > 0 {
                    self.refine(host, memory)?;
                }
                Ok(())
            })?;
        }
        // not for code, whose "malformed" is mostly macros the parser does
        // not expand, and whose test is a compiler that unguarded cuts
        // seldom please (its tests there are spent for nothing)
        if self.tokens && malformed && !token_pass {
            once_per_text(host, memory, PassId::CutThrough, |host, _| self.cut_through(host))?;
        }
        if self.shrink {
            // one pass: a character seldom frees another, and a second
            // pass tests every character kept once more, for nothing
            once_per_text(host, memory, PassId::Shrink, |host, _| {
                let shrink = self.batched(Hdd::single_pass(Ddmin::Adaptive, Order::Forward));
                pass(host, View::Chars, shrink, Phase::Shrink)
            })?;
        }
        if self.layout {
            once_per_text(host, memory, PassId::Layout, |host, _| {
                pass(host, View::Layout, Whole::default(), Phase::Layout)
            })?;
        }
        Ok(())
    }

    /// The token pass, and the tree's passes again when it took a good
    /// part of the text.
    fn token_rounds(&self, host: &mut dyn Host, memory: &mut Memory) -> Result<(), Stopped> {
        // Lines and words cut across the tree (through the broken
        // structure of malformed input, or two statements of different
        // blocks at once), under the syntax guard. What they remove can
        // free a node no single removal could take before (a branch
        // whose other half the token pass cut), so when they took a
        // good part of the text, the tree's passes run again on it, and
        // the token pass again if those changed it: rounds, as C-Reduce
        // runs its passes until none changes the text, but only while
        // they are likely to pay, since a round tests about every unit
        // once (BENCHMARKS.md, "Rounds").
        loop {
            let before = text_len(host);
            let tokens = self.batched(Hdd::single_pass(Ddmin::Adaptive, self.token_order));
            pass(host, View::Text, tokens, Phase::Tokens)?;
            let removed = before.saturating_sub(text_len(host));
            if removed * ROUND_AFTER_TOKENS < before {
                // too little for a round, but what the token pass
                // emptied may now go with what names it or with the
                // syntax error beside it (an emptied libstdc++
                // namespace): the groups whose text changed, once
                if removed > 0 && self.algorithm == Algorithm::HddPlus && self.coordinated {
                    self.coordinated(host, &mut memory.groups, Coordinated::new)?;
                }
                return Ok(());
            }
            let before = text_len(host);
            self.refine(host, memory)?;
            if text_len(host) >= before {
                return Ok(());
            }
        }
    }

    /// The tree's passes again after the token pass changed the text: for
    /// HDD+ its hoisting, 1-minimal and coordinated rounds, for HDD and
    /// HDD* the algorithm and hoisting again.
    fn refine(&self, host: &mut dyn Host, memory: &mut Memory) -> Result<(), Stopped> {
        match self.algorithm {
            Algorithm::HddPlus => self.hdd_plus_rounds(host, memory),
            Algorithm::Hdd | Algorithm::HddStar => self.hdd_then_hoist(host, &mut memory.hoists),
        }
    }

    /// HDD+ with hoisting: one HDD pass that also hoists the nodes of each
    /// level with one or two targets (see [`Hdd::hoisting`]), then hoisting
    /// and the 1-minimality phase in turn until hoisting finds nothing. The
    /// hoists that failed during HDD are not tried again while what they
    /// delete reads the same. Hoisting comes before the single removals, not
    /// after them: a hoist changes the tree, so 1-minimality reached before
    /// it would have to be checked again. When the last hoisting round finds
    /// nothing, the 1-minimal pass after it is answered from the cache.
    fn hdd_plus(&self, host: &mut dyn Host, memory: &mut Memory) -> Result<(), Stopped> {
        let mut hdd = self.batched(Hdd::single_pass(self.ddmin, self.order));
        if self.hoist {
            hdd = hdd.hoisting();
        }
        if self.coordinated {
            once_per_text(host, memory, PassId::Closures, |host, _| {
                let Some(tree) = host.view(View::Language) else { return Ok(0) };
                let units = Units::new(&tree);
                drive_on(host, &tree, &units, &mut Closures::new(&tree, &units), Phase::Closures)
            })?;
        }
        once_per_text(host, memory, PassId::Hdd, |host, memory| {
            if let Some(tree) = host.view(View::Language) {
                drive_on(host, &tree, &self.units(&tree), &mut hdd, Phase::Hdd)?;
                memory.hoists.remember(&tree, hdd.failed_hoists());
            }
            Ok(())
        })?;
        // renaming right after the HDD pass unties a function from its
        // prototype in a header, so that the 1-minimal phase can drop its
        // parameters (on the benchmarks' C cases, a shorter result in fewer
        // tests)
        if self.rename {
            once_per_text(host, memory, PassId::Rename, |host, memory| {
                let before = host.view(View::Language);
                if pass(host, View::Rename, Renaming::default(), Phase::Rename)? > 0 {
                    if let (Some(before), Some(after)) = (before, host.view(View::Language)) {
                        memory.hoists.renamed(&before, &after);
                    }
                }
                Ok(())
            })?;
        }
        // the names of headers' types made `int`, and the swept tokens
        // gone, before the rounds, not in them: a change of every use, after
        // which the 1-minimal phase would try each unit again
        if self.coordinated {
            once_per_text(host, memory, PassId::Sweep, |host, memory| {
                self.coordinated(host, &mut memory.groups, Coordinated::sweeping)
            })?;
        }
        self.hdd_plus_rounds(host, memory)
    }

    /// HDD+'s rounds after its HDD pass: hoisting, the 1-minimal phase and
    /// coordinated deletion in turn, until a round makes the text no
    /// shorter.
    fn hdd_plus_rounds(&self, host: &mut dyn Host, memory: &mut Memory) -> Result<(), Stopped> {
        loop {
            let before = text_len(host);
            let hoisted = if self.hoist {
                once_per_text(host, memory, PassId::Hoist, |host, memory| {
                    self.hoist(host, &mut memory.hoists)
                })?
            } else {
                0
            };
            once_per_text(host, memory, PassId::OneMinimal, |host, _| {
                while self.one_minimal(host)? > 0 {}
                Ok(())
            })?;
            let cut = if self.coordinated {
                once_per_text(host, memory, PassId::Coordinated, |host, memory| {
                    self.coordinated(host, &mut memory.groups, Coordinated::new)
                })?
            } else {
                0
            };
            // a hoist that reads as the current best counts as interesting
            // but changes nothing: only a shorter text is worth another round
            if (hoisted == 0 && cut == 0) || text_len(host) >= before {
                return Ok(());
            }
        }
    }

    /// For malformed input: the token pass again, without the syntax guard,
    /// when the result has at most [`CUT_THROUGH_TOKENS`] tokens. The
    /// guard keeps a result from gaining syntax errors, but where the bug
    /// is in the syntax (a parser's error message), a smaller result often
    /// has other errors than the input: a start tag cut off in its broken
    /// attribute, an unclosed element without the document around it.
    /// Bounded, because every token may cost a test. Then, as unguarded,
    /// the tree's HDD pass on what the tokens left (an element that now
    /// runs to the end of the text, with the end tags cut to `</` that
    /// close it: one node, where the tokens of each tag had to go
    /// together), and the seams between bracketed groups (the run
    /// `><xsl:if` that gives the second tag's attribute to the first: see
    /// [`Seams`]).
    fn cut_through(&self, host: &mut dyn Host) -> Result<usize, Stopped> {
        let errors = |host: &mut dyn Host| host.view(View::Language).map_or(0, |t| t.error_count());
        // (the language's view first: the text view is the one candidates
        // are unparsed against while the tokens go)
        let before = errors(host);
        let Some(tree) = host.view(View::Text) else { return Ok(0) };
        let units = Units::new(&tree);
        if units.count() > CUT_THROUGH_TOKENS {
            return Ok(0);
        }
        let mut tokens = self.batched(Hdd::single_pass(Ddmin::Adaptive, self.token_order));
        let mut cut = drive_on(host, &tree, &units, &mut tokens, Phase::CutThrough)?;
        // only a test that took syntax errors the guard would have refused
        // is worth more unguarded candidates (a test that wants its input
        // well-formed but for one thing refuses them all)
        if errors(host) <= before {
            return Ok(cut);
        }
        let hdd = self.batched(Hdd::single_pass(Ddmin::Adaptive, self.order));
        cut += self.hdd_pass(host, hdd, Phase::CutTree)?;
        let Some(tree) = host.view(View::Text) else { return Ok(cut) };
        Ok(cut + drive_on(host, &tree, &Units::new(&tree), &mut Seams::new(&tree), Phase::Seams)?)
    }

    /// The units of `tree` for an HDD pass: with batches, knowing which
    /// units use which (see [`Batch::with_users`]) and the words of their
    /// text (for the order of a fold, see [`Batch`]).
    fn units(&self, tree: &Tree) -> Units {
        match self.batch {
            Some(_) => Units::new(tree).with_uses(tree).with_words(tree),
            None => Units::new(tree),
        }
    }

    /// One HDD pass, as `phase`, over a fresh parse of the current best;
    /// returns the number of changes it committed.
    fn hdd_pass(&self, host: &mut dyn Host, mut hdd: Hdd, phase: Phase) -> Result<usize, Stopped> {
        let Some(tree) = host.view(View::Language) else { return Ok(0) };
        drive_on(host, &tree, &self.units(&tree), &mut hdd, phase)
    }

    /// `hdd` with its levels' ddmin in batches, if the plan says so.
    fn batched(&self, hdd: Hdd) -> Hdd {
        match self.batch {
            Some(width) => hdd.batched(width),
            None => hdd,
        }
    }

    /// One pass of the 1-minimality phase (in one batch, if the plan says
    /// so); returns how many removals it committed.
    fn one_minimal(&self, host: &mut dyn Host) -> Result<usize, Stopped> {
        match self.batch {
            Some(_) => {
                pass(host, View::Language, Batch::one_minimal(self.order), Phase::OneMinimal)
            }
            None => pass(host, View::Language, OneMinimal::new(self.order), Phase::OneMinimal),
        }
    }

    /// Coordinated deletion over the groups `search` finds (all, or those
    /// of undeclared names), on a fresh parse each time, while it makes the
    /// text shorter; returns how many bytes it removed. A group that failed
    /// is not tried again while what it switches off reads the same.
    fn coordinated(
        &self,
        host: &mut dyn Host,
        memory: &mut GroupMemory,
        search: fn(&Tree, &GroupMemory) -> Coordinated,
    ) -> Result<usize, Stopped> {
        let Some(mut tree) = host.view(View::Language) else { return Ok(0) };
        let start = tree.src().len();
        loop {
            let mut search = search(&tree, memory);
            drive_on(host, &tree, &Units::new(&tree), &mut search, Phase::Coordinated)?;
            memory.remember(&tree, search.failed());
            // progress is the text getting shorter: a candidate that reads
            // as the current best commits nothing
            let Some(next) = host.view(View::Language) else { break };
            if next.src().len() >= tree.src().len() {
                break;
            }
            tree = next;
        }
        let end = host.view(View::Language).map_or(start, |t| t.src().len());
        Ok(start.saturating_sub(end))
    }

    /// HDD or HDD*, then hoisting and the algorithm again while hoisting
    /// finds something.
    fn hdd_then_hoist(&self, host: &mut dyn Host, memory: &mut HoistMemory) -> Result<(), Stopped> {
        let star = self.algorithm == Algorithm::HddStar;
        loop {
            let hdd = || self.batched(Hdd::new(self.ddmin, self.order));
            while self.hdd_pass(host, hdd(), Phase::Hdd)? > 0 && star {}
            if !self.hoist || self.hoist(host, memory)? == 0 {
                return Ok(());
            }
        }
    }

    /// One round of hoisting (as a [`HoistBatch`], if the plan says so). A
    /// hoist that failed before is not tried again while what it deletes
    /// reads the same, so the rounds after the first (for what the
    /// 1-minimal phase's removals made possible) test only hoists whose
    /// text changed.
    fn hoist(&self, host: &mut dyn Host, memory: &mut HoistMemory) -> Result<usize, Stopped> {
        let Some(tree) = host.view(View::Language) else { return Ok(0) };
        let units = Units::new(&tree);
        let skip = memory.known_failures(&tree, &units);
        if self.batch.is_some() {
            let mut search = HoistBatch::skipping(skip);
            let hoisted = drive_on(host, &tree, &units, &mut search, Phase::Hoist)?;
            memory.remember(&tree, search.failed());
            return Ok(hoisted);
        }
        let mut search = Hoisting::skipping(skip);
        let hoisted = drive_on(host, &tree, &units, &mut search, Phase::Hoist)?;
        memory.remember(&tree, search.failed());
        Ok(hoisted)
    }
}

/// The tree's passes run again after the token pass when it removed at
/// least one part in this many of the text (see [`Plan::run`]).
pub(crate) const ROUND_AFTER_TOKENS: usize = 4;

/// What a plan remembers across its passes: the hoists and the groups of
/// coordinated deletion that failed, by what they delete, and the text
/// each pass last left unchanged.
#[derive(Default)]
struct Memory {
    hoists: HoistMemory,
    groups: GroupMemory,
    idle: HashMap<PassId, TextKey>,
}

/// The passes of a round, for [`once_per_text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum PassId {
    Closures,
    Hdd,
    Rename,
    Sweep,
    Hoist,
    OneMinimal,
    Coordinated,
    Tokens,
    Globals,
    CutThrough,
    Shrink,
    Layout,
}

/// Runs `run`, the pass `id`, unless the current best is the text it last
/// left unchanged: on the same text it would propose the same candidates
/// and find nothing again (their outcomes are in the cache, but each
/// pass's parse and search still cost time).
fn once_per_text<T: Default>(
    host: &mut dyn Host,
    memory: &mut Memory,
    id: PassId,
    run: impl FnOnce(&mut dyn Host, &mut Memory) -> Result<T, Stopped>,
) -> Result<T, Stopped> {
    let Some(key) = text_key(host) else { return run(host, memory) };
    if memory.idle.get(&id) == Some(&key) {
        return Ok(T::default());
    }
    let out = run(host, memory)?;
    if text_key(host) == Some(key) {
        memory.idle.insert(id, key);
    }
    Ok(out)
}

/// The key of the current best text (`None` when it does not parse).
fn text_key(host: &mut dyn Host) -> Option<TextKey> {
    host.view(View::Language).map(|t| TextKey::of(t.src()))
}

/// The most lines and tokens the token pass without the syntax guard takes
/// on (see [`Plan::cut_through`]): each may cost a test.
pub(crate) const CUT_THROUGH_TOKENS: usize = 128;

/// The bytes of the current best text that are not whitespace (0 when it
/// does not parse): what every pass but the layout pass's makes fewer.
fn substance(host: &mut dyn Host) -> usize {
    host.view(View::Language)
        .map_or(0, |t| t.src().iter().filter(|b| !b.is_ascii_whitespace()).count())
}

/// The length of the current best text (0 when it does not parse).
fn text_len(host: &mut dyn Host) -> usize {
    host.view(View::Language).map_or(0, |t| t.src().len())
}

/// Runs `search` over a fresh `view` of the current best; returns the
/// number of interesting candidates it committed.
fn pass<S: Search>(
    host: &mut dyn Host,
    view: View,
    mut search: S,
    phase: Phase,
) -> Result<usize, Stopped> {
    let Some(tree) = host.view(view) else { return Ok(0) };
    drive_on(host, &tree, &Units::new(&tree), &mut search, phase)
}

/// Runs `search` over `tree` from its text as it is, leaving `search` as
/// it ended.
fn drive_on<S: Search>(
    host: &mut dyn Host,
    tree: &Tree,
    units: &Units,
    search: &mut S,
    phase: Phase,
) -> Result<usize, Stopped> {
    let mut mask = Mask::new(tree.len());
    drive(search, units, &mut mask, host.oracle(phase))
}

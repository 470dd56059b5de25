//! The passes of a plan as reports name them (`--stats-json` counts tests
//! per phase), and which of them the syntax guard answers.

/// A pass of a plan, for reports (`--stats-json` counts tests per phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// The dependency-aware cuts before HDD (see [`super::Closures`]).
    Closures,
    Hdd,
    OneMinimal,
    Hoist,
    Coordinated,
    Tokens,
    /// The token pass again without the syntax guard, on a small result of
    /// malformed input.
    CutThrough,
    /// The tree's HDD pass again without the syntax guard, after the
    /// cut-through's token pass.
    CutTree,
    /// The seams between bracketed groups (see [`super::Seams`]), last of the
    /// cut-through and like it without the syntax guard.
    Seams,
    Shrink,
    Rename,
    Layout,
    /// The formatter of `--format`.
    Format,
    /// A set's emptied files left out (after the plan, by the session).
    Files,
}

impl Phase {
    /// The phase's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Closures => "closures",
            Phase::Hdd => "hdd",
            Phase::OneMinimal => "1-minimal",
            Phase::Hoist => "hoist",
            Phase::Coordinated => "coordinated",
            Phase::Tokens => "tokens",
            Phase::CutThrough => "cut-through",
            Phase::CutTree => "cut-tree",
            Phase::Seams => "seams",
            Phase::Shrink => "shrink",
            Phase::Rename => "rename",
            Phase::Layout => "layout",
            Phase::Format => "format",
            Phase::Files => "files",
        }
    }

    /// Whether the syntax guard answers this phase's candidates with more
    /// errors than the input: every phase's but those that cut through a
    /// small malformed result on purpose.
    pub fn guarded(self) -> bool {
        !matches!(self, Phase::CutThrough | Phase::CutTree | Phase::Seams)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_cut_through_of_malformed_input_goes_without_the_guard() {
        let unguarded = [Phase::CutThrough, Phase::CutTree, Phase::Seams];
        for phase in [
            Phase::Closures,
            Phase::Hdd,
            Phase::OneMinimal,
            Phase::Hoist,
            Phase::Coordinated,
            Phase::Tokens,
            Phase::Shrink,
            Phase::Rename,
            Phase::Layout,
            Phase::Format,
            Phase::Files,
        ] {
            assert!(phase.guarded(), "{}", phase.name());
        }
        assert!(unguarded.iter().all(|p| !p.guarded()));
    }
}

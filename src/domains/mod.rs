//! The puzzles, each a `Family` with its own heuristics, and the registry that lists them: the one
//! place where a run-time domain becomes a type.
//!
//! Adding a domain: its file implements `Family` and lists its heuristics with `heuristic_set!`,
//! and one line joins the `registry!` below. Adding a heuristic: one line in its family's
//! `heuristic_set!` and the arm that builds it in that family's `Family::with_heuristic` (for
//! tiles, in `with_plain` for every board type, the heuristic implementing `Heuristic<G>` for any
//! `Grid`, or `with_databases` for pattern databases); the compiler insists on the arm. Names, `--heuristic` parsing and help text follow.

/// A family's heuristics: an enum and its `HeuristicSet`, from one line per heuristic
/// (`Variant => "name": "what it is"`, the default first).
macro_rules! heuristic_set {
    ($(#[$doc:meta])* $set:ident { $($variant:ident => $name:literal: $about:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $set {
            $($variant),+
        }

        impl $crate::domains::HeuristicSet for $set {
            const ALL: &'static [$set] = &[$($set::$variant),+];

            fn name(self) -> &'static str {
                match self {
                    $($set::$variant => $name),+
                }
            }

            fn about(self) -> &'static str {
                match self {
                    $($set::$variant => $about),+
                }
            }
        }
    };
}

// First: its `max_parts!` is used by the families.
#[macro_use]
pub mod max;
pub(crate) mod booksort;
pub mod cost;
pub(crate) mod judge;
pub(crate) mod knights;
pub mod ksolve;
pub(crate) mod pancake;
pub(crate) mod rotation;
mod spec;
pub mod tiles;

pub use spec::Spec;

use crate::search::fsm::Moves;
use crate::search::{Domain, Heuristic};
use crate::tables::store::{self, StoreError, TableInfo};
use crate::util::rng::Rng;
use crate::util::text::shorten;
use cost::CostModel;
use std::sync::Arc;

/// A bad value in one field of an instance: the field (`size`, `start` or `goal`), and what is
/// wrong with it.
pub type FieldError = (&'static str, String);

/// What the rest of the program needs of a puzzle family beyond the search's `Domain`: its name,
/// how instances are read from and written to dataset fields, and its heuristics.
pub trait Family: Domain<State: Send + Sync> + Send + Sync + Sized + 'static {
    /// The name in datasets, reports and `--domain`.
    const NAME: &'static str;
    /// What the `size` field holds, for `--help`.
    const SIZE_HELP: &'static str;
    /// What the `start` (and `goal`) field holds, for `--help`.
    const STATE_HELP: &'static str;
    /// The family's heuristics.
    type Heuristics: HeuristicSet;
    /// A start state as an instance keeps it: the state itself, or a smaller form where the
    /// state is sized for the largest board (tiles), so that a dataset of many small instances
    /// does not hold a large board each.
    type Start: Clone + Send + Sync;

    fn unpack(&self, s: &Self::Start) -> Self::State;

    /// An instance from its dataset fields: `size` is `None` when the dataset has no such column,
    /// `goal` is `None` or empty for the default. An error names the field at fault. Instances of
    /// one size and goal share one `Arc` of the domain's tables in the whole process, so that
    /// heuristic tables keyed by it (`crate::tables`) are built once per board and goal.
    fn instance(
        size: Option<&str>,
        start: &str,
        goal: Option<&str>,
    ) -> Result<(Arc<Self>, Self::Start), FieldError>;

    /// `instance` for a row whose puzzle comes from a definition file (`file`, from the
    /// `puzzle` column or `--puzzle`): the families compiled in refuse one.
    fn instance_from(
        file: Option<&ksolve::PuzzleFile>,
        size: Option<&str>,
        start: &str,
        goal: Option<&str>,
    ) -> Result<(Arc<Self>, Self::Start), FieldError> {
        match file {
            None => Self::instance(size, start, goal),
            Some(f) => Err((
                "puzzle",
                format!(
                    "'{}': domain '{}' is compiled in, only 'ksolve' reads a definition file: leave puzzle empty",
                    shorten(&f.shown),
                    Self::NAME
                ),
            )),
        }
    }

    /// The size written in reports (`4x4`, the number of books; empty where it is fixed).
    fn size(&self) -> String;

    /// The depth of the duplicate-pruning automaton `--pruning fsm` means here, chosen by
    /// measurement (docs/pruning.md): a later change renames the variants it makes (`fsm14`),
    /// so that counts under one name never change.
    const FSM_DEPTH: u32;

    /// The moves as a builder of duplicate-pruning automata reads them, labelled as
    /// `Domain::labels` labels them (on every type `with_heuristic` hands over).
    fn fsm_moves(&self) -> Moves;

    /// The board's width and height, where `fsm_moves` is a walk: no longer walk can be played
    /// on it, so its automaton is built within them.
    fn fsm_window(&self) -> Option<(usize, usize)> {
        None
    }

    /// `s` as the dataset's `start` tokens.
    fn tokens(&self, s: &Self::State) -> String;

    /// For `generate`: the `size` column and the goal (as `start` tokens) that random instances
    /// of the size asked for (`None`: none given) are shuffled or walked from.
    fn generator_goal(size: Option<&str>) -> Result<(String, String), FieldError>;

    /// For `generate`'s random states: one drawn uniformly from those made of the goal's tokens
    /// (`generator_goal`); by default, the tokens shuffled.
    fn random_start(goal: &[&str], rng: &mut Rng) -> String {
        let mut tokens = goal.to_vec();
        rng.shuffle(&mut tokens);
        tokens.join(" ")
    }

    /// Whether a goal can be reached from `s` at all (known without searching).
    fn solvable(&self, _s: &Self::State) -> bool {
        true
    }

    /// Builds heuristic `h` for `d` (tables come shared from `crate::tables`) and hands it to
    /// `visit` with the domain and the start: the one match over the family's heuristics. A family
    /// may hand over another type of the same puzzle that searches the same tree faster (tiles:
    /// the fixed-size boards).
    fn with_heuristic<V: UseSearch>(
        d: &Arc<Self>,
        start: &Self::State,
        h: Self::Heuristics,
        visit: V,
    ) -> V::Output;

    /// Builds the max of heuristics `parts` (two to `max::MAX_PARTS`, distinct, each accepted by
    /// `max_part` and passed by `prepare`) for `d` and hands it to `visit` like `with_heuristic`:
    /// as few types as can be (`max::Max` over the family's `max_parts!`), searched on one type
    /// of the domain, for each costs the build an instantiation of the kernels.
    fn with_max<V: UseSearch>(
        d: &Arc<Self>,
        start: &Self::State,
        parts: &[Self::Heuristics],
        visit: V,
    ) -> V::Output;

    /// Whether `h` can be a part of a max, or why not (said after the part's name).
    fn max_part(_h: Self::Heuristics) -> Result<(), String> {
        Ok(())
    }

    /// Whether heuristic `h` stays admissible, and `d`'s moves can be weighed, under `cost` (not
    /// unit), or why not.
    fn weighs(_d: &Arc<Self>, _h: Self::Heuristics, cost: CostModel) -> Result<(), String> {
        Err(format!(
            "every move of {} costs 1: --cost {} weighs the tiles' moves only",
            Self::NAME,
            cost.name()
        ))
    }

    /// What a cost of 1 is held as under `cost` (`CostModel::scale`): costs are whole numbers of
    /// 1/scale.
    fn cost_scale(&self, _cost: CostModel) -> u32 {
        1
    }

    /// `with_heuristic` with moves weighed under `cost` (not unit), once `weighs` said yes.
    fn with_weighted<V: UseSearch>(
        _d: &Arc<Self>,
        _start: &Self::State,
        _h: Self::Heuristics,
        cost: CostModel,
        _visit: V,
    ) -> Result<V::Output, String> {
        Err(format!(
            "every move of {} costs 1: --cost {} weighs the tiles' moves only",
            Self::NAME,
            cost.name()
        ))
    }

    /// Checks that heuristic `h` can be had for `d` with moves weighed under `cost` and, given a
    /// store, makes its large tables for those costs ready there (read or built: see
    /// `tables::store`), returning what it used. Without a store, a table is built in memory
    /// when a search first asks for it. An error says why the heuristic does not fit this board
    /// or these costs, or why the store failed.
    fn prepare(
        _d: &Arc<Self>,
        _h: Self::Heuristics,
        _cost: CostModel,
        _store: Option<&store::Options>,
    ) -> Result<Vec<TableInfo>, PrepareError> {
        Ok(Vec::new())
    }

    /// The large tables `prepare` makes ready for heuristic `h` on `d` under `cost` (for
    /// `--memory-limit`'s forecast); none where `h` does not fit.
    fn tables(
        _d: &Arc<Self>,
        _h: Self::Heuristics,
        _cost: CostModel,
    ) -> Vec<Box<dyn store::Spec + Send>> {
        Vec::new()
    }
}

/// Why a heuristic's tables could not be made ready.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The heuristic does not apply to this board or goal.
    #[error("{0}")]
    Unfit(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The tables would not fit `--memory-limit`.
    #[error("{0}")]
    Memory(String),
}

/// The heuristics of one family, as an enum. A variant may carry parameters from a fixed set (a
/// pattern partition, say) as long as each combination has a name of its own; `heuristic_set!`
/// writes the enum and this impl for families whose variants carry none.
pub trait HeuristicSet: Copy + Eq + std::fmt::Debug + Send + Sync + 'static {
    /// Every heuristic of the family, the default first.
    const ALL: &'static [Self];
    /// Heuristics named by a pattern rather than listed (a defined puzzle's databases), as
    /// `--help` shows them: the pattern and what it means. `parse` takes them.
    const TEMPLATES: &'static [(&'static str, &'static str)] = &[];
    /// The name in `--heuristic`, variant names and reports.
    fn name(self) -> &'static str;
    /// One line for `--help`.
    fn about(self) -> &'static str;

    fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|h| h.name() == name)
    }
}

/// Refuses a `size` other than empty or `n`, the count of `things` the start holds (books,
/// pancakes): the start tells the size.
fn counted_size(size: Option<&str>, n: usize, things: &str) -> Result<(), FieldError> {
    stated_size(
        size,
        &n.to_string(),
        format_args!("the start has {n} {things}"),
    )
}

/// Refuses a `size` other than empty or `expected`, saying what the instance `is`.
fn stated_size(
    size: Option<&str>,
    expected: &str,
    is: std::fmt::Arguments,
) -> Result<(), FieldError> {
    let size = size.map_or("", str::trim);
    if !size.is_empty() && size != expected {
        return Err((
            "size",
            format!(
                "'{}': {is}; leave size empty or write {expected}",
                shorten(size)
            ),
        ));
    }
    Ok(())
}

/// `Family::generator_goal` of a family whose size is a count of `things` (books, pancakes), 1 to
/// `most`: the size and `1 2 ... n`.
fn counted_goal(
    family: &str,
    size: Option<&str>,
    most: usize,
    things: &str,
) -> Result<(String, String), FieldError> {
    let wanted = || format!("{family} needs the number of {things}, 1 to {most}");
    let size = size.ok_or_else(|| ("size", wanted()))?;
    let n = size
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| ("size", format!("'{}': {}", shorten(size), wanted())))?;
    let goal: Vec<String> = (1..=n).map(|t| t.to_string()).collect();
    Ok((n.to_string(), goal.join(" ")))
}

/// Refuses a goal for a family whose goal is fixed.
fn no_goal(family: &str, goal: Option<&str>) -> Result<(), FieldError> {
    match goal.map(str::trim) {
        Some(g) if !g.is_empty() => Err((
            "goal",
            format!("domain '{family}' has a fixed goal: leave it empty"),
        )),
        _ => Ok(()),
    }
}

/// Code generic over a family, run on one puzzle by `Puzzle::with`.
pub trait UsePuzzle {
    type Output;
    fn with<F: Family>(self, d: &Arc<F>, start: &F::State) -> Self::Output;
}

/// Code generic over a domain and a heuristic, run by `Family::with_heuristic`.
pub trait UseSearch {
    type Output;
    fn with<D: Domain, H: Heuristic<D>>(self, d: &D, start: &D::State, h: &H) -> Self::Output;
}

/// Lists the families once and derives from that list the run-time `DomainKind`, the `Puzzle`
/// that carries a start state of any family, and the matches that turn one into a type.
macro_rules! registry {
    ($($kind:ident => $family:ty),+ $(,)?) => {
        /// The puzzle families, as named in datasets and on the command line.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum DomainKind {
            $($kind),+
        }

        impl DomainKind {
            pub const ALL: [DomainKind; [$(DomainKind::$kind),+].len()] = [$(DomainKind::$kind),+];

            pub fn name(self) -> &'static str {
                match self {
                    $(DomainKind::$kind => <$family as Family>::NAME),+
                }
            }

            /// `SIZE_HELP` and `STATE_HELP` of the family.
            fn field_help(self) -> (&'static str, &'static str) {
                match self {
                    $(DomainKind::$kind => (
                        <$family as Family>::SIZE_HELP,
                        <$family as Family>::STATE_HELP,
                    )),+
                }
            }

            /// `Family::FSM_DEPTH`: the depth `--pruning fsm` means on this domain.
            pub fn fsm_depth(self) -> u32 {
                match self {
                    $(DomainKind::$kind => <$family as Family>::FSM_DEPTH),+
                }
            }

            /// The heuristic a run uses for this family when none is asked for: its first.
            pub fn default_heuristic(self) -> HeuristicKind {
                match self {
                    $(DomainKind::$kind => HeuristicKind(
                        <<$family as Family>::Heuristics as HeuristicSet>::ALL[0].name(),
                    )),+
                }
            }

            /// Whether the family has a heuristic of that name (a max of its heuristics too).
            pub fn accepts(self, h: HeuristicKind) -> bool {
                self.choose(h.name()).is_ok()
            }

            /// Whether the family has a heuristic named `name`, or why not (`max::choose`).
            fn choose(self, name: &str) -> Result<(), String> {
                match self {
                    $(DomainKind::$kind => max::choose::<$family>(name).map(|_| ())),+
                }
            }

            /// Each heuristic of the family, the default first, with what it is.
            pub fn heuristics_about(self) -> Vec<(HeuristicKind, &'static str)> {
                match self {
                    $(DomainKind::$kind => <<$family as Family>::Heuristics as HeuristicSet>::ALL
                        .iter()
                        .map(|h| (HeuristicKind(h.name()), h.about()))
                        .collect()),+
                }
            }

            /// The family's `HeuristicSet::TEMPLATES`.
            fn templates(self) -> &'static [(&'static str, &'static str)] {
                match self {
                    $(DomainKind::$kind => <<$family as Family>::Heuristics as HeuristicSet>::TEMPLATES),+
                }
            }

            /// See `Family::generator_goal`.
            pub fn generator_goal(self, size: Option<&str>) -> Result<(String, String), FieldError> {
                match self {
                    $(DomainKind::$kind => <$family as Family>::generator_goal(size)),+
                }
            }

            /// See `Family::random_start`.
            pub fn random_start(self, goal: &[&str], rng: &mut Rng) -> String {
                match self {
                    $(DomainKind::$kind => <$family as Family>::random_start(goal, rng)),+
                }
            }

            /// An instance of this family from dataset fields (see `Family::instance_from`).
            pub fn instance(
                self,
                file: Option<&ksolve::PuzzleFile>,
                size: Option<&str>,
                start: &str,
                goal: Option<&str>,
            ) -> Result<Puzzle, FieldError> {
                match self {
                    $(DomainKind::$kind => {
                        let (domain, start) =
                            <$family as Family>::instance_from(file, size, start, goal)?;
                        Ok(Puzzle::$kind { start, domain })
                    }),+
                }
            }
        }

        /// A start state of any family (packed: `Family::Start`), with its domain's tables
        /// (shared between instances).
        #[derive(Clone)]
        pub enum Puzzle {
            $($kind {
                domain: Arc<$family>,
                start: <$family as Family>::Start,
            }),+
        }

        impl Puzzle {
            /// Runs `visit` with the puzzle's concrete family: the one match over `Puzzle`.
            pub fn with<V: UsePuzzle>(&self, visit: V) -> V::Output {
                match self {
                    $(Puzzle::$kind { domain, start } => visit.with(domain, &domain.unpack(start))),+
                }
            }

            /// `Family::prepare` for heuristic `h` (one this family has) on this puzzle's board,
            /// with unit costs.
            pub fn prepare(
                &self,
                h: HeuristicKind,
                store: Option<&store::Options>,
            ) -> Result<Vec<TableInfo>, PrepareError> {
                self.prepare_under(h, CostModel::Unit, store)
            }

            /// `prepare` with moves weighed under `cost`: the tables of those costs, once
            /// `weighs` takes `h` under them (an error saying why not, otherwise).
            pub fn prepare_under(
                &self,
                h: HeuristicKind,
                cost: CostModel,
                store: Option<&store::Options>,
            ) -> Result<Vec<TableInfo>, PrepareError> {
                match self {
                    $(Puzzle::$kind { domain, .. } => {
                        match max::choose::<$family>(h.name()) {
                            Ok(choice) => {
                                self.weighs(h, cost).map_err(PrepareError::Unfit)?;
                                max::prepare(domain, &choice, cost, store)
                            }
                            Err(_) => Ok(Vec::new()),
                        }
                    }),+
                }
            }

            /// Whether heuristic `h` can be searched on this puzzle with moves weighed under
            /// `cost`, or why not (unit costs always can).
            pub fn weighs(&self, h: HeuristicKind, cost: CostModel) -> Result<(), String> {
                if cost.is_unit() {
                    return Ok(());
                }
                match self {
                    $(Puzzle::$kind { domain, .. } => match max::choose::<$family>(h.name())? {
                        max::Choice::One(one) => <$family as Family>::weighs(domain, one, cost),
                        max::Choice::Max(_) => Err(format!(
                            "a max of heuristics is searched with unit costs only, not under --cost {}",
                            cost.name()
                        )),
                    }),+
                }
            }

            /// The large tables of heuristic `h` (of every part of a max) on this puzzle's board
            /// under `cost`, as `Family::tables` says; none for a heuristic it does not have.
            pub fn tables(&self, h: HeuristicKind, cost: CostModel) -> Vec<Box<dyn store::Spec + Send>> {
                match self {
                    $(Puzzle::$kind { domain, .. } => match max::choose::<$family>(h.name()) {
                        Ok(choice) => choice
                            .parts()
                            .iter()
                            .flat_map(|&part| <$family as Family>::tables(domain, part, cost))
                            .collect(),
                        Err(_) => Vec::new(),
                    }),+
                }
            }

            /// The address of the puzzle's domain tables: puzzles of one board and goal share it.
            pub fn family_id(&self) -> usize {
                match self {
                    $(Puzzle::$kind { domain, .. } => Arc::as_ptr(domain) as *const () as usize),+
                }
            }

            pub fn kind(&self) -> DomainKind {
                match self {
                    $(Puzzle::$kind { .. } => DomainKind::$kind),+
                }
            }
        }
    };
}

registry! {
    Tiles => tiles::Tiles,
    Rotation => rotation::Rotation,
    Booksort => booksort::Booksort,
    Knights => knights::Knights,
    Pancake => pancake::Pancake,
    BurntPancake => pancake::BurntPancake,
    Ksolve => ksolve::Ksolve,
}

impl DomainKind {
    pub fn parse(name: &str) -> Option<DomainKind> {
        DomainKind::ALL.iter().copied().find(|d| d.name() == name)
    }

    /// The family's heuristics, the default first.
    pub fn heuristics(self) -> Vec<HeuristicKind> {
        self.heuristics_about()
            .into_iter()
            .map(|(h, _)| h)
            .collect()
    }

    /// Whether the family has a heuristic of its own named `name` (not a max).
    fn has(self, name: &str) -> bool {
        max::split(name).ok().flatten().is_none() && self.choose(name).is_ok()
    }

    /// The names of every family, for messages: `tiles, rotation, booksort, knights, pancake, burnt-pancake, ksolve`.
    pub fn names() -> String {
        DomainKind::ALL
            .iter()
            .map(|d| d.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A heuristic by name, as given to `--heuristic` and written in reports. Which family has it,
/// and what it is there, is up to each family's `HeuristicSet`: `misplaced` is one heuristic for
/// tiles and another for knights. A max of a family's heuristics (`max:H1:H2`) is named as it
/// was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeuristicKind(&'static str);

impl HeuristicKind {
    /// The heuristic of that name in any family.
    pub fn parse(name: &str) -> Option<HeuristicKind> {
        HeuristicKind::parse_checked(name).ok()
    }

    /// The heuristic of that name in any family, or why there is none: for a max, the part at
    /// fault.
    pub fn parse_checked(name: &str) -> Result<HeuristicKind, String> {
        let Some(parts) = max::split(name)? else {
            let named = || {
                DomainKind::ALL
                    .into_iter()
                    .any(|d| d.choose(name).is_ok())
                    .then(|| HeuristicKind(max::intern(name)))
            };
            return HeuristicKind::all()
                .into_iter()
                .find(|h| h.0 == name)
                .or_else(named)
                .ok_or_else(|| {
                    format!(
                        "unknown heuristic '{}': expected one of {}, or max:H1:H2:... over one domain",
                        shorten(name),
                        HeuristicKind::names()
                    )
                });
        };
        let mut refusal = None;
        for d in DomainKind::ALL {
            match d.choose(name) {
                Ok(()) => return Ok(HeuristicKind(max::intern(name))),
                Err(why) => {
                    let holds_all = parts.iter().all(|p| d.has(p));
                    if holds_all && refusal.is_none() {
                        refusal = Some(why);
                    }
                }
            }
        }
        // Every part is a heuristic of the family, and the family refuses one as a part.
        if let Some(why) = refusal {
            return Err(why);
        }
        if let Some(unknown) = parts
            .iter()
            .find(|p| DomainKind::ALL.iter().all(|d| !d.has(p)))
        {
            let known: Vec<&str> = parts.iter().copied().filter(|p| p != unknown).collect();
            let family = DomainKind::ALL
                .into_iter()
                .find(|d| !known.is_empty() && known.iter().all(|p| d.has(p)));
            let expected = match family {
                Some(d) => {
                    let names: Vec<&str> = d.heuristics().iter().map(|h| h.name()).collect();
                    format!("{} heuristics: {}", d.name(), names.join(", "))
                }
                None => format!("one of {}", HeuristicKind::names()),
            };
            return Err(format!(
                "heuristic '{}': unknown part '{}': expected {expected}",
                shorten(name),
                shorten(unknown)
            ));
        }
        let families: Vec<String> = parts
            .iter()
            .map(|p| {
                let of: Vec<&str> = DomainKind::ALL
                    .into_iter()
                    .filter(|d| d.has(p))
                    .map(|d| d.name())
                    .collect();
                format!("'{p}' of {}", of.join(" and "))
            })
            .collect();
        Err(format!(
            "heuristic '{}': its parts are heuristics of different domains ({}): a max combines heuristics of one domain",
            shorten(name),
            families.join(", ")
        ))
    }

    pub fn name(self) -> &'static str {
        self.0
    }

    /// Every heuristic name of every family, each once, in registry order.
    pub fn all() -> Vec<HeuristicKind> {
        let mut all = Vec::new();
        for d in DomainKind::ALL {
            for h in d.heuristics() {
                if !all.contains(&h) {
                    all.push(h);
                }
            }
        }
        all
    }

    /// For messages: the names without a lookup after `+`, and a word on those with one: the whole list is
    /// longer than an error message should be (`--help` lists them all).
    pub fn names() -> String {
        let all = HeuristicKind::all();
        let plain: Vec<&str> = all
            .iter()
            .map(|h| h.name())
            .filter(|n| !n.contains('+'))
            .collect();
        let more = if plain.len() < all.len() {
            " (the pdb-* ones also with +reflect and the other lookups --help lists)"
        } else {
            ""
        };
        let templates: Vec<&str> = DomainKind::ALL
            .iter()
            .flat_map(|d| d.templates().iter().map(|(t, _)| *t))
            .collect();
        let plain = plain.into_iter().chain(templates).collect::<Vec<_>>();
        format!("{}{more}", plain.join(", "))
    }
}

/// The `--domain` help, from the registry.
pub fn domain_help() -> String {
    format!("Puzzle family: {}", DomainKind::names())
}

/// The `--size` help: what each family's size is.
pub fn size_help() -> String {
    let sizes: Vec<String> = DomainKind::ALL
        .iter()
        .map(|d| format!("{}: {}", d.name(), d.field_help().0))
        .collect();
    format!("Size: {}", sizes.join("; "))
}

/// The `--start` help: how each family writes a state.
pub fn start_help() -> String {
    let states: Vec<String> = DomainKind::ALL
        .iter()
        .map(|d| format!("{}: {}", d.name(), d.field_help().1))
        .collect();
    format!(
        "Start state, tokens separated by spaces. {}",
        states.join("; ")
    )
}

/// A short `--heuristic` help: `lead`, then each family's heuristics, the default first.
pub fn heuristic_help(lead: &str) -> String {
    let families: Vec<String> = DomainKind::ALL
        .iter()
        .map(|d| {
            let names: Vec<&str> = d
                .heuristics()
                .iter()
                .map(|h| h.name())
                .chain(d.templates().iter().map(|(t, _)| *t))
                .collect();
            format!("{}: {}", d.name(), names.join(", "))
        })
        .collect();
    format!(
        "{lead}. {}; any domain: max:H1:H2:... (the largest of its heuristics' estimates)",
        families.join("; ")
    )
}

/// The `--heuristic` help of `--help`: `lead`, then per family each heuristic and what it is.
pub fn heuristic_long_help(lead: &str) -> String {
    let mut text = lead.to_string();
    let width = DomainKind::ALL
        .iter()
        .flat_map(|d| d.heuristics_about())
        .map(|(h, _)| h.name().len())
        .max()
        .unwrap_or(0);
    for d in DomainKind::ALL {
        text.push_str(&format!("\n  {}:", d.name()));
        for (h, about) in d.heuristics_about() {
            text.push_str(&format!("\n    {:<width$}  {about}", h.name()));
        }
        for (template, about) in d.templates() {
            text.push_str(&format!("\n    {template:<width$}  {about}"));
        }
    }
    text.push_str(&format!(
        "\n  any domain:\n    {:<width$}  the largest estimate of two to {} of the domain's \
         heuristics, each updated as alone; of a database, its regular and +reflect lookups",
        "max:H1:H2:...",
        max::MAX_PARTS
    ));
    text
}

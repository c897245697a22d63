//! Every command-line flag, in one place (clap derive).

use crate::compare::RenderFormat;
use crate::domains;
use crate::domains::cost::CostModel;
use crate::domains::judge::Problem;
use crate::domains::ksolve::{Metric, PuzzleFile};
use crate::domains::{DomainKind, HeuristicKind};
use crate::plot::PlotSize;
use crate::results::record::RunLimits;
use crate::results::record::MAX_REPEAT;
use crate::runner::plan::{PlanOptions, TableOptions};
use crate::runner::select::SelectOptions;
use crate::search::{Factor, Pruning, SplitDepth, Step, AUTO_MIN_NODES, MAX_SPLIT_DEPTH};
use crate::util::text::shorten;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "idabench",
    version,
    about = "Batch benchmarking harness for IDA* on permutation puzzles",
    after_help = "Exit codes: 0 ok; 1 runtime error; 2 usage or input error; \
                  3 performance regression (compare, ab); 4 wrong or changed results; \
                  130 run or ab interrupted (Ctrl-C, SIGTERM, SIGHUP)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve every instance of the datasets under every variant, in parallel, and write reports.
    #[command(after_help = RUN_HELP)]
    Run(RunArgs),
    /// Solve one instance given on the command line and print its figures.
    #[command(after_help = SOLVE_HELP)]
    Solve(SolveArgs),
    /// Write a dataset: every state of a small board, random states, or random walks.
    #[command(after_help = GENERATE_HELP)]
    Generate(GenerateArgs),
    /// Compare two runs job by job: exact results, and CPU time with a confidence interval.
    #[command(after_help = COMPARE_HELP)]
    Compare(CompareArgs),
    /// Run every job with two builds, paired and interleaved in time, and compare them.
    #[command(after_help = AB_HELP)]
    Ab(AbArgs),
    /// Solve jobs named on stdin, one runs.csv row each on stdout: `ab`'s worker process.
    #[command(hide = true)]
    Worker(WorkerArgs),
    /// Draw SVG plots of a run's report: cactus plots, nodes per iteration and scatter plots.
    #[command(after_help = PLOT_HELP)]
    Plot(PlotArgs),
    /// Join the reports of a run's shards (`run --shard K/N`) into the run's report.
    #[command(after_help = MERGE_HELP)]
    Merge(MergeArgs),
    /// Join finished runs of the same datasets with different variants into one report.
    #[command(after_help = COMBINE_HELP)]
    Combine(CombineArgs),
    /// Write a Slurm job-array script: a run as N shards, one array task each, then their merge.
    #[command(
        after_help = SLURM_HELP,
        mut_arg("shard", |a| a.hide(true)),
        mut_arg("resume", |a| a.hide(true)),
        mut_arg("jobs", |a| a.help(
            "Worker threads of each array task and the CPUs it asks for (--cpus-per-task); required"
        )),
        mut_arg("name", |a| a.help(
            "The study's name: shard K's reports go to OUT/NAME-shard-K, their merge to OUT/NAME \
             (default: study-<UTC timestamp>)"
        ))
    )]
    Slurm(SlurmArgs),
    /// Build, list and check the pattern databases that the pdb-* heuristics read.
    #[command(subcommand)]
    Pdb(PdbCommand),
    /// Count the brute-force search tree of a sliding-tile board under a pruning, depth by depth,
    /// and its asymptotic branching factor.
    #[command(after_help = TREE_HELP)]
    Tree(TreeArgs),
}

const TREE_HELP: &str = "\
Without a heuristic, IDA* with bound d visits every path of at most d moves: the brute-force
tree. Its root is the start (the blank on --blank); the nodes at depth k are the paths of k moves
the pruning lets through. `none` tries every move, so paths walk back and forth; `reverse` never
undoes the previous move; `fsm` (fsmN: compared up to N moves) also refuses every path that ends
in a sequence of moves that an earlier sequence, in the search's move order (up, left, right,
down), replaces: one that reaches the same board from any board, such as the blank going three
moves round a 2x2 square one way instead of the other. What is left is what the search still has
to look at, and how much smaller it is at depth 50 is what the pruning buys.

The counts are exact (128 bits; a depth whose count would not fit is said, not printed, and so is
a tree that ends before --depth). They are not found by walking the tree: nodes whose blank is on
the same cell, with the pruning in the same state, have the same subtrees, so the command counts
those classes, one depth after another.

ratio is N(d) / N(d - 1). On these boards it alternates with the colour of the blank's cell (a
chessboard's colours: corners and edges have fewer moves than the middle), so the asymptotic
branching factor b is computed as Edelkamp & Korf do, b = sqrt(N(d + 2) / N(d)), iterated in
floating point until it changes by less than 1e-9 from one depth to the next. The search's tree
with bound d grows like b^d.

Examples:
  idabench tree --size 4x4 --pruning reverse --depth 30      the 15-puzzle: b = 2.1304
  idabench tree --size 5x5 --pruning fsm14 --depth 40 --format csv

Exit codes: 0 counted; 1 runtime error (an automaton too large for memory); 2 usage error (a bad
size, a blank off the board, a depth of 0 or over 10000, an unknown pruning).";

#[derive(Args, Debug)]
pub struct TreeArgs {
    /// The board, WIDTHxHEIGHT, each side 2 to 16 (at most 255 cells): 4x4 is the 15-puzzle.
    #[arg(long, value_name = "WxH")]
    pub size: String,
    /// The blank's cell at the root, counted row by row from 0 at the top left (default 0, the
    /// blank's cell in Korf's goal).
    #[arg(long, value_name = "CELL", default_value_t = 0)]
    pub blank: usize,
    /// none, reverse, fsm (the tiles' default depth, 14) or fsmN (N from 2 to 32). The automaton
    /// is read from the cache directory, or built and kept there.
    #[arg(long, value_name = "PRUNING")]
    pub pruning: String,
    /// The deepest depth counted (1 to 10000).
    #[arg(long, value_name = "N")]
    pub depth: u32,
    /// text: a table and the factor; csv: depth,nodes,ratio,branching_factor, the factor on
    /// every row.
    #[arg(long, value_enum, default_value_t = TreeFormat::Text)]
    pub format: TreeFormat,
    #[command(flatten)]
    pub dir: PdbDirArgs,
    /// No progress bar nor note while the automaton is built or read.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TreeFormat {
    Text,
    Csv,
}

/// The `pdb` subcommands.
#[derive(Subcommand, Debug)]
pub enum PdbCommand {
    /// Build (or check and keep) the databases of pattern-database heuristics.
    #[command(after_help = PDB_BUILD_HELP)]
    Build(PdbBuildArgs),
    /// List the databases in the cache directory, from their headers.
    List(PdbDirArgs),
    /// Read every database in the cache directory whole and check it against its header
    /// (exit 1 when one is damaged, 2 when the directory does not exist).
    Verify(PdbDirArgs),
    /// Print the cache directory.
    Path(PdbDirArgs),
}

const PDB_BUILD_HELP: &str = "\
Each heuristic's databases are built for the goal with the blank first (0 1 2 ... 15) and/or
last (1 2 ... 15 0); a goal that only relabels the tiles of one of these uses the same files.
`+reflect` names the same databases as the heuristic without it. A database already in the
cache is read and checked, not rebuilt (unless --force).

Sizes (entries, one byte each): pdb-555 3 x 524,160; pdb-663 2 x 5,765,760 + 3,360;
pdb-78 518,918,400 + 57,657,600 (1.04 GB of memory while building, about 30 s on two cores);
pdb-6666 4 x 127,512,000 (0.26 GB while building, about 20 s). A build holds about two bytes
per entry of the table being built.

Zero-aware databases (a `z` after the partition: pdb-555z, pdb-663z, pdb-78z, pdb-6666z) keep
two costs per placement (the blank in the open region, or walled off), 4 bits each, in the
sizes above. A build holds about two bytes per entry too (pdb-6666z 0.28 GB, about 20 s;
pdb-78z 1.03 GB, about 40 s).

Under --cost heavy or inverse-heavy an entry is the least cost of the pattern's tiles' moves,
two bytes each, in a file of its own whose name ends in the tiles' costs (-w...): as many
entries as above, twice the bytes, each built in 1.4 to 2.2 times the time of its unit table
(docs/pattern-databases.md); a 6-tile table of pdb-663 takes 127 MB while it is built.

Examples:
  idabench pdb build pdb-663 pdb-78 --goal both
  idabench pdb build pdb-555,pdb-663 --cost heavy,inverse-heavy

Exit codes: 0 built or found sound; 1 runtime error (no room, a write that fails); 2 usage error.";

#[derive(Args, Debug, Clone)]
pub struct PdbDirArgs {
    /// Where pattern databases and duplicate-pruning automata are kept (default:
    /// $XDG_CACHE_HOME/idabench, else ~/.cache/idabench).
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct PdbBuildArgs {
    /// Pattern-database heuristics, e.g. pdb-663 pdb-78 pdb-6666.
    #[arg(required = true, value_name = "HEURISTIC", value_delimiter = ',')]
    pub heuristics: Vec<String>,
    /// Which goal: first (blank on the first cell), last, or both.
    #[arg(long, value_enum, default_value = "first")]
    pub goal: BlankGoal,
    /// Move costs the databases are for, comma separated: unit; heavy or inverse-heavy (pdb-555
    /// and pdb-663 only), as `run --cost` weighs them.
    #[arg(long, value_name = "C,...", value_delimiter = ',', default_value = "unit", value_parser = parse_cost)]
    pub cost: Vec<CostModel>,
    /// Build even when a good file exists.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub dir: PdbDirArgs,
    /// No progress output.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BlankGoal {
    First,
    Last,
    Both,
}

/// Where pattern databases come from, for `run` and `solve`.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    #[command(flatten)]
    pub dir: PdbDirArgs,
    /// Refuse to build a missing or damaged pattern database (an error instead).
    #[arg(long)]
    pub no_build: bool,
    /// Refuse to start (exit 2) when the pattern databases and duplicate-pruning automata would
    /// not fit in SIZE bytes of memory, counting the peak of building those not in the cache
    /// (3.4 GiB for pdb-78's largest); K, M, G, T are powers of 1024 (4G), a plain number is
    /// bytes (where Slurm's --mem reads megabytes). The rest of the process is not counted: small
    /// beside the tables.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,
}

impl TableArgs {
    /// Where the runner finds its tables.
    pub fn options(&self) -> TableOptions {
        TableOptions {
            pdb_dir: self.dir.pdb_dir.clone(),
            no_build: self.no_build,
            stop: None,
            memory_limit: self.memory_limit,
        }
    }
}

const COMPARE_HELP: &str = "\
Jobs are joined on (dataset, instance, variant), a job run several times (run --repeat) first
reduced to one: the median of its CPU times, `wrong` when its repetitions' node counts differ,
`unstable` when a time limit stopped some of them. Status, length and node counts must be equal:
node counts are deterministic, so any difference is a real change in the search (but those of a
job stopped by a time limit, CPU or wall, in either run, which depend on the machine's speed, are
not compared; its status is). Runs whose limits differ, in seconds or in clock, are warned of. CPU times are
compared as ratios current/baseline, only for jobs with at least 1 ms in both runs: per variant
over its jobs, overall over instances (each instance's geometric mean across variants). Their
geometric mean and a bootstrap 95% interval give a verdict: improved, unchanged, regressed (the
whole interval above the threshold) or inconclusive (the interval straddles it).
The two runs are unpaired: a drift of the machine's speed between them moves every job alike and
is not in the interval (every verdict says so: `(unpaired)`; the CSV's `pairing` column too).
To judge a build's speed, `idabench ab` runs
both builds paired and interleaved in time.

Exit codes: 0 nothing wrong; 2 usage or input error (missing files, unreadable CSV, different
datasets, no job in common, a --pair naming a variant its run lacks); 3 time regression (the
overall verdict is regressed; per-variant verdicts are reported, not gated on); 4 changed results
(status, length or node counts) unless --allow-node-changes. 4 wins over 3. Jobs missing from
CURRENT are listed but do not fail.

With --out DIR, also writes into DIR: compare-time.svg (each timed job's CPU-time ratio against
its baseline time, with the overall ratio and its bootstrap interval), compare-nodes.svg (each
job's ratio of nodes, current / baseline, changed jobs marked, wrong or failed ones apart) and
report.html (a red line first when either run has a wrong or error job, the tables, each run's
statuses by name, and the pictures in one file); --no-plots draws no pictures. The report on stdout and the exit code do not depend on
--out.

--format csv is one table: a row per variant and an `overall` row (kind `variant` or `overall`:
variant up to verdict), then a row per changed field (kind `changed`: variant, dataset, instance,
field, baseline, current) and per job in one run only (kind `missing_in_current` or
`missing_in_baseline`). Cells a kind does not use are empty. The last two columns,
baseline_cpu_spread and current_cpu_spread, are of runs made with --repeat: the median over the
variant's jobs of (max - min) / median of a job's CPU times over its repetitions (jobs of at
least 1 ms).
--format csv-long is tidy: columns scope, dataset, instance, variant, measure, side, value, one
row per value and no empty cell. Scope `variant` and `overall` (dataset, instance and, overall,
variant are `*`): the comparison's figures (side `comparison`: jobs_compared, changed, ...,
time_ratio_geomean, ci_low, ci_high, verdict, pairing) and each run's status counts (side
`baseline` or `current`: jobs, solved, suboptimal, wrong, error, limited, unstable, unsolvable,
over_cap). Scope `job`: each run's status, length (when it found a path), nodes_generated,
nodes_expanded and time_cpu_s, and for a job of both runs `changed` (true or false) and, when timed, `time_ratio`
(side `comparison`).

--pair A=B compares variant A of BASELINE with variant B of CURRENT as one variant, named A=B:
runs of the same datasets under other variants (a heuristic against another, or one renamed).
When the runs share instances but no variant, compare says so and suggests --pair, or `idabench
combine` to join them into one report.

Example:
  idabench compare reports/baseline reports/smoke --format markdown >> \"$GITHUB_STEP_SUMMARY\"";

const GENERATE_HELP: &str = "\
Examples:
  idabench generate --domain tiles --size 3x3 --all --out eight.csv     every solvable state, optimal from BFS
  idabench generate --domain tiles --size 4x4 --count 100 --seed 7      uniform random solvable states
  idabench generate --domain tiles --size 4x4 --count 100 --seed 7 --walk 40   random walks from the goal
  idabench generate --domain booksort --size 10 --count 50 --seed 1             random shelves
  idabench generate --domain knights --count 50 --seed 1 --walk 12              walks from the target
  idabench generate --domain pancake --size 40 --count 100 --seed 40            random stacks
  idabench generate --domain burnt-pancake --size 20 --count 10 --seed 20       random burnt stacks
  idabench generate --puzzle puzzles/2x2x2.tws --count 20 --walk 8 --out cube.csv   walks of a defined puzzle

The same arguments always give the same file.

Exit codes: 0 written; 1 the file cannot be written (nothing is left behind); 2 usage error.";

/// The puzzle family, or a puzzle read from a definition file.
#[derive(Args, Debug)]
pub struct DefinedArgs {
    /// Puzzle family (default: tiles, or ksolve with --puzzle).
    #[arg(long, help = domains::domain_help())]
    pub domain: Option<String>,
    /// A puzzle definition file in the KSolve/twsearch format (domain ksolve; see
    /// docs/ksolve.md): solve's --start is then a move sequence from its solved position (R U2
    /// F') or a position; generate writes positions drawn uniformly from those its moves reach
    /// (--count N), scrambles (--walk K: move sequences, no two moves in a row powers of one
    /// defined move) or every position with its distance (--all, up to 5 million), naming the
    /// file relative to --out's directory (to the current one without --out: write with --out
    /// where the dataset will be).
    #[arg(long, value_name = "FILE")]
    pub puzzle: Option<PathBuf>,
    /// The metric of a --puzzle: half (every power of a defined move is one move, twsearch's
    /// default) or quarter (the defined moves and their inverses only).
    #[arg(long, value_name = "METRIC", value_parser = ["half", "quarter"], requires = "puzzle")]
    pub metric: Option<String>,
}

impl DefinedArgs {
    /// The family's name: as given, else ksolve with --puzzle, else tiles.
    pub fn domain(&self) -> &str {
        match (&self.domain, &self.puzzle) {
            (Some(d), _) => d,
            (None, Some(_)) => "ksolve",
            (None, None) => "tiles",
        }
    }

    /// The --puzzle file read under --metric, if one is given; an error names the file (and its
    /// line).
    pub fn read(&self) -> Result<Option<PuzzleFile>, String> {
        let Some(path) = &self.puzzle else {
            return Ok(None);
        };
        let metric = self.metric.as_deref().map_or(Metric::Half, |m| {
            Metric::parse(m).expect("clap checked the metric")
        });
        PuzzleFile::read(path, &path.display().to_string(), metric).map(Some)
    }
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub defined: DefinedArgs,
    #[arg(long, help = domains::size_help())]
    pub size: Option<String>,
    /// Goal state, tiles only (default: 1 2 ... n-1 then the blank); the other families have a
    /// fixed goal.
    #[arg(long)]
    pub goal: Option<String>,
    /// Every solvable state, with `optimal` from a BFS (tiles, boards of at most 10 cells; a
    /// --puzzle of at most 5 million positions).
    #[arg(long, conflicts_with_all = ["count", "walk"])]
    pub all: bool,
    /// How many instances to draw (1 or more).
    #[arg(long, value_name = "N", required_unless_present = "all", value_parser = parse_count)]
    pub count: Option<u64>,
    /// Seed of the random generator.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Random walks of K moves from the goal (no move undoes the one before; of a --puzzle, no
    /// move follows a power of itself) instead of uniform random states.
    #[arg(long, value_name = "K")]
    pub walk: Option<u32>,
    /// Write to FILE instead of stdout (whole or not at all).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The reference run: a report directory or its runs.csv.
    pub baseline: PathBuf,
    /// The run to judge: a report directory or its runs.csv.
    pub current: PathBuf,
    /// A time ratio beyond this (or below its inverse) counts as a change.
    #[arg(long, default_value_t = 1.10, value_name = "RATIO")]
    pub time_threshold: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
    /// Report changed results without failing on them: exit 4 becomes 0, or 3 if the overall
    /// time regressed.
    #[arg(long)]
    pub allow_node_changes: bool,
    /// Also write the comparison's pictures (compare-time.svg, compare-nodes.svg) and
    /// report.html into DIR (created if missing); the report on stdout and the exit code are the
    /// same.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// With --out: draw no pictures (report.html is still written).
    #[arg(long)]
    pub no_plots: bool,
    /// Compare variant A of BASELINE with variant B of CURRENT as one variant, named A=B (the
    /// runs' other variants are joined as before); may be given more than once.
    #[arg(long, value_name = "A=B")]
    pub pair: Vec<String>,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

/// How the pictures are drawn: `plot`, `run`, `merge`, `compare`, `combine` and `ab` take it.
#[derive(Args, Debug)]
pub struct PictureArgs {
    /// Each picture's size in pixels, the whole SVG (default: 800 wide, its chart 540 high and
    /// the legend below); e.g. 1200x800, or 600x450 for a column of a paper. A legend that
    /// leaves the chart too little room is refused (the picture is skipped, with a note).
    #[arg(long, value_name = "WxH", value_parser = PlotSize::parse)]
    pub plot_size: Option<PlotSize>,
}

const AB_HELP: &str = "\
Both builds run every job (instance x variant) of the datasets, in --rounds rounds. Each job is
run by one build and at once by the other (A then B for a job, B then A for the next, and each
job's order alternates from round to round), by worker processes (a hidden `idabench worker`
mode) that each solve a whole round's jobs, one at a time per lane (--jobs lanes, each with its
own two workers, fresh for each round). A drift of the machine's speed then hits both
measurements of a pair alike and cancels in their ratio.

With --domain, --size, --instances or --instances-file, only the selected jobs are sent to the
workers, which are given the whole plan (so that a baseline built before those flags is still
compared).

Verdicts, exit codes and formats are compare's: status, length and node counts must be equal in
every round (exit 4; node counts not for a job stopped by a time limit); CPU time ratios current/baseline of every pair timed (at least 1 ms in
both), their geometric mean and a 95% bootstrap interval that resamples rounds and jobs
(crossed) give improved, unchanged, regressed (exit 3: the whole interval above --threshold) or
inconclusive. A baseline built before the worker mode existed is run with the current build in
alternating `idabench run` invocations over groups of instances instead (ab says so).
--time-limit limits CPU time, --wall-limit wall time. A build from before CPU limits (its
worker's handshake does not offer them) limits wall time with its --time-limit: ab refuses
--time-limit with it (exit 2) and gives it --wall-limit S as its own --time-limit S.

The report goes to OUT/NAME/ (default reports/ab-<UTC timestamp>): runs-baseline.csv and
runs-current.csv (runs.csv's columns after a `round` column; a round is a repetition of the
jobs, and its number the rows' `repetition`), pairs.csv (round, order, dataset,
instance, variant, first, baseline_cpu_s, current_cpu_s, ratio), comparison.md, manifest.json
(both builds: path, version, commit, build profile, how they were run), and the pages `compare
--out` writes: report.html, compare-time.svg and compare-nodes.svg. There, and in --format
csv-long, a job's CPU time is its median over the rounds, and its row the first round's (or the
first in which it was wrong or ended in error).

Ctrl-C, SIGTERM and SIGHUP stop the workers; the pairs measured are reported (the comparison
says `INTERRUPTED: N of M pairs measured`) and ab exits 130; a second signal, half a second or
more after the first, leaves at once. A worker that dies mid-run is reported the same way, then
ab exits 1. So is a worker that stops answering, which is killed and its job recorded as `error`:
with --wall-limit S, no answer S + 10 s after the job was sent; without, no CPU time used by
the worker's processes for 60 s.

Exit codes: 0 nothing wrong; 1 runtime error (a worker that died or stopped answering); 2 usage
or input error (a missing binary, one that is not idabench or gives no handshake within 10 s, a
worker protocol this build does not speak, a worker's row of another job or with a time that is
not a finite number, bad datasets); 3 time regression; 4 changed results unless
--allow-node-changes; 130 interrupted.

Example:
  idabench ab --baseline ../base/target/release/idabench datasets/korf13.csv \\
      --heuristic manhattan,linear-conflict --rounds 20 --threshold 1.05 --format markdown";

#[derive(Args, Debug)]
pub struct AbArgs {
    /// The baseline build: an idabench binary.
    #[arg(long, value_name = "BIN")]
    pub baseline: PathBuf,
    /// The build to judge (default: this binary).
    #[arg(long, value_name = "BIN")]
    pub current: Option<PathBuf>,
    #[command(flatten)]
    pub plan: PlanArgs,
    /// How many times every job is run by each build (each round is a repetition: `run`'s
    /// --repeat is not taken).
    #[arg(long, value_name = "N", default_value_t = 10,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_REPEAT)))]
    pub rounds: u32,
    /// A time ratio beyond this (or below its inverse) counts as a change. `--time-threshold`,
    /// compare's name for it, is taken too.
    #[arg(
        long,
        visible_alias = "time-threshold",
        default_value_t = 1.05,
        value_name = "RATIO"
    )]
    pub threshold: f64,
    /// Lanes: pairs measured at once, each lane with its own two workers.
    #[arg(long, value_name = "N", default_value_t = 1,
        value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
    /// Report changed results without failing on them.
    #[arg(long)]
    pub allow_node_changes: bool,
    /// Directory that holds reports.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// This comparison's name: its report goes to OUT/NAME (default: ab-<UTC timestamp>).
    #[arg(long)]
    pub name: Option<String>,
    /// No progress output.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

#[derive(Args, Debug)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub plan: PlanArgs,
}

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// The run: a report directory or its runs.csv.
    pub report: PathBuf,
    /// Where to write the SVG files (created if missing); default: beside runs.csv.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Draw the scatter plot of variant A (x) against B (y) instead of the first variant against
    /// each other one; may be given more than once.
    #[arg(long, value_name = "A,B", value_parser = parse_pair)]
    pub pair: Vec<(String, String)>,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

/// `A,B`: two variant names.
pub fn parse_pair(s: &str) -> Result<(String, String), String> {
    match s.split_once(',') {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() && !b.contains(',') => {
            Ok((a.trim().to_owned(), b.trim().to_owned()))
        }
        _ => Err("expected two variant names separated by a comma, e.g. \
                  manhattan/step2/prune,linear-conflict/step2/prune"
            .into()),
    }
}

const PLOT_HELP: &str = "\
Writes, beside runs.csv (or into --out):
  cactus.svg          instances solved (y) within a CPU time (x, log scale), a line per variant;
                      a panel per domain and size when the run has several
  cactus-nodes.svg    the same by nodes generated
  iterations.svg      nodes generated per iteration (y, log scale) against its cost bound (x)
                      for each variant's hardest solved instances (most nodes; at most 12 lines)
  scatter-A-vs-B.svg  nodes generated per instance, A (x) against B (y), log-log, with the
                      diagonal; instances a variant did not solve sit at a border labelled
                      unsolved.
                      By default the first variant against each other one (see --pair).
  report.html         the run's summary and setting, these pictures inline, links to its files,
                      and a table of its jobs to sort and filter (report.html#sort=-nodes)
In file names every character of a variant name other than a letter, digit, '.', '-' or '_'
becomes '_': manhattan/step2/prune gives scatter-manhattan_step2_prune-vs-....svg.
\"Solved\" is status solved, as in summary.csv: a suboptimal answer is not. Each picture is 800
pixels wide, or --plot-size WxH for the whole SVG; long variant names are wrapped, never cut. A
plot that cannot be drawn (nothing solved, no iterations.csv, a single variant, a --plot-size too
small for its legend) is skipped with a note on stderr.
Each written file is named on stdout. Exit codes: 0 ok; 1 a file cannot be written;
2 bad input (no runs.csv, a file that is not one, an unknown variant in --pair, an --out that
names a file).";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    Text,
    Markdown,
    Csv,
    /// Tidy CSV: one row per (variant or job, measure, side), no empty cell.
    CsvLong,
}

const RUN_HELP: &str = "\
Each comma list multiplies: --heuristic manhattan,misplaced --step 1,2 --reverse-pruning on,off
is 8 variants, each named like manhattan/step2/prune. One job = one instance x one variant.
--domain, --size and --instances (or --instances-file) run a subset of the instances: the
entries of one flag are alternatives, and every flag given applies; manifest.json records the
selection.

Reports go to OUT/NAME/: runs.csv (one row per job, appended as jobs finish; with its effective
branching factor b*, branching_factor), iterations.csv (one row per iteration of each job:
dataset, instance, variant, iteration, bound, nodes_generated, nodes_expanded, repetition,
growth over the previous iteration, children_per_expansion), summary.csv (one row per variant), summary-groups.csv (one per
dataset, domain, size and variant) and summary.md (both),
manifest.json (versions, machine, command, dataset SHA-256, whether the run is complete and how
many jobs are missing); then, unless --no-plots, the plots of `idabench plot` (cactus.svg,
cactus-nodes.svg, iterations.svg, scatter-*.svg; --plot-size WxH), and report.html (the summary,
the plots inline, a table of the jobs, the manifest, links to the files; one file, nothing
fetched); their failure only warns. PAR-2 is given only for the limit the run had (time: par2_s;
nodes: par2_nodes); a speed-up is over the instances both variants solved in 1 ms of CPU or more.
Ctrl-C, SIGTERM (what `timeout` and CI send) and SIGHUP stop cleanly: running jobs stop, finished
rows stay in runs.csv, every report is written and says the run is incomplete, exit 130; a second
signal, half a second or more after the first, leaves at once (`timeout` delivers its one SIGTERM
twice, within microseconds). --resume with the same --out and --name (without --name: the newest
unfinished run in OUT) runs only the missing jobs, after checking the run's manifest: same
datasets, selection, variants, limits and --repeat. One process at a time writes a run directory:
a second run or --resume on it is refused while the first is going.
--shard K/N runs the K-th of N fixed shares of the jobs (a stable hash of dataset, instance and
variant, dealt round-robin: shard sizes differ by at most one); `idabench merge` joins the shards'
reports into this run's report, and `idabench slurm` writes a Slurm job array for them.
--repeat N runs every job N times, round after round (a shard holds every repetition of its
jobs); rows are keyed by (dataset, instance, variant, repetition). Summaries, plots and
`compare` count a job once: the median of its CPU (and wall) times, its node counts, which must
agree across repetitions (a difference is `wrong`: the repetition that finished later is marked
so, exit 4), but for repetitions stopped by --time-limit; repetitions that end in different
statuses because of the time limit make the job `unstable` (its own column), their rows keep
their own statuses.

Exit codes: 0 ok; 1 runtime error (including a full or closed stdout) or a job that ended in
`error`; 2 usage or input error (the message names file, line, column), a selection entry that
matches no instance, a variant left with no job, a run directory in use or a resume that does not
match; 4 a job is wrong (shorter than the dataset's optimal; longer
from a variant that guarantees a shortest path; unsolvable, or over the cap where the dataset
has a length within it; a path that does not replay); 130 interrupted (jobs are missing: finish
with --resume).

Example:
  idabench run datasets/smoke.csv --heuristic manhattan,linear-conflict --step 2,next --name smoke";

/// What a run's jobs are: the datasets, the variants and the per-job limits. `run`, `ab` and
/// `worker` plan the same jobs from them.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Dataset CSV files (columns id, domain, size, start, goal, optimal).
    #[arg(required = true, value_name = "DATASET")]
    pub datasets: Vec<PathBuf>,
    #[arg(
        long,
        value_delimiter = ',',
        value_parser = parse_heuristic,
        help = domains::heuristic_help("Heuristics, comma separated (default: each domain's first; \
            a heuristic runs on the instances of the domains that have it, and is skipped with a \
            note on boards and goals it does not fit)"),
        long_help = domains::heuristic_long_help("Heuristics, comma separated (default: each \
            domain's first). A heuristic runs on the instances of the domains that have it, and is \
            skipped on boards and goals it does not fit (pdb-663 on a 3x3), with one note per \
            dataset saying on how many instances; a variant left with no job is an error (exit 2).")
    )]
    pub heuristic: Vec<HeuristicKind>,
    /// Threshold steps, comma separated: 1, 2, next, cr, eda, bts; cr and eda grow by a factor
    /// of 2, crF and edaF by F, from 1.1 to 10 in tenths (cr4, eda1.5); see docs/thresholds.md.
    #[arg(long, value_delimiter = ',', default_value = "next", value_parser = parse_step)]
    pub step: Vec<Step>,
    /// Move costs, comma separated: unit; for tiles heavy (moving tile t costs t) and
    /// inverse-heavy (1/t). Variants under weighted moves end in the model's name
    /// (manhattan/stepnext/prune/heavy); other domains run under unit only.
    #[arg(long, value_name = "C,...", value_delimiter = ',', default_value = "unit", value_parser = parse_cost)]
    pub cost: Vec<CostModel>,
    /// Reverse-move pruning, comma separated: on, off (the same as --pruning reverse,none).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "on")]
    pub reverse_pruning: Vec<OnOff>,
    #[arg(
        long,
        value_name = "P,...",
        value_delimiter = ',',
        value_parser = parse_pruning,
        conflicts_with = "reverse_pruning",
        help = "Prunings, comma separated: none, reverse, fsm, fsmN (default: reverse; see --help)",
        long_help = PRUNING_LIST_HELP
    )]
    pub pruning: Vec<Pruning>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// Which instances of the datasets run: the entries of one flag are alternatives, and every
/// flag given applies.
#[derive(Args, Debug)]
pub struct SelectArgs {
    /// Only instances of these domains, comma separated (tiles, rotation, booksort, knights, pancake, burnt-pancake, ksolve).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',', value_parser = parse_domain)]
    pub domain: Vec<DomainKind>,
    /// Only instances of these sizes, comma separated, spelled as the datasets' `size` column
    /// and runs.csv spell them: e.g. 4x4 (booksort: the number of books).
    #[arg(long, value_name = "SIZE,...", value_delimiter = ',', value_parser = parse_entry)]
    pub size: Vec<String>,
    #[arg(
        long,
        value_name = "ID,...",
        value_delimiter = ',',
        value_parser = parse_entry,
        help = "Only these instances, comma separated: ids, DATASET:ID (DATASET: the file's \
            name without .csv), * and ? as wildcards (\\* is a star); see --help",
        long_help = INSTANCES_HELP
    )]
    pub instances: Vec<String>,
    /// Only the instances listed in FILE, one entry a line, as --instances reads them (for ids
    /// that hold commas, and long lists). Each line is trimmed of spaces at its ends (as
    /// datasets' ids are), blank lines are skipped, lines end with LF or CRLF, the last one
    /// with or without. With --instances, an instance listed in either runs.
    #[arg(long, value_name = "FILE")]
    pub instances_file: Option<PathBuf>,
    /// Refuse to run unless --instances-file's SHA-256 is HEX (64 hex digits): the Slurm
    /// script pins the file it was written from, so that no shard reads a changed one.
    #[arg(long, value_name = "HEX", requires = "instances_file", value_parser = parse_sha256)]
    pub instances_sha256: Option<String>,
}

const INSTANCES_HELP: &str = "\
Only these instances, comma separated (with --instances-file, an instance listed in either
runs). Each entry is an instance id, matched whole; `*` matches any run of characters (none
included) and `?` any one character, and `\\*`, `\\?` and `\\\\` stand for the character itself. An
entry whose part before its first `:` matches the name of one of the run's datasets (the file's
name without its folder and .csv, as runs.csv's `dataset` column), wildcards included, is
DATASET:ID and picks ids of those datasets only, e.g. smoke:8p-d2? or korf*:1; any other entry
is an id as a whole, colons included. An id that itself starts with a dataset's name and a colon
is given with its dataset: smoke:smoke:7, or *:smoke:7. An entry that matches no instance of the
datasets is an error (exit 2), as is a selection that leaves no instance.";

impl PlanArgs {
    /// The plan's options as the runner takes them.
    pub fn options(&self) -> PlanOptions {
        PlanOptions {
            datasets: self.datasets.clone(),
            heuristics: self.heuristic.clone(),
            steps: self.step.clone(),
            costs: self.cost.clone(),
            pruning: if self.pruning.is_empty() {
                self.reverse_pruning
                    .iter()
                    .map(|&p| Pruning::reverse(p == OnOff::On))
                    .collect()
            } else {
                self.pruning.clone()
            },
            max_nodes: self.limits.max_nodes,
            time_limit: self.limits.time_limit,
            wall_limit: self.limits.wall_limit,
            tables: self.tables.options(),
            select: SelectOptions {
                domains: self.select.domain.clone(),
                sizes: self.select.size.clone(),
                instances: self.select.instances.clone(),
                instances_file: self.select.instances_file.clone(),
                instances_sha256: self.select.instances_sha256.clone(),
            },
            repeat: 1,
        }
    }
}

impl CompareFormat {
    /// The report format `compare` and `ab` render.
    pub fn render(self) -> RenderFormat {
        match self {
            CompareFormat::Text => RenderFormat::Text,
            CompareFormat::Markdown => RenderFormat::Markdown,
            CompareFormat::Csv => RenderFormat::Csv,
            CompareFormat::CsvLong => RenderFormat::CsvLong,
        }
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub plan: PlanArgs,
    /// Worker threads (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    #[command(flatten)]
    pub split: SplitArgs,
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
    /// Directory that holds run reports.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// This run's name: its reports go to OUT/NAME (default: a UTC timestamp).
    #[arg(long)]
    pub name: Option<String>,
    /// Finish an interrupted run: only the jobs missing from its runs.csv are solved (default
    /// NAME: the newest unfinished run in OUT; a finished run is resumed only by name).
    #[arg(long)]
    pub resume: bool,
    /// No progress output.
    #[arg(long, short)]
    pub quiet: bool,
    /// Run only shard K of N: a fixed 1/N share of the jobs (see `merge`).
    #[arg(long, value_name = "K/N", value_parser = crate::results::shard::parse_spec)]
    pub shard: Option<(u32, u32)>,
    /// Draw no plots at the end (cactus.svg, cactus-nodes.svg, iterations.svg, scatter-*.svg
    /// beside the reports; report.html is still written).
    #[arg(long)]
    pub no_plots: bool,
    #[command(flatten)]
    pub pictures: PictureArgs,
    /// Run every job N times, in rounds (every job once, then every job again, ...): a runs.csv
    /// row and iterations.csv rows per repetition (column `repetition`), and reports that count
    /// a job once, with the median of its CPU times and their spread (at most 100000).
    #[arg(long, value_name = "N", default_value_t = 1,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_REPEAT)))]
    pub repeat: u32,
}

impl RunArgs {
    /// The plan's options as the runner takes them, with the repetitions.
    pub fn options(&self) -> PlanOptions {
        PlanOptions {
            repeat: self.repeat,
            ..self.plan.options()
        }
    }
}

const MERGE_HELP: &str = "\
The shards must be of one run: the same idabench version and commit, datasets (SHA-256),
selection, variants, limits, --repeat and shard count, each shard once, every shard finished. The
merged runs.csv holds the rows of the unsharded run, in its order; summary.csv and summary.md are
computed from them as `run` computes them; manifest.json lists every shard (directory, K/N, host,
CPU, times).

With --allow-missing, unfinished or absent shards, or shards without iterations.csv, do not stop
the merge: the report is written from the rows there are, its summary.md and manifest.json
(complete false, jobs_missing) say that jobs are missing, missing.csv lists the unfinished
shards' jobs without a row, and iterations.csv holds the iterations of the shards that have them
(a note names the others).
Merging again into the same --out replaces an earlier merge (never another run).

Exit codes: 0 ok; 1 runtime error, or a job that ended in `error`; 2 usage or input error:
shards that disagree (both directories and the difference are named), a job missing or held by
two shards (the first jobs are listed), an unfinished shard or one without iterations.csv,
without --allow-missing; 4 a job is wrong.

Example:
  idabench merge reports/study-shard-1 reports/study-shard-2 reports/study-shard-3 --out reports/study";

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' report directories: OUT/NAME of each `run --shard K/N`.
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<PathBuf>,
    /// The merged report's directory (created if need be).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Write the report even when shards are unfinished, absent or without iterations.csv; it
    /// says what is missing.
    #[arg(long)]
    pub allow_missing: bool,
    /// Draw no plots at the end (cactus.svg, cactus-nodes.svg, iterations.svg, scatter-*.svg
    /// beside the reports; report.html is still written).
    #[arg(long)]
    pub no_plots: bool,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

const COMBINE_HELP: &str = "\
Runs of the same datasets and limits made apart (algorithm A today, B tomorrow) become one report
folder, OUT/NAME, with every report and picture a run leaves: runs.csv and iterations.csv (every
job of every run, ordered by instance then variant), summary.csv, summary.md, manifest.json
(which lists the runs it was combined from, each with its own manifest), report.html and the
plots. Machines, commits and builds may differ: the report says which.

--rename OLD=NEW gives a run's variant a new name in the combined report: the everyday case is
one variant run by yesterday's build and today's. When several runs have a variant OLD, say
which with --rename RUN:OLD=NEW, RUN one of the RUN arguments exactly as given. The same job
(dataset, instance, variant) in two runs is refused: rename one of them.

Runs made with --repeat keep every repetition's row; the summaries, report.html and the plots
reduce each job to its median CPU time, as `run` does. The manifest gives the largest peak
resident size of the runs, the most workers any of them had, and the limits they share.

Refused (exit 2), naming the runs and what differs: runs whose datasets (by SHA-256), limits or
--repeat counts differ, unless --allow-mixed, which combines them and says so at the top of summary.md and
report.html; a shard (merge the shards first) or an unfinished run; an OUT/NAME that holds a run
other than an earlier combination (which is replaced) or is one of the runs; a link, FIFO or
device in any of these folders.

Exit codes: 0 ok; 1 runtime error, or a job that ended in `error`; 2 usage or input error;
4 a job is wrong.

Example:
  idabench combine reports/monday reports/tuesday --name week \\
      --rename reports/monday:manhattan/stepnext/prune=manhattan@monday";

#[derive(Args, Debug)]
pub struct CombineArgs {
    /// The runs' report directories.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<PathBuf>,
    /// Directory that holds reports.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// The combined report's name: it goes to OUT/NAME (default: combined-<UTC timestamp>).
    #[arg(long)]
    pub name: Option<String>,
    /// Name a run's variant OLD as NEW in the combined report; RUN (one of the RUN arguments as
    /// given) says whose when several runs have OLD. May be given more than once.
    #[arg(long, value_name = "[RUN:]OLD=NEW")]
    pub rename: Vec<String>,
    /// Combine runs whose datasets, limits or --repeat counts differ, and say so at the top of
    /// the report.
    #[arg(long)]
    pub allow_mixed: bool,
    /// Draw no plots (report.html is still written).
    #[arg(long)]
    pub no_plots: bool,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

const SLURM_HELP: &str = "\
Besides --shards, --partition, --time, --account, --qos, --sbatch-arg and --script, the options
are `run`'s (--jobs required): each array task K runs `idabench run` with them and --shard K/N
--name NAME-shard-K (resuming when its directory holds a runs.csv), on --jobs CPUs
(--cpus-per-task). --memory-limit SIZE also becomes each task's #SBATCH --mem, written with its
unit (a plain number there would be megabytes): Slurm stops a task that goes past it, and the
task's `run` refuses to start when its pattern databases and automata would not fit in it
(checked here first: a limit the whole run's tables would not fit, or an automaton too deep to
build, is refused before a script is written). A job that waits for the whole array (afterany) merges the shards into
OUT/NAME with `idabench merge`, which refuses unfinished shards. Paths are as given, relative to
the directory where this command runs (the script changes to it); the binary is this one (or
$IDABENCH).

The datasets are read and the variants planned as `run` will: what `run` would refuse (a missing
dataset, a selection that matches nothing, a heuristic that fits no board of it) is refused here
with run's message (exit 2), and no script is written. The datasets go to each task after `--`,
so a path may start with '-'. The selection goes to each task as given; an --instances-file with
the SHA-256 it has now (--instances-sha256), so that a task started after the file changed stops
(exit 2) instead of running other jobs.

Use: `bash SCRIPT` submits the array and the merge; `sbatch --array=K SCRIPT` reruns shard K;
`bash SCRIPT shard K` and `bash SCRIPT merge` run a part on the machine at hand.
Clusters cap the array size (Slurm's MaxArraySize, 1001 by default: at most 1000 shards).

Example:
  idabench slurm datasets/korf100.csv --heuristic manhattan,linear-conflict --jobs 8 \\
      --name korf --shards 10 --partition short --time 02:00:00 --script korf.sbatch
  bash korf.sbatch";

#[derive(Args, Debug)]
pub struct SlurmArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// How many shards, one array task each.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub shards: u32,
    /// The Slurm partition (#SBATCH --partition).
    #[arg(long, value_name = "P")]
    pub partition: Option<String>,
    /// Each task's time limit (#SBATCH --time); a shard stopped by it resumes when resubmitted.
    #[arg(long, value_name = "HH:MM:SS")]
    pub time: Option<String>,
    /// The account the tasks are charged to (#SBATCH --account).
    #[arg(long, value_name = "ACCOUNT")]
    pub account: Option<String>,
    /// The tasks' quality of service (#SBATCH --qos).
    #[arg(long, value_name = "QOS")]
    pub qos: Option<String>,
    /// One more #SBATCH line, ARG as given (e.g. --sbatch-arg=--mail-type=END); may be given
    /// more than once. An ARG holding a line break or another control character is refused.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub sbatch_arg: Vec<String>,
    /// Write the script to FILE (executable) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
}

const SOLVE_HELP: &str = "\
Output (text): one `key: value` line each for status, length, cost, cost_model, path,
nodes_generated, nodes_expanded, iterations, final_bound, time_s, optimal_guaranteed. The path
is the blank's motion as letters U D L R on the tiles, the size of each flip on pancakes, the
moves' names on defined puzzles (docs/variants.md says each domain's); the cost is in the cost
model's units (a move of tile t costs t under heavy, 1/t under inverse-heavy), final_bound in
whole units of its scale. An unsolvable start prints `status: unsolvable` and exits 0.

With --format judge --problem P the original judge input is read on stdin and the judge's
expected output printed, for P in p1379 (Luogu), uva10181, tioj1573 (sliding tiles), poj2286
(Rotation Game), poj3460 (Booksort), p2324 (Luogu, Knight's Spirit):
  echo 283104765 | idabench solve --format judge --problem p1379

Example:
  idabench solve --size 4x4 --start \"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\" \\
      --goal \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\" --heuristic manhattan --step 2 --reverse-pruning on

Exit codes: 0 answered (`status: unsolvable` and the limits' statuses included); 1 runtime error
(a full stdout); 2 usage or input error; 4 `status: wrong` (a path that does not replay to the
goal: a defect to report).";

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub defined: DefinedArgs,
    #[arg(long, help = domains::size_help())]
    pub size: Option<String>,
    // Not required once --format is given: `--format judge` alone must be told it lacks
    // --problem, not --start (the command says which is missing).
    // A burnt stack may begin with a minus (`--start "-2 1"`): hyphens are let in, and a flag
    // taken for the start is refused before parsing (`cmd::start_misread`).
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["problem", "format"], help = domains::start_help())]
    pub start: Option<String>,
    /// Goal state in the same form, tiles only (default: 1 2 ... n-1 then the blank); the other
    /// families have a fixed goal.
    #[arg(long)]
    pub goal: Option<String>,
    #[command(flatten)]
    pub variant: VariantArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub split: SplitArgs,
    /// Threads for the search, with --split (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
    /// Save the search's progress to FILE every --checkpoint seconds, and go on from FILE's
    /// progress when it holds this puzzle's and variant's (a file of another is refused, exit
    /// 2); FILE is removed when the search ends.
    #[arg(long, value_name = "FILE")]
    pub checkpoint_file: Option<PathBuf>,
    /// Output format; `judge` reads the judge's input on stdin and prints exactly the judge's
    /// expected output (needs --problem).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The judge problem for --format judge: p1379, uva10181, tioj1573, poj2286, poj3460, p2324.
    /// The judge's input says the puzzle, so the puzzle's and the variant's flags are refused.
    #[arg(
        long,
        value_parser = parse_problem,
        conflicts_with_all = [
            "start", "size", "goal", "domain", "puzzle", "metric", "heuristic", "step", "reverse_pruning", "pruning", "cost",
            "max_nodes", "time_limit", "wall_limit", "split", "jobs", "pdb_dir", "no_build",
            "memory_limit", "checkpoint", "checkpoint_file",
        ]
    )]
    pub problem: Option<Problem>,
}

/// One variant of the search.
#[derive(Args, Debug)]
pub struct VariantArgs {
    #[arg(
        long,
        value_parser = parse_heuristic,
        help = domains::heuristic_help("Heuristic (default: the domain's first)"),
        long_help = domains::heuristic_long_help("Heuristic (default: the domain's first).")
    )]
    pub heuristic: Option<HeuristicKind>,
    /// Threshold step: 1, 2 (sound where the solution parity is known), next (Korf's), cr
    /// (IDA*_CR), eda (EDA*) or bts (budgeted tree search); crF and edaF grow by a factor F from
    /// 1.1 to 10 in tenths (cr4, eda1.5), cr and eda by 2; see docs/thresholds.md.
    #[arg(long, default_value = "next", value_parser = parse_step)]
    pub step: Step,
    /// Move costs: unit; for tiles heavy (moving tile t costs t) or inverse-heavy (1/t).
    #[arg(long, value_name = "C", default_value = "unit", value_parser = parse_cost)]
    pub cost: CostModel,
    /// Reverse-move pruning: on skips the move that undoes the previous one (the same as
    /// --pruning reverse; off: --pruning none).
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub reverse_pruning: OnOff,
    #[arg(
        long,
        value_name = "P",
        value_parser = parse_pruning,
        conflicts_with = "reverse_pruning",
        help = "Pruning: none, reverse, fsm or fsmN (default: reverse; see --help)",
        long_help = PRUNING_HELP
    )]
    pub pruning: Option<Pruning>,
}

impl VariantArgs {
    /// `--pruning`, or `--reverse-pruning` on and off as reverse and none.
    pub fn pruning(&self) -> Pruning {
        self.pruning
            .unwrap_or(Pruning::reverse(self.reverse_pruning == OnOff::On))
    }
}

/// What each `--pruning` value does, for both commands' help.
macro_rules! pruning_values {
    () => {
        "
  none     every move is tried (variant names end in /noprune)
  reverse  the move that undoes the previous one is skipped (/prune; --reverse-pruning on)
  fsmN     duplicate pruning by automaton (Taylor & Korf 1993): besides reverse moves, move
           sequences of up to N moves (2 to 32) that another sequence, first in the move order,
           replaces from every state are skipped. The automaton is read from the cache
           directory (--pdb-dir) before the first search, or built and kept there (in no job's
           time); a depth too large to build is refused at once, naming the largest that fits.
           The depth is part of the variant's name (/fsm14), so that counts under one name
           never change
  fsm      fsmN at each domain's default depth: 14 on the tiles, 10 on Knight's Spirit, 8 on
           the Rotation Game, 4 on defined puzzles (ksolve) and burnt pancakes, 3 on pancakes,
           2 on Booksort (the names say which: fsm14, fsm8, ...)"
    };
}

const PRUNING_HELP: &str = concat!(
    "Pruning (default: reverse). --reverse-pruning on and off are reverse and none; giving both \
flags is an error.",
    pruning_values!()
);

const PRUNING_LIST_HELP: &str = concat!(
    "Prunings, comma separated, each a variant (default: reverse). --reverse-pruning on,off is \
reverse,none; giving both flags is an error.",
    pruning_values!()
);

const CHECKPOINT_HELP: &str = "\
Save a job's progress every SECONDS (default 60; 0: never), so that a job killed or stopped part
way goes on from there: the finished iterations, and inside the current one the subtrees of a
cut (as --split makes them) finished so far, with their counts. A resumed job ends with the
counts, iterations and path of one never stopped, and its CPU and wall times, and its time
limits, count every attempt up to its last save. `run` keeps the files in OUT/NAME/checkpoints/,
one per running job, and removes each when the job's row is written; --resume goes on from them.
`solve` saves only with --checkpoint-file.";

/// Saving a job's progress.
#[derive(Args, Debug)]
pub struct CheckpointArgs {
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_checkpoint,
        help = "Save a job's progress every SECONDS (0: never), to go on from it after a kill \
            (run: with --resume)",
        long_help = CHECKPOINT_HELP)]
    pub checkpoint: Every,
}

/// `--checkpoint`: how often to save, `None` for never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Every(pub Option<std::time::Duration>);

/// `--checkpoint`: a number of seconds, 0 (never) or more.
fn parse_checkpoint(s: &str) -> Result<Every, String> {
    match s.parse::<f64>() {
        Ok(0.0) => Ok(Every(None)),
        Ok(t) if t.is_finite() && t > 0.0 && t <= 1e9 => {
            Ok(Every(Some(std::time::Duration::from_secs_f64(t))))
        }
        _ => Err(format!(
            "'{}' is not a number of seconds from 0 (never) to 1e9",
            shorten(s)
        )),
    }
}

/// Parallel search inside one instance.
#[derive(Args, Debug)]
pub struct SplitArgs {
    #[arg(long, value_name = "auto|off|DEPTH", default_value = "auto", value_parser = parse_split,
        help = "Search one instance's large iterations on several threads: off, a cut DEPTH \
            (every iteration), or auto (default)",
        long_help = split_long_help())]
    pub split: SplitMode,
}

/// `--split`: where iterations are cut, or `None` for off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMode(pub Option<SplitDepth>);

impl SplitMode {
    /// As `--split` reads it: `auto`, `off` or the depth.
    pub fn name(&self) -> String {
        match self.0 {
            None => "off".into(),
            Some(SplitDepth::Auto) => "auto".into(),
            Some(SplitDepth::Depth(d)) => d.to_string(),
        }
    }
}

fn split_long_help() -> String {
    format!(
        "Search one instance's large iterations on several threads. Each iteration is cut at a \
         shallow depth; the subtrees below the cut are searched by whichever thread is free, \
         the batch's workers included once no whole job is left for them. The answer is the \
         sequential search's: the same path, node counts and iterations, at any cut and thread \
         count. auto (default) cuts every iteration after one of at least {AUTO_MIN_NODES} \
         generated nodes, when there are two threads or more, unless it may reach --max-nodes \
         (it would then be searched again on one thread to find where the limit falls); DEPTH (1 to {MAX_SPLIT_DEPTH}) cuts \
         every iteration at that depth; off never cuts. A job's CPU time is the sum over the threads \
         that worked on it."
    )
}

pub fn parse_split(s: &str) -> Result<SplitMode, String> {
    match s {
        "auto" => Ok(SplitMode(Some(SplitDepth::Auto))),
        "off" => Ok(SplitMode(None)),
        _ => match s.parse::<u32>() {
            Ok(d) if (1..=MAX_SPLIT_DEPTH).contains(&d) => {
                Ok(SplitMode(Some(SplitDepth::Depth(d))))
            }
            _ => Err(format!(
                "'{}' is not a split: expected auto, off, or a depth from 1 to {MAX_SPLIT_DEPTH}",
                shorten(s)
            )),
        },
    }
}

/// Per-job limits.
#[derive(Args, Debug)]
pub struct LimitArgs {
    /// Stop a search (each job's) after this many generated nodes (at least 1).
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_nodes,
        allow_negative_numbers = true
    )]
    pub max_nodes: Option<u64>,
    /// Stop a search (each job's) after this many seconds of CPU time (decimals allowed): the
    /// search's own, on every thread that searched it, as time_cpu_s counts it, so other load
    /// on the machine does not stop it sooner (see --wall-limit).
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = parse_seconds,
        allow_negative_numbers = true
    )]
    pub time_limit: Option<f64>,
    /// Stop a search (each job's) after this many seconds of wall-clock time from its start
    /// (decimals allowed), however busy the machine. With --time-limit too, the first limit
    /// reached stops the job.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = parse_seconds,
        allow_negative_numbers = true
    )]
    pub wall_limit: Option<f64>,
}

impl LimitArgs {
    /// The limits, each time limit with its clock.
    pub fn limits(&self) -> RunLimits {
        RunLimits {
            max_nodes: self.max_nodes,
            cpu_s: self.time_limit,
            wall_s: self.wall_limit,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Judge,
}

pub fn parse_problem(s: &str) -> Result<Problem, String> {
    Problem::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Problem::ALL.iter().map(|p| p.name()).collect();
        format!(
            "unknown problem '{}': expected one of {}",
            shorten(s),
            names.join(", ")
        )
    })
}

pub fn parse_domain(s: &str) -> Result<DomainKind, String> {
    DomainKind::parse(s.trim()).ok_or_else(|| {
        format!(
            "unknown domain '{}': expected one of {}",
            shorten(s),
            DomainKind::names()
        )
    })
}

/// An entry of `--size` or `--instances`, trimmed as datasets' values are; an empty one (`a,,b`)
/// is a slip, not a value.
pub fn parse_entry(s: &str) -> Result<String, String> {
    match s.trim() {
        "" => Err("an empty entry: expected values separated by single commas".into()),
        entry => Ok(entry.to_owned()),
    }
}

/// `--instances-sha256`: 64 hex digits, kept in lowercase as SHA-256 sums are written.
pub fn parse_sha256(s: &str) -> Result<String, String> {
    if s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(s.to_ascii_lowercase())
    } else {
        Err(format!(
            "'{}' is not a SHA-256: expected 64 hex digits",
            shorten(s)
        ))
    }
}

pub fn parse_heuristic(s: &str) -> Result<HeuristicKind, String> {
    HeuristicKind::parse_checked(s)
}

pub fn parse_pruning(s: &str) -> Result<Pruning, String> {
    Pruning::parse(s).ok_or_else(|| {
        format!(
            "unknown pruning '{}': expected none, reverse, fsm or fsmN (N from 2 to {})",
            shorten(s),
            Pruning::MAX_FSM_DEPTH
        )
    })
}

pub fn parse_step(s: &str) -> Result<Step, String> {
    Step::parse(s).ok_or_else(|| {
        let range = format!(
            "a factor from {} to {}, whole or with one decimal",
            Factor::MIN,
            Factor::MAX
        );
        match ["cr", "eda"].into_iter().find(|p| s.starts_with(p)) {
            Some(policy) => format!(
                "'{}': {policy} takes {range} ({policy}4, {policy}1.5; {policy} alone is 2)",
                shorten(s)
            ),
            None => format!(
                "unknown step '{}': expected 1, 2, next, cr, eda or bts (cr and eda with {range}, \
                 such as cr4 or eda1.5)",
                shorten(s)
            ),
        }
    })
}

pub fn parse_cost(s: &str) -> Result<CostModel, String> {
    CostModel::parse(s).ok_or_else(|| {
        format!(
            "unknown cost '{}': expected unit, heavy or inverse-heavy",
            shorten(s)
        )
    })
}

/// `--count`: `run` refuses a dataset without instances, so none is made.
pub fn parse_count(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("expected 1 or more: a dataset without instances is refused by run".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "'{}' is not a count: expected a whole number, 1 or more",
            shorten(s)
        )),
    }
}

pub fn parse_nodes(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "'{}' is not a node count: expected a whole number, 1 or more",
            shorten(s)
        )),
    }
}

/// `--memory-limit`: bytes, or K, M, G, T (either case) for powers of 1024 as Slurm's `--mem`
/// reads them; unlike `--mem`, a plain number is bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let (digits, shift) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => 64,
            };
            (&s[..i], shift)
        }
        _ => (s, 0),
    };
    match digits.parse::<u64>() {
        Ok(n) if n >= 1 && shift < 64 && n.leading_zeros() >= shift => Ok(n << shift),
        _ => Err(format!(
            "'{}' is not a size: expected a whole number of bytes, 1 or more, or of KiB, MiB, \
             GiB, TiB with a suffix K, M, G, T (e.g. 4G)",
            shorten(s)
        )),
    }
}

pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!(
            "'{}' is not a positive number of seconds",
            shorten(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes_read_as_bytes_or_powers_of_1024() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("3k"), Ok(3 << 10));
        assert_eq!(parse_size("1536M"), Ok(1536 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("2T"), Ok(2 << 40));
        for bad in [
            "",
            "0",
            "G",
            "4.5G",
            "4GB",
            "-1",
            "4X",
            "99999999999T",
            "4 G",
        ] {
            let e = parse_size(bad).unwrap_err();
            assert!(e.contains("is not a size"), "{bad}: {e}");
        }
    }
}

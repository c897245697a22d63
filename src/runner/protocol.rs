//! How `ab` talks to a worker (`idabench worker`), so that two builds of different versions can
//! talk or refuse clearly:
//! 1. the worker's first line is the handshake `idabench-worker protocol=P version=V commit=C
//!    build=B limits=cpu,wall,memory select=domain,size,instances pruning=none,reverse,fsm
//!    fsm_depth=domain` (`commit=-` when unknown), written at once; `ab` refuses a protocol it does not speak, and a binary that gives no
//!    handshake within a few seconds. `limits=cpu,wall,memory` says that `--time-limit` limits
//!    CPU time, `--wall-limit` wall time, and `--memory-limit` is taken; a handshake without it
//!    is a build whose `--time-limit` limits wall time, and that has neither of the others.
//!    `select=domain,size,instances` says that the worker takes a selection (`--domain`,
//!    `--size`, `--instances`, `--instances-file`) and plans only the instances it keeps; a
//!    build without it is given whole datasets, and `ab` sends it only the selected jobs.
//!    `pruning=none,reverse,fsm` says that the worker takes `--pruning`, automata included; a
//!    build without it takes only `--reverse-pruning`. `fsm_depth=domain` says that `fsm`
//!    without a depth is each domain's own default (`Family::FSM_DEPTH`); a build that offers
//!    `fsm` without it may read `fsm` as `fsm14` on every domain, and is given explicit depths
//!    (`fsmN`), which every build that offers `fsm` reads alike. `cost=unit,heavy,inverse-heavy
//!    step=1,2,next,cr,eda,bts` says that `--cost` and those steps are taken; a build without
//!    it is refused variants of weighted moves or of the other steps. `step_factor=cr,eda`
//!    says that `cr` and `eda` take a factor (`cr4`, `eda1.5`); a build without it is refused
//!    those steps and runs `cr` and `eda` at their factor 2. Words were added, not the
//!    protocol raised: a build that does not know a word skips it, and every line means what it meant;
//! 2. its second line, once its jobs are planned and their tables ready, is the runs.csv header
//!    of this build, so `ab` reads the rows by column name and builds with other column sets
//!    still understand each other;
//! 3. then each request on stdin is one job as a CSV record `dataset,instance,variant`, answered
//!    by the job's runs.csv row, or by `!` and a message on one line when it cannot be answered
//!    (a job this worker did not plan). End of stdin ends the worker.
//!
//! A record ends at the first line end outside quotes: an instance id may hold line breaks,
//! which its quoted field carries (`read_message`). A line that starts with `!` is a message of
//! one line, so a record whose first field starts with `!` has it quoted (`request`,
//! `frame_row`). Every message is read within `max_message` bytes.

use crate::runner::job::Job;
use crate::util::build;
use crate::util::text::csv_field;
use std::fmt;
use std::io::{self, BufRead, Read};

/// The worker protocol's version: raised whenever a line of it changes meaning. Messages that
/// span lines (a field with a line break, quoted as CSV quotes it) and a quoted first field
/// starting with `!` did not raise it: every message an older build sends or reads means the
/// same as before, except a row whose dataset name starts with `!`, which such a build sends
/// unquoted and `ab` reads as a refusal (an error, never a wrong pairing). Raising it would stop
/// `ab` from comparing with every build made before.
pub const PROTOCOL: u32 = 1;

/// The first word of the handshake.
pub const HELLO: &str = "idabench-worker";

/// What the handshake says of a build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    pub protocol: u32,
    pub version: String,
    /// The source commit, `-` when the build does not know it.
    pub commit: String,
    /// The build profile, e.g. `release`.
    pub build: String,
    /// Whether `--time-limit` limits CPU time (and `--wall-limit` wall time, and `--memory-limit`
    /// is taken): false for a build whose `--time-limit` limits wall time.
    pub cpu_limits: bool,
    /// Whether the worker takes a selection of instances and plans only those.
    pub selection: bool,
    /// Whether `--pruning` is taken, fsm included: false for a build that knows only
    /// `--reverse-pruning`.
    pub fsm_pruning: bool,
    /// Whether `fsm` without a depth is each domain's own default depth: false for a build
    /// that may read it as `fsm14` on every domain.
    pub fsm_domain_depths: bool,
    /// Whether `--cost` and the steps cr, eda and bts are taken: false for a build whose moves
    /// all cost 1 and whose steps are 1, 2 and next.
    pub costs: bool,
    /// Whether `cr` and `eda` take a factor (`--step cr4`): false for a build that knows them
    /// at their factor 2 only.
    pub step_factors: bool,
}

impl Hello {
    /// This build's handshake.
    pub fn this_build() -> Hello {
        Hello {
            protocol: PROTOCOL,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            commit: build::git_commit().unwrap_or_else(|| "-".to_owned()),
            build: build::get().profile.to_owned(),
            cpu_limits: true,
            selection: true,
            fsm_pruning: true,
            fsm_domain_depths: true,
            costs: true,
            step_factors: true,
        }
    }

    pub fn line(&self) -> String {
        format!(
            "{HELLO} protocol={} version={} commit={} build={}{}{}{}{}{}{}",
            self.protocol,
            self.version,
            self.commit,
            self.build,
            if self.cpu_limits {
                " limits=cpu,wall,memory"
            } else {
                ""
            },
            if self.selection {
                " select=domain,size,instances"
            } else {
                ""
            },
            if self.fsm_pruning {
                " pruning=none,reverse,fsm"
            } else {
                ""
            },
            if self.fsm_domain_depths {
                " fsm_depth=domain"
            } else {
                ""
            },
            if self.costs {
                " cost=unit,heavy,inverse-heavy step=1,2,next,cr,eda,bts"
            } else {
                ""
            },
            if self.step_factors {
                " step_factor=cr,eda"
            } else {
                ""
            }
        )
    }

    /// Reads a handshake line; `None` when the line is not one. Unknown `key=value` words are
    /// skipped, so that a later protocol may add some.
    pub fn parse(line: &str) -> Option<Hello> {
        let mut words = line.split_whitespace();
        if words.next() != Some(HELLO) {
            return None;
        }
        let mut hello = Hello {
            protocol: 0,
            version: String::new(),
            commit: "-".to_owned(),
            build: String::new(),
            cpu_limits: false,
            selection: false,
            fsm_pruning: false,
            fsm_domain_depths: false,
            costs: false,
            step_factors: false,
        };
        for word in words {
            match word.split_once('=') {
                Some(("protocol", p)) => hello.protocol = p.parse().ok()?,
                Some(("version", v)) => hello.version = v.to_owned(),
                Some(("commit", c)) => hello.commit = c.to_owned(),
                Some(("build", b)) => hello.build = b.to_owned(),
                Some(("limits", l)) => hello.cpu_limits = l.split(',').any(|c| c == "cpu"),
                Some(("select", s)) => hello.selection = s.split(',').any(|c| c == "instances"),
                Some(("pruning", p)) => hello.fsm_pruning = p.split(',').any(|c| c == "fsm"),
                Some(("cost", c)) => hello.costs = c.split(',').any(|c| c == "heavy"),
                Some(("step_factor", s)) => hello.step_factors = s.split(',').any(|c| c == "cr"),
                Some(("fsm_depth", d)) => {
                    hello.fsm_domain_depths = d.split(',').any(|c| c == "domain")
                }
                _ => {}
            }
        }
        (hello.protocol > 0).then_some(hello)
    }
}

/// What an answer may hold beyond its job's names: the row's other fields (short names and
/// numbers), the solution path and a message. 16 MiB: a path of millions of moves, far more than
/// IDA* finds in a benchmark, and still a harmless amount to hold.
pub const ANSWER_ROOM: usize = 16 << 20;

/// The most bytes one message of a worker of `jobs` may hold. A request names one of the jobs,
/// and quoting at most doubles its names; an answer is a row of those names and `ANSWER_ROOM`
/// more; the handshake and the header are short lines. `ab` and its workers plan the same jobs,
/// so both ends agree on it; past it, a message is none of this protocol's (an endless stream,
/// `/dev/zero`) and reading stops.
pub fn max_message(jobs: &[Job]) -> usize {
    let longest = jobs
        .iter()
        .map(|j| j.dataset.name.len() + j.instance.id.len() + j.variant.len())
        .max()
        .unwrap_or(0);
    longest.saturating_mul(2).saturating_add(ANSWER_ROOM)
}

/// A job's request: `dataset,instance,variant` as one CSV record, with its line end.
pub fn request(dataset: &str, instance: &str, variant: &str) -> Vec<u8> {
    let mut line = Vec::new();
    for name in [dataset, instance, variant] {
        csv_field(&mut line, name.as_bytes());
    }
    // The last field's comma becomes the line end.
    line.pop();
    line.push(b'\n');
    frame_row(&mut line);
    line
}

/// Quotes the first field of a CSV record that starts with `!`, which would otherwise read as a
/// message (a dataset file named `!x.csv`). Unquoted, that field holds no comma, quote or line
/// break, so it ends at the first comma.
pub fn frame_row(row: &mut Vec<u8>) {
    if row.first() == Some(&b'!') {
        let end = row
            .iter()
            .position(|&b| b == b',' || b == b'\n')
            .unwrap_or(row.len());
        row.insert(end, b'"');
        row.insert(0, b'"');
    }
}

/// The three fields of a request: one CSV record, and nothing after it.
pub fn parse_request(message: &[u8]) -> Option<[String; 3]> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(message);
    let mut records = reader.records();
    let record = records.next()?.ok()?;
    if records.next().is_some() {
        return None;
    }
    match record.iter().collect::<Vec<_>>()[..] {
        [d, i, v] => Some([d.to_owned(), i.to_owned(), v.to_owned()]),
        _ => None,
    }
}

/// Why a message could not be read.
#[derive(Debug)]
pub enum Framing {
    /// More than the bound, which it names, without its end.
    TooLong(usize),
    /// The input ended inside a quoted field.
    Cut,
    Io(io::Error),
}

impl fmt::Display for Framing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Framing::TooLong(max) => write!(f, "longer than the protocol's {max} bytes"),
            Framing::Cut => f.write_str("cut short by the end of the stream (a quote left open)"),
            Framing::Io(e) => write!(f, "cannot be read ({e})"),
        }
    }
}

/// Reads one message into `message` (emptied first), its line end included: a line that starts
/// with `!`, or a CSV record up to the first line end outside quotes; the last one may lack its
/// line end. At most `max` bytes are read for it. `Ok(false)` at the end of the stream.
pub fn read_message(
    input: &mut impl BufRead,
    max: usize,
    message: &mut Vec<u8>,
) -> Result<bool, Framing> {
    message.clear();
    let mut quotes = 0usize;
    loop {
        let start = message.len();
        // One byte past the bound tells a message that is too long from one that just fits.
        let room = (max + 1).saturating_sub(start) as u64;
        let n = input
            .by_ref()
            .take(room)
            .read_until(b'\n', message)
            .map_err(Framing::Io)?;
        if n == 0 {
            return if start == 0 {
                Ok(false)
            } else {
                Err(Framing::Cut)
            };
        }
        if message.len() > max {
            return Err(Framing::TooLong(max));
        }
        quotes += message[start..].iter().filter(|&&b| b == b'"').count();
        if message[0] == b'!' || quotes.is_multiple_of(2) {
            return Ok(true);
        }
        // A line without its line end is the stream's last.
        if message.last() != Some(&b'\n') {
            return Err(Framing::Cut);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshakes_read_back_and_others_are_refused() {
        let hello = Hello::this_build();
        assert_eq!(Hello::parse(&hello.line()), Some(hello.clone()));
        let later = Hello::parse("idabench-worker protocol=7 version=9.0.0 build=release x=y");
        assert_eq!(
            later.map(|h| (h.protocol, h.commit, h.cpu_limits)),
            Some((7, "-".into(), false))
        );
        // A build from before CPU limits says nothing of them, nor of automata.
        let older =
            Hello::parse("idabench-worker protocol=1 version=0.1.0 commit=abc build=release");
        assert_eq!(
            older.map(|h| (h.cpu_limits, h.selection, h.fsm_pruning)),
            Some((false, false, false))
        );
        // One that takes CPU limits but plans whole datasets (before selections reached workers)
        // and knows no automata.
        let limits = Hello::parse(
            "idabench-worker protocol=1 version=0.1.0 commit=abc build=release limits=cpu,wall,memory",
        );
        assert_eq!(
            limits.map(|h| (h.cpu_limits, h.selection, h.fsm_pruning)),
            Some((true, false, false))
        );
        assert!(hello.line().ends_with(
            " limits=cpu,wall,memory select=domain,size,instances pruning=none,reverse,fsm \
             fsm_depth=domain cost=unit,heavy,inverse-heavy step=1,2,next,cr,eda,bts \
             step_factor=cr,eda"
        ));
        assert!(hello.costs && hello.step_factors);
        // A build from before costs knows no such word.
        let older = Hello::parse(&format!("{HELLO} protocol=1 pruning=none,reverse,fsm"));
        assert_eq!(older.map(|h| (h.fsm_pruning, h.costs)), Some((true, false)));
        // Nor does one from before the factors of cr and eda.
        let fixed = Hello::parse(&format!(
            "{HELLO} protocol=1 cost=unit,heavy,inverse-heavy step=1,2,next,cr,eda,bts"
        ));
        assert_eq!(
            fixed.map(|h| (h.costs, h.step_factors)),
            Some((true, false))
        );
        assert_eq!(Hello::parse("idabench 0.1.0"), None);
        assert_eq!(Hello::parse("idabench-worker version=1"), None);
        assert_eq!(Hello::parse("idabench-worker protocol=x"), None);
    }

    #[test]
    fn fsm_at_each_domains_depth_is_a_word_of_its_own() {
        let words = |line: &str| Hello::parse(line).map(|h| (h.fsm_pruning, h.fsm_domain_depths));
        let base = "idabench-worker protocol=1 version=0.1.0 commit=abc build=release \
                    limits=cpu,wall,memory select=domain,size,instances";
        // A build whose `fsm` may be fsm14 on every domain offers automata and says no more.
        let older = format!("{base} pruning=none,reverse,fsm");
        assert_eq!(words(&older), Some((true, false)));
        assert_eq!(
            words(&format!("{older} fsm_depth=domain")),
            Some((true, true))
        );
        // Read as a list, as the other words are; another value is not this meaning.
        assert_eq!(
            words(&format!("{older} fsm_depth=other,domain")),
            Some((true, true))
        );
        assert_eq!(words(&format!("{older} fsm_depth=14")), Some((true, false)));
        assert_eq!(words(&format!("{older} fsm_depth")), Some((true, false)));
        let mut hello = Hello::this_build();
        assert!(hello.fsm_domain_depths);
        hello.fsm_domain_depths = false;
        assert_eq!(Hello::parse(&hello.line()), Some(hello.clone()));
        assert!(!hello.line().contains("fsm_depth"));
    }

    /// Every message of `stream`, read as the worker and `ab` read them.
    fn messages(stream: &[u8], max: usize) -> Result<Vec<Vec<u8>>, Framing> {
        let mut input = io::BufReader::with_capacity(3, stream);
        let mut all = Vec::new();
        let mut message = Vec::new();
        while read_message(&mut input, max, &mut message)? {
            all.push(message.clone());
        }
        Ok(all)
    }

    #[test]
    fn requests_survive_commas_quotes_line_breaks_and_a_leading_bang() {
        for key in [
            ["d", "a,\"b\"", "manhattan/stepnext/prune"],
            ["d", "two\nlines\r\nand\rmore", "v"],
            ["!bang", "!", "v"],
            ["d", "", "v"],
            ["d", "\"", "v"],
        ] {
            let line = request(key[0], key[1], key[2]);
            let mut stream = line.clone();
            stream.extend_from_slice(&line);
            let read = messages(&stream, line.len()).unwrap();
            assert_eq!(read, [line.clone(), line.clone()], "{key:?}");
            assert_eq!(parse_request(&read[0]), Some(key.map(String::from)));
        }
        assert_eq!(parse_request(b"just one"), None);
        assert_eq!(parse_request(b""), None);
        assert_eq!(parse_request(b"a,b,c\rd,e,f"), None);
    }

    #[test]
    fn a_message_ends_at_a_line_end_outside_quotes_or_after_a_bang_line() {
        let stream = b"!no \"job\nrow,\"a\nb\",\"\"\"\"\nlast,x";
        let read = messages(stream, 100).unwrap();
        let want: [&[u8]; 3] = [b"!no \"job\n", b"row,\"a\nb\",\"\"\"\"\n", b"last,x"];
        assert_eq!(read, want);
        let mut row = b"!x,y,z\n".to_vec();
        frame_row(&mut row);
        assert_eq!(row, b"\"!x\",y,z\n");
        let mut row = b"!x\n".to_vec();
        frame_row(&mut row);
        assert_eq!(row, b"\"!x\"\n");
    }

    #[test]
    fn reading_stops_at_the_bound_and_at_a_quote_left_open() {
        assert!(matches!(messages(b"abcdef\n", 6), Err(Framing::TooLong(6))));
        assert_eq!(messages(b"abcde\n", 6).unwrap(), [b"abcde\n"]);
        // An endless stream costs the bound, not the memory.
        let mut zeros = io::BufReader::new(io::repeat(0));
        let mut message = Vec::new();
        let e = read_message(&mut zeros, 1 << 16, &mut message).unwrap_err();
        assert!(matches!(e, Framing::TooLong(65536)), "{e:?}");
        assert!(message.len() <= (1 << 16) + 1);
        assert!(matches!(messages(b"a,\"b\nc", 100), Err(Framing::Cut)));
        assert_eq!(
            Framing::Cut.to_string(),
            "cut short by the end of the stream (a quote left open)"
        );
    }
}

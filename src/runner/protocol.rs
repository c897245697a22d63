//! How `ab` talks to a worker (`idabench worker`), so that two builds of different versions can
//! talk or refuse clearly:
//! 1. the worker's first line is the handshake `idabench-worker protocol=P version=V commit=C
//!    build=B` (`commit=-` when unknown), written at once; `ab` refuses a protocol it does not
//!    speak, and a binary that gives no handshake within a few seconds;
//! 2. its second line, once its jobs are planned and their tables ready, is the runs.csv header
//!    of this build, so `ab` reads the rows by column name and builds with other column sets
//!    still understand each other;
//! 3. then each stdin line is one job as a CSV record `dataset,instance,variant`, answered by
//!    one line: the job's runs.csv row, or `!` and a message when it cannot be answered (a job
//!    this worker did not plan). End of stdin ends the worker.

use crate::util::build;

/// The worker protocol's version: raised whenever a line of it changes meaning.
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
}

impl Hello {
    /// This build's handshake.
    pub fn this_build() -> Hello {
        Hello {
            protocol: PROTOCOL,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            commit: build::git_commit().unwrap_or_else(|| "-".to_owned()),
            build: build::get().profile.to_owned(),
        }
    }

    pub fn line(&self) -> String {
        format!(
            "{HELLO} protocol={} version={} commit={} build={}",
            self.protocol, self.version, self.commit, self.build
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
        };
        for word in words {
            match word.split_once('=') {
                Some(("protocol", p)) => hello.protocol = p.parse().ok()?,
                Some(("version", v)) => hello.version = v.to_owned(),
                Some(("commit", c)) => hello.commit = c.to_owned(),
                Some(("build", b)) => hello.build = b.to_owned(),
                _ => {}
            }
        }
        (hello.protocol > 0).then_some(hello)
    }
}

/// A job's request line: `dataset,instance,variant` as one CSV record, with its line end.
pub fn request(dataset: &str, instance: &str, variant: &str) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record([dataset, instance, variant])
        .expect("writing CSV to memory cannot fail");
    let bytes = writer
        .into_inner()
        .expect("writing CSV to memory cannot fail");
    String::from_utf8(bytes).expect("CSV written from strings is UTF-8")
}

/// The three fields of a request line.
pub fn parse_request(line: &str) -> Option<[String; 3]> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    let record = reader.records().next()?.ok()?;
    match record.iter().collect::<Vec<_>>()[..] {
        [d, i, v] => Some([d.to_owned(), i.to_owned(), v.to_owned()]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshakes_read_back_and_others_are_refused() {
        let hello = Hello::this_build();
        assert_eq!(Hello::parse(&hello.line()), Some(hello));
        let later = Hello::parse("idabench-worker protocol=7 version=9.0.0 build=release x=y");
        assert_eq!(later.map(|h| (h.protocol, h.commit)), Some((7, "-".into())));
        assert_eq!(Hello::parse("idabench 0.1.0"), None);
        assert_eq!(Hello::parse("idabench-worker version=1"), None);
        assert_eq!(Hello::parse("idabench-worker protocol=x"), None);
    }

    #[test]
    fn requests_survive_commas_and_quotes() {
        let line = request("d", "a,\"b\"", "manhattan/stepnext/prune");
        let key = parse_request(line.trim_end()).unwrap();
        assert_eq!(key, ["d", "a,\"b\"", "manhattan/stepnext/prune"]);
        assert_eq!(parse_request("just one"), None);
        assert_eq!(parse_request(""), None);
    }
}

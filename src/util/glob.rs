//! Text patterns with two wildcards, `*` (any run of characters, none included) and `?` (any one
//! character), and `\` to take a `*`, `?` or `\` after it as itself: what `--instances` reads.
//! No character classes: `[` and `]` are common in ids and stay plain characters.

/// One piece of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Char(char),
    One,
    Any,
}

/// A pattern, read once and matched against many texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    tokens: Vec<Token>,
}

impl Glob {
    /// `pattern` read: `*` and `?` are wildcards; `\*`, `\?` and `\\` are the character after the
    /// backslash; any other `\` is itself, so that an id holding one needs no escape.
    pub fn new(pattern: &str) -> Glob {
        let mut tokens = Vec::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            tokens.push(match c {
                '*' => Token::Any,
                '?' => Token::One,
                '\\' => match chars.next_if(|n| matches!(n, '*' | '?' | '\\')) {
                    Some(n) => Token::Char(n),
                    None => Token::Char('\\'),
                },
                c => Token::Char(c),
            });
        }
        Glob { tokens }
    }

    /// The one text the pattern matches, when it has no wildcard: for a lookup instead of a scan.
    pub fn literal(&self) -> Option<String> {
        self.tokens
            .iter()
            .map(|t| match t {
                Token::Char(c) => Some(*c),
                _ => None,
            })
            .collect()
    }

    /// Whether the whole of `text` matches. Greedy with one step back to the last `*`, which is
    /// enough for these two wildcards: time linear in the pattern times the text at worst.
    pub fn matches(&self, text: &str) -> bool {
        let first = |at: usize| text[at..].chars().next();
        let (mut p, mut t) = (0, 0);
        // The token after the last `*` seen, and where in the text that `*` stops for now.
        let mut star: Option<(usize, usize)> = None;
        loop {
            match (self.tokens.get(p), first(t)) {
                (Some(Token::Any), _) => {
                    p += 1;
                    star = Some((p, t));
                    continue;
                }
                (Some(Token::One), Some(c)) => {
                    p += 1;
                    t += c.len_utf8();
                    continue;
                }
                (Some(Token::Char(x)), Some(c)) if *x == c => {
                    p += 1;
                    t += c.len_utf8();
                    continue;
                }
                (None, None) => return true,
                _ => {}
            }
            // A mismatch: the last `*` takes one more character, or there is no match.
            let Some((after, upto)) = star else {
                return false;
            };
            let Some(c) = first(upto) else {
                return false;
            };
            star = Some((after, upto + c.len_utf8()));
            (p, t) = (after, upto + c.len_utf8());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Glob;

    #[test]
    fn stars_and_question_marks_match_as_in_a_shell() {
        let cases: [(&str, &[&str], &[&str]); 8] = [
            ("korf*", &["korf", "korf1", "korf100"], &["kor", "xkorf"]),
            ("8p-d?8", &["8p-d08", "8p-d28"], &["8p-d8", "8p-d008"]),
            ("*", &["", "a", "a*b"], &[]),
            ("a*b*c", &["abc", "aXbYc", "abbbc", "acbc"], &["ab", "acb"]),
            ("*x*", &["x", "axb"], &["", "ab"]),
            ("é?", &["éü", "é1"], &["é", "éüü"]),
            ("a[1]", &["a[1]"], &["a1"]),
            ("", &[""], &["a"]),
        ];
        for (pattern, yes, no) in cases {
            let g = Glob::new(pattern);
            for t in yes {
                assert!(g.matches(t), "{pattern} should match {t}");
            }
            for t in no {
                assert!(!g.matches(t), "{pattern} should not match {t}");
            }
        }
    }

    #[test]
    fn a_backslash_takes_a_wildcard_literally() {
        let g = Glob::new(r"a\*b");
        assert!(g.matches("a*b") && !g.matches("axb"));
        assert_eq!(g.literal().as_deref(), Some("a*b"));
        assert!(Glob::new(r"\?").matches("?") && !Glob::new(r"\?").matches("x"));
        assert!(Glob::new(r"a\\*").matches(r"a\bc"));
        // Before anything else, a backslash is itself.
        assert_eq!(Glob::new(r"C:\x").literal().as_deref(), Some(r"C:\x"));
        assert_eq!(Glob::new(r"x\").literal().as_deref(), Some(r"x\"));
        assert_eq!(Glob::new("a*").literal(), None);
    }

    #[test]
    fn many_stars_stay_quick() {
        // Backtracking to every star would take 2^30 steps here.
        let g = Glob::new(&"a*".repeat(30));
        assert!(!g.matches(&"a".repeat(29)));
        assert!(g.matches(&"a".repeat(60)));
    }
}

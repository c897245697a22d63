use super::definition::parse;
use super::*;
use crate::domains::Family;
use crate::search::{ida_star, replay, Limits, Outcome, Prune, Step, Variant};
use crate::util::rng::Rng;

const CUBE2: &str = include_str!("../../../puzzles/2x2x2.tws");

/// Positions of the 2x2x2 (corner DBL fixed) by distance from solved: OEIS A079761 (each power
/// one move) and A079762 (quarter turns), the published God's-number table.
const HALF: [u32; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];
const QUARTER: [u32; 15] = [
    1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
];

const NEXT: Variant = Variant {
    step: Step::Next,
    prune: Prune::Reverse,
};

fn cube2(metric: Metric) -> Ksolve {
    Ksolve::new(&parse(CUBE2).unwrap(), metric, "2x2x2").unwrap()
}

/// 3^7: the turns of the 7 corners as a number base 3.
const TURNS: usize = 2187;

/// A 2x2x2 position's index: its corners' order (Lehmer code) and their turns.
fn rank(s: &Position) -> usize {
    let mut order = 0;
    for i in 0..7 {
        let smaller_after = (i + 1..7).filter(|&j| s.piece[j] < s.piece[i]).count();
        order = order * (7 - i) + smaller_after;
    }
    let turns = (0..7).fold(0, |t, i| t * 3 + usize::from(s.turn[i]));
    order * TURNS + turns
}

fn unrank(d: &Ksolve, r: usize) -> Position {
    let mut s = d.solved();
    let (mut order, mut turns) = (r / TURNS, r % TURNS);
    let mut code = [0usize; 7];
    for i in (0..7).rev() {
        code[i] = order % (7 - i);
        order /= 7 - i;
    }
    let mut left: Vec<u8> = (0..7).collect();
    for (i, &c) in code.iter().enumerate() {
        s.piece[i] = left.remove(c);
    }
    for i in (0..7).rev() {
        s.turn[i] = (turns % 3) as u8;
        turns /= 3;
    }
    s
}

/// Every position's distance from solved (`u8::MAX`: not reached), by a BFS over the domain's
/// moves.
fn bfs(d: &Ksolve) -> Vec<u8> {
    let mut dist = vec![u8::MAX; 5040 * TURNS];
    let solved = rank(&d.solved());
    dist[solved] = 0;
    let mut layer = vec![solved as u32];
    let mut depth = 0;
    while !layer.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &r in &layer {
            let s = unrank(d, r as usize);
            for &m in d.moves(&s) {
                let mut t = s.clone();
                d.apply(&mut t, m);
                let q = rank(&t);
                if dist[q] == u8::MAX {
                    dist[q] = depth;
                    next.push(q as u32);
                }
            }
        }
        layer = next;
    }
    dist
}

fn histogram(dist: &[u8]) -> Vec<u32> {
    let mut h = Vec::new();
    for &x in dist.iter().filter(|&&x| x != u8::MAX) {
        if h.len() <= usize::from(x) {
            h.resize(usize::from(x) + 1, 0);
        }
        h[usize::from(x)] += 1;
    }
    h
}

/// The BFS of both metrics gives the published distribution, and IDA* with the misplaced
/// bound gives the BFS distance of positions at every distance it can reach within a test's time.
#[test]
fn the_2x2x2_distances_are_the_published_ones_and_ida_agrees() {
    for (metric, published, deepest) in [
        (Metric::Half, &HALF[..], 7),
        (Metric::Quarter, &QUARTER[..], 8),
    ] {
        let d = cube2(metric);
        let dist = bfs(&d);
        assert_eq!(histogram(&dist), published, "{metric:?}");
        // A database of every corner is the distance itself, built by its own search and ranking.
        let whole = pattern::Pattern::new(&d, "pdb-CORNERS").unwrap();
        let table = whole.search(&|_| {}, &Default::default()).unwrap();
        // 7! * 3^6: the seventh corner's twist follows from the others'.
        assert_eq!(table.len() as u32, published.iter().sum::<u32>());
        assert_eq!(histogram(&table), published, "{metric:?}");
        for (r, &want) in dist.iter().enumerate().filter(|(_, &w)| w != u8::MAX) {
            let s = unrank(&d, r);
            assert_eq!(
                table[whole.rank_of(&s, None) as usize],
                want,
                "{metric:?} rank {r}"
            );
        }
        // The bundled dataset's rows of this metric hold their BFS distance.
        let mut rows = 0;
        for line in include_str!("../../../datasets/cube2.csv").lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            if f[7] == metric.name() {
                let s = d.start(f[3]).unwrap();
                assert_eq!(
                    u32::from(dist[rank(&s)]),
                    f[5].parse::<u32>().unwrap(),
                    "{line}"
                );
                rows += 1;
            }
        }
        assert_eq!(rows, published.len(), "{metric:?}");
        let h = Misplaced::of(&d);
        let mut rng = Rng::new(2222);
        let mut checked = vec![0; deepest + 1];
        while checked.iter().any(|&c| c < 4) {
            let r = rng.below(dist.len() as u64) as usize;
            let want = dist[r];
            if want == u8::MAX || usize::from(want) > deepest || checked[usize::from(want)] >= 4 {
                continue;
            }
            checked[usize::from(want)] += 1;
            let s = unrank(&d, r);
            assert!(h.estimate(h.init(&d, &s)) <= u32::from(want));
            let result = ida_star(&d, &h, &s, NEXT, Limits::default());
            let Outcome::Solved(path) = result.outcome else {
                panic!("{metric:?} rank {r}: {:?}", result.outcome);
            };
            assert!(replay(&d, &s, &path));
            assert_eq!(path.len(), usize::from(want), "{metric:?} rank {r}");
        }
    }
}

#[test]
fn powers_undo_and_are_named() {
    let d = cube2(Metric::Half);
    assert_eq!(d.names, ["U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'"]);
    let q = cube2(Metric::Quarter);
    let names: Vec<&str> = q
        .moves
        .iter()
        .map(|&k| q.names[usize::from(k)].as_str())
        .collect();
    assert_eq!(names, ["U", "U'", "R", "R'", "F", "F'"]);
    assert_eq!(q.labels, [0, 1, 2, 3, 4, 5]);
    let s = d.after("R U F' R2 U'").unwrap();
    for &m in d.moves(&s) {
        let mut t = s.clone();
        d.apply(&mut t, m);
        assert_ne!(t, s);
        d.apply(&mut t, d.inverse(&s, m));
        assert_eq!(t, s, "{}", d.names[usize::from(m)]);
    }
    // Four quarter turns, two half turns: solved.
    assert!(d.is_goal(&d.after("R R R R").unwrap()));
    assert!(d.is_goal(&d.after("F2 F2 U U'").unwrap()));
    assert!(!d.is_goal(&s));
    let e = d.after("R U x").unwrap_err();
    assert!(e.contains("move 3 'x' is not a move of 2x2x2"), "{e}");
}

#[test]
fn misplaced_updates_match_a_full_count() {
    for metric in Metric::ALL {
        let d = cube2(metric);
        let h = Misplaced::of(&d);
        // A face turn moves its four corners, whatever the power.
        assert_eq!(h.most, 4);
        let mut rng = Rng::new(7);
        let mut s = d.solved();
        for _ in 0..200 {
            let v = h.init(&d, &s);
            for &m in d.moves(&s) {
                let mut t = s.clone();
                let updated = h.update(&d, &s, m, v);
                d.apply(&mut t, m);
                assert_eq!(updated, h.init(&d, &t));
            }
            let moves = d.moves(&s);
            let m = moves[rng.below(moves.len() as u64) as usize];
            d.apply(&mut s, m);
        }
    }
}

/// The points a move's permutation sends (slot, turn) to are where `apply` puts that piece.
#[test]
fn point_permutations_follow_the_moves() {
    let d = cube2(Metric::Half);
    let perms = d.point_permutations();
    let s = d.after("R U2 F'").unwrap();
    for (&m, perm) in d.moves(&s).iter().zip(&perms) {
        let mut t = s.clone();
        d.apply(&mut t, m);
        for i in 0..d.slots {
            let point = i * 3 + usize::from(s.turn[i]);
            let to = usize::from(perm[point]);
            assert_eq!(
                (t.piece[to / 3], t.turn[to / 3]),
                (s.piece[i], (to % 3) as u8)
            );
        }
    }
}

/// Pieces that the solved position does not tell apart are one state however they are placed.
#[test]
fn repeated_pieces_are_colours() {
    // Four slots in a ring, two colours; T turns the ring, S swaps the first two slots.
    let text = "Set RING 4 1\nSolved\nRING\n1 1 2 2\nEnd\nMove T\nRING\n2 3 4 1\nEnd\n\
                Move S\nRING\n2 1 3 4\nEnd\n";
    let d = Ksolve::new(&parse(text).unwrap(), Metric::Half, "ring").unwrap();
    // S swaps two alike pieces: nothing to see.
    assert!(d.is_goal(&d.after("S").unwrap()));
    assert!(d.is_goal(&d.after("T2 T2").unwrap()));
    // The 24 orders of four pieces are 6 positions of two colours.
    let all = d.every_position(100).unwrap();
    assert_eq!(all.len(), 6);
    assert_eq!(all.iter().map(|(_, depth)| *depth).max(), Some(2));
    assert!(d.every_position(5).is_none());
    let s = d.after("T").unwrap();
    let r = ida_star(&d, &Misplaced::of(&d), &s, NEXT, Limits::default());
    let Outcome::Solved(path) = r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert_eq!(path.len(), 1);
}

/// Moves of order 2 and 3 are named and undone as twsearch names them.
#[test]
fn small_orders_name_and_undo() {
    let text = "Set S 3 1\nSolved\nS\n1 2 3\nEnd\nMove A\nS\n2 1 3\nEnd\nMove B\nS\n2 3 1\nEnd\n";
    let d = Ksolve::new(&parse(text).unwrap(), Metric::Half, "s3").unwrap();
    assert_eq!(d.names, ["A", "B", "B'"]);
    assert_eq!(d.inverse, [0, 2, 1]);
    let q = Ksolve::new(&parse(text).unwrap(), Metric::Quarter, "s3").unwrap();
    assert_eq!(q.moves, [0, 1, 2]);
    // S3 has 6 elements, at most 2 moves apart with these.
    let all = d.every_position(10).unwrap();
    assert_eq!(all.len(), 6);
}

#[test]
fn limits_are_refused_naming_the_line() {
    let big = "Set A 100 1\nSet B 29 1\nSolved\nA\n".to_string()
        + &(1..=100)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
        + "\nEnd\nMove M\nB\n2 1"
        + &(3..=29).map(|i| format!(" {i}")).collect::<String>()
        + "\nEnd\n";
    let e = Ksolve::new(&parse(&big).unwrap(), Metric::Half, "big")
        .err()
        .unwrap();
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("brings the slots to 129"), "{e}");
    let twice = "Set S 3 1\nSolved\nS\n1 2 3\nEnd\nMove R\nS\n2 3 1\nEnd\nMove R'\nS\n1 3 2\nEnd\n";
    let e = Ksolve::new(&parse(twice).unwrap(), Metric::Half, "twice")
        .err()
        .unwrap();
    assert_eq!(e.line, 10, "{e}");
    assert!(e.message.contains("two moves are named `R'`"), "{e}");
}

/// The positions twsearch prints for a few sequences on `puzzles/2x2x2.tws` (commit 0a8bfb07,
/// `twsearch --showpositions`): each slot's piece (from 1) and turn. Reading the file's
/// orientations per slot instead of per piece, or a permutation the other way round, leaves
/// every distance above the same but changes these.
#[test]
fn positions_are_twsearchs() {
    let d = cube2(Metric::Half);
    for (sequence, pieces, turns) in [
        ("R", [1, 3, 6, 4, 5, 7, 2], [0, 1, 2, 0, 0, 1, 2]),
        ("U", [4, 1, 2, 3, 5, 6, 7], [0; 7]),
        ("F", [1, 2, 4, 5, 6, 3, 7], [0, 0, 1, 2, 1, 2, 0]),
        ("R U F'", [4, 1, 7, 3, 6, 5, 2], [0, 0, 2, 0, 0, 2, 2]),
        ("F2 R' U2 F", [2, 6, 7, 3, 5, 1, 4], [2, 0, 2, 2, 2, 2, 2]),
    ] {
        let s = d.after(sequence).unwrap();
        let got: Vec<(u8, u8)> = (0..7).map(|i| d.slot(&s, i)).collect();
        let want: Vec<(u8, u8)> = pieces.iter().zip(turns).map(|(&p, t)| (p - 1, t)).collect();
        assert_eq!(got, want, "{sequence}");
    }
}

/// The positions twsearch prints for `puzzles/3x3x3.tws` (commit 0a8bfb07, `twsearch
/// --showpositions`): edges, then corners, each slot's piece (from 1) and turn.
#[test]
fn cube3_positions_are_twsearchs() {
    let def = parse(include_str!("../../../puzzles/3x3x3.tws")).unwrap();
    let d = Ksolve::new(&def, Metric::Half, "3x3x3").unwrap();
    type Pin = ([u8; 12], [u8; 12], [u8; 8], [u8; 8]);
    let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    let pins: [(&str, Pin); 6] = [
        (
            "R",
            (
                [1, 6, 3, 4, 5, 10, 2, 8, 9, 7, 11, 12],
                [0; 12],
                [1, 3, 6, 4, 5, 7, 2, 8],
                [0, 1, 2, 0, 0, 1, 2, 0],
            ),
        ),
        (
            "U",
            (
                [4, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12],
                [0; 12],
                [4, 1, 2, 3, 5, 6, 7, 8],
                [0; 8],
            ),
        ),
        (
            "F",
            (
                [1, 2, 5, 4, 9, 3, 7, 8, 6, 10, 11, 12],
                [0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
                [1, 2, 4, 5, 6, 3, 7, 8],
                [0, 0, 1, 2, 1, 2, 0, 0],
            ),
        ),
        (
            "R U F'",
            (
                [4, 1, 10, 3, 6, 9, 2, 8, 5, 7, 11, 12],
                [0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
                [4, 1, 7, 3, 6, 5, 2, 8],
                [0, 0, 2, 0, 0, 2, 2, 0],
            ),
        ),
        (
            "F2 R' U2 F",
            (
                [9, 4, 6, 7, 3, 1, 10, 8, 2, 5, 11, 12],
                [0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
                [2, 6, 7, 3, 5, 1, 4, 8],
                [2, 0, 2, 2, 2, 2, 2, 0],
            ),
        ),
        (
            superflip,
            (
                [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
                [1; 12],
                [1, 2, 3, 4, 5, 6, 7, 8],
                [0; 8],
            ),
        ),
    ];
    for (sequence, (edges, flips, corners, twists)) in pins {
        let s = d.after(sequence).unwrap();
        let want: Vec<(u8, u8)> = edges
            .iter()
            .zip(flips)
            .chain(corners.iter().zip(twists))
            .map(|(&p, t)| (p - 1, t))
            .collect();
        let got: Vec<(u8, u8)> = (0..20).map(|i| d.slot(&s, i)).collect();
        assert_eq!(got, want, "{sequence}");
    }
}

/// TopSpin (8,4): the flips of four reach the even half of the 8! orders (20,160), and IDA*
/// finds every sampled position's BFS distance.
#[test]
fn topspin_8_4_matches_its_bfs() {
    let def = parse(include_str!("../../../puzzles/topspin-8-4.tws")).unwrap();
    let d = Ksolve::new(&def, Metric::Half, "topspin-8-4").unwrap();
    let all = d.every_position(30_000).unwrap();
    assert_eq!(all.len(), 20_160);
    let h = Misplaced::of(&d);
    for (key, depth) in all.iter().step_by(97) {
        let s = d.unpack(key);
        assert!(h.estimate(h.init(&d, &s)) <= *depth);
        let r = ida_star(&d, &h, &s, NEXT, Limits::default());
        let Outcome::Solved(path) = r.outcome else {
            panic!("{:?}", r.outcome);
        };
        assert!(replay(&d, &s, &path));
        assert_eq!(path.len() as u32, *depth, "{}", d.tokens(&s));
    }
}

/// A scramble never follows a move by a power of the same move, and its sequence reaches its
/// position.
#[test]
fn scrambles_never_turn_one_move_twice_in_a_row() {
    let d = cube2(Metric::Half);
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        let (s, sequence) = d.scramble(20, |n| rng.below(n));
        assert_eq!(d.after(&sequence).unwrap(), s);
        let faces: Vec<char> = sequence
            .split(' ')
            .map(|m| m.chars().next().unwrap())
            .collect();
        assert_eq!(faces.len(), 20);
        assert!(faces.windows(2).all(|w| w[0] != w[1]), "{sequence}");
    }
}

/// The bundled 3x3x3 scrambles are what `generate --walk K --seed K` draws, and no optimal
/// length is above its scramble's.
#[test]
fn bundled_cube3_scrambles_are_generated_ones() {
    let def = parse(include_str!("../../../puzzles/3x3x3.tws")).unwrap();
    let d = Ksolve::new(&def, Metric::Half, "3x3x3").unwrap();
    for (file, text) in [
        ("cube3.csv", include_str!("../../../datasets/cube3.csv")),
        (
            "cube3-14.csv",
            include_str!("../../../datasets/cube3-14.csv"),
        ),
    ] {
        let mut drawn: Vec<(u32, Rng)> = Vec::new();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let moves = f[3].split(' ').count() as u32;
            if drawn.last().is_none_or(|(k, _)| *k != moves) {
                drawn.push((moves, Rng::new(u64::from(moves))));
            }
            let rng = &mut drawn.last_mut().unwrap().1;
            assert_eq!(
                d.scramble(moves, |n| rng.below(n)).1,
                f[3],
                "{file}: {line}"
            );
            if let Ok(optimal) = f[5].parse::<u32>() {
                assert!(optimal <= moves, "{file}: {line}");
            }
        }
    }
}

/// Schreier-Sims gives each bundled puzzle twsearch's group order (`twsearch --schreiersims`,
/// 0a8bfb07; the 2x2x2 with a corner held is 8! * 3^7 / 24 positions), and a random element's
/// position is reached by IDA* on the 2x2x2 at its BFS distance.
#[test]
fn group_orders_are_twsearchs() {
    for (file, order) in [
        ("2x2x2.tws", 3_674_160u128),
        ("3x3x3.tws", 43_252_003_274_489_856_000),
        ("topspin-8-4.tws", 20_160),
        ("topspin-17-4.tws", 177_843_714_048_000),
    ] {
        let text =
            std::fs::read_to_string(format!("{}/puzzles/{file}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        for metric in Metric::ALL {
            let d = Ksolve::new(&parse(&text).unwrap(), metric, file).unwrap();
            assert_eq!(d.group().order(), order, "{file} {metric:?}");
        }
    }
    let d = cube2(Metric::Half);
    let dist = bfs(&d);
    let group = d.group();
    let mut rng = Rng::new(7);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..40 {
        let s = d.position_of(&group.random(|n| rng.below(n)));
        let want = dist[rank(&s)];
        assert_ne!(want, u8::MAX, "a drawn position the moves reach");
        seen.insert(rank(&s));
        if want <= 7 {
            let r = ida_star(&d, &Misplaced::of(&d), &s, NEXT, Limits::default());
            let Outcome::Solved(path) = r.outcome else {
                panic!("unsolved");
            };
            assert_eq!(path.len(), usize::from(want));
        }
    }
    assert!(seen.len() > 35, "draws repeat: {}", seen.len());
    // The group element of a move sequence is the position the moves reach.
    let perms = d.point_permutations();
    let mut g: Vec<u16> = (0..perms[0].len() as u16).collect();
    for &m in &[3usize, 0, 8, 4] {
        g = g.iter().map(|&x| perms[m][usize::from(x)]).collect();
    }
    assert_eq!(d.position_of(&g), d.after("R U F' R2").unwrap());
}

/// A position the moves reach is taken; one with a corner twisted in place, or two edges
/// swapped, is refused; random elements' positions are reached. Pieces alike cannot be told.
#[test]
fn positions_off_the_group_are_refused() {
    let def = parse(include_str!("../../../puzzles/3x3x3.tws")).unwrap();
    let d = Ksolve::new(&def, Metric::Half, "3x3x3").unwrap();
    let s = d.after("R U F' D2 L").unwrap();
    let written = d.tokens(&s);
    assert_eq!(d.start(&written).unwrap(), s);
    let mut rng = Rng::new(11);
    for _ in 0..20 {
        let r = d.position_of(&d.group().random(|n| rng.below(n)));
        assert_eq!(d.reachable(&r), Some(true));
    }
    let mut twisted = s.clone();
    let c = d.sets[1].first;
    twisted.turn[c] = (twisted.turn[c] + 1) % 3;
    let mut swapped = s.clone();
    swapped.piece.swap(0, 1);
    swapped.turn.swap(0, 1);
    for off in [twisted, swapped] {
        assert_eq!(d.reachable(&off), Some(false));
        let why = d.start(&d.tokens(&off)).unwrap_err();
        assert!(
            why.contains("no sequence of 3x3x3's moves reaches this position"),
            "{why}"
        );
    }
    // Turns are written whole: left out, they are refused, not read as 0.
    let cut = &written[..written.rfind(" / ").unwrap()];
    let why = d.start(cut).unwrap_err();
    assert!(
        why.contains("set 'CORNERS': its 8 turns are missing"),
        "{cut}: {why}"
    );
    let text = "Set RING 4 1\nSolved\nRING\n1 1 2 2\nEnd\nMove T\nRING\n2 3 4 1\nEnd\n";
    let ring = Ksolve::new(&parse(text).unwrap(), Metric::Half, "ring").unwrap();
    assert_eq!(ring.reachable(&ring.solved()), None);
}

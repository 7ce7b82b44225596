//! Gyan Chaupar: one scenario test (or more) per rule of `docs/rules/gyan-chaupar.md` (GC-1 .. GC-9,
//! GC-Q1 .. GC-Q6).

use keliya_tests::{Scenario, check_rule_rows, compile};
use serde_json::json;

const GYAN: &str = "gyan-chaupar";
const SIX_TO_ENTER: &str = "gyan-chaupar/six-to-enter";
const SIX_AGAIN: &str = "gyan-chaupar/six-again";
const PLAYERS: [&str; 4] = ["red", "green", "yellow", "blue"];
const LADDERS: [(u32, u32); 10] = [
    (10, 23),
    (17, 69),
    (20, 32),
    (22, 60),
    (27, 41),
    (28, 50),
    (37, 66),
    (45, 67),
    (46, 62),
    (54, 68),
];
const SNAKES: [(u32, u32); 10] = [
    (12, 8),
    (16, 4),
    (24, 7),
    (29, 6),
    (44, 9),
    (52, 35),
    (55, 3),
    (61, 13),
    (63, 2),
    (72, 51),
];

/// A position of `ruleset`: each player's piece on its square (0: off the chart), `to_move` to throw.
fn at(ruleset: &str, squares: [u32; 4], to_move: &str) -> Scenario {
    let mut sites = serde_json::Map::new();
    let mut vars = serde_json::Map::new();
    for (p, n) in PLAYERS.iter().zip(squares) {
        let site = if n == 0 {
            format!("{p}-hand")
        } else {
            format!("s{n}")
        };
        let entry = sites.entry(site).or_insert_with(|| json!({}));
        entry[*p] = json!(1);
        vars.insert(p.to_string(), json!(n));
    }
    Scenario::at(
        ruleset,
        json!({"to_move": to_move, "sites": sites, "vars": {"square": vars}}),
    )
}

/// Red, on `from`, throws `throw` and moves; the square red's piece ends on.
fn red_moves(ruleset: &str, from: u32, throw: u32) -> (Scenario, u32) {
    let mut s = at(ruleset, [from, 0, 0, 0], "red");
    s.throw(&throw.to_string());
    s.play("move");
    let n = s.var("square", Some("red"));
    assert_eq!(
        s.count(&format!("s{n}"), "red"),
        1,
        "the piece is where square says"
    );
    (s, u32::try_from(n).unwrap())
}

#[test]
fn gc1_four_players_each_with_one_piece() {
    let s = Scenario::new(GYAN);
    assert_eq!(s.displays(), PLAYERS);
    for p in PLAYERS {
        assert_eq!(s.count(&format!("{p}-hand"), p), 1, "{p}");
        assert_eq!(s.var("square", Some(p)), 0);
    }
}

#[test]
fn gc2_the_chart_of_72_squares_numbered_to_and_fro() {
    let c = compile(GYAN);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 72);
    let chart = b.tracks.iter().find(|t| t.name == "chart").expect("chart");
    let names: Vec<&str> = chart.points.iter().map(|&s| b.name(s)).collect();
    let want: Vec<String> = (1..=72).map(|n| format!("s{n}")).collect();
    assert_eq!(names, want);
    for (sq, x, y) in [
        ("s1", 1.0, 8.0),
        ("s9", 9.0, 8.0),
        ("s10", 9.0, 7.0),
        ("s18", 1.0, 7.0),
        ("s19", 1.0, 6.0),
        ("s68", 5.0, 1.0),
        ("s72", 1.0, 1.0),
    ] {
        assert_eq!(b.at[b.site(sq).unwrap() as usize], (x, y), "{sq}");
    }
}

#[test]
fn gc3_one_die_thrown_in_turn() {
    let mut s = Scenario::new(GYAN);
    let rows = s.game().throws.as_ref().expect("throws");
    let values: Vec<i64> = rows.iter().map(|r| r.value).collect();
    assert_eq!(values, [1, 2, 3, 4, 5, 6]);
    for r in rows {
        assert!((r.probability - 1.0 / 6.0).abs() < 1e-9);
    }
    for (p, t) in PLAYERS.iter().zip(["6", "5", "1", "3"]) {
        assert_eq!(s.to_move(), *p);
        assert!(s.state.chance_due, "{p} throws first");
        s.throw(t);
        s.play("move");
    }
    assert_eq!(s.to_move(), "red", "one throw a turn, round the table");
}

#[test]
fn gc4_the_piece_moves_forward_by_the_throw() {
    assert_eq!(red_moves(GYAN, 0, 3).1, 3, "from off the chart to square 3");
    assert_eq!(red_moves(GYAN, 30, 5).1, 35);
    assert_eq!(red_moves(GYAN, 1, 6).1, 7);
    // Passing a ladder's foot or a snake's head does nothing.
    assert_eq!(red_moves(GYAN, 8, 3).1, 11, "past the ladder at 10");
    assert_eq!(red_moves(GYAN, 11, 2).1, 13, "past the snake at 12");
}

#[test]
fn gc5_a_ladders_foot_takes_the_piece_to_its_head() {
    for (foot, head) in LADDERS {
        assert_eq!(red_moves(GYAN, foot - 4, 4).1, head, "ladder {foot}");
    }
    // The climb is the move's end: the head of the ladder 17-69 is no foot.
    assert_eq!(red_moves(GYAN, 14, 3).1, 69);
}

#[test]
fn gc6_a_snakes_head_sends_the_piece_to_its_tail() {
    for (head, tail) in SNAKES {
        assert_eq!(red_moves(GYAN, head - 2, 2).1, tail, "snake {head}");
    }
    // From 8, a throw of 4 ends at the head of the snake back to 8: the piece is where it was.
    let (s, n) = red_moves(GYAN, 8, 4);
    assert_eq!(n, 8);
    assert_eq!(s.count("s8", "red"), 1, "one piece, not two");
    assert_eq!(s.count("red-hand", "red"), 0);
}

#[test]
fn gc7_pieces_never_meet() {
    let mut s = at(GYAN, [30, 33, 33, 0], "red");
    assert_eq!(s.count("s33", "green") + s.count("s33", "yellow"), 2);
    s.throw("3");
    s.play("move");
    assert_eq!(s.count("s33", "red"), 1);
    assert_eq!(s.count("s33", "green"), 1, "nobody is sent back");
    assert_eq!(s.count("s33", "yellow"), 1);
    assert_eq!(s.var("square", Some("green")), 33);
}

#[test]
fn gc8_a_throw_past_72_is_not_used() {
    let mut s = at(GYAN, [70, 0, 0, 0], "red");
    s.throw("3");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.count("s70", "red"), 1);
    assert_eq!(s.to_move(), "green");
    // Exactly to 72 is used, and the snake there sends the piece back to 51.
    assert_eq!(red_moves(GYAN, 70, 2).1, 51);
}

#[test]
fn gc9_the_first_to_come_exactly_to_68_wins() {
    let (s, n) = red_moves(GYAN, 65, 3);
    assert_eq!(n, 68);
    assert_eq!(s.winner(), "red");
    assert_eq!(s.ended_by(), "advance");
    let (s, n) = red_moves(GYAN, 48, 6);
    assert_eq!(n, 68, "up the ladder from 54");
    assert_eq!(s.winner(), "red");
    let (s, n) = red_moves(GYAN, 66, 3);
    assert_eq!(n, 69);
    assert_eq!(s.winner(), "none", "past 68 is no win");
}

#[test]
fn gc_q1_the_chart_is_johari_72_square_chart() {
    let c = compile(GYAN);
    let b = &c.game().board;
    for (name, jumps) in [("ladders", &LADDERS), ("snakes", &SNAKES)] {
        let t = b.tracks.iter().find(|t| t.name == name).expect(name);
        let pairs: Vec<(String, String)> = t
            .points
            .chunks(3)
            .map(|c| (b.name(c[0]).to_string(), b.name(c[1]).to_string()))
            .collect();
        let want: Vec<(String, String)> = jumps
            .iter()
            .map(|(a, z)| (format!("s{a}"), format!("s{z}")))
            .collect();
        assert_eq!(pairs, want, "{name}");
        assert!(t.points.chunks(3).all(|c| b.name(c[2]) == "jump-gap"));
    }
    // No square is both the start of one jump and the end of another.
    let starts: Vec<u32> = LADDERS.iter().chain(&SNAKES).map(|j| j.0).collect();
    assert!(
        LADDERS
            .iter()
            .chain(&SNAKES)
            .all(|j| !starts.contains(&j.1))
    );
    assert!(LADDERS.iter().all(|(a, z)| a < z) && SNAKES.iter().all(|(a, z)| a > z));
}

#[test]
fn gc_q2_the_first_throw_counts_from_nothing_and_a_six_to_enter_is_a_delta() {
    assert_eq!(red_moves(GYAN, 0, 4).1, 4);
    let mut s = at(SIX_TO_ENTER, [0, 0, 0, 0], "red");
    s.throw("4");
    assert_eq!(s.moves(), ["pass"], "no six, no birth");
    s.play("pass");
    assert_eq!(s.count("red-hand", "red"), 1);
    assert_eq!(red_moves(SIX_TO_ENTER, 0, 6).1, 6);
    assert_eq!(
        red_moves(SIX_TO_ENTER, 6, 4).1,
        23,
        "on the chart, any throw, ladder 10"
    );
}

#[test]
fn gc_q3_a_piece_waits_when_the_throw_overshoots() {
    for (from, throw) in [(67, 6), (69, 4), (72 - 1, 2)] {
        let mut s = at(GYAN, [from, 0, 0, 0], "red");
        s.throw(&throw.to_string());
        assert_eq!(s.moves(), ["pass"], "{from} + {throw}");
    }
}

#[test]
fn gc_q4_the_game_ends_with_the_first_to_arrive() {
    let mut s = at(GYAN, [10, 65, 50, 3], "green");
    s.throw("3");
    s.play("move");
    assert_eq!(s.winner(), "green");
    assert!(s.result().is_some());
    assert!(s.moves().is_empty(), "nobody plays on");
}

#[test]
fn gc_q5_each_player_moves_only_its_own_piece() {
    let mut s = Scenario::new(GYAN);
    for (i, p) in PLAYERS.iter().enumerate() {
        let t = i as u32 + 1;
        s.throw(&t.to_string());
        s.play("move");
        assert_eq!(s.count(&format!("s{t}"), p), 1, "{p}");
        assert_eq!(s.var("square", Some(p)), i64::from(t));
    }
    for (i, p) in PLAYERS.iter().enumerate() {
        for q in PLAYERS.iter().skip(i + 1) {
            assert_eq!(
                s.count(&format!("s{}", i + 1), q),
                0,
                "{p}'s square holds no {q}"
            );
        }
    }
}

#[test]
fn gc_q6_one_throw_a_turn_and_a_six_again_is_a_delta() {
    let mut s = at(GYAN, [0, 0, 0, 0], "red");
    s.throw("6");
    s.play("move");
    assert_eq!(s.to_move(), "green");
    let mut s = at(SIX_AGAIN, [0, 0, 0, 0], "red");
    s.throw("6");
    s.play("move");
    assert_eq!(s.to_move(), "red", "a six throws again");
    s.throw("2");
    s.play("move");
    assert_eq!(s.var("square", Some("red")), 8);
    assert_eq!(s.to_move(), "green");
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=9)
        .map(|i| format!("GC-{i}"))
        .chain((1..=6).map(|i| format!("GC-Q{i}")))
        .collect();
    check_rule_rows("gyan-chaupar.md", "gyan_chaupar.rs", &ids, &["gc"]);
}

#[test]
fn gc_q5_fewer_players_are_deltas_that_remove_players() {
    // Gyan Chaupar moves `token[mover]`; its two- and three-player games only remove players.
    for (name, players) in [
        ("gyan-chaupar/two-players", 2),
        ("gyan-chaupar/three-players", 3),
    ] {
        let compiled = keliya_tests::compile(name);
        let g = compiled.game();
        assert_eq!(g.players.len(), players, "{name}");
        assert_eq!(g.roles, ["token"], "{name}");
        for p in 0..players as u8 {
            let piece = g.piece_of(0, p).expect("each player has a token");
            assert_eq!(g.pieces[piece as usize].owner, Some(p), "{name}");
        }
        let mut s = Scenario::new(name);
        s.throw("3");
        s.play("move");
        assert_eq!(s.count("s3", "red"), 1, "{name}: red's own piece moved");
        assert_eq!(s.to_move(), "green");
        s.throw("4");
        s.play("move");
        assert_eq!(s.count("s4", "green"), 1, "{name}: green's own piece moved");
    }
}

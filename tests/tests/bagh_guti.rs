//! Bagh Guti: one scenario test (or more) per rule of `docs/rules/bagh-guti.md` (BG-1 .. BG-10,
//! BG-Q1 .. BG-Q5), the variant Bagha Guti, and the outcome of 1,000 seeded random games.

use keliya_tests::{BoardRow, Scenario, check_board_table, check_rule_rows, compile};
use serde_json::json;

const GUTI: &str = "bagh-guti";
const RESTACK: &str = "bagh-guti/restack";
const SINGLE: &str = "bagh-guti/single-leap";
const ALQUERQUE: &str = "bagh-guti/alquerque";
const BAGHA: &str = "bagh-guti/bagha-guti";
const HEAPS: [&str; 4] = ["r2c2", "r2c4", "r4c2", "r4c4"];

/// A position: tigers on `tigers`, `goats` as (point, how many), `to_move` to play, `captures` made.
fn position(
    tigers: &[&str],
    goats: &[(&str, u16)],
    to_move: &str,
    captures: i64,
) -> serde_json::Value {
    let mut sites = serde_json::Map::new();
    for t in tigers {
        sites.insert(t.to_string(), json!({"hunter": 1}));
    }
    for (p, n) in goats {
        assert!(!sites.contains_key(*p), "{p} given twice");
        sites.insert(p.to_string(), json!({"prey": n}));
    }
    json!({"to_move": to_move, "sites": sites, "vars": {"captures": {"hunter": captures, "prey": 0}}})
}

/// The start: the tigers on the middles of the top and bottom sides, four heaps of five.
fn start(to_move: &str) -> serde_json::Value {
    position(
        &["r1c3", "r5c3"],
        &[("r2c2", 5), ("r2c4", 5), ("r4c2", 5), ("r4c4", 5)],
        to_move,
        0,
    )
}

/// The moves of one piece: those written from `point`.
fn moves_from(s: &Scenario, point: &str) -> Vec<String> {
    s.moves()
        .into_iter()
        .filter(|m| m.starts_with(point) && m.len() > point.len())
        .collect()
}

/// The tigers' leaps and chains, the moves written with an `x`.
fn leaps(s: &Scenario) -> Vec<String> {
    s.moves().into_iter().filter(|m| m.contains('x')).collect()
}

#[test]
fn bg1_two_tigers_against_twenty_goats() {
    let s = Scenario::new(GUTI);
    assert_eq!(s.count("r1c3", "hunter") + s.count("r5c3", "hunter"), 2);
    let goats: u16 = HEAPS.iter().map(|h| s.count(h, "prey")).sum();
    assert_eq!(goats, 20);
    assert_eq!(s.count("prey-hand", "prey"), 0);
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    assert_eq!(s.displays(), ["tigers", "goats"]);
}

#[test]
fn bg2_the_board_of_25_points_with_the_diamond_through_the_middles_of_the_sides() {
    let c = compile(GUTI);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 25);
    assert_eq!(
        b.edges.len(),
        48,
        "40 along rows and columns, 8 on the diamond"
    );
    let leaps: usize = b.playing_sites().map(|s| b.leaps(s).len()).sum();
    assert_eq!(leaps, 68);
    // Point, coordinates, neighbours, leaps (over -> land): only the diamond is diagonal, so the centre
    // and the corners have four and two neighbours.
    let table: &[BoardRow<'_>] = &[
        (
            "r1c1",
            (1.0, 1.0),
            &["r1c2", "r2c1"],
            &[("r1c2", "r1c3"), ("r2c1", "r3c1")],
        ),
        (
            "r1c2",
            (2.0, 1.0),
            &["r1c1", "r1c3", "r2c2"],
            &[("r1c3", "r1c4"), ("r2c2", "r3c2")],
        ),
        (
            "r1c3",
            (3.0, 1.0),
            &["r1c2", "r1c4", "r2c2", "r2c3", "r2c4"],
            &[
                ("r1c2", "r1c1"),
                ("r1c4", "r1c5"),
                ("r2c2", "r3c1"),
                ("r2c3", "r3c3"),
                ("r2c4", "r3c5"),
            ],
        ),
        (
            "r1c4",
            (4.0, 1.0),
            &["r1c3", "r1c5", "r2c4"],
            &[("r1c3", "r1c2"), ("r2c4", "r3c4")],
        ),
        (
            "r1c5",
            (5.0, 1.0),
            &["r1c4", "r2c5"],
            &[("r1c4", "r1c3"), ("r2c5", "r3c5")],
        ),
        (
            "r2c1",
            (1.0, 2.0),
            &["r1c1", "r2c2", "r3c1"],
            &[("r2c2", "r2c3"), ("r3c1", "r4c1")],
        ),
        (
            "r2c2",
            (2.0, 2.0),
            &["r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2"],
            &[("r2c3", "r2c4"), ("r3c2", "r4c2")],
        ),
        (
            "r2c3",
            (3.0, 2.0),
            &["r1c3", "r2c2", "r2c4", "r3c3"],
            &[("r2c2", "r2c1"), ("r2c4", "r2c5"), ("r3c3", "r4c3")],
        ),
        (
            "r2c4",
            (4.0, 2.0),
            &["r1c3", "r1c4", "r2c3", "r2c5", "r3c4", "r3c5"],
            &[("r2c3", "r2c2"), ("r3c4", "r4c4")],
        ),
        (
            "r2c5",
            (5.0, 2.0),
            &["r1c5", "r2c4", "r3c5"],
            &[("r2c4", "r2c3"), ("r3c5", "r4c5")],
        ),
        (
            "r3c1",
            (1.0, 3.0),
            &["r2c1", "r2c2", "r3c2", "r4c1", "r4c2"],
            &[
                ("r2c1", "r1c1"),
                ("r2c2", "r1c3"),
                ("r3c2", "r3c3"),
                ("r4c1", "r5c1"),
                ("r4c2", "r5c3"),
            ],
        ),
        (
            "r3c2",
            (2.0, 3.0),
            &["r2c2", "r3c1", "r3c3", "r4c2"],
            &[("r2c2", "r1c2"), ("r3c3", "r3c4"), ("r4c2", "r5c2")],
        ),
        (
            "r3c3",
            (3.0, 3.0),
            &["r2c3", "r3c2", "r3c4", "r4c3"],
            &[
                ("r2c3", "r1c3"),
                ("r3c2", "r3c1"),
                ("r3c4", "r3c5"),
                ("r4c3", "r5c3"),
            ],
        ),
        (
            "r3c4",
            (4.0, 3.0),
            &["r2c4", "r3c3", "r3c5", "r4c4"],
            &[("r2c4", "r1c4"), ("r3c3", "r3c2"), ("r4c4", "r5c4")],
        ),
        (
            "r3c5",
            (5.0, 3.0),
            &["r2c4", "r2c5", "r3c4", "r4c4", "r4c5"],
            &[
                ("r2c4", "r1c3"),
                ("r2c5", "r1c5"),
                ("r3c4", "r3c3"),
                ("r4c4", "r5c3"),
                ("r4c5", "r5c5"),
            ],
        ),
        (
            "r4c1",
            (1.0, 4.0),
            &["r3c1", "r4c2", "r5c1"],
            &[("r3c1", "r2c1"), ("r4c2", "r4c3")],
        ),
        (
            "r4c2",
            (2.0, 4.0),
            &["r3c1", "r3c2", "r4c1", "r4c3", "r5c2", "r5c3"],
            &[("r3c2", "r2c2"), ("r4c3", "r4c4")],
        ),
        (
            "r4c3",
            (3.0, 4.0),
            &["r3c3", "r4c2", "r4c4", "r5c3"],
            &[("r3c3", "r2c3"), ("r4c2", "r4c1"), ("r4c4", "r4c5")],
        ),
        (
            "r4c4",
            (4.0, 4.0),
            &["r3c4", "r3c5", "r4c3", "r4c5", "r5c3", "r5c4"],
            &[("r3c4", "r2c4"), ("r4c3", "r4c2")],
        ),
        (
            "r4c5",
            (5.0, 4.0),
            &["r3c5", "r4c4", "r5c5"],
            &[("r3c5", "r2c5"), ("r4c4", "r4c3")],
        ),
        (
            "r5c1",
            (1.0, 5.0),
            &["r4c1", "r5c2"],
            &[("r4c1", "r3c1"), ("r5c2", "r5c3")],
        ),
        (
            "r5c2",
            (2.0, 5.0),
            &["r4c2", "r5c1", "r5c3"],
            &[("r4c2", "r3c2"), ("r5c3", "r5c4")],
        ),
        (
            "r5c3",
            (3.0, 5.0),
            &["r4c2", "r4c3", "r4c4", "r5c2", "r5c4"],
            &[
                ("r4c2", "r3c1"),
                ("r4c3", "r3c3"),
                ("r4c4", "r3c5"),
                ("r5c2", "r5c1"),
                ("r5c4", "r5c5"),
            ],
        ),
        (
            "r5c4",
            (4.0, 5.0),
            &["r4c4", "r5c3", "r5c5"],
            &[("r4c4", "r3c4"), ("r5c3", "r5c2")],
        ),
        (
            "r5c5",
            (5.0, 5.0),
            &["r4c5", "r5c4"],
            &[("r4c5", "r3c5"), ("r5c4", "r5c3")],
        ),
    ];
    check_board_table(b, table);
}

#[test]
fn bg3_the_tigers_on_two_opposite_middles_and_the_goats_in_four_heaps_of_five() {
    let s = Scenario::new(GUTI);
    assert_eq!(s.count("r1c3", "hunter"), 1);
    assert_eq!(s.count("r5c3", "hunter"), 1);
    let g = s.game();
    for h in HEAPS {
        assert_eq!(s.count(h, "prey"), 5, "a heap of five on {h}");
        let site = g.board.site(h).expect("the point");
        assert!(g.board.has_tag(site, "heap"), "{h} is a heap's point");
    }
    // The heaps stand on the diamond, each beside a tiger.
    let n: Vec<&str> = g
        .board
        .neighbours(g.board.site("r1c3").unwrap())
        .iter()
        .map(|&x| g.board.name(x))
        .collect();
    assert!(n.contains(&"r2c2") && n.contains(&"r2c4"), "{n:?}");
}

#[test]
fn bg4_the_goats_move_first_and_the_sides_alternate() {
    let mut s = Scenario::new(GUTI);
    assert_eq!(s.to_move(), "prey");
    s.play("r4c4-r4c5");
    assert_eq!(s.to_move(), "hunter");
    s.play("r1c3-r1c2");
    assert_eq!(s.to_move(), "prey");
    s.play("r2c2-r2c1");
    assert_eq!(s.to_move(), "hunter");
}

#[test]
fn bg5_a_goat_leaves_a_heap_one_at_a_time_and_never_joins_another_goat() {
    let mut s = Scenario::new(GUTI);
    // Five steps from each heap: every vacant neighbour; none onto a tiger.
    assert_eq!(s.moves().len(), 20);
    assert_eq!(
        moves_from(&s, "r2c2"),
        [
            "r2c2-r1c2",
            "r2c2-r2c1",
            "r2c2-r2c3",
            "r2c2-r3c1",
            "r2c2-r3c2"
        ]
    );
    s.play("r2c2-r2c3");
    assert_eq!(s.count("r2c2", "prey"), 4, "one goat left the heap");
    assert_eq!(s.count("r2c3", "prey"), 1);
    s.play("r1c3-r1c2");
    // The lone goat may not go back onto its heap nor onto the next one, and the heap may not send a goat
    // onto it; the heap's goats may take the point the tiger left.
    assert!(!s.can("r2c3-r2c2") && !s.can("r2c3-r2c4"));
    assert!(!s.can("r2c2-r2c3"));
    assert!(s.can("r2c2-r1c3") && s.can("r2c3-r1c3"));
    assert!(
        s.moves().iter().all(|m| m.contains('-')),
        "goats never capture"
    );
}

#[test]
fn bg6_a_tiger_steps_along_the_lines_to_vacant_points() {
    let s = Scenario::at(GUTI, start("hunter"));
    let steps: Vec<String> = moves_from(&s, "r1c3")
        .into_iter()
        .filter(|m| m.contains('-'))
        .collect();
    assert_eq!(steps, ["r1c3-r1c2", "r1c3-r1c4", "r1c3-r2c3"]);
    // The centre is off the diamond: four neighbours only.
    let s = Scenario::at(
        GUTI,
        position(&["r3c3", "r5c3"], &[("r1c1", 1)], "hunter", 19),
    );
    assert_eq!(
        moves_from(&s, "r3c3"),
        ["r3c3-r2c3", "r3c3-r3c2", "r3c3-r3c4", "r3c3-r4c3"]
    );
}

#[test]
fn bg7_a_leap_over_a_heap_takes_one_goat() {
    let mut s = Scenario::at(GUTI, start("hunter"));
    assert_eq!(
        leaps(&s),
        ["r1c3xr3c1", "r1c3xr3c5", "r5c3xr3c1", "r5c3xr3c5"]
    );
    s.play("r1c3xr3c1");
    assert_eq!(s.count("r2c2", "prey"), 4, "one goat of five is taken");
    assert_eq!(s.count("r3c1", "hunter"), 1);
    assert_eq!(s.var("captures", Some("hunter")), 1);
    assert_eq!(s.count("r2c2", "taken"), 0);
    assert_eq!(s.to_move(), "prey");
}

#[test]
fn bg7_capturing_is_optional_and_never_over_a_tiger() {
    let s = Scenario::at(GUTI, start("hunter"));
    assert!(s.can("r1c3xr3c1") && s.can("r1c3-r1c2") && s.can("r5c3-r5c4"));
    let s = Scenario::at(
        GUTI,
        position(&["r1c3", "r2c3"], &[("r1c2", 1), ("r5c5", 3)], "hunter", 16),
    );
    assert!(!s.can("r1c3xr3c3"), "r2c3 holds a tiger");
    assert!(s.can("r1c3xr1c1"));
}

/// A tiger on r1c3 with a chain of three leaps before it: over the heap on r2c2 (three goats) to r3c1,
/// over r3c2 to r3c3, over r4c3 to r5c3.
fn chain_position() -> serde_json::Value {
    position(
        &["r1c3", "r5c5"],
        &[("r2c2", 3), ("r3c2", 1), ("r4c3", 1)],
        "hunter",
        15,
    )
}

#[test]
fn bg8_the_same_tiger_may_go_on_leaping_and_stop_after_any_leap() {
    let mut s = Scenario::at(GUTI, chain_position());
    assert_eq!(
        leaps(&s),
        ["r1c3xr3c1", "r1c3xr3c1xr3c3", "r1c3xr3c1xr3c3xr5c3"]
    );
    s.play("r1c3xr3c1xr3c3xr5c3");
    assert_eq!(s.count("r2c2", "prey"), 2, "one goat from the heap");
    assert_eq!(s.count("r3c2", "prey"), 0);
    assert_eq!(s.count("r4c3", "prey"), 0);
    assert_eq!(s.count("r5c3", "hunter"), 1);
    assert_eq!(s.var("captures", Some("hunter")), 18);
    assert_eq!(s.to_move(), "prey", "the chain is one move");
    let taken: u16 = ["r2c2", "r3c2", "r4c3"]
        .iter()
        .map(|p| s.count(p, "taken"))
        .sum();
    assert_eq!(taken, 0, "no leapt goat stays on the board");
}

#[test]
fn bg8_a_chain_never_leaps_the_same_point_twice() {
    // From r3c1 the tiger could leap the heap back onto r1c3, the point it left: not in the same turn.
    let s = Scenario::at(
        GUTI,
        position(&["r1c3", "r5c5"], &[("r2c2", 5)], "hunter", 15),
    );
    assert_eq!(leaps(&s), ["r1c3xr3c1"]);
}

/// Seventeen points of goats around the two tigers: neither can step or leap.
const TRAP: [&str; 17] = [
    "r1c2", "r1c4", "r2c3", "r2c2", "r2c4", "r1c1", "r1c5", "r3c3", "r3c1", "r3c5", "r5c2", "r5c4",
    "r4c3", "r4c2", "r4c4", "r5c1", "r5c5",
];

fn trap(to_move: &str, without: &str) -> serde_json::Value {
    let goats: Vec<(&str, u16)> = TRAP
        .iter()
        .filter(|&&p| p != without)
        .map(|&p| (p, if HEAPS.contains(&p) { 2 } else { 1 }))
        .collect();
    position(&["r1c3", "r5c3"], &goats, to_move, 0)
}

#[test]
fn bg9_the_goats_win_when_the_tigers_cannot_move() {
    let s = Scenario::at(GUTI, trap("hunter", ""));
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
    // Only the tigers' own turn counts.
    let s = Scenario::at(GUTI, trap("prey", ""));
    assert_eq!(s.winner(), "none");
    // With the centre free, both tigers can leap onto it: not trapped.
    let s = Scenario::at(GUTI, trap("hunter", "r3c3"));
    assert_eq!(s.winner(), "none");
    assert!(s.can("r1c3xr3c3") && s.can("r5c3xr3c3"));
}

#[test]
fn bg10_the_tigers_win_when_the_last_goat_is_taken() {
    let mut s = Scenario::at(
        GUTI,
        position(&["r1c3", "r5c5"], &[("r2c2", 1)], "hunter", 19),
    );
    s.play("r1c3xr3c1");
    assert_eq!(s.var("captures", Some("hunter")), 20);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
    // Nineteen taken is not enough.
    let mut s = Scenario::at(
        GUTI,
        position(&["r1c3", "r5c5"], &[("r2c2", 2)], "hunter", 18),
    );
    s.play("r1c3xr3c1");
    assert_eq!(s.winner(), "none");
}

#[test]
fn bg_q1_goats_never_restack_and_restacking_on_the_heaps_points_is_a_delta() {
    let at = || {
        position(
            &["r1c3", "r5c3"],
            &[("r2c2", 4), ("r2c3", 1), ("r3c3", 1), ("r2c4", 5)],
            "prey",
            9,
        )
    };
    let s = Scenario::at(GUTI, at());
    assert_eq!(moves_from(&s, "r2c3"), Vec::<String>::new());
    let mut s = Scenario::at(RESTACK, at());
    assert_eq!(moves_from(&s, "r2c3"), ["r2c3-r2c2", "r2c3-r2c4"]);
    assert!(!s.can("r2c3-r3c3"), "r3c3 is not a heap's point");
    s.play("r2c3-r2c4");
    assert_eq!(s.count("r2c4", "prey"), 6, "the heap grows again");
}

#[test]
fn bg_q2_a_point_is_leapt_once_a_turn() {
    // Two leaps over two different points, then the way back over the first is closed.
    let s = Scenario::at(
        GUTI,
        position(&["r1c3", "r5c5"], &[("r2c2", 3), ("r3c2", 2)], "hunter", 15),
    );
    assert_eq!(leaps(&s), ["r1c3xr3c1", "r1c3xr3c1xr3c3"]);
    assert!(!s.can("r1c3xr3c1xr3c3xr3c1"), "r3c2 again");
}

#[test]
fn bg_q3_chains_of_leaps_and_one_leap_a_turn_is_a_delta() {
    let mut s = Scenario::at(SINGLE, chain_position());
    assert_eq!(leaps(&s), ["r1c3xr3c1"]);
    s.play("r1c3xr3c1");
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.var("captures", Some("hunter")), 16);
    assert!(Scenario::at(GUTI, chain_position()).can("r1c3xr3c1xr3c3xr5c3"));
}

#[test]
fn bg_q4_the_diamond_board_and_the_alquerque_board_is_a_delta() {
    let c = compile(ALQUERQUE);
    let b = &c.game().board;
    assert_eq!(b.edges.len(), 56, "the two long diagonals added");
    let leaps: usize = b.playing_sites().map(|s| b.leaps(s).len()).sum();
    assert_eq!(leaps, 80);
    let s = Scenario::at(
        ALQUERQUE,
        position(&["r3c3", "r5c3"], &[("r2c2", 2), ("r5c1", 1)], "hunter", 17),
    );
    assert_eq!(moves_from(&s, "r3c3").len(), 8, "seven steps and a leap");
    assert!(s.can("r3c3xr1c1"));
    let s = Scenario::at(
        GUTI,
        position(&["r3c3", "r5c3"], &[("r2c2", 2), ("r5c1", 1)], "hunter", 17),
    );
    assert!(!s.can("r3c3xr1c1") && !s.can("r3c3-r2c4"));
}

/// Two tigers and one goat far apart: nothing to capture.
fn quiet_position() -> serde_json::Value {
    position(&["r1c1", "r5c5"], &[("r3c3", 1)], "hunter", 19)
}

#[test]
fn bg_q5_a_position_met_a_third_time_is_a_draw() {
    let mut s = Scenario::at(GUTI, quiet_position());
    s.play("r1c1-r1c2").play("r3c3-r3c4");
    s.play("r1c2-r1c1").play("r3c4-r3c3");
    assert_eq!(s.winner(), "none", "twice");
    s.play("r1c1-r1c2").play("r3c3-r3c4").play("r1c2-r1c1");
    assert_eq!(s.winner(), "none");
    s.play("r3c4-r3c3");
    assert_eq!(s.winner(), "draw", "the third time");
    assert_eq!(s.ended_by(), "cap:repetition");
}

#[test]
fn bg_q5_three_hundred_quiet_turns_draw_and_one_hundred_do_not() {
    let mut st = quiet_position();
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(GUTI, st);
    s.play("r1c1-r1c2");
    assert_eq!(s.winner(), "none", "100 quiet turns are not a draw here");
    let mut st = quiet_position();
    st["quiet_turns"] = json!(299);
    let mut s = Scenario::at(GUTI, st);
    s.play("r1c1-r1c2");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "cap:no_capture_turns");
}

#[test]
fn bg_q5_the_game_is_drawn_at_its_thousandth_turn() {
    let mut st = quiet_position();
    st["turn"] = json!(999);
    let mut s = Scenario::at(GUTI, st);
    s.play("r1c1-r1c2");
    assert_eq!(s.ended_by(), "cap:max_turns");
}

#[test]
fn bg_q5_goats_that_cannot_move_pass() {
    let mut s = Scenario::at(
        GUTI,
        position(&["r1c2", "r2c1"], &[("r1c1", 3)], "prey", 17),
    );
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "hunter");
}

#[test]
fn bagha_guti_one_tiger_placed_anywhere_against_a_heap_of_21_on_the_centre() {
    let mut s = Scenario::new(BAGHA);
    assert_eq!(s.count("r3c3", "prey"), 21);
    assert_eq!(s.count("hunter-hand", "hunter"), 1);
    assert_eq!(s.to_move(), "hunter");
    assert_eq!(s.moves().len(), 24, "any vacant point");
    s.play("r2c3");
    assert_eq!(s.to_move(), "prey");
    // The alquerque board: eight ways off the heap, one blocked by the tiger.
    assert_eq!(moves_from(&s, "r3c3").len(), 7);
    s.play("r3c3-r4c4");
    s.play("r2c3xr4c3");
    assert_eq!(s.count("r3c3", "prey"), 19, "one goat of the heap taken");
    assert_eq!(s.var("captures", Some("hunter")), 1);
}

#[test]
fn bagha_guti_one_leap_a_turn_and_every_goat_to_win() {
    // In Bagh Guti the tiger could go on over r4c4 to r4c5; in Bagha Guti it leaps once.
    let at = || position(&["r2c3"], &[("r3c3", 5), ("r4c4", 1)], "hunter", 15);
    let both = position(&["r2c3", "r5c5"], &[("r3c3", 5), ("r4c4", 1)], "hunter", 14);
    assert!(Scenario::at(GUTI, both).can("r2c3xr4c3xr4c5"));
    let s = Scenario::at(BAGHA, at());
    assert_eq!(leaps(&s), ["r2c3xr4c3"]);
    let mut s = Scenario::at(BAGHA, position(&["r2c3"], &[("r3c3", 1)], "hunter", 20));
    s.play("r2c3xr4c3");
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
}

#[test]
fn random_games_end_by_their_own_rules() {
    // 1,000 seeded games of uniformly random moves: at most a fifth may end by a cap (repetition
    // draws included). Measured: tigers 816, goats 1, capped 183 (repetition 177, quiet turns 6).
    let c = compile(GUTI);
    let stats = keliya_play::simulate::simulate(c.game(), 1000, 1).expect("games play");
    assert_eq!(stats.games, 1000);
    assert!(stats.capped * 5 <= stats.games, "capped {}", stats.capped);
    let wins: u64 = stats.wins.iter().sum();
    assert_eq!(wins + stats.draws, 1000);
    assert!(
        stats.wins.iter().all(|&w| w > 0),
        "both sides win some: {:?}",
        stats.wins
    );
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=10)
        .map(|i| format!("BG-{i}"))
        .chain((1..=5).map(|i| format!("BG-Q{i}")))
        .collect();
    check_rule_rows(
        "bagh-guti.md",
        "bagh_guti.rs",
        &ids,
        &["bg", "bagha", "random"],
    );
}

//! Pulijudamu: one scenario test (or more) per rule of `docs/rules/pulijudamu.md` (PJ-1 .. PJ-8,
//! PJ-Q1 .. PJ-Q3), the number deltas and the alternatives.

use std::collections::BTreeSet;

use keliya_tests::hunt_position as position;
use keliya_tests::{BoardRow, Scenario, check_board_table, check_rule_rows, compile};
use serde_json::json;

const PULI: &str = "pulijudamu";
const ENTERED: &str = "pulijudamu/tigers-entered";
const HALF: &str = "pulijudamu/half-the-lambs";
const ONE: &str = "pulijudamu/one-tiger";
const FOUR: &str = "pulijudamu/four-tigers";
const START: [&str; 3] = ["1A", "2B", "2D"];
const POINTS: [&str; 19] = [
    "1A", "2A", "2B", "2C", "2D", "2E", "3A", "3B", "3C", "3D", "3E", "4A", "4B", "4C", "4D", "4E",
    "5A", "5B", "5C",
];

fn all_but(but: &[&str]) -> Vec<&'static str> {
    POINTS
        .iter()
        .copied()
        .filter(|p| !but.contains(p))
        .collect()
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

fn moves_from(s: &Scenario, point: &str) -> Vec<String> {
    s.moves()
        .into_iter()
        .filter(|m| m.starts_with(point) && m.len() > point.len())
        .collect()
}

fn param(name: &str, p: &str) -> i64 {
    use keliya_rules::YamlValue;
    let c = compile(name);
    let get = |node: &keliya_rules::Node, key: &str| match &node.value {
        YamlValue::Map(m) => m
            .iter()
            .find(|(k, _)| k.name == key)
            .map(|(_, v)| v.clone()),
        _ => None,
    };
    let params = get(&c.resolved, "params").expect("params");
    match get(&params, p).map(|n| n.value) {
        Some(YamlValue::Int(v)) => v,
        other => panic!("{name}: parameter {p} is {other:?}"),
    }
}

/// Tigers and lambs on the board and beside it, by kind.
fn totals(s: &Scenario) -> (u16, u16) {
    let mut tigers = s.count("hunter-hand", "hunter");
    let mut lambs = s.count("prey-hand", "prey");
    for p in POINTS {
        tigers += s.count(p, "hunter");
        lambs += s.count(p, "prey");
    }
    (tigers, lambs)
}

#[test]
fn pj1_three_tigers_against_fifteen_lambs() {
    let s = Scenario::new(PULI);
    assert_eq!(totals(&s), (3, 15));
    assert_eq!((param(PULI, "tigers"), param(PULI, "lambs")), (3, 15));
    assert_eq!(s.displays(), ["tigers", "lambs"]);
}

#[test]
fn pj1_other_numbers_are_deltas_whose_setup_agrees_with_their_parameters() {
    for (name, tigers, lambs, placed) in [
        (ONE, 1, 5, &["1A"][..]),
        (FOUR, 4, 12, &["1A", "2B", "2C", "2D"][..]),
        (PULI, 3, 15, &START[..]),
    ] {
        let s = Scenario::new(name);
        assert_eq!(totals(&s), (tigers, lambs), "{name}");
        assert_eq!(param(name, "tigers"), i64::from(tigers), "{name}");
        assert_eq!(param(name, "lambs"), i64::from(lambs), "{name}");
        for p in POINTS {
            assert_eq!(
                s.count(p, "hunter"),
                u16::from(placed.contains(&p)),
                "{name}: {p}"
            );
        }
        assert_eq!(
            s.moves().len(),
            19 - placed.len(),
            "{name}: a lamb on any vacant point"
        );
    }
    // One tiger against five lambs: four lambs can still hem it in, three cannot, so the second capture wins.
    let mut s = Scenario::at(
        ONE,
        position(&["1A"], &["2C", "3B", "4D", "5A"], 0, "hunter", 1),
    );
    s.play("1Ax3C");
    assert_eq!(s.winner(), "hunter");
    let mut s = Scenario::at(
        ONE,
        position(&["1A"], &["2C", "3B", "4D", "5A", "5C"], 0, "hunter", 0),
    );
    s.play("1Ax3C");
    assert_eq!(
        s.winner(),
        "none",
        "four lambs left can still confine one tiger"
    );
}

#[test]
fn pj2_the_19_point_board_with_its_lines_and_leaps() {
    let c = compile(PULI);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 19);
    assert_eq!(b.edges.len(), 30);
    let leaps: usize = b.playing_sites().map(|s| b.leaps(s).len()).sum();
    assert_eq!(leaps, 42);
    // Point, coordinates, neighbours, leaps (over -> land). 4A and 5A, 4E and 5C are not joined.
    let table: &[BoardRow<'_>] = &[
        (
            "1A",
            (0.0, 0.0),
            &["2B", "2C", "2D"],
            &[("2B", "3B"), ("2C", "3C"), ("2D", "3D")],
        ),
        (
            "2A",
            (-4.0, 1.0),
            &["2B", "3A"],
            &[("2B", "2C"), ("3A", "4A")],
        ),
        (
            "2B",
            (-1.0, 1.0),
            &["1A", "2A", "2C", "3B"],
            &[("2C", "2D"), ("3B", "4B")],
        ),
        (
            "2C",
            (0.0, 1.0),
            &["1A", "2B", "2D", "3C"],
            &[("2B", "2A"), ("2D", "2E"), ("3C", "4C")],
        ),
        (
            "2D",
            (1.0, 1.0),
            &["1A", "2C", "2E", "3D"],
            &[("2C", "2B"), ("3D", "4D")],
        ),
        (
            "2E",
            (4.0, 1.0),
            &["2D", "3E"],
            &[("2D", "2C"), ("3E", "4E")],
        ),
        ("3A", (-4.0, 2.0), &["2A", "3B", "4A"], &[("3B", "3C")]),
        (
            "3B",
            (-2.0, 2.0),
            &["2B", "3A", "3C", "4B"],
            &[("2B", "1A"), ("3C", "3D"), ("4B", "5A")],
        ),
        (
            "3C",
            (0.0, 2.0),
            &["2C", "3B", "3D", "4C"],
            &[("2C", "1A"), ("3B", "3A"), ("3D", "3E"), ("4C", "5B")],
        ),
        (
            "3D",
            (2.0, 2.0),
            &["2D", "3C", "3E", "4D"],
            &[("2D", "1A"), ("3C", "3B"), ("4D", "5C")],
        ),
        ("3E", (4.0, 2.0), &["2E", "3D", "4E"], &[("3D", "3C")]),
        (
            "4A",
            (-4.0, 3.0),
            &["3A", "4B"],
            &[("3A", "2A"), ("4B", "4C")],
        ),
        (
            "4B",
            (-3.0, 3.0),
            &["3B", "4A", "4C", "5A"],
            &[("3B", "2B"), ("4C", "4D")],
        ),
        (
            "4C",
            (0.0, 3.0),
            &["3C", "4B", "4D", "5B"],
            &[("3C", "2C"), ("4B", "4A"), ("4D", "4E")],
        ),
        (
            "4D",
            (3.0, 3.0),
            &["3D", "4C", "4E", "5C"],
            &[("3D", "2D"), ("4C", "4B")],
        ),
        (
            "4E",
            (4.0, 3.0),
            &["3E", "4D"],
            &[("3E", "2E"), ("4D", "4C")],
        ),
        (
            "5A",
            (-4.0, 4.0),
            &["4B", "5B"],
            &[("4B", "3B"), ("5B", "5C")],
        ),
        ("5B", (0.0, 4.0), &["4C", "5A", "5C"], &[("4C", "3C")]),
        (
            "5C",
            (4.0, 4.0),
            &["4D", "5B"],
            &[("4D", "3D"), ("5B", "5A")],
        ),
    ];
    check_board_table(b, table);
}

#[test]
fn pj3_the_tiger_stands_on_the_apex_and_the_lambs_beside_the_board() {
    let s = Scenario::new(PULI);
    assert_eq!(s.count("1A", "hunter"), 1);
    assert_eq!(s.count("prey-hand", "prey"), 15);
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    let on_board: u16 = POINTS.iter().map(|p| s.count(p, "prey")).sum();
    assert_eq!(on_board, 0);
}

#[test]
fn pj4_the_lambs_open_one_a_turn_and_move_only_when_all_are_in() {
    let mut s = Scenario::new(PULI);
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.moves(), sorted(&all_but(&START)));
    s.play("3C");
    assert_eq!(s.count("prey-hand", "prey"), 14);
    assert_eq!(s.to_move(), "hunter");
    s.play("2B-3B");
    assert_eq!(s.to_move(), "prey");
    // One lamb still waits: only drops, on the vacant points.
    let s = Scenario::at(
        PULI,
        position(&START, &["3C", "4C", "4A", "4E", "5A"], 1, "prey", 0),
    );
    assert_eq!(
        s.moves(),
        sorted(&all_but(&["1A", "2B", "2D", "3C", "4C", "4A", "4E", "5A"]))
    );
    let mut s = s;
    s.play("5B");
    s.play("2B-3B");
    let moves = s.moves();
    assert!(moves.iter().all(|m| m.contains('-')), "{moves:?}");
    assert!(s.can("4C-4B") && s.can("5B-5C"));
}

#[test]
fn pj5_every_piece_steps_one_point_along_a_line() {
    let s = Scenario::at(
        PULI,
        position(
            &["3C", "5C", "2A"],
            &["4A", "3D", "2C", "2E", "4E", "5A"],
            0,
            "hunter",
            0,
        ),
    );
    assert_eq!(moves_from(&s, "3C"), ["3C-3B", "3C-4C", "3Cx1A", "3Cx3E"]);
    assert_eq!(moves_from(&s, "5C"), ["5C-4D", "5C-5B"]);
    // The lamb on 4A steps along row 4 or up the rectangle's side, never down to 5A: they are not joined.
    let s = Scenario::at(
        PULI,
        position(
            &["3C", "5C", "2A"],
            &["4A", "3D", "2C", "2E", "4E", "5A"],
            0,
            "prey",
            0,
        ),
    );
    assert_eq!(moves_from(&s, "4A"), ["4A-3A", "4A-4B"]);
}

#[test]
fn pj6_the_tiger_takes_one_lamb_by_the_short_leap() {
    let mut s = Scenario::at(
        PULI,
        position(
            &START,
            &["2C", "3B", "3D", "4D", "5A", "5C", "4E"],
            0,
            "hunter",
            0,
        ),
    );
    // 1A over 2C onto 3C; 2B over 3B onto 4B; 2D over 3D is blocked by the lamb on 4D.
    let leaps: Vec<String> = s.moves().into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(leaps, ["1Ax3C", "2Bx4B"]);
    s.play("1Ax3C");
    assert_eq!(s.count("2C", "prey"), 0);
    assert_eq!(s.count("3C", "hunter"), 1);
    assert_eq!(s.var("captures", Some("hunter")), 1);
    assert_eq!(s.to_move(), "prey", "one capture a turn");
}

#[test]
fn pj6_capturing_is_optional_and_never_over_a_tiger_or_off_a_line() {
    let s = Scenario::at(
        PULI,
        position(
            &START,
            &["2C", "3B", "3D", "4D", "5A", "5C", "4E"],
            0,
            "hunter",
            0,
        ),
    );
    assert!(s.can("1Ax3C") && s.can("2D-2E"), "a step beside a capture");
    // The tiger on 2B cannot leap 2C's neighbour tiger on 2D; from 3A the lamb on 4A cannot be leapt to 5A.
    let s = Scenario::at(
        PULI,
        position(
            &["2B", "2D", "3A"],
            &["2C", "4A", "5A", "5B", "5C", "4E"],
            0,
            "hunter",
            0,
        ),
    );
    assert!(!s.can("2Bx2D") && !s.can("2Dx2B"));
    assert!(!s.can("3Ax5A"));
    assert_eq!(
        s.moves().into_iter().filter(|m| m.contains('x')).count(),
        0,
        "no leap at all: 2C lies between two tigers, and 4A ends its line"
    );
}

/// Three tigers in the left end of the rectangle, six lambs around them: no step, no leap.
const TRAPPED: [&str; 3] = ["2A", "3A", "4A"];
const SIX: [&str; 6] = ["2B", "2C", "3B", "3C", "4B", "4C"];

#[test]
fn pj7_the_lambs_win_when_the_tigers_cannot_move() {
    let s = Scenario::at(PULI, position(&TRAPPED, &SIX, 0, "hunter", 9));
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
    let s = Scenario::at(PULI, position(&TRAPPED, &SIX, 0, "prey", 9));
    assert_eq!(s.winner(), "none", "only the tigers' turn counts");
    // While lambs are still being entered too.
    let s = Scenario::at(PULI, position(&TRAPPED, &SIX, 9, "hunter", 0));
    assert_eq!(s.winner(), "prey");
    // With the lamb on 4C moved away (to 5C) the tiger on 4A leaps 4B.
    let mut five: Vec<&str> = SIX.iter().copied().filter(|&p| p != "4C").collect();
    five.push("5C");
    let s = Scenario::at(PULI, position(&TRAPPED, &five, 0, "hunter", 9));
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["4Ax4C"]);
}

#[test]
fn pj8_the_tigers_win_when_too_few_lambs_are_left_to_confine_them() {
    // Six lambs left, the tenth capture leaves five: fewer than any trap of three tigers needs.
    let lambs = ["2C", "3B", "3D", "4D", "5A", "5B"];
    let mut s = Scenario::at(PULI, position(&START, &lambs, 0, "hunter", 9));
    assert_eq!(
        s.winner(),
        "none",
        "six lambs can still confine three tigers"
    );
    s.play("1Ax3C");
    assert_eq!(s.var("captures", Some("hunter")), 10);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
    // The ninth capture leaves six: play goes on.
    let seven = ["2C", "3B", "3D", "4D", "5A", "5B", "5C"];
    let mut s = Scenario::at(PULI, position(&START, &seven, 0, "hunter", 8));
    s.play("1Ax3C");
    assert_eq!(s.winner(), "none");
}

#[test]
fn pj_q1_the_other_tigers_stand_next_to_the_apex_and_entering_them_is_a_delta() {
    let s = Scenario::new(PULI);
    for p in START {
        assert_eq!(s.count(p, "hunter"), 1, "{p}");
    }
    let mut s = Scenario::new(ENTERED);
    assert_eq!(s.count("hunter-hand", "hunter"), 3);
    assert_eq!(s.to_move(), "hunter");
    assert_eq!(s.moves(), ["1A"], "the first tiger goes on the apex");
    s.play("1A");
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.moves().len(), 18);
    s.play("3C");
    // The second tiger on any vacant point, and no tiger steps while one waits.
    assert_eq!(s.moves(), sorted(&all_but(&["1A", "3C"])));
    s.play("5B");
    s.play("4C");
    s.play("2E");
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    s.play("4B");
    assert!(
        s.moves().iter().all(|m| m.contains('-') || m.contains('x')),
        "{:?}",
        s.moves()
    );
}

/// The fewest lambs that leave `tigers` tigers on these points without a step or a leap: every empty
/// neighbour must hold a lamb, and then every point a leap over a lamb lands on.
fn fewest_to_confine(b: &keliya_board::Board, tigers: &[u16]) -> usize {
    let tigers: BTreeSet<u16> = tigers.iter().copied().collect();
    let mut lambs: BTreeSet<u16> = BTreeSet::new();
    for &t in &tigers {
        lambs.extend(b.neighbours(t).iter().filter(|n| !tigers.contains(n)));
    }
    loop {
        let more: Vec<u16> = tigers
            .iter()
            .flat_map(|&t| b.leaps(t).iter().copied())
            .filter(|(over, land)| {
                lambs.contains(over) && !tigers.contains(land) && !lambs.contains(land)
            })
            .map(|(_, land)| land)
            .collect();
        if more.is_empty() {
            return lambs.len();
        }
        lambs.extend(more);
    }
}

fn fewest_for(name: &str, count: usize) -> usize {
    let c = compile(name);
    let points: Vec<u16> = c.game().board.playing_sites().collect();
    let mut best = usize::MAX;
    let mut pick = vec![0usize; count];
    // Every set of `count` distinct points, in increasing order.
    fn walk(
        points: &[u16],
        from: usize,
        pick: &mut Vec<usize>,
        depth: usize,
        f: &mut dyn FnMut(&[usize]),
    ) {
        if depth == pick.len() {
            f(pick);
            return;
        }
        for i in from..points.len() {
            pick[depth] = i;
            walk(points, i + 1, pick, depth + 1, f);
        }
    }
    walk(&points, 0, &mut pick, 0, &mut |idx| {
        let ts: Vec<u16> = idx.iter().map(|&i| points[i]).collect();
        best = best.min(fewest_to_confine(&c.game().board, &ts));
    });
    best
}

#[test]
fn pj_q2_the_fewest_lambs_that_confine_the_tigers_are_the_parameter() {
    let fewest: Vec<usize> = (1..=4).map(|t| fewest_for(PULI, t)).collect();
    assert_eq!(fewest, [4, 5, 6, 6]);
    for (name, tigers) in [(PULI, 3), (ONE, 1), (FOUR, 4)] {
        assert_eq!(
            param(name, "lambs_to_confine"),
            fewest[tigers - 1] as i64,
            "{name}"
        );
    }
    // The six of the trap of PJ-7 are such a least set.
    let s = Scenario::at(PULI, position(&TRAPPED, &SIX, 0, "hunter", 9));
    assert_eq!(s.winner(), "prey");
}

#[test]
fn pj_q2_delta_more_than_half_the_lambs_win() {
    let lambs = ["2C", "3B", "3D", "4D", "5A", "5B", "5C", "4E"];
    let mut s = Scenario::at(HALF, position(&START, &lambs, 0, "hunter", 7));
    s.play("1Ax3C");
    assert_eq!(s.var("captures", Some("hunter")), 8);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
    // In the canonical game the eighth capture leaves seven lambs, enough to go on.
    let mut s = Scenario::at(PULI, position(&START, &lambs, 0, "hunter", 7));
    s.play("1Ax3C");
    assert_eq!(s.winner(), "none");
    let mut s = Scenario::at(HALF, position(&START, &lambs, 0, "hunter", 6));
    s.play("1Ax3C");
    assert_eq!(s.winner(), "none", "seven of fifteen is not more than half");
}

/// Ten lambs down and five taken; the tiger on 2D can shuttle to 2E and a lamb between 3A and 4A, and no
/// leap is open.
fn quiet_position(to_move: &str) -> serde_json::Value {
    let lambs = ["2A", "2C", "3A", "3B", "3C", "3D", "3E", "4B", "4D", "4E"];
    position(&START, &lambs, 0, to_move, 5)
}

#[test]
fn pj_q3_the_third_coming_of_a_position_is_a_draw() {
    let mut s = Scenario::at(PULI, quiet_position("hunter"));
    assert_eq!(s.moves(), ["2D-2E"], "no leap anywhere");
    s.play("2D-2E").play("3A-4A").play("2E-2D").play("4A-3A");
    assert_eq!(s.winner(), "none", "twice");
    s.play("2D-2E").play("3A-4A").play("2E-2D");
    assert_eq!(s.winner(), "none");
    s.play("4A-3A");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "cap:repetition");
}

#[test]
fn pj_q3_one_hundred_quiet_turns_and_the_turn_cap_draw() {
    let mut st = quiet_position("hunter");
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(PULI, st);
    s.play("2D-2E");
    assert_eq!(s.ended_by(), "cap:no_capture_turns");
    let mut st = quiet_position("hunter");
    st["turn"] = json!(999);
    let mut s = Scenario::at(PULI, st);
    s.play("2D-2E");
    assert_eq!(s.ended_by(), "cap:max_turns");
    // Entering a lamb restarts the quiet count.
    let mut st = position(
        &START,
        &["2A", "2C", "3A", "3B", "3C", "3D", "3E", "4B", "4D"],
        1,
        "prey",
        5,
    );
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(PULI, st);
    s.play("5B");
    assert_eq!(s.winner(), "none");
    assert_eq!(s.state.quiet_turns, 0);
}

#[test]
fn pj_q3_lambs_that_cannot_move_pass() {
    // The one vacant point, 2A, lies between tigers on 2B and 3A.
    let tigers = ["2B", "3A", "5C"];
    let lambs = all_but(&["2B", "3A", "5C", "2A"]);
    let mut s = Scenario::at(PULI, position(&tigers, &lambs, 0, "prey", 0));
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "hunter");
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=8)
        .map(|i| format!("PJ-{i}"))
        .chain((1..=3).map(|i| format!("PJ-Q{i}")))
        .collect();
    check_rule_rows("pulijudamu.md", "pulijudamu.rs", &ids, &["pj"]);
}

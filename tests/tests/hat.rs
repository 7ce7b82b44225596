//! Hat diviyan keliya: one scenario test (or more) per rule of `docs/rules/hat-diviyan-keliya.md`
//! (HD-1 .. HD-8, HD-Q1 .. HD-Q3, and the draw rules of DD-Q7).

use keliya_tests::{Scenario, compile};
use serde_json::json;

const HAT: &str = "hat-diviyan-keliya";
const LARGE: &str = "hat-diviyan-keliya/large";
const APEX: &str = "hat-diviyan-keliya/apex-start";

use keliya_tests::hunt_position as position;
use keliya_tests::{BoardRow, check_board_table};

#[test]
fn hd1_one_tiger_against_seven_leopards() {
    let s = Scenario::new(HAT);
    assert_eq!(s.count("hunter-hand", "hunter"), 1);
    assert_eq!(s.count("prey-hand", "prey"), 7);
    assert_eq!(s.displays(), ["tiger", "leopards"]);
}

#[test]
fn hd2_the_ten_point_board_with_its_lines_and_leaps() {
    let c = compile(HAT);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 10);
    assert_eq!(b.edges.len(), 15);
    let leaps: usize = b.playing_sites().map(|s| b.leaps(s).len()).sum();
    assert_eq!(leaps, 18);
    // The board table: point, coordinates, neighbours, leaps (over -> land).
    let table: &[BoardRow<'_>] = &[
        (
            "A",
            (0.0, 0.0),
            &["L1", "M1", "R1"],
            &[("L1", "L2"), ("M1", "M2"), ("R1", "R2")],
        ),
        (
            "L1",
            (-1.0, 1.0),
            &["A", "M1", "L2"],
            &[("M1", "R1"), ("L2", "L3")],
        ),
        ("M1", (0.0, 1.0), &["A", "L1", "R1", "M2"], &[("M2", "M3")]),
        (
            "R1",
            (1.0, 1.0),
            &["A", "M1", "R2"],
            &[("M1", "L1"), ("R2", "R3")],
        ),
        (
            "L2",
            (-2.0, 2.0),
            &["L1", "M2", "L3"],
            &[("L1", "A"), ("M2", "R2")],
        ),
        ("M2", (0.0, 2.0), &["M1", "L2", "R2", "M3"], &[("M1", "A")]),
        (
            "R2",
            (2.0, 2.0),
            &["R1", "M2", "R3"],
            &[("R1", "A"), ("M2", "L2")],
        ),
        (
            "L3",
            (-3.0, 3.0),
            &["L2", "M3"],
            &[("L2", "L1"), ("M3", "R3")],
        ),
        ("M3", (0.0, 3.0), &["M2", "L3", "R3"], &[("M2", "M1")]),
        (
            "R3",
            (3.0, 3.0),
            &["R2", "M3"],
            &[("R2", "R1"), ("M3", "L3")],
        ),
    ];
    check_board_table(b, table);
}

#[test]
fn hd3_the_tiger_is_placed_first_on_any_point() {
    let mut s = Scenario::new(HAT);
    assert_eq!(s.to_move(), "hunter");
    assert_eq!(
        s.moves(),
        ["A", "L1", "L2", "L3", "M1", "M2", "M3", "R1", "R2", "R3"]
    );
    s.play("A");
    assert_eq!(s.count("A", "hunter"), 1);
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    assert_eq!(s.to_move(), "prey");
}

#[test]
fn hd4_a_leopard_is_laid_after_each_tiger_move_until_all_seven_are_down() {
    let mut s = Scenario::new(HAT);
    s.play("A");
    // Leopards drop on any vacant point: nine of them, the tiger's point excluded.
    assert_eq!(s.moves().len(), 9);
    assert!(!s.can("A"));
    s.play("M3");
    assert_eq!(s.count("prey-hand", "prey"), 6);
    assert_eq!(s.to_move(), "hunter");
    // The tiger moves between drops.
    assert!(s.can("A-L1"));
    s.play("A-L1");
    assert_eq!(s.to_move(), "prey");
    for (drop, tiger) in [
        ("L3", "L1-A"),
        ("R3", "A-L1"),
        ("M2", "L1-A"),
        ("R2", "A-L1"),
        ("L2", "L1-A"),
    ] {
        s.play(drop);
        s.play(tiger);
    }
    assert_eq!(s.count("prey-hand", "prey"), 1);
    s.play("R1");
    assert_eq!(s.count("prey-hand", "prey"), 0);
}

#[test]
fn hd5_leopards_do_not_move_until_all_seven_are_placed() {
    let six = ["L2", "M2", "R2", "L3", "M3", "R3"];
    let s = Scenario::at(HAT, position(&["A"], &six, 1, "prey", 0));
    assert_eq!(
        s.moves(),
        ["L1", "M1", "R1"],
        "only drops while a leopard waits"
    );
    let mut s = s;
    s.play("M1");
    s.play("A-L1");
    // All seven are down: now leopards step, and there is no drop.
    let moves = s.moves();
    assert!(moves.iter().all(|m| m.contains('-')), "{moves:?}");
    assert!(s.can("M1-A") && s.can("M1-R1"));
}

#[test]
fn hd6_the_tiger_steps_along_lines_to_vacant_points() {
    let s = Scenario::at(
        HAT,
        position(
            &["M2"],
            &["M1", "L3", "R3", "M3", "L1", "R1"],
            0,
            "hunter",
            0,
        ),
    );
    // M2's neighbours: M1 (leopard), L2, R2 (vacant), M3 (leopard); M1 can be leapt onto the vacant apex.
    assert_eq!(s.moves(), ["M2-L2", "M2-R2", "M2xA"]);
    let s = Scenario::at(
        HAT,
        position(
            &["M2"],
            &["M1", "A", "L3", "R3", "M3", "L1", "R1"],
            0,
            "hunter",
            0,
        ),
    );
    assert_eq!(
        s.moves(),
        ["M2-L2", "M2-R2"],
        "with the apex taken, only the two steps"
    );
}

#[test]
fn hd6_the_short_leap_captures_one_leopard_along_a_straight_line() {
    let mut s = Scenario::at(
        HAT,
        position(
            &["A"],
            &["M1", "L1", "R1", "L2", "R2", "L3", "R3"],
            0,
            "hunter",
            0,
        ),
    );
    // M1 can be leapt (M2 vacant); L1 and R1 cannot (L2, R2 occupied).
    assert_eq!(s.moves(), ["AxM2"]);
    s.play("AxM2");
    assert_eq!(s.count("M1", "prey"), 0, "the leapt leopard is removed");
    assert_eq!(s.count("M2", "hunter"), 1);
    assert_eq!(s.var("captures", Some("hunter")), 1);
    // One capture per turn: the leopards move next even though M2xA... is not possible anyway.
    assert_eq!(s.to_move(), "prey");
}

#[test]
fn hd6_capturing_is_not_compulsory() {
    let s = Scenario::at(
        HAT,
        position(
            &["A"],
            &["M1", "L2", "R2", "L3", "M3", "R3", "L1"],
            0,
            "hunter",
            0,
        ),
    );
    assert!(s.can("AxM2"));
    assert!(
        s.can("A-R1"),
        "a plain step is allowed when a capture is available"
    );
}

#[test]
fn hd6_no_leap_off_a_line_or_onto_an_occupied_point() {
    // Tiger on M2 with leopards on L2 and M3: L2 ends level 2 and M3 ends the middle line, so no leap.
    let s = Scenario::at(
        HAT,
        position(
            &["M2"],
            &["L2", "M3", "L1", "R1", "L3", "R3", "M1"],
            0,
            "hunter",
            0,
        ),
    );
    assert_eq!(
        s.moves(),
        ["M2-R2", "M2xA"],
        "L2 and M3 are adjacent but cannot be leapt"
    );
    // Landing point occupied: A over L1 onto L2 is blocked when L2 holds a leopard.
    let s = Scenario::at(
        HAT,
        position(
            &["A"],
            &["L1", "L2", "M1", "M2", "R1", "R2", "M3"],
            0,
            "hunter",
            0,
        ),
    );
    assert!(!s.can("AxL2"));
}

#[test]
fn hd6_no_leap_over_a_tiger() {
    // Large board, two tigers: a tiger cannot leap its partner.
    let s = Scenario::at(
        LARGE,
        json!({"to_move": "hunter", "sites": {"A": {"hunter": 1}, "M1": {"hunter": 1}, "L1": {"prey": 1}, "R1": {"prey": 1}}}),
    );
    assert!(!s.can("AxM2"));
    assert!(s.can("AxL2") && s.can("AxR2"));
}

#[test]
fn hd7_the_leopards_win_when_the_tiger_cannot_move() {
    // Tiger on A; L1, M1, R1 occupied and the points beyond them too.
    let s = Scenario::at(
        HAT,
        position(
            &["A"],
            &["L1", "M1", "R1", "L2", "M2", "R2", "L3"],
            0,
            "hunter",
            0,
        ),
    );
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
    // The same position with the leopards to move is not over: only the tiger's turn counts.
    let s = Scenario::at(
        HAT,
        position(
            &["A"],
            &["L1", "M1", "R1", "L2", "M2", "R2", "L3"],
            0,
            "prey",
            0,
        ),
    );
    assert_eq!(s.winner(), "none");
}

#[test]
fn hd7_a_trap_made_by_a_leopard_move_ends_the_game() {
    let mut s = Scenario::at(
        HAT,
        position(
            &["A"],
            &["L1", "R1", "L2", "M2", "R2", "M3", "L3"],
            0,
            "prey",
            0,
        ),
    );
    assert_eq!(s.winner(), "none");
    s.play("M2-M1");
    // The tiger could now leap M1 onto M2, so not yet trapped.
    assert_eq!(s.winner(), "none");
    assert!(s.can("AxM2"));
}

#[test]
fn hd8_the_tiger_wins_with_its_fourth_capture() {
    let mut s = Scenario::at(HAT, position(&["A"], &["M1", "L2", "R2"], 0, "hunter", 3));
    assert_eq!(s.winner(), "none");
    s.play("AxM2");
    assert_eq!(s.var("captures", Some("hunter")), 4);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
    // Three captures are not enough.
    let mut s = Scenario::at(
        HAT,
        position(&["A"], &["M1", "L2", "R2", "L3"], 0, "hunter", 2),
    );
    s.play("AxM2");
    assert_eq!(s.winner(), "none");
}

#[test]
fn hd_q1_the_tiger_may_start_anywhere_and_a_fixed_apex_is_a_delta() {
    // Default: free choice of all ten points (HD-3). The alternative is the bundled one-rule delta
    // hat-diviyan-keliya/apex-start (hd_q1_delta_the_tiger_starts_on_the_apex).
    let s = Scenario::new(HAT);
    assert_eq!(s.moves().len(), 10);
    assert_eq!(Scenario::new(APEX).moves(), ["A"]);
}

#[test]
fn hd_q1_delta_the_tiger_starts_on_the_apex() {
    // HD-Q1 (alternative): the tiger's first move places it on the apex, the only move offered; the rest of
    // the game is Hat's: a leopard is laid on any of the nine other points, then the tiger moves from A.
    let mut s = Scenario::new(APEX);
    assert_eq!(s.to_move(), "hunter");
    assert_eq!(s.moves(), ["A"]);
    s.play("A");
    assert_eq!(s.count("A", "hunter"), 1);
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    assert_eq!(s.to_move(), "prey");
    assert_eq!(
        s.moves(),
        ["L1", "L2", "L3", "M1", "M2", "M3", "R1", "R2", "R3"]
    );
    s.play("M1");
    assert_eq!(s.moves(), ["A-L1", "A-R1", "AxM2"]);
}

#[test]
fn hd_q3_large_board_two_tigers_eight_leopards_five_captures() {
    let mut s = Scenario::new(LARGE);
    let b = &s.game().board;
    assert_eq!(b.playing_sites().count(), 13);
    assert_eq!(b.edges.len(), 20);
    assert_eq!(
        b.playing_sites().map(|p| b.leaps(p).len()).sum::<usize>(),
        26
    );
    assert_eq!(s.count("hunter-hand", "hunter"), 2);
    assert_eq!(s.count("prey-hand", "prey"), 8);
    // The tigers are placed on the tiger side's first two turns, alternating with leopard drops.
    s.play("A");
    s.play("M4");
    assert!(
        s.moves().iter().all(|m| !m.contains('-')),
        "second tiger is placed, not moved"
    );
    s.play("M2");
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    // Five captures win; four do not.
    let four = Scenario::at(
        LARGE,
        json!({"to_move": "hunter", "sites": {"A": {"hunter": 1}, "R4": {"hunter": 1}, "M1": {"prey": 1}, "L1": {"prey": 1}}, "vars": {"captures": {"hunter": 4}}}),
    );
    let mut four = four;
    four.play("AxM2");
    assert_eq!(four.winner(), "hunter");
}

#[test]
fn draw_by_threefold_repetition() {
    // Tiger on A, two points free (L1, L2): both sides shuffle back and forth without a capture.
    let mut s = Scenario::at(
        HAT,
        position(
            &["A"],
            &["M2", "R2", "L3", "M3", "R3", "R1", "M1"],
            0,
            "hunter",
            0,
        ),
    );
    s.play("A-L1").play("M2-L2").play("L1-A").play("L2-M2");
    assert_eq!(
        s.winner(),
        "none",
        "the starting position has occurred twice"
    );
    s.play("A-L1").play("M2-L2").play("L1-A");
    assert_eq!(s.winner(), "none");
    s.play("L2-M2");
    assert_eq!(s.winner(), "draw", "third occurrence");
    assert_eq!(s.ended_by(), "cap:repetition");
}

#[test]
fn draw_after_one_hundred_turns_without_a_capture() {
    let mut st = position(
        &["A"],
        &["M2", "R2", "L3", "M3", "R3", "R1", "M1"],
        0,
        "hunter",
        0,
    );
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(HAT, st);
    assert_eq!(s.winner(), "none");
    s.play("A-L1");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "cap:no_capture_turns");
}

#[test]
fn draw_at_the_turn_cap() {
    let mut st = position(
        &["A"],
        &["M2", "R2", "L3", "M3", "R3", "R1", "M1"],
        0,
        "hunter",
        0,
    );
    st["turn"] = json!(999);
    let mut s = Scenario::at(HAT, st);
    s.play("A-L1");
    assert_eq!(s.ended_by(), "cap:max_turns");
}

#[test]
fn a_capture_resets_the_quiet_count() {
    let mut st = position(&["A"], &["M1", "L3"], 0, "hunter", 0);
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(HAT, st);
    s.play("AxM2");
    assert_eq!(s.winner(), "none");
    assert_eq!(s.state.quiet_turns, 0);
}

#[test]
fn the_quiet_count_starts_once_the_last_leopard_is_down() {
    // DD-Q7 (for Hat in the same way): 100 turns without a capture *once all pieces are placed*. A drop,
    // like a capture, restarts the count.
    let mut st = position(&["A"], &["M2", "R2", "L3", "M3", "R3", "R1"], 1, "prey", 0);
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(HAT, st);
    s.play("L2");
    assert_eq!(s.winner(), "none", "the last drop is not a quiet turn");
    assert_eq!(s.state.quiet_turns, 0);
    s.play("A-L1");
    assert_eq!(
        s.state.quiet_turns, 1,
        "steps after the last drop are counted"
    );
}

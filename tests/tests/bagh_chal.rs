//! Bagh-Chal: one scenario test (or more) per rule of `docs/rules/bagh-chal.md` (BC-1 .. BC-9,
//! BC-Q1 .. BC-Q4).

use keliya_tests::hunt_position as position;
use keliya_tests::{BoardRow, Scenario, check_board_table, check_rule_rows, compile};
use serde_json::json;

const BAGH: &str = "bagh-chal";
const TIGERS_FIRST: &str = "bagh-chal/tigers-first";
const ALL_GOATS: &str = "bagh-chal/all-goats";
const NO_REPEAT: &str = "bagh-chal/no-repeat";
const CORNERS: [&str; 4] = ["r1c1", "r1c5", "r5c1", "r5c5"];

/// Every point of the board but `but`, as names.
fn all_but(but: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for r in 1..=5 {
        for c in 1..=5 {
            let p = format!("r{r}c{c}");
            if !but.contains(&p.as_str()) {
                out.push(p);
            }
        }
    }
    out
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The moves of one piece: those written from `point`.
fn moves_from(s: &Scenario, point: &str) -> Vec<String> {
    s.moves()
        .into_iter()
        .filter(|m| m.starts_with(point) && m.len() > point.len())
        .collect()
}

#[test]
fn bc1_four_tigers_against_twenty_goats() {
    let s = Scenario::new(BAGH);
    let tigers: u16 = CORNERS.iter().map(|c| s.count(c, "hunter")).sum();
    assert_eq!(tigers, 4);
    assert_eq!(s.count("prey-hand", "prey"), 20);
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    assert_eq!(s.displays(), ["tigers", "goats"]);
}

#[test]
fn bc2_the_alquerque_board_of_25_points_with_its_lines_and_leaps() {
    let c = compile(BAGH);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 25);
    assert_eq!(b.edges.len(), 56, "40 along rows and columns, 16 diagonal");
    let leaps: usize = b.playing_sites().map(|s| b.leaps(s).len()).sum();
    assert_eq!(leaps, 80);
    // Point, coordinates, neighbours, leaps (over -> land): the diagonals join only the points whose row
    // and column add up to an even number.
    let table: &[BoardRow<'_>] = &[
        (
            "r1c1",
            (1.0, 1.0),
            &["r1c2", "r2c1", "r2c2"],
            &[("r1c2", "r1c3"), ("r2c1", "r3c1"), ("r2c2", "r3c3")],
        ),
        (
            "r1c2",
            (2.0, 1.0),
            &["r1c3", "r1c1", "r2c2"],
            &[("r1c3", "r1c4"), ("r2c2", "r3c2")],
        ),
        (
            "r1c3",
            (3.0, 1.0),
            &["r1c4", "r1c2", "r2c3", "r2c4", "r2c2"],
            &[
                ("r1c4", "r1c5"),
                ("r1c2", "r1c1"),
                ("r2c3", "r3c3"),
                ("r2c4", "r3c5"),
                ("r2c2", "r3c1"),
            ],
        ),
        (
            "r1c4",
            (4.0, 1.0),
            &["r1c5", "r1c3", "r2c4"],
            &[("r1c3", "r1c2"), ("r2c4", "r3c4")],
        ),
        (
            "r1c5",
            (5.0, 1.0),
            &["r1c4", "r2c5", "r2c4"],
            &[("r1c4", "r1c3"), ("r2c5", "r3c5"), ("r2c4", "r3c3")],
        ),
        (
            "r2c1",
            (1.0, 2.0),
            &["r2c2", "r3c1", "r1c1"],
            &[("r2c2", "r2c3"), ("r3c1", "r4c1")],
        ),
        (
            "r2c2",
            (2.0, 2.0),
            &[
                "r2c3", "r2c1", "r3c2", "r1c2", "r3c3", "r3c1", "r1c3", "r1c1",
            ],
            &[("r2c3", "r2c4"), ("r3c2", "r4c2"), ("r3c3", "r4c4")],
        ),
        (
            "r2c3",
            (3.0, 2.0),
            &["r2c4", "r2c2", "r3c3", "r1c3"],
            &[("r2c4", "r2c5"), ("r2c2", "r2c1"), ("r3c3", "r4c3")],
        ),
        (
            "r2c4",
            (4.0, 2.0),
            &[
                "r2c5", "r2c3", "r3c4", "r1c4", "r3c5", "r3c3", "r1c5", "r1c3",
            ],
            &[("r2c3", "r2c2"), ("r3c4", "r4c4"), ("r3c3", "r4c2")],
        ),
        (
            "r2c5",
            (5.0, 2.0),
            &["r2c4", "r3c5", "r1c5"],
            &[("r2c4", "r2c3"), ("r3c5", "r4c5")],
        ),
        (
            "r3c1",
            (1.0, 3.0),
            &["r3c2", "r4c1", "r2c1", "r4c2", "r2c2"],
            &[
                ("r3c2", "r3c3"),
                ("r4c1", "r5c1"),
                ("r2c1", "r1c1"),
                ("r4c2", "r5c3"),
                ("r2c2", "r1c3"),
            ],
        ),
        (
            "r3c2",
            (2.0, 3.0),
            &["r3c3", "r3c1", "r4c2", "r2c2"],
            &[("r3c3", "r3c4"), ("r4c2", "r5c2"), ("r2c2", "r1c2")],
        ),
        (
            "r3c3",
            (3.0, 3.0),
            &[
                "r3c4", "r3c2", "r4c3", "r2c3", "r4c4", "r4c2", "r2c4", "r2c2",
            ],
            &[
                ("r3c4", "r3c5"),
                ("r3c2", "r3c1"),
                ("r4c3", "r5c3"),
                ("r2c3", "r1c3"),
                ("r4c4", "r5c5"),
                ("r4c2", "r5c1"),
                ("r2c4", "r1c5"),
                ("r2c2", "r1c1"),
            ],
        ),
        (
            "r3c4",
            (4.0, 3.0),
            &["r3c5", "r3c3", "r4c4", "r2c4"],
            &[("r3c3", "r3c2"), ("r4c4", "r5c4"), ("r2c4", "r1c4")],
        ),
        (
            "r3c5",
            (5.0, 3.0),
            &["r3c4", "r4c5", "r2c5", "r4c4", "r2c4"],
            &[
                ("r3c4", "r3c3"),
                ("r4c5", "r5c5"),
                ("r2c5", "r1c5"),
                ("r4c4", "r5c3"),
                ("r2c4", "r1c3"),
            ],
        ),
        (
            "r4c1",
            (1.0, 4.0),
            &["r4c2", "r5c1", "r3c1"],
            &[("r4c2", "r4c3"), ("r3c1", "r2c1")],
        ),
        (
            "r4c2",
            (2.0, 4.0),
            &[
                "r4c3", "r4c1", "r5c2", "r3c2", "r5c3", "r5c1", "r3c3", "r3c1",
            ],
            &[("r4c3", "r4c4"), ("r3c2", "r2c2"), ("r3c3", "r2c4")],
        ),
        (
            "r4c3",
            (3.0, 4.0),
            &["r4c4", "r4c2", "r5c3", "r3c3"],
            &[("r4c4", "r4c5"), ("r4c2", "r4c1"), ("r3c3", "r2c3")],
        ),
        (
            "r4c4",
            (4.0, 4.0),
            &[
                "r4c5", "r4c3", "r5c4", "r3c4", "r5c5", "r5c3", "r3c5", "r3c3",
            ],
            &[("r4c3", "r4c2"), ("r3c4", "r2c4"), ("r3c3", "r2c2")],
        ),
        (
            "r4c5",
            (5.0, 4.0),
            &["r4c4", "r5c5", "r3c5"],
            &[("r4c4", "r4c3"), ("r3c5", "r2c5")],
        ),
        (
            "r5c1",
            (1.0, 5.0),
            &["r5c2", "r4c1", "r4c2"],
            &[("r5c2", "r5c3"), ("r4c1", "r3c1"), ("r4c2", "r3c3")],
        ),
        (
            "r5c2",
            (2.0, 5.0),
            &["r5c3", "r5c1", "r4c2"],
            &[("r5c3", "r5c4"), ("r4c2", "r3c2")],
        ),
        (
            "r5c3",
            (3.0, 5.0),
            &["r5c4", "r5c2", "r4c3", "r4c4", "r4c2"],
            &[
                ("r5c4", "r5c5"),
                ("r5c2", "r5c1"),
                ("r4c3", "r3c3"),
                ("r4c4", "r3c5"),
                ("r4c2", "r3c1"),
            ],
        ),
        (
            "r5c4",
            (4.0, 5.0),
            &["r5c5", "r5c3", "r4c4"],
            &[("r5c3", "r5c2"), ("r4c4", "r3c4")],
        ),
        (
            "r5c5",
            (5.0, 5.0),
            &["r5c4", "r4c5", "r4c4"],
            &[("r5c4", "r5c3"), ("r4c5", "r3c5"), ("r4c4", "r3c3")],
        ),
    ];
    check_board_table(b, table);
}

#[test]
fn bc3_the_tigers_start_on_the_corners_and_the_goats_beside_the_board() {
    let s = Scenario::new(BAGH);
    for corner in CORNERS {
        assert_eq!(s.count(corner, "hunter"), 1, "a tiger on {corner}");
    }
    let on_board: u16 = all_but(&[]).iter().map(|p| s.count(p, "prey")).sum();
    assert_eq!(on_board, 0);
    // The first goat may go on any of the 21 vacant points.
    let moves = s.moves();
    assert_eq!(moves, all_but(&CORNERS));
}

#[test]
fn bc4_one_goat_is_entered_a_turn_and_none_moves_before_all_are_down() {
    let mut s = Scenario::new(BAGH);
    s.play("r3c3");
    assert_eq!(s.count("r3c3", "prey"), 1);
    assert_eq!(s.count("prey-hand", "prey"), 19);
    assert_eq!(s.to_move(), "hunter");
    // One goat still waits: the goat side may only enter it, on any of the 19 vacant points.
    let s = Scenario::at(BAGH, position(&CORNERS, &["r3c3", "r2c3"], 1, "prey", 0));
    let moves = s.moves();
    assert_eq!(
        moves,
        all_but(&["r1c1", "r1c5", "r5c1", "r5c5", "r3c3", "r2c3"])
    );
    assert!(!s.can("r3c3-r3c2"), "no goat steps while one waits");
    let mut s = s;
    s.play("r4c3");
    assert_eq!(s.count("prey-hand", "prey"), 0);
    s.play("r1c1-r1c2");
    // All are down: now the goats step, and no goat is entered.
    let moves = s.moves();
    assert!(moves.iter().all(|m| m.contains('-')), "{moves:?}");
    assert!(s.can("r3c3-r3c2") && s.can("r4c3-r5c3"));
}

#[test]
fn bc5_the_goats_open_and_the_sides_alternate() {
    let mut s = Scenario::new(BAGH);
    assert_eq!(s.to_move(), "prey");
    s.play("r3c3");
    assert_eq!(s.to_move(), "hunter");
    // The tigers move while goats are still being entered.
    assert_eq!(
        moves_from(&s, "r1c1"),
        ["r1c1-r1c2", "r1c1-r2c1", "r1c1-r2c2"]
    );
    s.play("r1c1-r2c2");
    assert_eq!(s.to_move(), "prey");
    s.play("r2c3");
    assert_eq!(s.to_move(), "hunter");
}

/// The tiger on the centre with goats around it; tigers on three corners.
fn centre_position() -> serde_json::Value {
    position(
        &["r3c3", "r1c5", "r5c1", "r5c5"],
        &["r2c2", "r2c3", "r3c4", "r3c5", "r4c3", "r5c3"],
        0,
        "hunter",
        0,
    )
}

#[test]
fn bc6_a_tiger_steps_along_the_lines_to_vacant_points() {
    let s = Scenario::at(BAGH, centre_position());
    // The centre joins eight points; four hold goats.
    let steps: Vec<String> = moves_from(&s, "r3c3")
        .into_iter()
        .filter(|m| m.contains('-'))
        .collect();
    assert_eq!(steps, ["r3c3-r2c4", "r3c3-r3c2", "r3c3-r4c2", "r3c3-r4c4"]);
    // A point off the diagonals has four neighbours only: a goat diagonally beside it is out of reach.
    let s = Scenario::at(
        BAGH,
        position(
            &["r2c3", "r1c5", "r5c1", "r5c5"],
            &["r3c4", "r3c3"],
            0,
            "hunter",
            0,
        ),
    );
    assert_eq!(
        moves_from(&s, "r2c3"),
        ["r2c3-r1c3", "r2c3-r2c2", "r2c3-r2c4", "r2c3xr4c3"]
    );
}

#[test]
fn bc6_the_short_leap_takes_one_goat_along_a_line() {
    let mut s = Scenario::at(BAGH, centre_position());
    let leaps: Vec<String> = moves_from(&s, "r3c3")
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect();
    // Over r2c2 and r2c3 onto vacant points; r3c5 and r5c3 are taken, so r3c4 and r4c3 cannot be leapt.
    assert_eq!(leaps, ["r3c3xr1c1", "r3c3xr1c3"]);
    s.play("r3c3xr1c1");
    assert_eq!(s.count("r2c2", "prey"), 0, "the goat leapt is taken");
    assert_eq!(s.count("r1c1", "hunter"), 1);
    assert_eq!(s.var("captures", Some("hunter")), 1);
    assert_eq!(s.to_move(), "prey", "one capture a turn");
}

#[test]
fn bc6_capturing_is_not_compulsory() {
    let s = Scenario::at(BAGH, centre_position());
    assert!(s.can("r3c3xr1c1"));
    assert!(s.can("r3c3-r3c2"), "a step is legal beside a capture");
    assert!(s.can("r1c5-r1c4"), "so is another tiger's step");
}

#[test]
fn bc6_no_leap_over_a_tiger_or_onto_a_taken_point() {
    let s = Scenario::at(
        BAGH,
        position(
            &["r1c1", "r2c2", "r5c1", "r5c5"],
            &["r1c2", "r2c1", "r3c1"],
            0,
            "hunter",
            0,
        ),
    );
    assert!(!s.can("r1c1xr3c3"), "r2c2 holds a tiger");
    assert!(!s.can("r1c1xr3c1"), "r3c1 is taken");
    assert!(s.can("r1c1xr1c3"));
}

#[test]
fn bc7_once_all_are_down_a_goat_steps_and_never_captures() {
    // A goat beside the tiger with a vacant point beyond it along the row: the goat still cannot leap.
    let goats = all_but(&["r3c3", "r1c5", "r5c1", "r5c5", "r3c4", "r1c1"]);
    let s = Scenario::at(
        BAGH,
        position(
            &["r3c3", "r1c5", "r5c1", "r5c5"],
            &strs(&goats),
            0,
            "prey",
            1,
        ),
    );
    let moves = s.moves();
    assert!(
        moves.iter().all(|m| m.contains('-')),
        "steps only: {moves:?}"
    );
    assert!(!s.can("r3c2xr3c4"));
    assert_eq!(moves_from(&s, "r2c4"), ["r2c4-r3c4"]);
    assert_eq!(moves_from(&s, "r1c2"), ["r1c2-r1c1"]);
}

/// Seventeen goats around the four corner tigers: no tiger can step or leap.
const TRAP: [&str; 17] = [
    "r1c2", "r2c1", "r2c2", "r1c3", "r3c1", "r3c3", "r1c4", "r2c5", "r2c4", "r3c5", "r5c2", "r4c1",
    "r4c2", "r5c3", "r5c4", "r4c5", "r4c4",
];

#[test]
fn bc8_the_goats_win_when_the_tigers_cannot_move() {
    // Three goats are still beside the board: the trap wins in the entering phase too.
    let s = Scenario::at(BAGH, position(&CORNERS, &TRAP, 3, "hunter", 0));
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
    // Only the tigers' own turn counts.
    let s = Scenario::at(BAGH, position(&CORNERS, &TRAP, 3, "prey", 0));
    assert_eq!(s.winner(), "none");
    // One goat fewer (r3c3) and the tiger on r1c1 leaps onto it: not trapped.
    let fewer: Vec<&str> = TRAP.iter().copied().filter(|&p| p != "r3c3").collect();
    let s = Scenario::at(BAGH, position(&CORNERS, &fewer, 3, "hunter", 0));
    assert_eq!(s.winner(), "none");
    assert!(s.can("r1c1xr3c3"));
}

#[test]
fn bc8_the_goat_that_closes_the_trap_wins() {
    let fewer: Vec<&str> = TRAP.iter().copied().filter(|&p| p != "r3c3").collect();
    let mut s = Scenario::at(BAGH, position(&CORNERS, &fewer, 4, "prey", 0));
    s.play("r3c3");
    assert_eq!(s.winner(), "prey");
}

#[test]
fn bc9_the_tigers_win_with_their_fifth_capture() {
    let goats = ["r2c2", "r3c2", "r4c4"];
    let mut s = Scenario::at(BAGH, position(&CORNERS, &goats, 0, "hunter", 4));
    assert_eq!(s.winner(), "none");
    s.play("r1c1xr3c3");
    assert_eq!(s.var("captures", Some("hunter")), 5);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
    // The fourth capture does not end the game.
    let mut s = Scenario::at(BAGH, position(&CORNERS, &goats, 0, "hunter", 3));
    s.play("r1c1xr3c3");
    assert_eq!(s.winner(), "none");
}

#[test]
fn bc_q1_the_goats_move_first_and_the_tigers_first_is_a_delta() {
    assert_eq!(Scenario::new(BAGH).to_move(), "prey");
    let mut s = Scenario::new(TIGERS_FIRST);
    assert_eq!(s.to_move(), "hunter");
    // Three steps off each corner, nothing to leap.
    assert_eq!(s.moves().len(), 12);
    s.play("r1c1-r2c2");
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.moves().len(), 21, "then the first goat comes in");
    s.play("r3c3");
    assert_eq!(s.to_move(), "hunter");
}

#[test]
fn bc_q2_five_captures_win_and_every_goat_is_a_delta() {
    let goats = ["r2c2", "r3c2", "r4c4"];
    let mut s = Scenario::at(ALL_GOATS, position(&CORNERS, &goats, 0, "hunter", 4));
    s.play("r1c1xr3c3");
    assert_eq!(s.winner(), "none", "five are not enough in the delta");
    let mut s = Scenario::at(ALL_GOATS, position(&CORNERS, &["r2c2"], 0, "hunter", 19));
    s.play("r1c1xr3c3");
    assert_eq!(s.var("captures", Some("hunter")), 20);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
}

/// All goats down but four taken; the tiger on r1c1 can shuttle to r1c2 and a goat between r4c2 and r4c3,
/// and no capture is possible.
fn quiet_position(to_move: &str) -> serde_json::Value {
    let goats = all_but(&["r1c1", "r1c5", "r5c1", "r5c5", "r1c2", "r4c3"]);
    position(&CORNERS, &strs(&goats), 0, to_move, 1)
}

#[test]
fn bc_q3_a_position_may_come_back_and_its_third_coming_is_a_draw() {
    let mut s = Scenario::at(BAGH, quiet_position("hunter"));
    assert!(
        s.moves().iter().all(|m| !m.contains('x')),
        "no capture anywhere"
    );
    s.play("r1c1-r1c2").play("r4c2-r4c3");
    // Going back is legal: no rule forbids recreating an earlier position.
    s.play("r1c2-r1c1").play("r4c3-r4c2");
    assert_eq!(s.winner(), "none", "the start has come up twice");
    s.play("r1c1-r1c2").play("r4c2-r4c3").play("r1c2-r1c1");
    assert_eq!(s.winner(), "none");
    s.play("r4c3-r4c2");
    assert_eq!(s.winner(), "draw", "the third time");
    assert_eq!(s.ended_by(), "cap:repetition");
}

#[test]
fn bc_q3_alternative_no_move_may_bring_back_an_earlier_position() {
    let mut s = Scenario::at(NO_REPEAT, quiet_position("hunter"));
    s.play("r1c1-r1c2").play("r4c2-r4c3");
    // The tiger may step back: the goats have moved, so the position is new.
    s.play("r1c2-r1c1");
    // The goat's step back would bring back the starting position, tigers to move: no such move.
    assert!(!s.can("r4c3-r4c2"), "{:?}", s.moves());
    assert!(!s.moves().is_empty(), "the goats have other steps");
    // The same step is legal in the canonical game, which draws at the third coming instead.
    let mut canonical = Scenario::at(BAGH, quiet_position("hunter"));
    canonical
        .play("r1c1-r1c2")
        .play("r4c2-r4c3")
        .play("r1c2-r1c1");
    assert!(canonical.can("r4c3-r4c2"));
    // Given as a move all the same (the canonical game's, whose rules and choices are the same), it is
    // refused with the rule's reason.
    let g = canonical.game();
    let step = g
        .parse_move(&canonical.state, "r4c3-r4c2")
        .expect("rules run")
        .expect("legal in the canonical game");
    let refused = s
        .game()
        .apply(&s.state, &step)
        .expect_err("not a move here");
    assert!(refused.message.contains("reject"), "{refused:?}");
}

#[test]
fn bc_q4_one_hundred_quiet_turns_draw() {
    let mut st = quiet_position("hunter");
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(BAGH, st);
    assert_eq!(s.winner(), "none");
    s.play("r1c1-r1c2");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "cap:no_capture_turns");
}

#[test]
fn bc_q4_the_quiet_count_starts_with_the_last_goat_down() {
    let mut st = position(&CORNERS, &["r3c3"], 1, "prey", 0);
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(BAGH, st);
    s.play("r2c3");
    assert_eq!(s.winner(), "none", "entering a goat is not a quiet turn");
    assert_eq!(s.state.quiet_turns, 0);
    s.play("r1c1-r1c2");
    assert_eq!(s.state.quiet_turns, 1);
}

#[test]
fn bc_q4_the_game_is_drawn_at_its_thousandth_turn() {
    let mut st = quiet_position("hunter");
    st["turn"] = json!(999);
    let mut s = Scenario::at(BAGH, st);
    s.play("r1c1-r1c2");
    assert_eq!(s.ended_by(), "cap:max_turns");
}

#[test]
fn bc_q4_goats_that_cannot_move_pass() {
    // The one vacant point, r1c2, is walled in by tigers.
    let tigers = ["r1c1", "r1c3", "r2c2", "r5c5"];
    let mut but = tigers.to_vec();
    but.push("r1c2");
    let goats = all_but(&but);
    let mut s = Scenario::at(BAGH, position(&tigers, &strs(&goats), 0, "prey", 0));
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "hunter");
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=9)
        .map(|i| format!("BC-{i}"))
        .chain((1..=4).map(|i| format!("BC-Q{i}")))
        .collect();
    check_rule_rows("bagh-chal.md", "bagh_chal.rs", &ids, &["bc"]);
}

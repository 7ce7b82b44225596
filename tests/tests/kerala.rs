//! Kerala: a scenario test (or more) per rule of `docs/rules/kerala.md` (KE-1 .. KE-11, the
//! questions KE-Q1 .. KE-Q13) and the three-player variant.
//!
//! Player 1's route: S1 (0), E1.1..E1.5 (1-5), R0 (6), R1..R19 (7-25), R0 again (26, a `p1_lapped`), CT
//! (27), R0 (28) and R1..R19 (29-47) as `p1_out`, R0 (48, a `p1_home`), X1.5..X1.1 (49-53), F1 (54).
//! Player 2's starts at R10: E2.5 leads to R10, and R10 + k is the ring square after it.

use keliya_tests::{Scenario, compile};
use serde_json::{Value, json};

const KE: &str = "kerala";
const THREE: &str = "kerala/three-players";
const HAVENS_UNLIMITED: &str = "kerala/havens-unlimited";
const ENTER_FIVE_UP: &str = "kerala/enter-five-up";
const BLOCKING: &str = "kerala/blocking";
const THROW_OFF: &str = "kerala/throw-off";

fn at(ruleset: &str, to_move: &str, throw: &str, sites: Value) -> Scenario {
    Scenario::at(
        ruleset,
        json!({"to_move": to_move, "throw": throw, "sites": sites}),
    )
}

fn at_with_gate(to_move: &str, throw: &str, sites: Value, gate_p1: i64) -> Scenario {
    Scenario::at(
        KE,
        json!({"to_move": to_move, "throw": throw, "sites": sites,
               "vars": {"gate": {"p1": gate_p1, "p2": 0}}}),
    )
}

/// A position of `ruleset` in which player 1's gate is open (all his pieces have been in the centre).
fn at_gate_open(ruleset: &str, to_move: &str, throw: &str, sites: Value) -> Scenario {
    Scenario::at(
        ruleset,
        json!({"to_move": to_move, "throw": throw, "sites": sites,
               "vars": {"gate": {"p1": 1, "p2": 0}}}),
    )
}

/// Player 2, with every piece at the start, throws a 2 and cannot use it.
fn p2_passes(s: &mut Scenario) {
    assert_eq!(s.to_move(), "p2");
    s.throw("two-up");
    s.play("pass");
}

/// A ruleset extending the canonical one with `params` (a YAML flow mapping), written to a temporary file.
fn with(name: &str, body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("keliya-kerala-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(
        &path,
        format!("keliya: 1\ntitle: {name}\nextends: kerala\n{body}\n"),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn ke1_pieces_start_off_the_board_and_only_1_or_5_brings_one_on() {
    let s = Scenario::new(KE);
    assert_eq!(
        (s.count("S1", "p1_piece"), s.count("S2", "p2_piece")),
        (5, 5)
    );
    let start = json!({"S1": {"p1_piece": 5}, "S2": {"p2_piece": 5}});
    for throw in ["two-up", "three-up", "four-up", "five-up"] {
        let s = at(KE, "p1", throw, start.clone());
        assert_eq!(s.moves(), ["pass"], "{throw} cannot start a piece");
    }
    assert_eq!(at(KE, "p1", "one-up", start.clone()).moves(), ["S1-E1.1"]);
    assert_eq!(at(KE, "p1", "none-up", start).moves(), ["S1-E1.5"]);
}

#[test]
fn ke2_a_5_starts_on_the_fifth_lane_square_a_1_on_the_first() {
    let mut s = at(
        KE,
        "p2",
        "none-up",
        json!({"S1": {"p1_piece": 5}, "S2": {"p2_piece": 5}}),
    );
    s.play("S2-E2.5");
    assert_eq!(
        (s.count("E2.5", "p2_piece"), s.count("S2", "p2_piece")),
        (1, 4)
    );
    let mut s = at(
        KE,
        "p2",
        "one-up",
        json!({"S1": {"p1_piece": 5}, "S2": {"p2_piece": 5}}),
    );
    s.play("S2-E2.1");
    assert_eq!(s.count("E2.1", "p2_piece"), 1);
    // The lanes lead into the ring at the player's corner.
    let c = compile(KE);
    let b = &c.game().board;
    assert_eq!(
        b.name(b.along(1, b.site("E2.5").unwrap(), 1).unwrap()),
        "R10"
    );
}

#[test]
fn ke3_one_piece_moves_per_throw_and_a_5_throws_again_for_the_same_or_another_piece() {
    let sites = json!({"S1": {"p1_piece": 3}, "R3": {"p1_piece": 1}, "R12": {"p1_piece": 1}, "S2": {"p2_piece": 5}});
    let mut s = at(KE, "p1", "three-up", sites.clone());
    assert_eq!(
        s.moves(),
        ["R12-R15", "R3-R6"],
        "one piece, the whole throw"
    );
    s.play("R3-R6");
    assert_eq!(s.to_move(), "p2");
    let mut s = at(KE, "p1", "none-up", sites);
    assert_eq!(s.moves(), ["R12-R17", "R3-R8", "S1-E1.5"]);
    s.play("R3-R8");
    assert_eq!(s.to_move(), "p1", "a 5 throws again");
    s.throw("two-up");
    assert_eq!(
        s.moves(),
        ["R12-R14", "R8-R10"],
        "the same piece or another"
    );
}

#[test]
fn ke4_further_5s_give_further_throws() {
    let mut s = at(
        KE,
        "p1",
        "none-up",
        json!({"S1": {"p1_piece": 5}, "S2": {"p2_piece": 5}}),
    );
    s.play("S1-E1.5");
    s.throw("none-up");
    s.play("S1-E1.5");
    assert_eq!(
        s.count("S1", "p1_piece"),
        4,
        "landing on one's own piece sends it back (KE-8)"
    );
    s.throw("none-up");
    s.play("E1.5-R4");
    assert_eq!(s.to_move(), "p1");
    s.throw("one-up");
    s.play("S1-E1.1");
    assert_eq!(
        s.to_move(),
        "p2",
        "the run of throws ends with a throw other than 5"
    );
}

#[test]
fn ke5_an_unusable_throw_forfeits_the_turn_and_any_extra_throw() {
    // Four pieces wait in the centre for the fifth, on R19 (position 25): only a 1 (R0) or a 2 (the
    // centre) can move it.
    let sites = json!({"CT": {"p1_piece": 4}, "R19": {"p1_piece": 1}, "S2": {"p2_piece": 5}});
    let mut s = at(KE, "p1", "none-up", sites);
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "p2", "the 5's extra throw is lost with it");
}

#[test]
fn ke6_all_five_in_the_centre_before_the_return_journey() {
    let sites = json!({"CT": {"p1_piece": 4}, "R19": {"p1_piece": 1}, "S2": {"p2_piece": 5}});
    let mut s = at_with_gate("p1", "two-up", sites.clone(), 0);
    assert_eq!(
        s.moves(),
        ["R19-CT"],
        "the four in the centre may not leave yet"
    );
    s.play("R19-CT");
    assert_eq!(s.var("gate", Some("p1")), 1, "all five in: the gate opens");
    p2_passes(&mut s);
    s.throw("one-up");
    assert_eq!(
        s.moves(),
        ["CT-R0"],
        "the return journey starts on the player's corner"
    );
    s.play("CT-R0");
    assert_eq!(s.count("R0", "p1_out"), 1);
    // Round the track once more, then out down the exit lane.
    let mut s = at_with_gate(
        "p1",
        "two-up",
        json!({"R18": {"p1_out": 1}, "R19": {"p1_out": 1}, "CT": {"p1_piece": 3}, "S2": {"p2_piece": 5}}),
        1,
    );
    assert!(s.can("R18-R0") && s.can("R19-X1.5"));
    s.play("R18-R0");
    assert_eq!(s.count("R0", "p1_home"), 1);
    p2_passes(&mut s);
    s.throw("four-up");
    assert!(s.can("R0-X1.2"), "{:?}", s.moves());
}

#[test]
fn ke7_a_hit_sends_an_inbound_piece_to_the_start_an_outbound_one_to_the_centre() {
    // Player 2's pieces on R4: inbound (first lap, a p2_piece) or outbound (second lap, a p2_out).
    let mut s = at(
        KE,
        "p1",
        "two-up",
        json!({"R2": {"p1_piece": 1}, "R4": {"p2_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 4}}),
    );
    s.play("R2-R4");
    assert_eq!(
        (s.count("R4", "p1_piece"), s.count("R4", "p2_piece")),
        (1, 0)
    );
    assert_eq!(s.count("S2", "p2_piece"), 5, "back to the start");
    assert_eq!(s.state.captures, 1);
    let mut s = Scenario::at(
        KE,
        json!({"to_move": "p1", "throw": "two-up", "vars": {"gate": {"p1": 0, "p2": 1}},
               "sites": {"R2": {"p1_piece": 1}, "R4": {"p2_out": 1}, "CT": {"p2_piece": 4}, "S1": {"p1_piece": 4}}}),
    );
    s.play("R2-R4");
    assert_eq!(s.count("CT", "p2_piece"), 5, "back to the centre");
    assert_eq!(s.var("gate", Some("p2")), 1, "the gate stays open");
}

#[test]
fn ke8_landing_on_ones_own_piece_sends_it_back_and_is_compulsory_if_the_only_move() {
    // E1.4 + 2 is R0, a haven already holding a piece of player 1; the centre pieces wait for the gate and
    // the lapped piece on R0 needs exactly 1: the only move lands on E1.4.
    let mut s = at(
        KE,
        "p1",
        "two-up",
        json!({"E1.2": {"p1_piece": 1}, "E1.4": {"p1_piece": 1}, "R0": {"p1_lapped": 1}, "CT": {"p1_piece": 2}, "S2": {"p2_piece": 5}}),
    );
    assert_eq!(s.moves(), ["E1.2-E1.4"]);
    s.play("E1.2-E1.4");
    assert_eq!(
        (s.count("E1.4", "p1_piece"), s.count("S1", "p1_piece")),
        (1, 1)
    );
    // An outbound piece landed on goes back to the centre.
    let mut s = at_with_gate(
        "p1",
        "three-up",
        json!({"R7": {"p1_out": 1}, "R4": {"p1_out": 1}, "CT": {"p1_piece": 3}, "S2": {"p2_piece": 5}}),
        1,
    );
    s.play("R4-R7");
    assert_eq!((s.count("R7", "p1_out"), s.count("CT", "p1_piece")), (1, 4));
}

#[test]
fn ke9_havens_one_piece_per_player_never_hit_and_the_first_to_bear_off_all_wins() {
    // A haven (a corner) may hold one piece of each player: player 1 lands beside player 2's piece.
    let mut s = at(
        KE,
        "p1",
        "two-up",
        json!({"R3": {"p1_piece": 1}, "R5": {"p2_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 4}}),
    );
    s.play("R3-R5");
    assert_eq!(
        (s.count("R5", "p1_piece"), s.count("R5", "p2_piece")),
        (1, 1)
    );
    // But not a second piece of his own.
    let s = at(
        KE,
        "p1",
        "two-up",
        json!({"R3": {"p1_piece": 1}, "R5": {"p1_piece": 1}, "S1": {"p1_piece": 3}, "S2": {"p2_piece": 5}}),
    );
    assert!(!s.can("R3-R5"));
    assert_eq!(s.moves(), ["R5-R7"]);
    // The first to get all his pieces off wins.
    let mut s = at_with_gate(
        "p1",
        "one-up",
        json!({"X1.1": {"p1_piece": 1}, "F1": {"p1_piece": 4}, "S2": {"p2_piece": 5}}),
        1,
    );
    s.play("X1.1-F1");
    assert_eq!(
        (s.winner().as_str(), s.ended_by().as_str()),
        ("p1", "player-1-home")
    );
}

#[test]
fn ke10_two_players_here_three_in_the_variant() {
    assert_eq!(compile(KE).game().players.len(), 2);
    let c = compile(THREE);
    let g = c.game();
    let order: Vec<&str> = g
        .turn_order
        .iter()
        .map(|&p| g.players[p as usize].name.as_str())
        .collect();
    assert_eq!(
        order,
        ["p1", "p2", "p3"],
        "in the direction of movement: R0, R5, R10"
    );
    let b = &g.board;
    let corner = |track: &str| b.name(b.track(track).unwrap().points[6]).to_string();
    assert_eq!(
        [corner("route_p1"), corner("route_p2"), corner("route_p3")],
        ["R0", "R5", "R10"]
    );
    // A hit sends back a piece of either opponent.
    let mut s = at(
        THREE,
        "p1",
        "two-up",
        json!({"R2": {"p1_piece": 1}, "R4": {"p3_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 5}, "S3": {"p3_piece": 4}}),
    );
    s.play("R2-R4");
    assert_eq!(s.count("S3", "p3_piece"), 5);
    let mut s = at(
        THREE,
        "p3",
        "two-up",
        json!({"R12": {"p3_piece": 1}, "R14": {"p2_piece": 1}, "S1": {"p1_piece": 5}, "S2": {"p2_piece": 4}, "S3": {"p3_piece": 4}}),
    );
    s.play("R12-R14");
    assert_eq!(s.count("S2", "p2_piece"), 5);
    // Three players on one haven.
    let mut s = at(
        THREE,
        "p3",
        "one-up",
        json!({"R14": {"p3_piece": 1}, "R15": {"p1_piece": 1, "p2_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 4}, "S3": {"p3_piece": 4}}),
    );
    s.play("R14-R15");
    assert_eq!(s.count("R15", "p3_piece"), 1);
}

#[test]
fn ke11_throw_values_and_the_exact_binomial_distribution_of_five_coins() {
    let got = Scenario::new(KE).throw_outcomes();
    let want = [
        ("none-up", 5, 1.0, true),
        ("one-up", 1, 5.0, false),
        ("two-up", 2, 10.0, false),
        ("three-up", 3, 10.0, false),
        ("four-up", 4, 5.0, false),
        ("five-up", 10, 1.0, false),
    ];
    assert_eq!(got.len(), want.len());
    for ((name, value, p, again), (wn, wv, w32, wa)) in got.iter().zip(want) {
        assert_eq!((name.as_str(), *value, *again), (wn, wv, wa));
        assert_eq!(*p, w32 / 32.0, "P({name}) is exactly C(5, k) / 32");
    }
}

#[test]
fn keq3_keq6_the_centre_is_entered_from_the_corner_after_a_lap_and_the_return_starts_there() {
    let c = compile(KE);
    let b = &c.game().board;
    let r: Vec<&str> = b
        .track("route_p1")
        .unwrap()
        .points
        .iter()
        .map(|&p| b.name(p))
        .collect();
    assert_eq!(r.len(), 55);
    assert_eq!(&r[25..30], ["R19", "R0", "CT", "R0", "R1"]);
    assert_eq!(
        &r[47..55],
        ["R19", "R0", "X1.5", "X1.4", "X1.3", "X1.2", "X1.1", "F1"]
    );
    let s = at(
        KE,
        "p1",
        "one-up",
        json!({"R0": {"p1_lapped": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 5}}),
    );
    assert!(s.can("R0-CT"));
}

#[test]
fn keq4_the_centre_must_be_reached_exactly() {
    let sites = json!({"R18": {"p1_piece": 1}, "CT": {"p1_piece": 4}, "S2": {"p2_piece": 5}});
    // R18 is position 24: the centre (27) needs exactly 3.
    assert_eq!(at(KE, "p1", "four-up", sites.clone()).moves(), ["pass"]);
    assert_eq!(at(KE, "p1", "three-up", sites.clone()).moves(), ["R18-CT"]);
    let alt = with("centre-overshoot", "params: {centre_exact: false}");
    assert_eq!(at(&alt, "p1", "four-up", sites).moves(), ["R18-CT"]);
}

#[test]
fn keq5_bearing_off_needs_the_exact_count() {
    let sites = json!({"X1.3": {"p1_piece": 1}, "F1": {"p1_piece": 4}, "S2": {"p2_piece": 5}});
    let s = Scenario::at(
        KE,
        json!({"to_move": "p1", "throw": "four-up", "sites": sites, "vars": {"gate": {"p1": 1, "p2": 0}}}),
    );
    assert_eq!(s.moves(), ["pass"]);
    let s = Scenario::at(
        KE,
        json!({"to_move": "p1", "throw": "three-up", "sites": sites, "vars": {"gate": {"p1": 1, "p2": 0}}}),
    );
    assert_eq!(s.moves(), ["X1.3-F1"]);
}

#[test]
fn keq7_the_piece_landed_on_suffers_not_the_mover() {
    let sites = json!({"R2": {"p1_piece": 1}, "R4": {"p1_piece": 1}, "S1": {"p1_piece": 3}, "S2": {"p2_piece": 5}});
    let mut s = at(KE, "p1", "two-up", sites.clone());
    s.play("R2-R4");
    assert_eq!(
        (s.count("R4", "p1_piece"), s.count("S1", "p1_piece")),
        (1, 4)
    );
    let alt = with("mover-suffers", "params: {own_landing_mover: true}");
    let mut s = at(&alt, "p1", "two-up", sites);
    s.play("R2-R4");
    assert_eq!(
        (
            s.count("R4", "p1_piece"),
            s.count("R2", "p1_piece"),
            s.count("S1", "p1_piece")
        ),
        (1, 0, 4)
    );
}

#[test]
fn keq8_one_piece_per_player_on_each_haven_alternative_on_all_havens() {
    let sites = json!({"R3": {"p1_piece": 1}, "R10": {"p1_piece": 1}, "S1": {"p1_piece": 3}, "S2": {"p2_piece": 5}});
    assert!(at(KE, "p1", "two-up", sites.clone()).can("R3-R5"));
    let alt = with("one-haven", "params: {haven_limit_overall: true}");
    let s = at(&alt, "p1", "two-up", sites);
    assert!(
        !s.can("R3-R5"),
        "alternative: one piece on all havens together"
    );
    assert!(s.can("R10-R12"));
}

#[test]
fn keq9_keq10_1_and_none_up_enter_only_none_up_throws_again() {
    let mut s = at(
        KE,
        "p1",
        "five-up",
        json!({"R1": {"p1_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 5}}),
    );
    assert_eq!(s.moves(), ["R1-R11"], "a 10 enters nothing");
    s.play("R1-R11");
    assert_eq!(s.to_move(), "p2", "and does not throw again");
    let alt = with("ten-again", "throws: {table: {5: {again: true}}}");
    let mut s = at(
        &alt,
        "p1",
        "five-up",
        json!({"R1": {"p1_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 5}}),
    );
    s.play("R1-R11");
    assert_eq!(
        s.to_move(),
        "p1",
        "alternative KE-Q10 as one throw-table row"
    );
}

#[test]
fn keq11_keq12_player_1_starts_and_the_corners_are_opposite() {
    let s = Scenario::new(KE);
    assert_eq!(s.to_move(), "p1");
    let c = compile(KE);
    let b = &c.game().board;
    let corner = |t: &str| b.name(b.track(t).unwrap().points[6]).to_string();
    assert_eq!(
        (corner("route_p1"), corner("route_p2")),
        ("R0".into(), "R10".into())
    );
    let havens: Vec<&str> = b
        .playing_sites()
        .filter(|&s| b.has_tag(s, "haven"))
        .map(|s| b.name(s))
        .collect();
    assert_eq!(
        havens,
        ["R0", "R5", "R10", "R15"],
        "KE-Q1: the four corners of a ring of 20"
    );
}

#[test]
fn keq11_delta_is_a_delta_for_the_question() {
    let c = compile(THROW_OFF);
    assert_eq!(c.info.chain.len(), 2, "{:?}", c.info.chain);
    assert!(c.info.chain[1].ends_with("kerala.yaml"));
    assert!(c.info.description.contains("KE-Q11"));
    let answer = |info: &keliya_rules::RulesetInfo| {
        info.choices
            .iter()
            .find(|(id, _)| id == "KE-Q11")
            .map(|(_, text)| text.clone())
    };
    assert!(answer(&c.info).unwrap().contains("throw-off"));
    assert_ne!(answer(&c.info), answer(&compile("kerala").info));
}

#[test]
fn keq11_delta_a_throw_off_the_higher_value_starts() {
    // Player 1 throws none up (5), player 2 five up (10): player 2 starts, with a throw of his own.
    let mut s = Scenario::new(THROW_OFF);
    assert_eq!(s.to_move(), "p1");
    s.throw("none-up");
    assert_eq!(s.moves(), ["throw-off"], "the 5 brings no piece on yet");
    s.play("throw-off");
    assert_eq!(s.to_move(), "p2", "the 5 gives no throw again here");
    s.throw("five-up").play("throw-off");
    assert_eq!((s.to_move(), s.var("started", None)), ("p2", 1));
    assert_eq!(s.count("S1", "p1_piece"), 5);
    assert!(s.state.chance_due);
    s.throw("one-up");
    assert_eq!(s.moves(), ["S2-E2.1"], "play has begun");
    // Player 1 throws a 4, player 2 a 1: player 1 starts.
    let mut s = Scenario::new(THROW_OFF);
    s.throw("four-up")
        .play("throw-off")
        .throw("one-up")
        .play("throw-off");
    assert_eq!(s.to_move(), "p1");
    s.throw("none-up");
    assert_eq!(s.moves(), ["S1-E1.5"]);
    // The canonical game: player 1 starts and his first 5 enters at once.
    let mut s = Scenario::new(KE);
    s.throw("none-up");
    assert_eq!(s.moves(), ["S1-E1.5"]);
}

#[test]
fn keq11_delta_a_tie_throws_again() {
    let mut s = Scenario::new(THROW_OFF);
    s.throw("two-up")
        .play("throw-off")
        .throw("two-up")
        .play("throw-off");
    assert_eq!((s.to_move(), s.var("started", None)), ("p1", 0));
    s.throw("one-up");
    assert_eq!(s.moves(), ["throw-off"], "still the throw-off");
    s.play("throw-off").throw("three-up").play("throw-off");
    assert_eq!((s.to_move(), s.var("started", None)), ("p2", 1));
    assert_eq!(
        (
            s.var("off_throw", Some("p1")),
            s.var("off_throw", Some("p2"))
        ),
        (1, 3)
    );
}

#[test]
fn keq13_pieces_pass_over_occupied_squares() {
    let s = at(
        KE,
        "p1",
        "four-up",
        json!({"R1": {"p1_piece": 1}, "R2": {"p2_piece": 1}, "R3": {"p1_piece": 1}, "S1": {"p1_piece": 3}, "S2": {"p2_piece": 4}}),
    );
    assert!(s.can("R1-R5"));
}

#[test]
fn keq1_keq2_a_ring_of_twenty_numbered_clockwise_with_two_lanes_of_five_at_each_corner() {
    let c = compile(KE);
    let b = &c.game().board;
    // The layout's coordinates (y upwards); a ruleset draws y downwards, so it stores -y.
    let at = |n: &str| {
        let (x, y) = b.at[b.site(n).unwrap() as usize];
        (x, -y + 0.0)
    };
    // Clockwise: from R0 up the left side to R5, along the top to R10, down to R15.
    assert_eq!(
        (at("R0"), at("R5"), at("R10"), at("R15")),
        ((0.0, 0.0), (0.0, 5.0), (5.0, 5.0), (5.0, 0.0))
    );
    for k in 0..20 {
        let (p, q) = (at(&format!("R{k}")), at(&format!("R{}", (k + 1) % 20)));
        assert_eq!(
            (p.0 - q.0).abs() + (p.1 - q.1).abs(),
            1.0,
            "R{k} and the next are neighbours"
        );
    }
    let r: Vec<&str> = b
        .track("route_p1")
        .unwrap()
        .points
        .iter()
        .map(|&p| b.name(p))
        .collect();
    assert_eq!(&r[1..7], ["E1.1", "E1.2", "E1.3", "E1.4", "E1.5", "R0"]);
    // The entry lane is on the player's left as he faces the board from his corner.
    let (e, x) = (at("E1.3"), at("X1.3"));
    let facing = (1.0, 1.0);
    let cross = facing.0 * (e.1 - x.1) - facing.1 * (e.0 - x.0);
    assert!(cross > 0.0, "E1 lies left of X1");
}

#[test]
fn keq8_alternative_unlimited_mixing_havens_hold_any_number_of_pieces() {
    // Player 1 on R3 and on the haven R5, where player 2 also stands; player 2 on R2. A 2 takes R3 to R5.
    let sites = json!({"R2": {"p2_piece": 1}, "R3": {"p1_piece": 1}, "R5": {"p1_piece": 1, "p2_piece": 1},
                       "S1": {"p1_piece": 3}, "S2": {"p2_piece": 3}});
    assert_eq!(
        at(KE, "p1", "two-up", sites.clone()).moves(),
        ["R5-R7"],
        "default: one piece per player on a haven"
    );
    let mut s = at(HAVENS_UNLIMITED, "p1", "two-up", sites);
    assert_eq!(s.moves(), ["R3-R5", "R5-R7"]);
    s.play("R3-R5");
    assert_eq!(
        (
            s.count("R3", "p1_piece"),
            s.count("R5", "p1_piece"),
            s.count("R5", "p2_piece"),
            s.count("S1", "p1_piece")
        ),
        (0, 2, 1, 3),
        "two of player 1's pieces beside player 2's; nobody is sent back from a haven"
    );
    assert_eq!(s.state.captures, 0);
    assert_eq!(s.to_move(), "p2");
    s.throw("three-up");
    assert_eq!(s.moves(), ["R2-R5", "R5-R8"]);
    s.play("R2-R5");
    assert_eq!(
        (s.count("R5", "p1_piece"), s.count("R5", "p2_piece")),
        (2, 2)
    );
    assert_eq!((s.state.captures, s.count("S2", "p2_piece")), (0, 3));

    // On his own corner two kinds of piece may meet: one starting its first lap (position 6) and one
    // that has finished it (26); the player chooses which to move.
    let sites = json!({"R0": {"p1_piece": 1}, "R18": {"p1_piece": 1}, "S1": {"p1_piece": 3}, "S2": {"p2_piece": 5}});
    assert_eq!(at(KE, "p1", "two-up", sites.clone()).moves(), ["R0-R2"]);
    let mut s = at(HAVENS_UNLIMITED, "p1", "two-up", sites);
    assert_eq!(s.moves(), ["R0-R2", "R18-R0"]);
    s.play("R18-R0");
    assert_eq!(
        (
            s.count("R0", "p1_piece"),
            s.count("R0", "p1_lapped"),
            s.count("S1", "p1_piece")
        ),
        (1, 1, 3)
    );
    p2_passes(&mut s);
    s.throw("one-up");
    assert_eq!(s.moves(), ["R0-CT", "R0-R1", "S1-E1.1"]);
    s.play("R0-CT");
    assert_eq!(
        (
            s.count("CT", "p1_piece"),
            s.count("R0", "p1_piece"),
            s.count("R0", "p1_lapped")
        ),
        (1, 1, 0),
        "the lapped piece went in, the other stays"
    );

    // After the gate: a piece starting its second lap (28) and one that has finished it (48) share the
    // corner, and a piece leaving the centre may join them; each moves on its own part of the route.
    let sites = json!({"CT": {"p1_piece": 3}, "R0": {"p1_out": 1}, "R19": {"p1_out": 1}, "S2": {"p2_piece": 5}});
    assert_eq!(
        at_gate_open(KE, "p1", "one-up", sites.clone()).moves(),
        ["R0-R1"],
        "default: neither CT nor R19 may land on the corner holding a piece of player 1"
    );
    let mut s = at_gate_open(HAVENS_UNLIMITED, "p1", "one-up", sites);
    assert_eq!(s.moves(), ["CT-R0", "R0-R1", "R19-R0"]);
    s.play("R19-R0");
    assert_eq!((s.count("R0", "p1_out"), s.count("R0", "p1_home")), (1, 1));
    p2_passes(&mut s);
    s.throw("one-up");
    assert_eq!(s.moves(), ["CT-R0", "R0-R1", "R0-X1.5"]);
    s.play("CT-R0");
    assert_eq!(
        (
            s.count("CT", "p1_piece"),
            s.count("R0", "p1_out"),
            s.count("R0", "p1_home")
        ),
        (2, 2, 1)
    );
    p2_passes(&mut s);
    s.throw("one-up");
    s.play("R0-X1.5");
    assert_eq!(
        (
            s.count("R0", "p1_out"),
            s.count("R0", "p1_home"),
            s.count("X1.5", "p1_piece")
        ),
        (2, 0, 1)
    );
}

#[test]
fn keq9_alternative_1_and_5_up_enter_and_5_up_enters_on_lane_square_5() {
    let start = json!({"S1": {"p1_piece": 5}, "S2": {"p2_piece": 5}});
    // The default: a 1 and none up (worth 5) enter; five up (worth 10) does not.
    assert_eq!(at(KE, "p1", "five-up", start.clone()).moves(), ["pass"]);
    assert_eq!(at(KE, "p1", "none-up", start.clone()).moves(), ["S1-E1.5"]);
    // The alternative: a 1 and five up enter, five up on the fifth lane square; none up does not.
    assert_eq!(
        at(ENTER_FIVE_UP, "p1", "five-up", start.clone()).moves(),
        ["S1-E1.5"]
    );
    assert_eq!(
        at(ENTER_FIVE_UP, "p1", "none-up", start.clone()).moves(),
        ["pass"]
    );
    assert_eq!(
        at(ENTER_FIVE_UP, "p1", "one-up", start.clone()).moves(),
        ["S1-E1.1"]
    );
    for throw in ["two-up", "three-up", "four-up"] {
        assert_eq!(
            at(ENTER_FIVE_UP, "p1", throw, start.clone()).moves(),
            ["pass"],
            "{throw} does not enter"
        );
    }
    assert_eq!(
        at(ENTER_FIVE_UP, "p2", "five-up", start).moves(),
        ["S2-E2.5"]
    );

    // With a piece on the board: five up still moves it ten squares, or brings a new piece on, and does
    // not throw again; none up moves it five squares and throws again.
    let sites = json!({"R1": {"p1_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 5}});
    assert_eq!(at(KE, "p1", "five-up", sites.clone()).moves(), ["R1-R11"]);
    assert_eq!(
        at(KE, "p1", "none-up", sites.clone()).moves(),
        ["R1-R6", "S1-E1.5"]
    );
    let mut s = at(ENTER_FIVE_UP, "p1", "five-up", sites.clone());
    assert_eq!(s.moves(), ["R1-R11", "S1-E1.5"]);
    s.play("S1-E1.5");
    assert_eq!(
        (
            s.count("S1", "p1_piece"),
            s.count("E1.5", "p1_piece"),
            s.count("E1.1", "p1_piece"),
            s.count("R4", "p1_piece"),
            s.count("R1", "p1_piece")
        ),
        (3, 1, 0, 0, 1),
        "on lane square 5, not 10 squares on"
    );
    assert_eq!(s.to_move(), "p2", "five up does not throw again (KE-Q10)");
    let mut s = at(ENTER_FIVE_UP, "p1", "none-up", sites);
    assert_eq!(s.moves(), ["R1-R6"]);
    s.play("R1-R6");
    assert_eq!(s.to_move(), "p1", "none up still throws again (KE-3)");

    // Entering on one's own piece on lane square 5 is legal (KE-8), and sends that piece back to the start.
    let sites = json!({"E1.5": {"p1_piece": 1}, "S1": {"p1_piece": 4}, "S2": {"p2_piece": 5}});
    let mut s = at(ENTER_FIVE_UP, "p1", "five-up", sites);
    assert_eq!(s.moves(), ["E1.5-R9", "S1-E1.5"]);
    s.play("S1-E1.5");
    assert_eq!(
        (s.count("S1", "p1_piece"), s.count("E1.5", "p1_piece")),
        (4, 1)
    );
}

#[test]
fn keq13_alternative_blocking_no_piece_passes_over_an_occupied_square() {
    // Player 1 on R1 and R3, player 2 on R2 between them.
    let sites = json!({"R1": {"p1_piece": 1}, "R2": {"p2_piece": 1}, "R3": {"p1_piece": 1},
                       "S1": {"p1_piece": 3}, "S2": {"p2_piece": 4}});
    assert_eq!(
        at(KE, "p1", "four-up", sites.clone()).moves(),
        ["R1-R5", "R3-R7"]
    );
    assert_eq!(
        at(BLOCKING, "p1", "four-up", sites.clone()).moves(),
        ["R3-R7"],
        "R1 would pass over R2 and R3"
    );
    assert_eq!(
        at(KE, "p1", "two-up", sites.clone()).moves(),
        ["R1-R3", "R3-R5"]
    );
    assert_eq!(
        at(BLOCKING, "p1", "two-up", sites.clone()).moves(),
        ["R3-R5"],
        "R1 would pass over player 2's piece on R2"
    );
    // Landing on an occupied square is not passing over it: a hit as in the canonical game.
    let mut s = at(BLOCKING, "p1", "one-up", sites);
    assert_eq!(s.moves(), ["R1-R2", "R3-R4", "S1-E1.1"]);
    s.play("R1-R2");
    assert_eq!(
        (
            s.count("R2", "p1_piece"),
            s.count("R2", "p2_piece"),
            s.count("S2", "p2_piece")
        ),
        (1, 0, 5)
    );

    // One's own pieces block too, on the entry lane as on the ring; a piece brought on from the start
    // is set on its lane square and passes over nothing.
    let sites = json!({"E1.3": {"p1_piece": 1}, "E1.4": {"p1_piece": 1}, "S1": {"p1_piece": 3}, "S2": {"p2_piece": 5}});
    assert_eq!(
        at(KE, "p1", "none-up", sites.clone()).moves(),
        ["E1.3-R2", "E1.4-R3", "S1-E1.5"]
    );
    assert_eq!(
        at(BLOCKING, "p1", "none-up", sites).moves(),
        ["E1.4-R3", "S1-E1.5"]
    );

    // Leaving the centre and on the second lap, a piece on a haven blocks like any other.
    let sites = json!({"CT": {"p1_piece": 4}, "R8": {"p1_out": 1}, "R1": {"p2_piece": 1}, "R10": {"p2_piece": 1},
                       "S2": {"p2_piece": 3}});
    assert_eq!(
        at_gate_open(KE, "p1", "three-up", sites.clone()).moves(),
        ["CT-R2", "R8-R11"]
    );
    assert_eq!(
        at_gate_open(BLOCKING, "p1", "three-up", sites.clone()).moves(),
        ["pass"],
        "CT-R2 passes over R1, R8-R11 over the haven R10"
    );
    assert_eq!(
        at_gate_open(BLOCKING, "p1", "two-up", sites).moves(),
        ["CT-R1", "R8-R10"],
        "with a 2, R0 (empty) is passed over and the haven R10 reached"
    );
}

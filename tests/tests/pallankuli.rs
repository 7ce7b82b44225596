//! Pallankuli: one scenario test (or more) per rule of `docs/rules/pallankuli.md` (PL-1 .. PL-9,
//! PL-Q1 .. PL-Q4), and seeded random matches.
//!
//! Holes are numbered as in `docs/rules/raja-pasu.md`: 0-6 South's row from his left (sites r1h1 ..
//! r1h7), 7-13 North's row from his left (r2h7 .. r2h1); sowing runs 0, 1, .., 13, 0 (anticlockwise).

use keliya_engine::Reason;
use keliya_tests::{Scenario, check_rule_rows, compile, random_game};
use serde_json::{Map, Value, json};

const PL: &str = "pallankuli";
const TO_MOVER: &str = "pallankuli/pasu-to-mover";
const FROM_RIGHT: &str = "pallankuli/fill-from-right";
const CONTINUES: &str = "pallankuli/capture-continues";

use keliya_tests::seven_a_side as hole;

/// A position in the middle of the first round: counters per hole, closed holes, the reserves, the player
/// to move (84 counters in all).
fn pl(holes: [u16; 14], closed: &[usize], south: i64, north: i64, to_move: &str) -> Value {
    let on_board: i64 = holes.iter().map(|&n| i64::from(n)).sum();
    assert_eq!(on_board + south + north, 84, "a position holds 84 counters");
    let mut sites = Map::new();
    for (i, &n) in holes.iter().enumerate() {
        if closed.contains(&i) {
            sites.insert(hole(i), json!({"closed": 1}));
        } else if n > 0 {
            sites.insert(hole(i), json!({"seed": n}));
        }
    }
    json!({
        "to_move": to_move,
        "turn": 10,
        "sites": sites,
        "vars": {"store": {"south": south, "north": north}},
    })
}

fn board(s: &Scenario) -> [u16; 14] {
    std::array::from_fn(|i| s.count(&hole(i), "seed"))
}

fn closed(s: &Scenario) -> Vec<usize> {
    (0..14)
        .filter(|&i| s.count(&hole(i), "closed") == 1)
        .collect()
}

fn store(s: &Scenario, player: &str) -> i64 {
    s.var("store", Some(player))
}

#[test]
fn pl1_two_rows_of_seven_holes_six_counters_each() {
    let s = Scenario::new(PL);
    assert_eq!(board(&s), [6; 14]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (0, 0));
    let b = &s.game().board;
    assert_eq!(b.playing_sites().count(), 14);
    for i in 0..14 {
        let site = b.site(&hole(i)).unwrap();
        let owner = b.owner[site as usize].as_deref();
        assert_eq!(owner, Some(if i < 7 { "south" } else { "north" }), "{i}");
    }
    // South opens with any of his seven holes.
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.moves().len(), 7);
}

#[test]
fn pl2_pl3_a_move_lifts_any_own_hole_even_a_single_counter_and_relays_from_the_next_hole() {
    let mut s = Scenario::at(
        PL,
        pl(
            [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
            &[],
            40,
            38,
            "south",
        ),
    );
    assert_eq!(s.moves(), ["r1h1", "r1h3"], "his holes that hold any");
    // One counter into hole 1; the next hole, 2, holds two: they are lifted and sown into 3 and 4; hole 5 is
    // empty and hole 6 beyond it too: the move ends.
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
    assert_eq!(s.to_move(), "north");
}

#[test]
fn pl3_the_opening_sowing_relays_lap_after_lap() {
    let mut s = Scenario::new(PL);
    s.play("r1h1");
    let after = board(&s);
    let on_board: u16 = after.iter().sum();
    assert_eq!(
        i64::from(on_board) + store(&s, "south") + store(&s, "north"),
        84
    );
    assert!(
        on_board < 84 - 6,
        "more than one lap: fours or a capture were taken"
    );
    assert_eq!(s.to_move(), "north");
}

#[test]
fn pl4_an_empty_next_hole_the_hole_beyond_is_taken_and_the_turn_ends() {
    let mut s = Scenario::at(
        PL,
        pl(
            [1, 0, 0, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3],
            &[],
            40,
            33,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
    assert_eq!(store(&s, "south"), 45);
    assert_eq!(s.to_move(), "north", "the capture ends the turn");
}

/// South sows two from hole 6 into North's hole 7 (three: now four) and hole 8.
fn four_on_norths_row() -> Value {
    pl(
        [0, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 1],
        &[],
        40,
        38,
        "south",
    )
}

#[test]
fn pl5_a_four_goes_at_once_to_the_owner_of_the_row_and_the_sowing_goes_on() {
    let mut s = Scenario::at(PL, four_on_norths_row());
    s.play("r1h7");
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "north"), 42, "North owns the row");
    assert_eq!(store(&s, "south"), 40);
}

/// South to move with an empty row: North holds three on the board.
fn south_stuck(south: i64, north: i64) -> Value {
    pl(
        [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1],
        &[],
        south,
        north,
        "south",
    )
}

/// North to move with an empty row: South holds three on the board.
fn north_stuck(south: i64, north: i64) -> Value {
    pl(
        [2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
        &[],
        south,
        north,
        "north",
    )
}

#[test]
fn pl6_a_player_with_nothing_to_sow_ends_the_round_and_the_other_takes_the_rest() {
    let mut s = Scenario::at(PL, south_stuck(30, 51));
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    // North took the three left: 54, of which 42 went back into his seven holes.
    assert_eq!(store(&s, "north"), 12);
    assert_eq!(s.winner(), "none");
}

#[test]
fn pl7_holes_are_refilled_with_six_from_the_left_and_the_rest_are_out_of_play() {
    // South holds 30: five holes of six from his left (0 .. 4); 5 and 6, his right end, are out of play.
    let mut s = Scenario::at(PL, south_stuck(30, 51));
    s.play("end of round");
    assert_eq!(board(&s), [6, 6, 6, 6, 6, 0, 0, 6, 6, 6, 6, 6, 6, 6]);
    assert_eq!(closed(&s), [5, 6]);
    assert_eq!(store(&s, "south"), 0);
    // North holds 32: five holes from his left (7 .. 11), his right end (12, 13) out of play, 2 over.
    let mut s = Scenario::at(PL, north_stuck(49, 32));
    s.play("end of round");
    assert_eq!(board(&s), [6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0, 0]);
    assert_eq!(closed(&s), [12, 13]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (10, 2));
    // Holes out of play are passed by: North (who opens round 2, PL-8) sows hole 11 past 12 and 13.
    s.play("r2h3");
    assert_eq!(closed(&s), [12, 13]);
    assert_eq!(s.count("r2h2", "seed") + s.count("r2h1", "seed"), 0);
}

#[test]
fn pl8_the_players_open_the_rounds_in_turn() {
    // Round 1 ends, whoever is stuck: North opens round 2 (Pallankuli's `round_opener` part).
    for position in [north_stuck(49, 32), south_stuck(30, 51)] {
        let mut s = Scenario::at(PL, position);
        s.play("end of round");
        assert_eq!(s.to_move(), "north");
        assert!(s.moves().iter().all(|m| m.starts_with("r2h")));
    }
    // Round 2 ends, whoever is stuck: South opens round 3.
    for mut position in [north_stuck(49, 32), south_stuck(30, 51)] {
        position["vars"]["rounds"] = json!(1);
        let mut s = Scenario::at(PL, position);
        s.play("end of round");
        assert_eq!(s.to_move(), "south");
        assert!(s.moves().iter().all(|m| m.starts_with("r1h")));
    }
    // Raja Pasu's own part differs: the taker of the rest opens (RP-10).
    let mut rp_position = north_stuck(49, 32);
    rp_position["vars"]["store"] = json!({"south": 63, "north": 32});
    let mut s = Scenario::at("raja-pasu", rp_position);
    s.play("end of round");
    assert_eq!(s.to_move(), "south");
    assert!(s.moves().iter().all(|m| m.starts_with("r1h")));
}

#[test]
fn pl9_a_player_who_cannot_fill_a_single_hole_loses() {
    let mut s = Scenario::at(PL, south_stuck(5, 76));
    s.play("end of round");
    assert_eq!(s.winner(), "north");
    assert_eq!(s.ended_by(), "south-cannot-open");
    // Six fill one hole: the match goes on.
    let mut s = Scenario::at(PL, south_stuck(6, 75));
    s.play("end of round");
    assert_eq!(s.winner(), "none");
    assert_eq!(closed(&s), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn pl_q1_the_relay_lifts_the_next_hole_not_the_one_the_last_counter_fell_in() {
    // The last counter falls into hole 1, which held two; the next hole, 2, is empty, so hole 3 is taken.
    let mut s = Scenario::at(
        PL,
        pl(
            [1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
            &[],
            40,
            34,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
    assert_eq!(store(&s, "south"), 44);
}

#[test]
fn pl_q2_delta_the_fours_go_to_the_sower() {
    let mut s = Scenario::at(TO_MOVER, four_on_norths_row());
    s.play("r1h7");
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (44, 38));
}

#[test]
fn pl_q3_delta_holes_are_filled_from_the_right() {
    let mut s = Scenario::at(FROM_RIGHT, south_stuck(30, 51));
    s.play("end of round");
    assert_eq!(closed(&s), [0, 1]);
    assert_eq!(board(&s), [0, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6]);
    let mut s = Scenario::at(FROM_RIGHT, north_stuck(49, 32));
    s.play("end of round");
    assert_eq!(closed(&s), [7, 8]);
}

#[test]
fn pl_q4_the_capture_ends_the_turn_and_the_delta_sows_on() {
    let position = pl(
        [1, 0, 0, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3],
        &[],
        40,
        33,
        "south",
    );
    let mut s = Scenario::at(PL, position.clone());
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
    // The delta: after taking hole 3 the sowing goes on as if the last counter had fallen there: hole 4's
    // two are lifted and sown into 5 and 6; hole 7 is empty and 8 beyond it too.
    let mut s = Scenario::at(CONTINUES, position);
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 3]);
    assert_eq!(store(&s, "south"), 45);
    assert_eq!(s.to_move(), "north");
}

#[test]
fn random_matches_end_by_the_rules_with_the_counters_kept() {
    let c = compile(PL);
    let g = c.game();
    let (mut rounds, mut round_caps) = (0, 0);
    let matches = 20;
    for i in 0..matches {
        let st = random_game(g, 1, i);
        let var = |n: &str| st.vars[g.var_slot(g.var(n).unwrap(), None)];
        rounds += var("rounds");
        round_caps += var("round_caps");
        let reason = st.result.unwrap().reason;
        assert!(
            matches!(reason, Reason::End(e) if g.ends[e as usize].name.ends_with("cannot-open")),
            "match {i} ended by {reason:?}"
        );
    }
    eprintln!("{matches} matches, {rounds} rounds, {round_caps} ended by the round cap");
    assert!(
        round_caps * 5 <= rounds,
        "{round_caps} of {rounds} rounds capped"
    );
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=9)
        .map(|i| format!("PL-{i}"))
        .chain((1..=4).map(|i| format!("PL-Q{i}")))
        .collect();
    check_rule_rows("pallankuli.md", "pallankuli.rs", &ids, &["pl", "random_"]);
}

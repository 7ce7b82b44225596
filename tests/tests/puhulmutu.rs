//! Puhulmutu: one scenario test (or more) per rule of `docs/rules/puhulmutu.md` (PM-1 .. PM-14, PM-Q1 ..
//! PM-Q8), and 1,000 seeded random matches.
//!
//! Holes are numbered 0-13 counter-clockwise: 0-6 South's row from his left (sites r1h1 .. r1h7), 7-13
//! North's row from his left (r2h7 .. r2h1); hole 13 - i is opposite hole i.

use keliya_tests::{Scenario, SowingBoard, check_rule_rows, compile, random_endings, shared_var};
use serde_json::{Value, json};

const PM: &str = "puhulmutu";
const IN_CIRCUIT: &str = "puhulmutu/store-in-circuit";
const FRONT_FIRST: &str = "puhulmutu/front-is-first";
const FROM_RIGHT: &str = "puhulmutu/fill-from-right";
const DARAMUTU: &str = "puhulmutu/daramutu";

use keliya_tests::seven_a_side as hole;

const BOARD: SowingBoard = SowingBoard {
    hole,
    holes: 14,
    total: 56,
};

/// A position in the middle of a round: counters per hole, the stores, the player to move and the direction
/// of play (1 counter-clockwise, -1 clockwise); 56 counters in all.
fn pm(filled: &[(usize, u16)], south: i64, north: i64, to_move: &str, dir: i64) -> Value {
    let mut v = BOARD.position(&holes(filled), &[], (south, north), to_move);
    v["vars"]["dir"] = json!(dir);
    v
}

/// Marks hole `i` of a position as a puta or naga hole.
fn mark(mut v: Value, i: usize, marker: &str) -> Value {
    v["sites"][hole(i)][marker] = json!(1);
    v
}

fn board(s: &Scenario) -> [u16; 14] {
    BOARD.counts(s).try_into().expect("14 holes")
}

fn stores(s: &Scenario) -> (i64, i64) {
    (s.var("store", Some("south")), s.var("store", Some("north")))
}

fn marked(s: &Scenario, marker: &str) -> Vec<usize> {
    (0..14)
        .filter(|&i| s.count(&hole(i), marker) == 1)
        .collect()
}

/// A board with the given holes filled and every other hole empty.
fn holes(filled: &[(usize, u16)]) -> [u16; 14] {
    let mut b = [0; 14];
    for &(i, n) in filled {
        b[i] = n;
    }
    b
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn pm1_two_rows_of_seven_holes_four_counters_each_and_a_store_for_each_player() {
    let s = Scenario::new(PM);
    assert_eq!(board(&s), [4; 14]);
    assert_eq!(stores(&s), (0, 0));
    let b = &s.game().board;
    assert_eq!(b.playing_sites().count(), 14);
    for i in 0..14 {
        let site = b.site(&hole(i)).unwrap();
        let owner = b.owner[site as usize].as_deref();
        assert_eq!(owner, Some(if i < 7 { "south" } else { "north" }), "{i}");
    }
}

#[test]
fn pm2_the_first_player_chooses_the_direction_for_the_game() {
    let s = Scenario::new(PM);
    assert_eq!(s.to_move(), "south");
    assert_eq!(sorted(s.moves()), ["ccw", "cw"]);
    // Counter-clockwise: four from hole 6 go to 7 .. 10; hole 10 held four, so its five are lifted and
    // sown into 11 .. 13, 0, 1; hole 1's five go to 2 .. 6, the last into the emptied hole 6.
    let mut s = Scenario::new(PM);
    s.play("ccw");
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.var("dir", None), 1);
    assert_eq!(s.moves().len(), 7);
    s.play("r1h7");
    assert_eq!(board(&s), [5, 0, 5, 5, 5, 5, 1, 5, 5, 5, 0, 5, 5, 5]);
    assert_eq!(s.to_move(), "north");
    assert!(!s.moves().contains(&"ccw".to_string()));
    // Clockwise, the mirror image from hole 0: 13 .. 10, then 9 .. 5, then 4 .. 0.
    let mut s = Scenario::new(PM);
    s.play("cw");
    s.play("r1h1");
    assert_eq!(board(&s), [1, 5, 5, 5, 5, 0, 5, 5, 5, 5, 0, 5, 5, 5]);
    assert_eq!(s.var("dir", None), -1);
    assert!(!s.moves().contains(&"cw".to_string()));
}

#[test]
fn pm3_a_hole_of_three_is_passed_over_by_all_but_the_last_counter() {
    // Two from hole 0: hole 1 holds three and is passed over; hole 2 and hole 3 take one each.
    let mut s = Scenario::at(PM, pm(&[(0, 2), (1, 3), (10, 10)], 20, 21, "south", 1));
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 3), (2, 1), (3, 1), (10, 10)]));
    assert_eq!(s.to_move(), "north");
    // Clockwise the same: North sows two from hole 13, passing over hole 12.
    let mut s = Scenario::at(PM, pm(&[(13, 2), (12, 3), (0, 10)], 20, 21, "north", -1));
    s.play("r2h1");
    assert_eq!(board(&s), holes(&[(12, 3), (11, 1), (10, 1), (0, 10)]));
}

#[test]
fn pm4_a_last_counter_on_a_three_takes_the_four_and_the_next_hole_is_sown_on() {
    // Two from hole 0: one to hole 1, the last to hole 2, which held three: South takes the four and
    // lifts hole 3's five, which go to 4 .. 8; hole 8 was empty and the turn ends.
    let mut s = Scenario::at(
        PM,
        pm(
            &[(0, 2), (1, 1), (2, 3), (3, 5), (10, 4)],
            20,
            21,
            "south",
            1,
        ),
    );
    s.play("r1h1");
    assert_eq!(
        board(&s),
        holes(&[(1, 2), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (10, 4)])
    );
    assert_eq!(stores(&s), (24, 21));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn pm4_a_capture_before_an_empty_hole_ends_the_turn() {
    let mut s = Scenario::at(PM, pm(&[(0, 2), (2, 3), (10, 10)], 20, 21, "south", 1));
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (10, 10)]));
    assert_eq!(stores(&s), (24, 21));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn pm5_a_last_counter_in_a_hole_with_counters_lifts_them_and_sows_on() {
    // Two from hole 0 to 1 and 2; hole 2 held one: its two go to 3 and 4.
    let mut s = Scenario::at(PM, pm(&[(0, 2), (2, 1), (10, 10)], 21, 22, "south", 1));
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (3, 1), (4, 1), (10, 10)]));
    assert_eq!(stores(&s), (21, 22));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn pm6_a_last_counter_in_an_empty_hole_ends_the_turn() {
    let mut s = Scenario::at(PM, pm(&[(0, 2), (10, 10)], 22, 22, "south", 1));
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1), (10, 10)]));
    assert_eq!(stores(&s), (22, 22));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn pm7_single_counters_wait_for_the_larger_holes_and_the_front_one_for_the_others() {
    // A hole of two: the single counter of hole 0 may not be played.
    let s = Scenario::at(PM, pm(&[(0, 1), (3, 2), (10, 10)], 21, 22, "south", 1));
    assert_eq!(s.moves(), ["r1h4"]);
    // Only single counters: counter-clockwise, South's front hole is hole 6, the one his sowing leaves
    // his row by.
    let s = Scenario::at(
        PM,
        pm(&[(0, 1), (3, 1), (6, 1), (10, 10)], 21, 22, "south", 1),
    );
    assert_eq!(s.moves(), ["r1h1", "r1h4"]);
    // Clockwise it is hole 0.
    let s = Scenario::at(
        PM,
        pm(&[(0, 1), (3, 1), (6, 1), (10, 10)], 21, 22, "south", -1),
    );
    assert_eq!(s.moves(), ["r1h4", "r1h7"]);
    // North's front hole, counter-clockwise, is hole 13.
    let s = Scenario::at(PM, pm(&[(7, 1), (13, 1), (0, 10)], 21, 23, "north", 1));
    assert_eq!(s.moves(), ["r2h7"]);
    // A single counter alone in the front hole may be played.
    let s = Scenario::at(PM, pm(&[(6, 1), (10, 10)], 22, 23, "south", 1));
    assert_eq!(s.moves(), ["r1h7"]);
}

#[test]
fn pm8_the_round_ends_when_the_player_to_move_cannot_play_each_taking_his_own_row() {
    // South has nothing to sow: North takes the ten of his row.
    let mut s = Scenario::at(PM, pm(&[(8, 3), (10, 7)], 20, 26, "south", -1));
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    // South, with 20, fills five holes; North fills seven and keeps eight.
    assert_eq!(board(&s), [4, 4, 4, 4, 4, 0, 0, 4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(marked(&s, "closed"), [5, 6]);
    assert_eq!(stores(&s), (0, 8));
}

#[test]
fn pm10_pm11_the_loser_fills_what_he_can_and_his_short_hole_is_puta_naga_or_wala() {
    // Ten: holes 0 and 1 take four, hole 2 the two left (naga); North gives up two from hole 11.
    let mut s = Scenario::at(PM, pm(&[], 10, 46, "south", 1));
    s.play("end of round");
    assert_eq!(board(&s), [4, 4, 2, 0, 0, 0, 0, 4, 4, 4, 4, 2, 4, 4]);
    assert_eq!(marked(&s, "closed"), [3, 4, 5, 6]);
    assert_eq!(marked(&s, "naga"), [2]);
    assert_eq!(marked(&s, "puta"), Vec::<usize>::new());
    assert_eq!(stores(&s), (0, 46 - 28 + 2));
    assert_eq!(s.var("handicaps", None), 1);
    // Nine: a puta hole of one; North gives up three.
    let mut s = Scenario::at(PM, pm(&[], 9, 47, "south", 1));
    s.play("end of round");
    assert_eq!(board(&s), [4, 4, 1, 0, 0, 0, 0, 4, 4, 4, 4, 1, 4, 4]);
    assert_eq!(marked(&s, "puta"), [2]);
    assert_eq!(stores(&s), (0, 47 - 28 + 3));
    // Eleven: a wala hole of three, unmarked; North gives up one.
    let mut s = Scenario::at(PM, pm(&[], 11, 45, "south", 1));
    s.play("end of round");
    assert_eq!(board(&s), [4, 4, 3, 0, 0, 0, 0, 4, 4, 4, 4, 3, 4, 4]);
    assert!(marked(&s, "puta").is_empty() && marked(&s, "naga").is_empty());
    assert_eq!(stores(&s), (0, 45 - 28 + 1));
    // Eight: two full holes and no short one. North short, from his left (hole 7).
    let mut s = Scenario::at(PM, pm(&[], 8, 48, "south", 1));
    s.play("end of round");
    assert_eq!(marked(&s, "closed"), [2, 3, 4, 5, 6]);
    assert_eq!(stores(&s), (0, 20));
    let mut s = Scenario::at(PM, pm(&[], 41, 15, "south", 1));
    s.play("end of round");
    assert_eq!(board(&s), [4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 3, 0, 0, 0]);
    assert_eq!(marked(&s, "closed"), [11, 12, 13]);
    assert_eq!(stores(&s), (41 - 28 + 1, 0));
}

#[test]
fn pm11_puta_and_naga_holes_are_never_lifted_or_taken() {
    // The puta hole may not be played, even as South's only single counter.
    let s = mark(
        pm(&[(0, 2), (2, 1), (10, 10)], 21, 22, "south", 1),
        2,
        "puta",
    );
    assert_eq!(Scenario::at(PM, s).moves(), ["r1h1"]);
    // A last counter into a naga hole holding two: nothing is lifted and the turn ends.
    let p = mark(
        pm(&[(0, 2), (2, 2), (10, 10)], 21, 21, "south", 1),
        2,
        "naga",
    );
    let mut s = Scenario::at(PM, p);
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 3), (10, 10)]));
    assert_eq!(s.to_move(), "north");
    // One making a naga hole four: nothing is taken.
    let p = mark(
        pm(&[(0, 2), (2, 3), (10, 10)], 20, 21, "south", 1),
        2,
        "naga",
    );
    let mut s = Scenario::at(PM, p);
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 4), (10, 10)]));
    assert_eq!(stores(&s), (20, 21));
    // At the end of the round its counters go to its owner, and the mark goes.
    let p = mark(pm(&[(2, 4), (11, 3)], 24, 25, "south", 1), 2, "naga");
    let mut s = Scenario::at(PM, p);
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(board(&s), [4; 14]);
    assert!(marked(&s, "naga").is_empty());
}

#[test]
fn pm12_the_loser_opens_the_next_round_counter_clockwise() {
    // The round was played clockwise; South lost it: he opens, counter-clockwise.
    let mut s = Scenario::at(PM, pm(&[], 20, 36, "north", -1));
    s.play("end of round");
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.var("dir", None), 1);
    let mut s = Scenario::at(PM, pm(&[], 36, 20, "south", -1));
    s.play("end of round");
    assert_eq!(s.to_move(), "north");
    // A drawn round: North opens round 2, South round 3; the direction stays.
    let mut s = Scenario::at(PM, pm(&[], 28, 28, "south", -1));
    s.play("end of round");
    assert_eq!(s.to_move(), "north");
    assert_eq!(s.var("dir", None), -1);
    let mut p = pm(&[], 28, 28, "north", -1);
    p["vars"]["rounds"] = json!(1);
    let mut s = Scenario::at(PM, p);
    s.play("end of round");
    assert_eq!(s.to_move(), "south");
}

#[test]
fn pm13_a_player_left_without_a_playable_hole_loses_the_match() {
    let mut s = Scenario::at(PM, pm(&[], 2, 54, "south", 1));
    s.play("end of round");
    assert_eq!(s.ended_by(), "south-cannot-open");
    assert_eq!(s.winner(), "north");
    let mut s = Scenario::at(PM, pm(&[], 55, 1, "south", 1));
    s.play("end of round");
    assert_eq!(s.ended_by(), "north-cannot-open");
    assert_eq!(s.winner(), "south");
    // Three make a wala hole, which may be played: the match goes on.
    let mut s = Scenario::at(PM, pm(&[], 3, 53, "north", 1));
    s.play("end of round");
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["r1h1"]);
}

#[test]
fn pm14_a_round_without_a_capture_for_a_hundred_turns_ends() {
    let mut p = pm(&[(0, 5), (3, 3), (9, 6)], 20, 22, "south", 1);
    p["turn"] = json!(110);
    p["vars"]["last_capture"] = json!(10);
    let mut s = Scenario::at(PM, p.clone());
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 1);
    // South took 8 (28), North 6 (28).
    assert_eq!(board(&s), [4; 14]);
    // One turn earlier South still sows; a capture starts the count again.
    p["turn"] = json!(109);
    let s = Scenario::at(PM, p);
    assert_eq!(s.moves(), ["r1h1", "r1h4"]);
}

#[test]
fn pm14_after_the_last_round_the_larger_store_wins() {
    let mut p = pm(&[], 30, 26, "south", 1);
    p["vars"]["rounds"] = json!(399);
    let mut s = Scenario::at(PM, p.clone());
    s.play("end of round");
    assert_eq!(s.ended_by(), "match-cap-south");
    p["vars"]["store"] = json!({"south": 28, "north": 28});
    let mut s = Scenario::at(PM, p.clone());
    s.play("end of round");
    assert_eq!(s.ended_by(), "match-cap-draw");
    p["vars"]["rounds"] = json!(398);
    let mut s = Scenario::at(PM, p);
    s.play("end of round");
    assert_eq!(s.winner(), "none");
}

#[test]
fn pm_q1_the_store_is_not_sown_into_and_the_delta_sows_into_it() {
    let p = pm(&[(6, 2), (10, 10)], 21, 23, "south", 1);
    let mut s = Scenario::at(PM, p.clone());
    s.play("r1h7");
    assert_eq!(board(&s), holes(&[(7, 1), (8, 1), (10, 10)]));
    assert_eq!(stores(&s), (21, 23));
    let mut s = Scenario::at(IN_CIRCUIT, p);
    s.play("r1h7");
    assert_eq!(board(&s), holes(&[(7, 1), (10, 10)]));
    assert_eq!(stores(&s), (22, 23));
    // Clockwise the store comes after hole 0; North's is never sown by South.
    let mut s = Scenario::at(IN_CIRCUIT, pm(&[(0, 3), (10, 10)], 20, 23, "south", -1));
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(13, 1), (12, 1), (10, 10)]));
    assert_eq!(stores(&s), (21, 23));
}

#[test]
fn pm_q3_delta_the_front_hole_is_the_one_the_sowing_enters_by() {
    let p = pm(&[(0, 1), (3, 1), (6, 1), (10, 10)], 21, 22, "south", 1);
    assert_eq!(Scenario::at(FRONT_FIRST, p).moves(), ["r1h4", "r1h7"]);
}

#[test]
fn pm_q4_delta_the_loser_fills_from_his_right_and_sows_clockwise() {
    let mut s = Scenario::at(FROM_RIGHT, pm(&[], 10, 46, "north", 1));
    s.play("end of round");
    assert_eq!(board(&s), [0, 0, 0, 0, 2, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
    assert_eq!(marked(&s, "closed"), [0, 1, 2, 3]);
    assert_eq!(marked(&s, "naga"), [4]);
    assert_eq!(s.var("dir", None), -1);
    assert_eq!(s.to_move(), "south");
}

#[test]
fn pm_daramutu_a_last_counter_in_an_empty_or_marked_hole_takes_the_hole_opposite() {
    // Two from hole 0; the last falls into the empty hole 2: Daramutu takes hole 11, Puhulmutu nothing.
    let p = pm(&[(0, 2), (11, 5), (10, 5)], 20, 24, "south", 1);
    let mut s = Scenario::at(DARAMUTU, p.clone());
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1), (10, 5)]));
    assert_eq!(stores(&s), (25, 24));
    assert_eq!(s.to_move(), "north");
    let mut s = Scenario::at(PM, p);
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1), (11, 5), (10, 5)]));
    // A last counter in a naga hole counts as one in an empty hole.
    let p = mark(
        pm(&[(0, 2), (2, 2), (11, 5), (10, 5)], 18, 24, "south", 1),
        2,
        "naga",
    );
    let mut s = Scenario::at(DARAMUTU, p);
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 3), (10, 5)]));
    assert_eq!(stores(&s), (23, 24));
    // A puta hole opposite is not taken.
    let p = mark(
        pm(&[(0, 2), (11, 1), (10, 5)], 24, 24, "south", 1),
        11,
        "puta",
    );
    let mut s = Scenario::at(DARAMUTU, p);
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1), (11, 1), (10, 5)]));
    assert_eq!(stores(&s), (24, 24));
}

/// Seeded random matches (PM-Q5 .. PM-Q8 are in play in every one of them): the counters are
/// conserved after every move (the ruleset's invariant, and its `assert` after every drop), no sowing
/// runs for ever (PM-9, PM-Q7), and at most a fifth of the matches reach the match cap. The suite plays
/// the first 200 of the 1,000 the rules page reports (a minute of a debug build for all 1,000);
/// `KELIYA_MATCHES=1000` plays them all.
#[test]
fn random_matches_keep_the_counters_and_most_end_by_a_player_who_cannot_play() {
    let c = compile(PM);
    let g = c.game();
    let matches = std::env::var("KELIYA_MATCHES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let (mut rounds, mut quiet, mut handicaps, mut by_rule, mut south) = (0, 0, 0, 0, 0);
    for (i, (st, end)) in random_endings(g, 1, matches).into_iter().enumerate() {
        let var = |n: &str| shared_var(g, &st, n);
        rounds += var("rounds");
        quiet += var("round_caps");
        handicaps += var("handicaps");
        if end.ends_with("cannot-open") {
            by_rule += 1;
        } else {
            assert!(end.starts_with("match-cap"), "match {i} ended by {end}");
            assert_eq!(var("rounds"), 400, "match {i}");
        }
        if st.result.unwrap().winner == Some(0) {
            south += 1;
        }
    }
    eprintln!(
        "{matches} matches: {by_rule} ended by PM-13, {} by the match cap; South won {south}; {rounds} \
         rounds, {quiet} ended by PM-14's quiet rule, {handicaps} laid out with a short hole",
        matches - by_rule
    );
    assert!(5 * (matches - by_rule) <= matches, "at most a fifth capped");
    assert!(handicaps > 0);
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=14)
        .map(|i| format!("PM-{i}"))
        .chain((1..=8).map(|i| format!("PM-Q{i}")))
        .collect();
    check_rule_rows("puhulmutu.md", "puhulmutu.rs", &ids, &["pm", "random_"]);
}

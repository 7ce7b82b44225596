//! Ovalhu: one scenario test (or more) per rule of `docs/rules/ovalhu.md` (OV-1 .. OV-9 of the one-round
//! game, OV-10 .. OV-12 of the match, OV-Q1 .. OV-Q6), 1,000 seeded random games and 1,000 random matches
//! cut to ten rounds.
//!
//! Holes are numbered 0-15 counter-clockwise: 0-7 South's row from his left (sites r1h1 .. r1h8), 8-15
//! North's row from his left (r2h8 .. r2h1); hole 15 - i is opposite hole i. South's store comes after hole
//! 7, North's after hole 15.

use keliya_tests::{Scenario, SowingBoard, check_rule_rows, compile, random_endings, shared_var};
use serde_json::{Value, json};

const OV: &str = "ovalhu";
const MATCH: &str = "ovalhu/match";
const OWN_ROW: &str = "ovalhu/own-row-captures";
const WITH_LAST: &str = "ovalhu/capture-with-last";
const EMPTY_ROW: &str = "ovalhu/empty-row-ends-round";
const LOSER_OPENS: &str = "ovalhu/loser-opens";
const CHOSEN: &str = "ovalhu/refill-chosen";

fn hole(i: usize) -> String {
    if i < 8 {
        format!("r1h{}", i + 1)
    } else {
        format!("r2h{}", 16 - i)
    }
}

const BOARD: SowingBoard = SowingBoard {
    hole,
    holes: 16,
    total: 128,
};

/// A position in the middle of the first round: counters per hole, closed holes, the stores, the player to
/// move (128 counters in all).
fn ov(holes: [u16; 16], closed: &[usize], south: i64, north: i64, to_move: &str) -> Value {
    BOARD.position(&holes, closed, (south, north), to_move)
}

fn board(s: &Scenario) -> [u16; 16] {
    BOARD.counts(s).try_into().expect("16 holes")
}

fn closed(s: &Scenario) -> Vec<usize> {
    BOARD.closed(s)
}

fn store(s: &Scenario, player: &str) -> i64 {
    s.var("store", Some(player))
}

fn stores(s: &Scenario) -> (i64, i64) {
    (store(s, "south"), store(s, "north"))
}

/// A board with the given holes filled and every other hole empty.
fn holes(filled: &[(usize, u16)]) -> [u16; 16] {
    let mut b = [0; 16];
    for &(i, n) in filled {
        b[i] = n;
    }
    b
}

#[test]
fn ov1_two_rows_of_eight_holes_eight_counters_each_and_a_store_for_each_player() {
    let s = Scenario::new(OV);
    assert_eq!(board(&s), [8; 16]);
    assert_eq!(stores(&s), (0, 0));
    let b = &s.game().board;
    assert_eq!(b.playing_sites().count(), 16);
    for i in 0..16 {
        let site = b.site(&hole(i)).unwrap();
        let owner = b.owner[site as usize].as_deref();
        assert_eq!(owner, Some(if i < 8 { "south" } else { "north" }), "{i}");
    }
    // South opens with any of his eight holes.
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.moves().len(), 8);
    assert!(s.moves().iter().all(|m| m.starts_with("r1h")));
}

#[test]
fn ov2_the_sowing_drops_one_into_the_sowers_store_and_passes_the_other_store_by() {
    // South sows two from hole 7: one into his store, one into North's hole 8, which was empty; the hole
    // opposite it, 7, has just been emptied, so nothing is taken and the turn ends.
    let mut s = Scenario::at(OV, ov(holes(&[(7, 2), (12, 6)]), &[], 60, 60, "south"));
    s.play("r1h8");
    assert_eq!(board(&s), holes(&[(8, 1), (12, 6)]));
    assert_eq!(stores(&s), (61, 60));
    assert_eq!(s.to_move(), "north");
    // North sows eleven from hole 15: one into his store, eight along South's row (0 .. 7), none into
    // South's store, and two into his own holes 8 and 9. Hole 9 was empty: the counter South's sowing
    // left opposite it, in hole 6, is taken.
    let mut s = Scenario::at(OV, ov(holes(&[(15, 11), (2, 1)]), &[], 58, 58, "north"));
    s.play("r2h1");
    assert_eq!(board(&s), [1, 1, 2, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(stores(&s), (58, 58 + 1 + 1));
    assert_eq!(s.to_move(), "south");
}

#[test]
fn ov2_a_lap_of_seventeen_or_more_sows_into_the_hole_it_came_from() {
    // Seventeen from hole 0: holes 1 .. 7, the store, holes 8 .. 15, and hole 0 again, which was
    // emptied: the last counter falls into an empty hole and takes hole 15 (now 1 + 1 = 2).
    let mut s = Scenario::at(OV, ov(holes(&[(0, 17), (15, 1)]), &[], 55, 55, "south"));
    s.play("r1h1");
    let mut expected = [1; 16];
    expected[15] = 0;
    assert_eq!(board(&s), expected);
    assert_eq!(stores(&s), (55 + 1 + 2, 55));
}

#[test]
fn ov3_a_last_counter_in_a_full_hole_lifts_it_and_the_sowing_goes_on() {
    // Two from hole 0 fall into 1 and 2; hole 2 held three, so its four are lifted and sown into 3 .. 6;
    // hole 6 was empty, and hole 9 opposite it is taken.
    let mut s = Scenario::at(
        OV,
        ov(holes(&[(0, 2), (2, 3), (9, 5)]), &[], 59, 59, "south"),
    );
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (3, 1), (4, 1), (5, 1), (6, 1)]));
    assert_eq!(stores(&s), (64, 59));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn ov3_the_relay_lifts_the_hole_the_last_counter_fell_in_not_the_next() {
    // The last counter falls into hole 1, which held one: both are lifted and sown into 2 and 3. Hole 3
    // was empty: hole 12, opposite it, is taken. (Raja Pasu would have lifted hole 2 instead.)
    let mut s = Scenario::at(
        OV,
        ov(
            holes(&[(0, 1), (1, 1), (2, 4), (12, 3)]),
            &[],
            59,
            60,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(2, 5), (3, 1)]));
    assert_eq!(stores(&s), (62, 60));
}

#[test]
fn ov4_a_last_counter_in_the_sowers_store_lets_him_sow_again() {
    // Three from hole 5 fall into 6, 7 and the store: South moves again, from any hole holding counters.
    let mut s = Scenario::at(
        OV,
        ov(holes(&[(0, 4), (5, 3), (10, 2)]), &[], 60, 59, "south"),
    );
    s.play("r1h6");
    assert_eq!(board(&s), holes(&[(0, 4), (6, 1), (7, 1), (10, 2)]));
    assert_eq!(stores(&s), (61, 59));
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.moves(), ["r1h1", "r1h7", "r1h8"]);
    // The same holds for North and his store, after hole 15.
    let mut s = Scenario::at(OV, ov(holes(&[(14, 2), (3, 1)]), &[], 62, 63, "north"));
    s.play("r2h2");
    assert_eq!(stores(&s), (62, 64));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn ov5_a_last_counter_in_an_empty_hole_takes_the_hole_opposite_on_either_row() {
    // In South's own row: two from hole 0 end in empty hole 2; hole 13 opposite holds seven.
    let mut s = Scenario::at(OV, ov(holes(&[(0, 2), (13, 7)]), &[], 60, 59, "south"));
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1)]));
    assert_eq!(stores(&s), (67, 59));
    assert_eq!(s.to_move(), "north", "the capture ends the turn");
    // In North's row: four from hole 7 go to the store, 8, 9 and 10; hole 10 was empty, and South takes
    // his own hole 5, opposite it.
    let position = ov(holes(&[(7, 4), (5, 6), (8, 2)]), &[], 58, 58, "south");
    let mut s = Scenario::at(OV, position);
    s.play("r1h8");
    assert_eq!(board(&s), holes(&[(8, 3), (9, 1), (10, 1)]));
    assert_eq!(stores(&s), (58 + 1 + 6, 58));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn ov5_an_empty_hole_opposite_an_empty_one_takes_nothing_and_ends_the_turn() {
    let mut s = Scenario::at(OV, ov(holes(&[(0, 2), (10, 4)]), &[], 61, 61, "south"));
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1), (10, 4)]));
    assert_eq!(stores(&s), (61, 61));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn ov6_a_player_with_nothing_to_sow_passes_and_the_game_goes_on() {
    let s = Scenario::at(OV, ov(holes(&[(12, 3)]), &[], 60, 65, "south"));
    assert_eq!(s.moves(), ["pass"]);
    let mut s = s;
    s.play("pass");
    assert_eq!(s.to_move(), "north");
    assert_eq!(s.var("rounds", None), 0);
    assert_eq!(s.winner(), "none");
    assert_eq!(board(&s), holes(&[(12, 3)]));
    // A single counter left on the board is enough: South passes and North sows it.
    let mut s = Scenario::at(OV, ov(holes(&[(12, 1)]), &[], 63, 64, "south"));
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.moves(), ["r2h4"]);
}

#[test]
fn ov6_the_game_ends_when_every_counter_is_in_a_store() {
    // South's last counter goes into his store; he would sow again, but no hole holds a counter.
    let mut s = Scenario::at(OV, ov(holes(&[(7, 1)]), &[], 63, 64, "south"));
    s.play("r1h8");
    assert_eq!(stores(&s), (64, 64));
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    assert_eq!(s.winner(), "draw");
    // While a hole holds a counter, the game goes on.
    let s = Scenario::at(OV, ov(holes(&[(7, 1), (12, 1)]), &[], 62, 64, "south"));
    assert_eq!(s.moves(), ["r1h8"]);
}

#[test]
fn ov6_in_a_match_the_round_ends_when_every_counter_is_in_a_store() {
    let mut s = Scenario::at(MATCH, ov(holes(&[(7, 1)]), &[], 63, 64, "south"));
    s.play("r1h8");
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    assert_eq!(board(&s), [8; 16], "64 each: every hole filled again");
    assert_eq!(stores(&s), (0, 0));
    assert_eq!(s.var("round_ties", None), 1);
    assert_eq!(s.winner(), "none");
}

#[test]
fn ov7_the_larger_store_wins_the_game_and_equal_stores_draw() {
    for ((south, north), winner, end) in [
        ((65, 63), "south", "south-larger-store"),
        ((40, 88), "north", "north-larger-store"),
        ((64, 64), "draw", "equal-stores"),
    ] {
        let mut s = Scenario::at(OV, ov([0; 16], &[], south, north, "north"));
        s.play("end of round");
        assert_eq!(s.winner(), winner, "{south} to {north}");
        assert_eq!(s.ended_by(), end);
        assert_eq!(stores(&s), (south, north), "nothing refilled");
    }
}

#[test]
fn ov7_in_a_match_a_round_ends_without_a_winner_and_the_stores_are_kept() {
    let mut s = Scenario::at(MATCH, ov([0; 16], &[], 65, 63, "north"));
    s.play("end of round");
    assert_eq!(s.winner(), "none");
    assert_eq!(s.var("rounds_won", Some("south")), 1);
    // South's 65 fill eight holes, one over; North's 63 fill seven, seven over.
    assert_eq!(stores(&s), (1, 7));
    assert_eq!(closed(&s), [15]);
}

#[test]
fn ov8_south_moves_first() {
    let s = Scenario::new(OV);
    assert_eq!(s.to_move(), "south");
    assert!(s.moves().iter().all(|m| m.starts_with("r1h")));
}

#[test]
fn ov8_in_a_match_south_opens_the_first_round_and_the_players_open_the_rounds_in_turn() {
    assert_eq!(Scenario::new(MATCH).to_move(), "south");
    // Round 1 ends, whoever moved last: North opens round 2.
    for to_move in ["south", "north"] {
        let mut s = Scenario::at(MATCH, ov([0; 16], &[], 40, 88, to_move));
        s.play("end of round");
        assert_eq!(s.to_move(), "north", "round 2");
        assert!(s.moves().iter().all(|m| m.starts_with("r2h")));
    }
    // Round 2 ends: South opens round 3.
    let mut round2 = ov([0; 16], &[], 40, 88, "north");
    round2["vars"]["rounds"] = json!(1);
    let mut s = Scenario::at(MATCH, round2);
    s.play("end of round");
    assert_eq!(s.to_move(), "south", "round 3");
}

#[test]
fn ov9_the_game_ends_at_its_thousandth_turn_each_taking_his_own_row() {
    let mut position = ov(holes(&[(0, 5), (3, 3), (9, 6)]), &[], 50, 64, "south");
    position["turn"] = json!(1000);
    let mut s = Scenario::at(OV, position.clone());
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 1);
    // South took 8 (58), North 6 (70): North wins.
    assert_eq!(stores(&s), (58, 70));
    assert_eq!(s.ended_by(), "north-larger-store");
    // One turn earlier, South still sows.
    position["turn"] = json!(999);
    assert_eq!(Scenario::at(OV, position).moves(), ["r1h1", "r1h4"]);
}

#[test]
fn ov9_in_a_match_a_round_ends_at_its_thousandth_turn() {
    let mut position = ov(holes(&[(0, 5), (3, 3), (9, 6)]), &[], 50, 64, "south");
    position["turn"] = json!(1010);
    position["vars"]["round_start"] = json!(10);
    let mut s = Scenario::at(MATCH, position.clone());
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 1);
    // South took 8 (58: seven holes, two over), North 6 (70: eight holes, six over).
    assert_eq!(stores(&s), (2, 6));
    assert_eq!(closed(&s), [7]);
    // One turn earlier, South still sows.
    position["turn"] = json!(1009);
    assert_eq!(Scenario::at(MATCH, position).moves(), ["r1h1", "r1h4"]);
}

#[test]
fn ov10_holes_are_refilled_with_eight_from_the_left_and_the_rest_are_closed() {
    // South holds 30: three holes of eight from his left (0 .. 2), six over; 3 .. 7 closed. North holds
    // 98: all eight holes, 34 over.
    let mut s = Scenario::at(MATCH, ov([0; 16], &[], 30, 98, "south"));
    s.play("end of round");
    assert_eq!(board(&s), [8, 8, 8, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8]);
    assert_eq!(closed(&s), [3, 4, 5, 6, 7]);
    assert_eq!(stores(&s), (6, 34));
    // North short: his left is hole 8.
    let mut s = Scenario::at(MATCH, ov([0; 16], &[], 101, 27, "south"));
    s.play("end of round");
    assert_eq!(closed(&s), [11, 12, 13, 14, 15]);
    assert_eq!(stores(&s), (37, 3));
}

#[test]
fn ov10_closed_holes_are_passed_by_and_hold_nothing() {
    // South's holes 2 .. 7 are closed: two from hole 1 go into his store and North's empty hole 8; hole 7
    // opposite it is closed, so nothing is taken.
    let mut s = Scenario::at(
        MATCH,
        ov(
            holes(&[(1, 2), (12, 3)]),
            &[2, 3, 4, 5, 6, 7],
            60,
            63,
            "south",
        ),
    );
    s.play("r1h2");
    assert_eq!(board(&s), holes(&[(8, 1), (12, 3)]));
    assert_eq!(stores(&s), (61, 63));
    assert_eq!(s.to_move(), "north");
    // North passes them too: ten from hole 9 go to 10 .. 15, his store, South's open holes 0 and 1, and
    // (South's closed holes and store passed by) his own empty hole 8.
    let mut s = Scenario::at(
        MATCH,
        ov(holes(&[(9, 10)]), &[2, 3, 4, 5, 6, 7], 60, 58, "north"),
    );
    s.play("r2h7");
    assert_eq!(board(&s), [1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1]);
    assert_eq!(closed(&s), [2, 3, 4, 5, 6, 7]);
    assert_eq!(stores(&s), (60, 59));
}

#[test]
fn ov11_a_player_who_cannot_fill_a_single_hole_loses_the_match() {
    let mut s = Scenario::at(MATCH, ov([0; 16], &[], 7, 121, "south"));
    s.play("end of round");
    assert_eq!(s.winner(), "north");
    assert_eq!(s.ended_by(), "south-cannot-open");
    let mut s = Scenario::at(MATCH, ov([0; 16], &[], 122, 6, "south"));
    s.play("end of round");
    assert_eq!(s.winner(), "south");
    assert_eq!(s.ended_by(), "north-cannot-open");
    // Eight fill one hole: the match goes on.
    let mut s = Scenario::at(MATCH, ov([0; 16], &[], 8, 120, "south"));
    s.play("end of round");
    assert_eq!(s.winner(), "none");
    assert_eq!(closed(&s), [1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn ov12_after_the_hundredth_round_the_larger_store_wins_the_match() {
    let mut position = ov([0; 16], &[], 70, 58, "south");
    position["vars"]["rounds"] = json!(99);
    let mut s = Scenario::at(MATCH, position.clone());
    s.play("end of round");
    assert_eq!(s.ended_by(), "match-cap-south");
    assert_eq!(s.winner(), "south");
    position["vars"]["store"] = json!({"south": 64, "north": 64});
    let mut s = Scenario::at(MATCH, position.clone());
    s.play("end of round");
    assert_eq!(s.ended_by(), "match-cap-draw");
    // The round before, the match goes on.
    position["vars"]["rounds"] = json!(98);
    let mut s = Scenario::at(MATCH, position);
    s.play("end of round");
    assert_eq!(s.winner(), "none");
}

#[test]
fn ov_q1_delta_only_an_empty_hole_of_ones_own_row_captures() {
    // As in ov5: a last counter in North's empty hole 10, opposite South's six in hole 5.
    let position = ov(holes(&[(7, 4), (5, 6), (8, 2)]), &[], 58, 58, "south");
    let mut s = Scenario::at(OWN_ROW, position);
    s.play("r1h8");
    assert_eq!(board(&s), holes(&[(5, 6), (8, 3), (9, 1), (10, 1)]));
    assert_eq!(stores(&s), (59, 58));
    assert_eq!(s.to_move(), "north");
    // In his own row the capture stands.
    let mut s = Scenario::at(OWN_ROW, ov(holes(&[(0, 2), (13, 7)]), &[], 60, 59, "south"));
    s.play("r1h1");
    assert_eq!(stores(&s), (67, 59));
}

#[test]
fn ov_q2_the_last_counter_stays_and_the_delta_takes_it_too() {
    let position = ov(holes(&[(0, 2), (13, 7)]), &[], 60, 59, "south");
    let mut s = Scenario::at(OV, position.clone());
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1)]));
    let mut s = Scenario::at(WITH_LAST, position);
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1)]));
    assert_eq!(stores(&s), (68, 59));
    // With nothing opposite, nothing is taken, the last counter included.
    let mut s = Scenario::at(
        WITH_LAST,
        ov(holes(&[(0, 2), (10, 4)]), &[], 61, 61, "south"),
    );
    s.play("r1h1");
    assert_eq!(board(&s), holes(&[(1, 1), (2, 1), (10, 4)]));
}

#[test]
fn ov_q3_delta_an_empty_row_ends_the_round_each_taking_his_own_row() {
    let position = ov(holes(&[(12, 3), (9, 5)]), &[], 60, 60, "south");
    assert_eq!(Scenario::at(OV, position.clone()).moves(), ["pass"]);
    let mut s = Scenario::at(EMPTY_ROW, position);
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    // North took his eight: 68 to South's 60.
    assert_eq!(stores(&s), (60, 68));
    assert_eq!(s.ended_by(), "north-larger-store");
}

#[test]
fn ov_q4_delta_the_player_with_the_smaller_store_opens_the_next_round() {
    // Round 1 over: North would open round 2 by turns; South, the poorer, opens it in the delta.
    let position = ov([0; 16], &[], 40, 88, "south");
    let mut s = Scenario::at(LOSER_OPENS, position.clone());
    s.play("end of round");
    assert_eq!(s.to_move(), "south");
    let mut s = Scenario::at(MATCH, position);
    s.play("end of round");
    assert_eq!(s.to_move(), "north");
    // Equal stores: in turn.
    let mut s = Scenario::at(LOSER_OPENS, ov([0; 16], &[], 64, 64, "south"));
    s.play("end of round");
    assert_eq!(s.to_move(), "north");
}

#[test]
fn ov_q5_delta_a_short_player_chooses_the_holes_he_fills() {
    let mut s = Scenario::at(CHOSEN, ov([0; 16], &[], 20, 108, "north"));
    s.play("end of round");
    // South can fill two holes: he chooses them, one a move, before North opens round 2.
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.moves().len(), 8);
    assert!(s.moves().iter().all(|m| m.starts_with("open r1h")));
    s.play("open r1h8");
    assert_eq!(s.to_move(), "south");
    s.play("open r1h4");
    assert_eq!(closed(&s), [0, 1, 2, 4, 5, 6]);
    assert_eq!(stores(&s), (4, 44));
    assert_eq!(s.to_move(), "north", "North opens round 2");
    assert!(s.moves().iter().all(|m| m.starts_with("r2h")));
}

#[test]
fn ov_q6_the_game_is_one_round_and_the_delta_plays_a_match() {
    // The same end of a round: the game is over, and North has won it; in the match the stores fill the
    // holes again (South seven and four over, North eight and four over) and North opens round 2.
    let position = ov([0; 16], &[], 60, 68, "south");
    let mut s = Scenario::at(OV, position.clone());
    s.play("end of round");
    assert_eq!(s.winner(), "north");
    assert_eq!(board(&s), [0; 16]);
    let mut s = Scenario::at(MATCH, position);
    s.play("end of round");
    assert_eq!(s.winner(), "none");
    assert_eq!(board(&s), [8, 8, 8, 8, 8, 8, 8, 0, 8, 8, 8, 8, 8, 8, 8, 8]);
    assert_eq!(stores(&s), (4, 4));
    assert_eq!(s.to_move(), "north");
}

/// 1,000 seeded random games (seed 1, the games of the rules page's table), uniformly random moves, with
/// the counters conserved after every move. At least four fifths must end by the game's own rule (OV-6:
/// every counter in a store; then OV-7) rather than by the cap of OV-9; the rules page has the figures.
#[test]
fn random_games_keep_the_counters_and_end_by_the_rules() {
    let c = compile(OV);
    let g = c.game();
    let games = 1000;
    let (mut capped, mut south, mut north, mut draws) = (0, 0, 0, 0);
    for (i, (st, end)) in random_endings(g, 1, games).into_iter().enumerate() {
        match end.as_str() {
            "south-larger-store" => south += 1,
            "north-larger-store" => north += 1,
            "equal-stores" => draws += 1,
            _ => panic!("game {i} ended by {end}"),
        }
        assert_eq!(shared_var(g, &st, "rounds"), 1, "game {i} is one round");
        capped += shared_var(g, &st, "round_caps");
    }
    eprintln!(
        "{games} games: {} ended by the rules, {capped} by the cap; South {south}, North {north}, draws \
         {draws}",
        games as i64 - capped
    );
    assert!(
        5 * capped <= games as i64,
        "{capped} of {games} games capped"
    );
}

/// 1,000 seeded random matches (`ovalhu/match`), uniformly random moves, with the counters conserved after
/// every move. Every round ends by its own rule (OV-6: every counter in a store), none by the round cap
/// (OV-9). The matches are another matter: random play shares the counters of a round out almost evenly,
/// and a player must be left with fewer than eight of the 128 to lose (OV-11), so nearly every match runs to
/// the match cap (OV-12; the rules page, "Random play", has the figures of whole matches). To keep the test
/// short the matches are cut to ten rounds, by a delta written for it.
#[test]
fn random_matches_keep_the_counters_and_every_round_ends_by_its_rule() {
    let dir = std::env::temp_dir().join(format!("keliya-ovalhu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ten-rounds.yaml");
    std::fs::write(
        &path,
        "keliya: 1\ntitle: Ovalhu in ten rounds\nextends: ovalhu/match\nparams:\n  max_rounds: 10\n",
    )
    .unwrap();
    let c = compile(&path.to_string_lossy());
    let g = c.game();
    let matches = 1000;
    let (mut rounds, mut round_caps, mut by_rule, mut south) = (0, 0, 0, 0);
    for (i, (st, end)) in random_endings(g, 1, matches).into_iter().enumerate() {
        let var = |n: &str| shared_var(g, &st, n);
        rounds += var("rounds");
        round_caps += var("round_caps");
        if end.ends_with("cannot-open") {
            by_rule += 1;
        } else {
            assert!(end.starts_with("match-cap"), "match {i} ended by {end}");
            assert_eq!(var("rounds"), 10, "match {i}");
        }
        if st.result.unwrap().winner == Some(0) {
            south += 1;
        }
    }
    eprintln!(
        "{matches} matches of ten rounds: {by_rule} ended by OV-11, {} by the match cap; South won {south}; \
         {rounds} rounds, {round_caps} ended by the round cap",
        matches - by_rule
    );
    assert!(rounds >= 10 * (matches - by_rule) as i64);
    assert_eq!(round_caps, 0, "no round reaches the round cap");
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=12)
        .map(|i| format!("OV-{i}"))
        .chain((1..=6).map(|i| format!("OV-Q{i}")))
        .collect();
    check_rule_rows("ovalhu.md", "ovalhu.rs", &ids, &["ov", "random_"]);
}

//! Raja Pasu and Raja Pasu Mandiri: scenario tests for every rule of `docs/rules/raja-pasu.md`
//! (RP-1 .. RP-11, the defaults RP-Q1 .. RP-Q10 and their alternative files, the termination rules
//! RP-12 .. RP-14, the Mandiri rules MD-1 .. MD-8 with MD-Q1 .. MD-Q8), and seeded random matches of both
//! rulesets. Expected boards of the longer sowings were worked out by hand and checked with a separate
//! throw-away implementation of one move.
//!
//! Holes are numbered as in `docs/rules/raja-pasu.md`: 0-6 South's row from his left (sites r1h1 ..
//! r1h7), 7-13 North's row from his left (r2h7 .. r2h1); hole `i` is opposite `13 - i`; sowing runs 0, 1, .., 13, 0.

use keliya_engine::{Game, Reason, State};
use keliya_play::Dice;
use keliya_tests::{Scenario, compile};
use serde_json::{Map, Value, json};

const RP: &str = "raja-pasu";
const MD: &str = "raja-pasu-mandiri";

/// The site of hole `i`.
use keliya_tests::seven_a_side as hole;

fn sites(holes: [u16; 14], closed: &[usize]) -> Map<String, Value> {
    let mut sites = Map::new();
    for (i, &n) in holes.iter().enumerate() {
        if closed.contains(&i) {
            assert_eq!(n, 0, "a closed hole holds no counters");
            sites.insert(hole(i), json!({"closed": 1}));
        } else if n > 0 {
            sites.insert(hole(i), json!({"seed": n}));
        }
    }
    sites
}

/// A two-player position: counters per hole, closed holes, the reserves, the player to move.
fn rp(holes: [u16; 14], closed: &[usize], south: i64, north: i64, to_move: &str) -> Value {
    let on_board: i64 = holes.iter().map(|&n| n as i64).sum();
    assert_eq!(on_board + south + north, 98, "a position holds 98 counters");
    json!({
        "to_move": to_move,
        "sites": sites(holes, closed),
        "vars": {"store": {"south": south, "north": north}},
    })
}

/// A three-player position; `roles` are the tokens held by the first, second and third player.
fn md(
    holes: [u16; 14],
    closed: &[usize],
    stores: [i64; 3],
    roles: [&str; 3],
    to_move: &str,
) -> Value {
    let on_board: i64 = holes.iter().map(|&n| n as i64).sum();
    assert_eq!(on_board + stores.iter().sum::<i64>(), 98);
    let mut s = sites(holes, closed);
    for (seat, role) in ["first", "second", "third"].iter().zip(roles) {
        s.insert(format!("{seat}-hand"), json!({role: 1}));
    }
    json!({
        "to_move": to_move,
        "sites": s,
        "vars": {"store": {"first": stores[0], "second": stores[1], "third": stores[2]}},
    })
}

/// Sets a variable (a number, or `{player: number}`) in a position.
fn set(mut position: Value, var: &str, value: Value) -> Value {
    position["vars"][var] = value;
    position
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

fn holder(s: &Scenario, role: &str) -> String {
    ["first", "second", "third"]
        .into_iter()
        .find(|p| s.count(&format!("{p}-hand"), role) == 1)
        .expect("every role is held")
        .to_string()
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Writes a ruleset made in a test to a fresh file; `extends: raja-pasu` finds the bundled file.
fn ruleset(name: &str, yaml: &str) -> String {
    let dir = std::env::temp_dir().join(format!("keliya-raja-pasu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, yaml).unwrap();
    path.to_string_lossy().into_owned()
}

/// The bundled ruleset with some parameters changed.
fn with_params(name: &str, params: &str) -> String {
    ruleset(
        name,
        &format!("keliya: 1\ntitle: test\nextends: raja-pasu\nparams:\n{params}\n"),
    )
}

// ---------------------------------------------------------------------------------------------------------
// RP-1 .. RP-11

#[test]
fn rp1_two_rows_of_seven_holes_seven_counters_each_no_stores() {
    let s = Scenario::new(RP);
    let g = s.game();
    assert_eq!(g.board.playing_sites().count(), 14, "14 holes, no store");
    assert_eq!(board(&s), [7; 14]);
    assert_eq!(store(&s, "south") + store(&s, "north"), 0);
    for i in 0..14 {
        let owner = g.site_owner[g.board.site(&hole(i)).unwrap() as usize].unwrap();
        assert_eq!(
            g.players[owner as usize].name,
            if i < 7 { "south" } else { "north" },
            "each player controls his own row"
        );
    }
}

#[test]
fn rp2_a_move_takes_all_counters_of_an_own_hole_and_sows_counter_clockwise() {
    let mut s = Scenario::new(RP);
    assert_eq!(
        s.moves(),
        sorted(&["r1h1", "r1h2", "r1h3", "r1h4", "r1h5", "r1h6", "r1h7"]),
        "South moves from his own row only"
    );
    // Two counters from hole 0 go into holes 1 and 2; hole 3 is empty, so the sowing ends.
    s = Scenario::at(
        RP,
        rp(
            [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
            &[],
            40,
            53,
            "south",
        ),
    );
    assert_eq!(s.moves(), ["r1h1"], "an empty hole cannot be played");
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
    // From South's right end the sowing runs on into North's row at his left end (hole 7, r2h7).
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3],
            &[],
            40,
            53,
            "south",
        ),
    );
    s.play("r1h7");
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 3]);
    assert_eq!(s.count("r2h7", "seed"), 1);
    assert_eq!(s.to_move(), "north");
    assert_eq!(s.moves(), sorted(&["r2h1", "r2h6", "r2h7"]));
}

#[test]
fn rp3_relay_takes_up_the_next_hole_and_sows_on() {
    // Hole 0's counter lands in hole 1; hole 2 holds two: they are taken up and sown into holes 3 and 4.
    let mut s = Scenario::at(
        RP,
        rp(
            [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
            &[],
            40,
            52,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
}

#[test]
fn rp3_a_long_relay_chain_from_the_opening() {
    // The opening move from hole 0 relays twelve laps round the board, making fours on both rows, and ends
    // with a capture of three beyond an empty hole.
    let mut s = Scenario::new(RP);
    s.play("r1h1");
    assert_eq!(board(&s), [3, 1, 0, 0, 0, 14, 0, 14, 2, 14, 14, 1, 14, 2]);
    assert_eq!(
        store(&s, "south"),
        15,
        "two fours on South's row and three captured"
    );
    assert_eq!(
        store(&s, "north"),
        4,
        "one four on North's row, made by South"
    );
    // Every opening move is a chain of twelve laps; from hole 3 the last lap's capture is on North's row.
    let mut s = Scenario::new(RP);
    s.play("r1h4");
    assert_eq!(board(&s), [1, 14, 2, 3, 1, 0, 0, 0, 14, 0, 14, 2, 14, 14]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (11, 8));
}

#[test]
fn rp4_an_empty_next_hole_ends_the_sowing_and_the_turn() {
    let mut s = Scenario::at(
        RP,
        rp(
            [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
            &[],
            40,
            53,
            "south",
        ),
    );
    s.play("r1h1");
    // Holes 1-3 get one each; hole 4 is empty: no relay, and hole 5 beyond it is empty too.
    assert_eq!(board(&s), [0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (40, 53));
    assert_eq!(s.to_move(), "north");
}

#[test]
fn rp5_capture_beyond_the_empty_hole_on_the_movers_row() {
    let mut s = Scenario::at(
        RP,
        rp(
            [2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            &[],
            40,
            52,
            "south",
        ),
    );
    s.play("r1h1");
    // Last counter in hole 2, hole 3 empty, hole 4 beyond holds three: South captures them.
    assert_eq!(board(&s), [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 43);
}

#[test]
fn rp5_capture_beyond_the_empty_hole_on_the_opponents_row() {
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 1],
            &[],
            40,
            50,
            "south",
        ),
    );
    s.play("r1h7");
    // Holes 7 and 8 (North's) get one each, hole 9 is empty, hole 10 beyond it is North's: South takes it.
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (45, 50));
    // And from the opening: hole 6's twelve-lap chain ends by capturing three in North's hole 10.
    let mut s = Scenario::new(RP);
    s.play("r1h7");
    assert_eq!(board(&s), [2, 14, 14, 1, 14, 2, 3, 1, 0, 0, 0, 14, 0, 14]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (11, 8));
}

#[test]
fn rp5_no_capture_when_the_hole_beyond_is_empty_too() {
    let mut s = Scenario::at(
        RP,
        rp(
            [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1],
            &[],
            40,
            52,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 1, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 40);
}

#[test]
fn rp6_pasu_a_four_goes_to_the_row_owner_whoever_sows_and_the_sowing_goes_on() {
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 0, 0, 3, 0, 3, 0, 0, 0, 0, 0, 1],
            &[],
            40,
            51,
            "south",
        ),
    );
    s.play("r1h6");
    // South's second counter makes four in North's hole 7: North gets them; the third goes on to hole 8.
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (40, 55));
}

#[test]
fn rp6_pasu_on_the_movers_own_row_goes_to_the_mover() {
    let mut s = Scenario::at(
        RP,
        rp(
            [2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            &[],
            40,
            52,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 44);
}

#[test]
fn rp6_rp_q3_pasu_made_by_the_last_counter_of_a_lap_then_the_relay_test_looks_further() {
    let position = rp(
        [1, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        &[],
        40,
        51,
        "south",
    );
    let mut s = Scenario::at(RP, position.clone());
    s.play("r1h1");
    // The only counter makes four in hole 1: pasu. The hole after it (2) holds two: relay into 3 and 4.
    assert_eq!(board(&s), [0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 44);
    // RP-Q3 alternative: the last drop does not make pasu; the four stay, the relay is the same.
    let mut s = Scenario::at("raja-pasu/no-pasu-on-last-drop", position);
    s.play("r1h1");
    assert_eq!(board(&s), [0, 4, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 40);
}

#[test]
fn rp6_a_hole_holding_four_without_a_drop_is_not_pasu() {
    let mut s = Scenario::at(
        RP,
        rp(
            [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1],
            &[],
            40,
            51,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 40);
    // Taking up a hole of four in a relay is no pasu either.
    let mut s = Scenario::at(
        RP,
        rp(
            [1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            &[],
            40,
            52,
            "south",
        ),
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 40);
}

/// South has no counter left in his row; North has three on the board.
fn south_stuck(south: i64, north: i64) -> Value {
    rp(
        [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1],
        &[],
        south,
        north,
        "south",
    )
}

#[test]
fn rp7_no_legal_move_ends_the_round_and_the_opponent_takes_the_counters_left() {
    let mut s = Scenario::at(RP, south_stuck(60, 35));
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    // North took the three left (35 + 3 = 38), then both refilled (RP-9).
    assert_eq!(store(&s, "north"), 38 - 35);
    assert_eq!(store(&s, "south"), 60 - 49);
    assert_eq!(s.winner(), "none", "the match goes on");
}

#[test]
fn rp8_the_higher_reserve_wins_the_round() {
    let mut s = Scenario::at(RP, south_stuck(60, 35));
    s.play("end of round");
    assert_eq!(s.var("rounds_won", Some("south")), 1, "60 against 38");
    assert_eq!(s.var("rounds_won", Some("north")), 0);
    // North's remainder can turn the round: 46 + 3 against 49 is a tie.
    let mut s = Scenario::at(RP, south_stuck(49, 46));
    s.play("end of round");
    assert_eq!(s.var("round_ties", None), 1);
    assert_eq!(s.var("rounds_won", Some("south")), 0);
    assert_eq!(s.var("rounds_won", Some("north")), 0);
}

#[test]
fn rp9_refilling_seven_a_hole_closing_from_the_left_end_of_the_row() {
    let mut s = Scenario::at(RP, south_stuck(30, 65));
    s.play("end of round");
    // South holds 30: four holes of seven, his three leftmost (0, 1, 2) closed, two counters left over.
    // North holds 68: all seven holes, 19 left over.
    assert_eq!(board(&s), [0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]);
    assert_eq!(closed(&s), [0, 1, 2]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (2, 19));
    // North's left end is hole 7 (r2h7): North with 30 closes 7, 8, 9.
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            &[],
            65,
            30,
            "north",
        ),
    );
    s.play("end of round");
    assert_eq!(closed(&s), [7, 8, 9]);
    assert_eq!(s.count("r2h7", "closed"), 1);
    assert_eq!(board(&s), [7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 7, 7, 7, 7]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (19, 2));
}

#[test]
fn rp9_closed_holes_are_skipped_by_sowing_and_by_the_next_hole_test() {
    // Holes 1 and 3 are closed. Hole 0's counter skips hole 1 and lands in hole 2; the next open hole
    // after it is 4 (3 is skipped), which holds two: relay into 5 and 6.
    let position = rp(
        [1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        &[1, 3],
        40,
        54,
        "south",
    );
    let mut s = Scenario::at(RP, position.clone());
    assert_eq!(
        s.moves(),
        sorted(&["r1h1", "r1h5"]),
        "closed holes are never played"
    );
    s.play("r1h1");
    assert_eq!(board(&s), [0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(closed(&s), [1, 3], "closed holes stay closed and empty");
    // RP-Q2 alternative: the closed hole 3 after the last drop counts as empty, so the move ends and the
    // hole beyond it (4) is captured.
    let mut s = Scenario::at("raja-pasu/closed-holes-empty", position);
    s.play("r1h1");
    assert_eq!(board(&s), [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 42);
}

#[test]
fn rp9_a_closed_hole_is_skipped_on_a_long_lap_and_reopens_when_the_reserve_allows() {
    // Holes 0-2 closed: ten counters from hole 3 go into 4 .. 13. The next open hole after 13 is hole 3
    // (0-2 skipped), emptied by the move: the sowing ends and hole 4 beyond it is captured.
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            &[0, 1, 2],
            40,
            48,
            "south",
        ),
    );
    s.play("r1h4");
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(store(&s, "south"), 41);
    // At the next round end South holds enough again and the closed holes reopen.
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1],
            &[0, 1, 2],
            60,
            35,
            "south",
        ),
    );
    s.play("end of round");
    assert_eq!(
        closed(&s),
        [7, 8],
        "North (38) closes two; South (60) opens all"
    );
    assert_eq!(&board(&s)[..7], &[7; 7]);
}

#[test]
fn rp10_the_player_who_took_the_remainder_starts_the_next_round() {
    let mut s = Scenario::at(RP, south_stuck(60, 35));
    s.play("end of round");
    assert_eq!(s.to_move(), "north");
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            &[],
            30,
            65,
            "north",
        ),
    );
    s.play("end of round");
    assert_eq!(s.to_move(), "south");
}

#[test]
fn rp11_a_player_who_cannot_open_a_single_hole_loses_the_match() {
    let mut s = Scenario::at(RP, south_stuck(3, 92));
    s.play("end of round");
    assert_eq!(s.winner(), "north");
    assert_eq!(s.ended_by(), "south-cannot-open");
    assert_eq!(board(&s), [0; 14], "no refill once the match is over");
    assert_eq!(store(&s, "south") + store(&s, "north"), 98);
    // Seven counters open one hole (the rightmost): the match goes on.
    let mut s = Scenario::at(RP, south_stuck(7, 88));
    s.play("end of round");
    assert_eq!(s.winner(), "none");
    assert_eq!(closed(&s), [0, 1, 2, 3, 4, 5]);
    assert_eq!(s.count("r1h7", "seed"), 7);
    // North loses the same way.
    let mut s = Scenario::at(
        RP,
        rp(
            [0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            &[],
            89,
            6,
            "north",
        ),
    );
    s.play("end of round");
    assert_eq!(s.winner(), "south");
    assert_eq!(s.ended_by(), "north-cannot-open");
}

// ---------------------------------------------------------------------------------------------------------
// RP-Q1 .. RP-Q10: each default, and each alternative file

#[test]
fn rp_q1_a_lap_of_fourteen_does_not_skip_its_origin_and_the_alternative_does() {
    let position = rp(
        [14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        &[],
        40,
        43,
        "south",
    );
    let mut s = Scenario::at(RP, position.clone());
    s.play("r1h1");
    assert_eq!(board(&s), [2, 1, 0, 1, 3, 0, 0, 0, 2, 0, 2, 0, 2, 0]);
    assert_eq!(store(&s, "south"), 42);
    let mut s = Scenario::at("raja-pasu/skip-origin", position);
    s.play("r1h1");
    assert_eq!(board(&s), [0, 0, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 3]);
    assert_eq!(store(&s, "south"), 42);
}

#[test]
fn rp_q4_the_move_ends_after_the_capture_beyond_and_the_alternatives_go_on() {
    // Hole 0's counter lands in 1; 2 is empty; 3 beyond it holds two. Then 4 empty, 5 three, 6 empty,
    // 7 one, 8 two.
    let position = rp(
        [1, 0, 0, 2, 0, 3, 0, 1, 2, 0, 0, 0, 0, 1],
        &[],
        40,
        48,
        "south",
    );
    let mut s = Scenario::at(RP, position.clone());
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 0, 3, 0, 1, 2, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 42);
    // Chain: alternate empty and full holes go on being captured (3, then 1) until 8 is not empty.
    let mut s = Scenario::at("raja-pasu/capture-chain", position.clone());
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 46);
    // Continue: as if the last counter had fallen in the captured hole: capture 5 and 7, then relay from 8.
    let mut s = Scenario::at("raja-pasu/capture-continues", position);
    s.play("r1h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1]);
    assert_eq!(store(&s, "south"), 46);
}

#[test]
fn rp_q5_fours_go_to_the_row_owner_and_the_alternative_gives_them_to_the_mover() {
    let position = rp(
        [0, 0, 0, 0, 0, 3, 0, 3, 0, 0, 0, 0, 0, 1],
        &[],
        40,
        51,
        "south",
    );
    let mut s = Scenario::at("raja-pasu/pasu-to-mover", position);
    s.play("r1h6");
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (44, 51));
}

#[test]
fn rp_q6_no_move_is_tested_at_the_start_of_a_turn_and_the_alternative_tests_after_each_move() {
    // South sows his last counter into North's row.
    let position = rp(
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2],
        &[],
        50,
        45,
        "south",
    );
    let mut s = Scenario::at(RP, position.clone());
    s.play("r1h7");
    assert_eq!(
        s.to_move(),
        "north",
        "North plays on; he may sow back into South's row"
    );
    assert_eq!(s.moves(), sorted(&["r2h1", "r2h7"]));
    let mut s = Scenario::at("raja-pasu/round-end-after-move", position);
    s.play("r1h7");
    assert_eq!(s.to_move(), "south");
    assert_eq!(
        s.moves(),
        ["end of round"],
        "South's row is empty: the round ends at once"
    );
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    assert_eq!(s.to_move(), "north", "North took the three left");
}

#[test]
fn rp_q7_south_starts_and_the_alternative_file_has_north_start() {
    let s = Scenario::new(RP);
    assert_eq!(s.to_move(), "south");
    let s = Scenario::new("raja-pasu/north-starts");
    assert_eq!(s.to_move(), "north");
    assert_eq!(
        s.moves(),
        sorted(&["r2h1", "r2h2", "r2h3", "r2h4", "r2h5", "r2h6", "r2h7"])
    );
}

#[test]
fn rp_q8_the_rightmost_holes_are_filled_and_the_alternative_lets_the_player_choose() {
    // The default is in rp9_refilling_seven_a_hole_closing_from_the_left_end_of_the_row.
    let mut s = Scenario::at("raja-pasu/refill-chosen", south_stuck(30, 65));
    s.play("end of round");
    // North (68) fills all seven; South (30) chooses four holes, one a move, before North starts.
    assert_eq!(closed(&s), [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.var("to_open", Some("south")), 4);
    assert_eq!(s.moves().len(), 7);
    for h in ["open r1h1", "open r1h3", "open r1h5"] {
        s.play(h);
        assert_eq!(s.to_move(), "south");
    }
    s.play("open r1h7");
    assert_eq!(closed(&s), [1, 3, 5]);
    assert_eq!(board(&s), [7, 0, 7, 0, 7, 0, 7, 7, 7, 7, 7, 7, 7, 7]);
    assert_eq!(store(&s, "south"), 2);
    assert_eq!(
        s.to_move(),
        "north",
        "the remainder taker starts once the holes are chosen"
    );
    assert!(s.moves().iter().all(|m| m.starts_with("r2h")));
}

#[test]
fn rp_q9_the_reserve_decides_the_round_and_the_alternative_counts_the_rounds_gains() {
    let position = set(
        south_stuck(60, 35),
        "round_gain",
        json!({"south": 5, "north": 10}),
    );
    let mut s = Scenario::at(RP, position.clone());
    s.play("end of round");
    assert_eq!(
        s.var("rounds_won", Some("south")),
        1,
        "reserves 60 against 38"
    );
    let mut s = Scenario::at("raja-pasu/round-score-gains", position);
    s.play("end of round");
    assert_eq!(s.var("rounds_won", Some("north")), 1, "gains 5 against 13");
    assert_eq!(
        s.var("round_gain", Some("north")),
        0,
        "gains restart each round"
    );
}

// ---------------------------------------------------------------------------------------------------------
// RP-12 .. RP-14: termination. RP-Q10 is the loop guard's outcome.

/// Fifteen counters, every hole open: South's move from hole 2 relays for ever. The configuration before
/// the 78th pick-up (board, hole 4 about to be taken up) was met before in the move.
fn endless_relay() -> Value {
    rp(
        [2, 1, 1, 0, 2, 1, 0, 3, 0, 1, 2, 1, 0, 1],
        &[],
        40,
        43,
        "south",
    )
}

#[test]
fn termination_a_relay_that_loops_for_ever_without_the_guard() {
    let text = std::fs::read_to_string(keliya_tests::root().join("rulesets/raja-pasu.yaml"))
        .unwrap()
        .replace("seen_before(after)", "false")
        .replace("max_laps_per_move: 10000", "max_laps_per_move: 1000000000")
        .replace("max_steps_per_move: 5000000", "max_steps_per_move: 100000");
    let path = ruleset("raja-pasu-unguarded", &text);
    let s = Scenario::at(&path, endless_relay());
    let err = s
        .game()
        .legal_moves(&s.state)
        .expect_err("without the guard the move never ends");
    assert!(err.message.contains("loop steps"), "{err}");
}

#[test]
fn termination_rp_q10_the_loop_guard_ends_the_move_without_pick_up_or_capture() {
    let mut s = Scenario::at(RP, endless_relay());
    s.play("r1h3");
    // The move stops before taking up hole 4 again: hole 2's counter has moved on to hole 3, and nothing
    // is captured; the turn passes.
    assert_eq!(board(&s), [2, 1, 0, 1, 2, 1, 0, 3, 0, 1, 2, 1, 0, 1]);
    assert_eq!((store(&s, "south"), store(&s, "north")), (40, 43));
    assert_eq!(s.to_move(), "north");
    // The guard can be counted (statistics only, see the ruleset).
    let mut s = Scenario::at(
        &with_params("raja-pasu-counted", "  count_guards: true"),
        endless_relay(),
    );
    s.play("r1h3");
    assert_eq!(s.var("guard_stops", None), 1);
}

#[test]
fn termination_rp_q10_alternatives_capture_beyond_or_end_the_round() {
    // Alternative 1: the hole about to be taken up (4) counts as empty: hole 5 beyond it is captured.
    let mut s = Scenario::at("raja-pasu/guard-captures", endless_relay());
    s.play("r1h3");
    assert_eq!(board(&s), [2, 1, 0, 1, 2, 0, 0, 3, 0, 1, 2, 1, 0, 1]);
    assert_eq!(store(&s, "south"), 41);
    // Alternative 2: the round ends as at the round cap: each takes his own row (7 and 8).
    let mut s = Scenario::at("raja-pasu/guard-ends-round", endless_relay());
    s.play("r1h3");
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 1);
    assert_eq!(s.var("rounds", None), 1);
    assert_eq!(s.to_move(), "north", "the player to move starts");
    // 40 + 7 = 47 opens six holes (5 left); 43 + 8 = 51 opens seven (2 left).
    assert_eq!((store(&s, "south"), store(&s, "north")), (5, 2));
    assert_eq!(closed(&s), [0]);
}

#[test]
fn termination_the_lap_cap_ends_a_move_like_the_guard() {
    let mut s = Scenario::new(&with_params("raja-pasu-lap-cap", "  max_laps_per_move: 5"));
    s.play("r1h1");
    // The opening move stops before its sixth pick-up (hole 2), without capture.
    assert_eq!(
        board(&s),
        [3, 11, 1, 10, 10, 10, 0, 10, 2, 10, 10, 1, 10, 10]
    );
    assert_eq!(store(&s, "south") + store(&s, "north"), 0);
}

#[test]
fn termination_a_position_met_a_third_time_ends_the_round_at_the_cap() {
    // Only holes 0 and 13 are open. Each move is stopped by the loop guard and the two positions alternate.
    let closed_all: Vec<usize> = (1..13).collect();
    let mut s = Scenario::at(
        RP,
        rp(
            [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            &closed_all,
            50,
            45,
            "south",
        ),
    );
    for mv in ["r1h1", "r2h1", "r1h1"] {
        s.play(mv);
    }
    assert_eq!(board(&s)[0], 1);
    s.play("r2h1");
    assert_eq!(board(&s)[0], 2, "the first position, for the third time");
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    // RP-13: each takes the counters in his own row; the player to move (South) starts.
    assert_eq!(s.var("round_caps", None), 1);
    assert_eq!(s.var("rounds_won", Some("south")), 1, "52 against 46");
    assert_eq!(s.to_move(), "south");
    assert_eq!(closed(&s), [7], "North, with 46, opens six holes");
    assert_eq!((store(&s, "south"), store(&s, "north")), (3, 4));
}

#[test]
fn termination_the_round_cap_on_turns() {
    let position = set(
        rp(
            [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
            &[],
            50,
            43,
            "south",
        ),
        "round_start",
        json!(5),
    );
    let mut position = position;
    position["turn"] = json!(1004);
    let s = Scenario::at(RP, position.clone());
    assert_eq!(s.moves(), sorted(&["r1h1"]), "999 turns into the round");
    position["turn"] = json!(1005);
    let mut s = Scenario::at(RP, position);
    assert_eq!(s.moves(), ["end of round"], "the 1,000th turn of the round");
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 1);
    assert_eq!((store(&s, "south"), store(&s, "north")), (52 - 49, 46 - 42));
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.var("round_start", None), 1006);
}

/// `position` with its own hash twice in the repetition history: on the board it is met a third time.
fn seen_twice(position: Value) -> Value {
    let hash = Scenario::at(RP, position.clone()).state.position_hash();
    let mut position = position;
    position["history"] = json!([format!("{hash:016x}"), format!("{hash:016x}")]);
    position
}

#[test]
fn rp7_an_empty_row_ends_the_round_by_the_rule_of_play_even_at_the_caps() {
    // South has no counter in his row on the 1,000th turn of the round: RP-7, not the turn cap, ends it,
    // so North takes the three left and starts the next round.
    let mut position = set(south_stuck(60, 35), "round_start", json!(5));
    position["turn"] = json!(1005);
    let mut s = Scenario::at(RP, position);
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 0, "no cap ended the round");
    assert_eq!((store(&s, "south"), store(&s, "north")), (60 - 49, 38 - 35));
    assert_eq!(s.to_move(), "north", "the remainder taker starts (RP-10)");
    // The same position met a third time (the repetition cap of RP-13): RP-7 again.
    let mut s = Scenario::at(RP, seen_twice(south_stuck(60, 35)));
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 0, "no cap ended the round");
    assert_eq!((store(&s, "south"), store(&s, "north")), (60 - 49, 38 - 35));
    assert_eq!(s.to_move(), "north");
    // A player who still has counters at the repetition cap ends the round by the cap, as before.
    let stuck_north = rp(
        [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        &[],
        50,
        45,
        "south",
    );
    let mut s = Scenario::at(RP, seen_twice(stuck_north));
    assert_eq!(s.moves(), ["end of round"], "the third time ends the round");
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 1);
    assert_eq!(s.to_move(), "south", "at a cap the player to move starts");
}

#[test]
fn termination_the_match_cap_gives_the_match_to_the_larger_holding() {
    let mut s = Scenario::at(RP, set(south_stuck(60, 35), "rounds", json!(999)));
    s.play("end of round");
    assert_eq!(s.winner(), "south");
    assert_eq!(s.ended_by(), "match-cap-south");
    let mut s = Scenario::at(RP, set(south_stuck(49, 46), "rounds", json!(999)));
    s.play("end of round");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "match-cap-draw");
}

#[test]
fn invariant_counters_are_conserved_after_every_drop() {
    // The ruleset asserts it inside the sowing loop: a rule that lost a counter would fail there.
    let text = std::fs::read_to_string(keliya_tests::root().join("rulesets/raja-pasu.yaml"))
        .unwrap()
        .replace("            place(seed, pos)\n", "");
    let path = ruleset("raja-pasu-leaky", &text);
    let s = Scenario::new(&path);
    let err = s.game().legal_moves(&s.state).expect_err("a lost counter");
    assert!(err.message.contains("assert"), "{err}");
}

// ---------------------------------------------------------------------------------------------------------
// Raja Pasu Mandiri (MD-1 .. MD-8)

const RAJA_HOLES: [usize; 6] = [2, 3, 4, 9, 10, 11];
const MANDIRI_HOLES: [usize; 4] = [5, 6, 7, 8];
const PASU_HOLES: [usize; 4] = [12, 13, 0, 1];

fn names(holes: &[usize]) -> Vec<String> {
    let mut v: Vec<String> = holes.iter().map(|&h| hole(h)).collect();
    v.sort();
    v
}

const ROLES: [&str; 3] = ["raja", "mandiri", "pasu"];

#[test]
fn md_three_players_sections_by_columns_and_the_turn_order() {
    let mut s = Scenario::new(MD);
    assert_eq!(s.game().players.len(), 3);
    assert_eq!(holder(&s, "raja"), "first");
    assert_eq!(holder(&s, "mandiri"), "second");
    assert_eq!(holder(&s, "pasu"), "third");
    assert_eq!(s.to_move(), "first", "the Raja starts");
    assert_eq!(
        s.moves(),
        names(&RAJA_HOLES),
        "the middle three holes of both rows"
    );
    s.play("r1h3");
    assert_eq!(s.to_move(), "second", "then the Mandiri");
    assert!(s.moves().iter().all(|m| names(&MANDIRI_HOLES).contains(m)));
    let s = Scenario::at(MD, md([7; 14], &[], [0, 0, 0], ROLES, "third"));
    assert_eq!(
        s.moves(),
        names(&PASU_HOLES),
        "the Pasu: the left columns (MD-Q1)"
    );
}

#[test]
fn md_sowing_relay_and_captures_are_the_two_player_ones() {
    let mut s = Scenario::new(MD);
    s.play("r1h3");
    // The same board as South's opening from hole 2 in the two-player game.
    assert_eq!(board(&s), [14, 2, 3, 1, 0, 0, 0, 14, 0, 14, 2, 14, 14, 1]);
    let total: i64 = ["first", "second", "third"]
        .iter()
        .map(|p| store(&s, p))
        .sum();
    assert_eq!(total, 19);
}

#[test]
fn md_q1_sections_swapped_alternative() {
    let s = Scenario::at(
        "raja-pasu-mandiri/sections-swapped",
        md([7; 14], &[], [0, 0, 0], ROLES, "third"),
    );
    assert_eq!(s.moves(), names(&MANDIRI_HOLES), "the Pasu owns 5-8 here");
    let s = Scenario::at(
        "raja-pasu-mandiri/sections-swapped",
        md([7; 14], &[], [0, 0, 0], ROLES, "second"),
    );
    assert_eq!(s.moves(), names(&PASU_HOLES));
}

#[test]
fn md_q2_a_four_goes_to_the_owner_of_the_holes_section_or_in_the_alternative_to_the_mover() {
    // The Raja (first) sows hole 4's two counters: the first makes four in the Mandiri's hole 5.
    let position = md(
        [1, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0],
        &[],
        [31, 31, 30],
        ROLES,
        "first",
    );
    let mut s = Scenario::at(MD, position.clone());
    s.play("r1h5");
    assert_eq!(board(&s), [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        (store(&s, "first"), store(&s, "second"), store(&s, "third")),
        (31, 35, 30)
    );
    let mut s = Scenario::at("raja-pasu-mandiri/pasu-to-mover", position);
    s.play("r1h5");
    assert_eq!((store(&s, "first"), store(&s, "second")), (35, 31));
}

#[test]
fn md_q2_alternative_a_four_goes_to_the_owner_of_the_row_half() {
    // The Mandiri sows hole 5's five counters: the first makes four in his own hole 6 (South row), the
    // fourth makes four in the Raja's hole 9 (North row); the last falls in hole 10, and holes 11 and 12 are
    // empty, so nothing else is taken.
    let holes = [1, 0, 0, 0, 0, 5, 3, 0, 0, 3, 0, 0, 0, 0];
    let after = [1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0];
    let name = "raja-pasu-mandiri/pasu-to-row-owner";
    let stores = |s: &Scenario| (store(s, "first"), store(s, "second"), store(s, "third"));
    let position = md(holes, &[], [30, 30, 26], ROLES, "second");
    let mut s = Scenario::at(MD, position.clone());
    s.play("r1h6");
    assert_eq!(board(&s), after);
    assert_eq!(
        stores(&s),
        (34, 34, 26),
        "default: each four to its section's owner"
    );
    let mut s = Scenario::at(name, position);
    s.play("r1h6");
    assert_eq!(board(&s), after);
    assert_eq!(
        stores(&s),
        (34, 30, 30),
        "South row's four to the Raja (first), North row's to the Pasu (third)"
    );
    // The rows follow the roles: with first Pasu, second Raja and third Mandiri, the same sowing gives the
    // South row's four to second and the North row's to first; the Mandiri takes none.
    let roles = ["pasu", "raja", "mandiri"];
    let position = md(holes, &[], [30, 30, 26], roles, "third");
    let mut s = Scenario::at(MD, position.clone());
    s.play("r1h6");
    assert_eq!(stores(&s), (30, 34, 30));
    let mut s = Scenario::at(name, position);
    s.play("r1h6");
    assert_eq!(board(&s), after);
    assert_eq!(stores(&s), (34, 34, 26));
}

#[test]
fn md_a_player_who_cannot_move_passes() {
    // The Mandiri's section (5-8) is empty; the others have counters.
    let mut s = Scenario::at(
        MD,
        md(
            [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            &[],
            [31, 32, 32],
            ROLES,
            "second",
        ),
    );
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "third");
    assert_eq!(
        s.var("quiet", None),
        1,
        "a pass is a turn without a capture"
    );
    assert_eq!(s.var("rounds", None), 0);
}

/// A round about to end: 30 turns without a capture; three counters in the Mandiri's hole 5; the third
/// player moved last.
fn quiet_round(stores: [i64; 3]) -> Value {
    let p = md(
        [0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0],
        &[],
        stores,
        ROLES,
        "first",
    );
    let p = set(p, "quiet", json!(30));
    set(p, "last", json!({"first": 0, "second": 0, "third": 1}))
}

#[test]
fn md_q3_thirty_turns_without_a_capture_end_the_round_and_the_last_mover_takes_the_rest() {
    let s = Scenario::at(MD, set(quiet_round([15, 30, 50]), "quiet", json!(29)));
    assert_eq!(
        s.moves(),
        ["pass"],
        "29 quiet turns: the Raja has no counter and passes"
    );
    let mut s = Scenario::at(MD, quiet_round([15, 30, 50]));
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    assert_eq!(
        s.var("rounds_won", Some("third")),
        1,
        "53 is the largest reserve"
    );
    // 53 for the third player, who moved last: the four Mandiri holes (28) are his in round 2, 25 left.
    assert_eq!(store(&s, "third"), 25);
    assert_eq!(s.var("quiet", None), 0);
}

#[test]
fn md_q3_the_round_ends_when_nobody_can_move() {
    let mut s = Scenario::at(MD, md([0; 14], &[], [15, 33, 50], ROLES, "second"));
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
}

#[test]
fn md_q3_alternative_the_round_ends_below_four_counters() {
    let s = Scenario::at(
        "raja-pasu-mandiri/few-counters-end",
        set(quiet_round([15, 30, 50]), "quiet", json!(100)),
    );
    assert_eq!(s.moves(), ["end of round"], "three counters left");
    let s = Scenario::at(
        "raja-pasu-mandiri/few-counters-end",
        md(
            [0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0],
            &[],
            [15, 30, 49],
            ROLES,
            "first",
        ),
    );
    assert_eq!(s.moves(), ["r2h5"], "four counters: the round goes on");
}

const NO_CAPTURE_LEFT: &str = "raja-pasu-mandiri/no-capture-left";

/// Plays the Raja's `r1h3` (hole 2's single counter into hole 3, capturing nothing) from a sparse position
/// with `quiet` turns without a capture behind it.
fn after_r1h3(name: &str, holes: [u16; 14], quiet: i64) -> Scenario {
    let on_board: i64 = holes.iter().map(|&n| n as i64).sum();
    let position = md(holes, &[], [30, 30, 38 - on_board], ROLES, "first");
    let mut s = Scenario::at(name, set(position, "quiet", json!(quiet)));
    s.play("r1h3");
    s
}

#[test]
fn md_q3_alternative_the_round_ends_when_no_move_can_capture() {
    let mut holes = [0u16; 14];
    holes[2] = 1;
    holes[9] = 1;
    // Left: holes 3 and 9 with a counter each. Neither move captures (the next hole and the one beyond
    // are empty), so the round is over at once; the default waits for 30 quiet turns, and the Mandiri,
    // who has no counter, passes.
    assert_eq!(after_r1h3(MD, holes, 0).moves(), ["pass"]);
    let mut s = after_r1h3(NO_CAPTURE_LEFT, holes, 0);
    assert_eq!(s.moves(), ["end of round"]);
    assert!((0..14).all(|h| s.count(&hole(h), "probe") == 0));
    assert_eq!(s.var("probe_run", None), 0);
    s.play("end of round");
    assert_eq!(s.var("rounds", None), 1);
    // The Raja (first) moved last and took the two counters: 32, then four holes as the new Pasu.
    assert_eq!(store(&s, "first"), 32 - 28);
    // With a counter in hole 12 the Raja's hole 9 would capture it (hole 11 empty, 12 beyond): the round
    // goes on, however long it has gone without a capture, where the default ends it at 30 quiet turns.
    let mut more = holes;
    more[12] = 1;
    assert_eq!(after_r1h3(MD, more, 29).moves(), ["end of round"]);
    let s = after_r1h3(NO_CAPTURE_LEFT, more, 29);
    assert_eq!(s.moves(), ["pass"]);
    assert_eq!(s.var("quiet", None), 0);
    // Three counters in hole 10: the Raja's hole 9 would make a four there, a capture too.
    let mut four = holes;
    four[10] = 3;
    assert_eq!(after_r1h3(NO_CAPTURE_LEFT, four, 0).moves(), ["pass"]);
    four[10] = 2;
    assert_eq!(
        after_r1h3(NO_CAPTURE_LEFT, four, 0).moves(),
        ["end of round"],
        "two counters in hole 10 make three, and nothing else captures"
    );
}

#[test]
fn md_q3_alternative_the_trial_sowings_agree_with_playing_every_move() {
    // Random play of the alternative; after every sowing, each hole with counters is played for real in the
    // default ruleset by its section's owner. The round is over exactly when none of these moves captures.
    let sections = [
        ("raja", &RAJA_HOLES[..]),
        ("mandiri", &MANDIRI_HOLES[..]),
        ("pasu", &PASU_HOLES[..]),
    ];
    let mut s = Scenario::new(NO_CAPTURE_LEFT);
    let mut d = Scenario::new(MD);
    let (mut checked, mut ended) = (0, 0);
    let mut game = 0;
    let mut dice = Dice::new(Dice::game_seed(1, game));
    while checked < 600 {
        if s.result().is_some() {
            game += 1;
            dice = Dice::new(Dice::game_seed(1, game));
            s.state = s.game().initial_state();
        }
        let moves = s.moves();
        let mv = moves[dice.below(moves.len())].clone();
        s.play(&mv);
        if !mv.starts_with('r') || s.result().is_some() {
            continue; // a pass, a round's end, or the match is over
        }
        let holes = board(&s);
        let shut = closed(&s);
        let stores = [store(&s, "first"), store(&s, "second"), store(&s, "third")];
        let roles = ["first", "second", "third"].map(|seat| {
            ["raja", "mandiri", "pasu"]
                .into_iter()
                .find(|role| holder(&s, role) == seat)
                .unwrap()
        });
        let on_board: u16 = holes.iter().sum();
        let mut can_capture = false;
        for (role, section) in sections {
            for &h in section.iter().filter(|&&h| holes[h] > 0) {
                let position = md(holes, &shut, stores, roles, &holder(&s, role));
                d.state = keliya_play::state_json::from_json(d.game(), &position).unwrap();
                d.play(&hole(h));
                can_capture |= board(&d).iter().sum::<u16>() < on_board;
            }
        }
        let over = s.var("quiet", None) >= 30;
        assert_eq!(
            over, !can_capture,
            "game {game} ply {}: {holes:?}",
            s.state.ply
        );
        assert!((0..14).all(|h| s.count(&hole(h), "probe") == 0));
        checked += 1;
        ended += over as u32;
    }
    assert!(
        ended >= 10,
        "only {ended} rounds ended with no capture left"
    );
}

#[test]
fn md_q4_md_q5_md_q8_roles_rotate_holes_refill_in_the_closing_order_and_the_new_raja_starts() {
    let mut s = Scenario::at(MD, quiet_round([15, 30, 50]));
    s.play("end of round");
    // MD-Q4: Raja -> Pasu -> Mandiri -> Raja.
    assert_eq!(holder(&s, "pasu"), "first");
    assert_eq!(holder(&s, "raja"), "second");
    assert_eq!(holder(&s, "mandiri"), "third");
    // MD-Q5: the new Pasu (15) fills two holes, closing 12 and 13 first; the new Raja (30) fills four,
    // closing 2 and 3 first; the new Mandiri (53) fills all four.
    assert_eq!(closed(&s), [2, 3, 12, 13]);
    assert_eq!(board(&s), [7, 7, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 0, 0]);
    assert_eq!(
        (store(&s, "first"), store(&s, "second"), store(&s, "third")),
        (1, 2, 25)
    );
    // MD-Q8: the new Raja starts, from his own section.
    assert_eq!(s.to_move(), "second");
    assert_eq!(s.moves(), names(&[4, 9, 10, 11]));
}

#[test]
fn md_q4_alternative_the_raja_serves_three_rounds() {
    let name = "raja-pasu-mandiri/raja-three-rounds";
    let mut s = Scenario::at(name, quiet_round([15, 30, 50]));
    s.play("end of round");
    assert_eq!(holder(&s, "raja"), "first", "round 2: the same Raja");
    assert_eq!(s.to_move(), "first");
    let mut s = Scenario::at(name, set(quiet_round([15, 30, 50]), "rounds", json!(2)));
    s.play("end of round");
    assert_eq!(
        holder(&s, "raja"),
        "second",
        "after the third round the role passes on"
    );
}

#[test]
fn md_q5_alternative_closing_alternates_rows() {
    let mut s = Scenario::at(
        "raja-pasu-mandiri/close-alternate-rows",
        quiet_round([15, 30, 50]),
    );
    s.play("end of round");
    // The Pasu closes 0 then 13; the Raja closes 2 then 11.
    assert_eq!(closed(&s), [0, 2, 11, 13]);
}

#[test]
fn md_q5_alternative_short_players_choose_the_holes_they_fill() {
    // The default closes holes 2, 3, 12 and 13 here (md_q4_md_q5_md_q8_...), and the new Raja starts.
    let mut d = Scenario::at(MD, quiet_round([15, 30, 50]));
    d.play("end of round");
    assert_eq!(closed(&d), [2, 3, 12, 13]);
    assert!(d.moves().iter().all(|m| !m.starts_with("open")));
    let mut s = Scenario::at("raja-pasu-mandiri/refill-chosen", quiet_round([15, 30, 50]));
    s.play("end of round");
    // The new Mandiri (third, 53) fills his four holes. The new Raja (second, 30: four holes of six) and
    // the new Pasu (first, 15: two of four) have every hole closed and choose, the Raja first, as he starts.
    assert_eq!(closed(&s), [0, 1, 2, 3, 4, 9, 10, 11, 12, 13]);
    assert_eq!(board(&s), [0, 0, 0, 0, 0, 7, 7, 7, 7, 0, 0, 0, 0, 0]);
    assert_eq!(s.var("to_open", Some("second")), 4);
    assert_eq!(s.var("to_open", Some("first")), 2);
    assert_eq!(s.to_move(), "second");
    let raja: Vec<String> = names(&RAJA_HOLES)
        .iter()
        .map(|h| format!("open {h}"))
        .collect();
    assert_eq!(s.moves(), raja);
    for (h, left) in [("open r2h3", 5), ("open r1h4", 4), ("open r2h5", 3)] {
        s.play(h);
        assert_eq!(s.to_move(), "second");
        // No sowing from a hole just filled while holes are still being chosen.
        assert_eq!(s.moves().len(), left);
        assert!(s.moves().iter().all(|m| m.starts_with("open ")));
    }
    s.play("open r1h3");
    // The Mandiri has nothing to choose; the Pasu chooses next.
    assert_eq!(s.to_move(), "first");
    assert_eq!(
        s.moves(),
        sorted(&["open r1h1", "open r1h2", "open r2h1", "open r2h2"])
    );
    s.play("open r2h1");
    assert_eq!(s.to_move(), "first");
    s.play("open r1h2");
    assert_eq!(closed(&s), [0, 4, 10, 12]);
    assert_eq!(board(&s), [0, 7, 7, 7, 0, 7, 7, 7, 7, 7, 0, 7, 0, 7]);
    assert_eq!(
        (store(&s, "first"), store(&s, "second"), store(&s, "third")),
        (1, 2, 25)
    );
    // Every choice made, the new Raja starts, from the holes he chose.
    assert_eq!(s.to_move(), "second");
    assert_eq!(s.moves(), names(&[2, 3, 9, 11]));
    assert_eq!(s.var("round_start", None), s.state.turn as i64);
}

#[test]
fn md_q6_no_gift_by_default_and_the_alternative_raja_gives_one_to_each() {
    let mut s = Scenario::at(MD, quiet_round([15, 30, 50]));
    s.play("end of round");
    assert_eq!(store(&s, "first") + 2 * 7, 15);
    let mut s = Scenario::at("raja-pasu-mandiri/raja-gift", quiet_round([15, 30, 50]));
    s.play("end of round");
    // The outgoing Raja (first, 15) gives one each: 13, 31, 54 before refilling.
    assert_eq!(
        (store(&s, "first"), store(&s, "second"), store(&s, "third")),
        (13 - 7, 31 - 28, 54 - 28)
    );
}

#[test]
fn md_q7_a_player_who_cannot_fill_a_hole_is_out_his_section_closed() {
    let mut s = Scenario::at(MD, quiet_round([5, 40, 50]));
    s.play("end of round");
    assert_eq!(s.var("cannot_open", Some("first")), 1);
    assert_eq!(s.winner(), "none", "two players can still fill holes");
    // First is the new Pasu: his section stays closed. The new Raja (40) fills five holes, closing hole 2.
    assert_eq!(closed(&s), [0, 1, 2, 12, 13]);
    assert_eq!(store(&s, "first"), 5);
}

/// First is out (the Pasu, his section closed); the Raja (second) and the Mandiri (third) play on, five
/// turns without a capture so far.
fn first_out(holes: [u16; 14], stores: [i64; 3], to_move: &str) -> Value {
    let p = md(
        holes,
        &[0, 1, 12, 13],
        stores,
        ["pasu", "raja", "mandiri"],
        to_move,
    );
    let p = set(p, "quiet", json!(5));
    set(
        p,
        "cannot_open",
        json!({"first": 1, "second": 0, "third": 0}),
    )
}

#[test]
fn md_q7_the_turns_of_a_player_who_is_out_are_skipped_not_passed() {
    // The Mandiri sows hole 5 into 6; hole 7 is empty and so is 8: no capture. The turn goes past first,
    // who is out, to second, and only the Mandiri's turn counts as quiet.
    let mut s = Scenario::at(
        MD,
        first_out(
            [0, 0, 7, 7, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0],
            [5, 40, 31],
            "third",
        ),
    );
    s.play("r1h6");
    assert_eq!(s.to_move(), "second", "first's turn is skipped");
    assert_eq!(s.var("quiet", None), 6);
    // The Raja sows hole 2 (3 .. 9) without a capture: the turn goes to third, two quiet turns in a cycle.
    s.play("r1h3");
    assert_eq!(s.to_move(), "third");
    assert_eq!(s.var("quiet", None), 7);
    // A pass of a player who cannot move (third) is a quiet turn, and the player who is out is skipped
    // after it too. Given the move anyway (a position written by hand), the player who is out passes a
    // turn that is not a quiet one.
    for (to_move, quiet) in [("third", 6), ("first", 5)] {
        let holes = [0, 0, 7, 7, 7, 0, 0, 0, 0, 7, 7, 0, 0, 0];
        let mut s = Scenario::at(MD, first_out(holes, [5, 30, 28], to_move));
        assert_eq!(s.moves(), ["pass"]);
        s.play("pass");
        assert_eq!(s.to_move(), "second", "{to_move} passed");
        assert_eq!(s.var("quiet", None), quiet, "{to_move} passed");
    }
}

#[test]
fn md_q7_a_new_raja_who_is_out_does_not_start_the_round() {
    // Thirty quiet turns end the round. Roles rotate: second, the Mandiri and out (his section closed),
    // becomes the Raja; the next player still in, third, starts.
    let p = md(
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0],
        &[5, 6, 7, 8],
        [40, 5, 50],
        ROLES,
        "first",
    );
    let p = set(p, "quiet", json!(30));
    let p = set(p, "last", json!({"first": 0, "second": 0, "third": 1}));
    let p = set(
        p,
        "cannot_open",
        json!({"first": 0, "second": 1, "third": 0}),
    );
    let mut s = Scenario::at(MD, p);
    s.play("end of round");
    assert_eq!(s.winner(), "none");
    assert_eq!(holder(&s, "raja"), "second");
    assert_eq!(s.to_move(), "third");
}

#[test]
fn md_q7_the_last_player_able_to_fill_holes_wins() {
    let mut s = Scenario::at(MD, quiet_round([5, 4, 86]));
    s.play("end of round");
    assert_eq!(s.winner(), "third");
    assert_eq!(s.ended_by(), "third-wins");
}

#[test]
fn md_q7_alternatives_borrowing_and_ranking_at_the_first_short_player() {
    let mut s = Scenario::at("raja-pasu-mandiri/borrowing", quiet_round([5, 40, 50]));
    s.play("end of round");
    // First borrows two from the richest (third, 53) and opens one hole as the new Pasu.
    assert_eq!(s.var("cannot_open", Some("first")), 0);
    assert_eq!(store(&s, "first"), 0);
    assert_eq!(
        closed(&s),
        [0, 2, 12, 13],
        "Pasu closes 12, 13, 0; the Raja (40) closes 2"
    );
    assert_eq!(store(&s, "third"), 51 - 28);
    let mut s = Scenario::at(
        "raja-pasu-mandiri/first-short-ends",
        quiet_round([5, 40, 50]),
    );
    s.play("end of round");
    assert_eq!(s.winner(), "third");
    assert_eq!(s.ended_by(), "ranked-third");
}

#[test]
fn md_q8_alternative_the_remainder_taker_starts() {
    let mut s = Scenario::at(
        "raja-pasu-mandiri/remainder-taker-leads",
        quiet_round([15, 30, 50]),
    );
    s.play("end of round");
    assert_eq!(holder(&s, "raja"), "second");
    assert_eq!(s.to_move(), "third", "the third player took the remainder");
}

#[test]
fn md_turn_order_alternative_raja_pasu_mandiri() {
    let mut s = Scenario::new("raja-pasu-mandiri/reverse-turn-order");
    assert_eq!(s.to_move(), "first");
    s.play("r1h3");
    assert_eq!(s.to_move(), "third", "the Pasu follows the Raja");
}

#[test]
fn md_round_cap_each_player_takes_his_own_section() {
    let mut position = set(quiet_round([15, 30, 50]), "quiet", json!(0));
    position["sites"][hole(3)] = json!({"seed": 2});
    position["vars"]["store"]["third"] = json!(48);
    position["turn"] = json!(1000);
    let mut s = Scenario::at(MD, position);
    assert_eq!(s.moves(), ["end of round"]);
    s.play("end of round");
    assert_eq!(s.var("round_caps", None), 1);
    // The Raja (first) took hole 3's two, the Mandiri (second) hole 5's three: 17, 33, 48.
    assert_eq!(s.var("rounds_won", Some("third")), 1);
    assert_eq!(
        (store(&s, "first"), store(&s, "second"), store(&s, "third")),
        (17 - 14, 33 - 28, 48 - 28)
    );
}

#[test]
fn md_the_loop_guard_ends_an_endless_relay() {
    // Holes 2 (Raja) and 13 (Pasu) open, the rest closed: the Raja's move relays for ever.
    let closed_all: Vec<usize> = (0..14).filter(|&h| h != 2 && h != 13).collect();
    let mut holes = [0u16; 14];
    holes[2] = 2;
    holes[13] = 1;
    let mut s = Scenario::at(MD, md(holes, &closed_all, [30, 30, 35], ROLES, "first"));
    s.play("r1h3");
    assert_eq!(
        board(&s)[2] + board(&s)[13],
        3,
        "stopped by the guard, nothing captured"
    );
    assert_eq!(s.to_move(), "second");
}

// ---------------------------------------------------------------------------------------------------------
// Seeded random matches

struct Tally {
    games: u64,
    by_rule: u64,
    match_caps: u64,
    engine_caps: u64,
    rounds: i64,
    round_caps: i64,
    plies: u64,
}

/// Plays `games` random matches (seed 1, as `keliya simulate --seed 1`), checking the invariants after
/// every move; the rules themselves assert the counter total after every drop.
fn random_matches(name: &str, games: u64) -> Tally {
    let c = compile(name);
    let g: &Game = c.game();
    let var = |st: &State, n: &str| st.vars[g.var_slot(g.var(n).unwrap(), None)];
    let mut t = Tally {
        games,
        by_rule: 0,
        match_caps: 0,
        engine_caps: 0,
        rounds: 0,
        round_caps: 0,
        plies: 0,
    };
    for i in 0..games {
        let mut dice = Dice::new(Dice::game_seed(1, i));
        let mut st = g.initial_state();
        while st.result.is_none() {
            let moves = g
                .legal_moves(&st)
                .unwrap_or_else(|e| panic!("{name} match {i}: {e}"));
            st = g
                .apply(&st, &moves[dice.below(moves.len())])
                .unwrap_or_else(|e| panic!("{name} match {i}: {e}"));
            let broken = g.broken_invariants(&st).unwrap();
            assert!(broken.is_empty(), "{name} match {i}: {broken:?}");
        }
        let outcome = st.result.unwrap();
        match outcome.reason {
            Reason::Cap(_) => t.engine_caps += 1,
            Reason::End(e) if g.ends[e as usize].name.starts_with("match-cap") => t.match_caps += 1,
            _ => t.by_rule += 1,
        }
        t.rounds += var(&st, "rounds");
        t.round_caps += var(&st, "round_caps");
        t.plies += st.ply as u64;
    }
    eprintln!(
        "{name}: {} matches, {} ended by rule, {} by the match cap, {} by an engine cap; \
         {:.1} rounds and {:.0} plies a match; {} rounds ended by the round cap",
        t.games,
        t.by_rule,
        t.match_caps,
        t.engine_caps,
        t.rounds as f64 / t.games as f64,
        t.plies as f64 / t.games as f64,
        t.round_caps
    );
    t
}

#[test]
fn random_matches_conserve_the_counters_and_rarely_end_by_a_cap() {
    // 1,000 matches of each take minutes in the test profile; the test plays fewer, and
    // docs/rules/raja-pasu.md reports 1,000 of each run through `keliya simulate`.
    for (name, games) in [(RP, 200), (MD, 16)] {
        let t = random_matches(name, games);
        assert_eq!(t.engine_caps, 0, "{name}: the rules' own caps come first");
        assert!(
            t.match_caps * 100 <= 3 * t.games + 3,
            "{name}: {} of {} matches ended by the cap",
            t.match_caps,
            t.games
        );
    }
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let root = keliya_tests::root();
    let doc = std::fs::read_to_string(root.join("docs/rules/raja-pasu.md")).unwrap();
    let tests = std::fs::read_to_string(root.join("tests/tests/raja_pasu.rs")).unwrap();
    let ids: Vec<String> = (1..=11)
        .map(|i| format!("RP-{i}"))
        .chain((1..=10).map(|i| format!("RP-Q{i}")))
        .chain((1..=8).map(|i| format!("MD-Q{i}")))
        .collect();
    for id in ids {
        // The id's rows: the rule or question itself, and the table of its ruleset entries and tests.
        let rows: Vec<&str> = doc
            .lines()
            .filter(|l| l.starts_with(&format!("| {id} |")) || l.starts_with(&format!("| {id} /")))
            .collect();
        assert!(
            !rows.is_empty(),
            "docs/rules/raja-pasu.md has no row for {id}"
        );
        let named: Vec<&str> = rows
            .iter()
            .flat_map(|row| row.split('`').skip(1).step_by(2))
            .filter(|n| {
                ["rp", "md_", "termination_", "invariant_", "random_"]
                    .iter()
                    .any(|p| n.starts_with(p))
            })
            .collect();
        assert!(!named.is_empty(), "{id}: the doc names no test");
        for n in named {
            let found = match n.strip_suffix("...") {
                Some(prefix) => tests.contains(&format!("fn {prefix}")),
                None => tests.contains(&format!("fn {n}()")),
            };
            assert!(found, "{id}: the doc names `{n}`, which is not a test here");
        }
    }
}

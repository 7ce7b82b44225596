//! Sat Gol: one scenario test (or more) per rule of `docs/rules/sat-gol.md` (SG-1 .. SG-7, SG-Q1 ..
//! SG-Q4), and 1,000 seeded random games.
//!
//! The holes h1 .. h7 are numbered 0 .. 6 in the order of sowing (anticlockwise), as on the track `ring`;
//! the variable `start` is the number of the hole the next sowing must start from (-1: any, the opening).

use keliya_engine::Reason;
use keliya_tests::{Scenario, check_rule_rows, compile, random_game};
use serde_json::{Map, Value, json};

const SG: &str = "sat-gol";
const FIRST_LOADED: &str = "sat-gol/first-loaded-hole";
const AFTER_LIFT: &str = "sat-gol/after-last-lift";
const HALF_WINS: &str = "sat-gol/half-wins";
const SKIP_ORIGIN: &str = "sat-gol/skip-origin";

fn hole(i: usize) -> String {
    format!("h{}", i + 1)
}

/// A position: counters per hole, what each player has taken, the player to move and the forced start
/// (28 counters in all).
fn sg(holes: [u16; 7], first: i64, second: i64, to_move: &str, start: i64) -> Value {
    let on_board: i64 = holes.iter().map(|&n| i64::from(n)).sum();
    assert_eq!(
        on_board + first + second,
        28,
        "a position holds 28 counters"
    );
    let mut sites = Map::new();
    for (i, &n) in holes.iter().enumerate() {
        if n > 0 {
            sites.insert(hole(i), json!({"seed": n}));
        }
    }
    json!({
        "to_move": to_move,
        "turn": 10,
        "sites": sites,
        "vars": {"store": {"first": first, "second": second}, "start": start},
    })
}

/// `position` in `ruleset`, after the move `mv`.
fn after(ruleset: &str, position: &Value, mv: &str) -> Scenario {
    let mut s = Scenario::at(ruleset, position.clone());
    s.play(mv);
    s
}

/// Plays the only move, or the first listed, until the game ends.
fn play_out(s: &mut Scenario) {
    while s.winner() == "none" {
        let moves = s.moves();
        s.play(&moves[0]);
    }
}

fn board(s: &Scenario) -> [u16; 7] {
    std::array::from_fn(|i| s.count(&hole(i), "seed"))
}

fn taken(s: &Scenario) -> (i64, i64) {
    (
        s.var("store", Some("first")),
        s.var("store", Some("second")),
    )
}

#[test]
fn sg1_seven_holes_in_a_ring_four_each_owned_by_nobody() {
    let s = Scenario::new(SG);
    assert_eq!(board(&s), [4; 7]);
    assert_eq!(taken(&s), (0, 0));
    let b = &s.game().board;
    assert_eq!(b.playing_sites().count(), 7);
    for i in 0..7 {
        let site = b.site(&hole(i)).unwrap();
        assert_eq!(b.owner[site as usize], None, "h{} has no owner", i + 1);
    }
    assert_eq!(s.displays(), ["first player", "second player"]);
    // The ring closes: a sowing from h7 goes on into h1 (two counters: h1, then h2).
    let mut s = Scenario::at(SG, sg([0, 0, 0, 0, 0, 0, 2], 13, 13, "first", 6));
    s.play("h7");
    assert_eq!(board(&s), [1, 1, 0, 0, 0, 0, 0]);
}

#[test]
fn sg2_the_opening_lifts_any_hole_and_sows_anticlockwise_one_to_a_hole() {
    let s = Scenario::new(SG);
    assert_eq!(s.to_move(), "first");
    assert_eq!(s.moves(), ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]);
    // An opening position of our own: any hole that holds counters may be lifted.
    let opening = sg([2, 0, 3, 0, 0, 0, 0], 12, 11, "first", -1);
    assert_eq!(Scenario::at(SG, opening.clone()).moves(), ["h1", "h3"]);
    // Two counters from h1 into h2 and h3; h4 is empty and h5 beyond it too: nothing is taken.
    let s = after(SG, &opening, "h1");
    assert_eq!(board(&s), [0, 1, 4, 0, 0, 0, 0]);
    assert_eq!(taken(&s), (12, 11));
    assert_eq!(s.to_move(), "second");
}

#[test]
fn sg3_the_relay_lifts_the_next_hole_not_the_one_the_last_counter_fell_in() {
    // One counter from h1 falls into h2 (two: now three); the next hole, h3, holds two: they are lifted and
    // sown into h4 and h5; h6 is empty and h7 beyond it too.
    let mut s = Scenario::at(SG, sg([1, 2, 2, 0, 0, 0, 0], 12, 11, "first", 0));
    s.play("h1");
    assert_eq!(board(&s), [0, 3, 0, 1, 1, 0, 0]);
    assert_eq!(taken(&s), (12, 11));
}

#[test]
fn sg4_an_empty_next_hole_the_hole_beyond_is_taken_and_the_turn_ends() {
    let mut s = Scenario::at(SG, sg([1, 0, 0, 5, 0, 0, 0], 10, 12, "first", 0));
    s.play("h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 0, 0, 0]);
    assert_eq!(taken(&s), (15, 12));
    assert_eq!(s.to_move(), "second", "the capture ends the turn");
    // The second player takes likewise, whoever's counters they once were.
    let mut s = Scenario::at(SG, sg([0, 0, 2, 0, 0, 0, 3], 10, 13, "second", 2));
    s.play("h3");
    assert_eq!(board(&s), [0, 0, 0, 1, 1, 0, 0]);
    assert_eq!(taken(&s), (10, 16));
}

#[test]
fn sg5_each_later_sowing_starts_after_the_hole_the_other_player_took() {
    // The second player must lift h1, though h4 and h7 hold counters too.
    let mut s = Scenario::at(SG, sg([1, 0, 0, 2, 0, 0, 3], 11, 11, "second", 0));
    assert_eq!(s.moves(), ["h1"]);
    // h1 into h2; h3 is empty: h4 is taken. The first hole holding counters after h4 is h7 (h5 and h6
    // are empty): the first player's only move.
    s.play("h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 0, 0, 3]);
    assert_eq!(taken(&s), (11, 13));
    assert_eq!(s.var("start", None), 6);
    assert_eq!(s.moves(), ["h7"]);
    // Three from h7 into h1, h2 (one: now two) and h3; h4 is empty, h5 beyond it too. The search for the
    // next start goes on past h5 and round the ring to h1.
    s.play("h7");
    assert_eq!(board(&s), [1, 2, 1, 0, 0, 0, 0]);
    assert_eq!(s.moves(), ["h1"]);
    // After the opening, every turn of a whole game has exactly one move.
    let mut s = Scenario::new(SG);
    s.play("h1");
    while s.winner() == "none" {
        let moves = s.moves();
        assert_eq!(moves.len(), 1, "{moves:?}");
        s.play(&moves[0]);
    }
}

#[test]
fn sg6_when_no_capture_can_come_the_game_ends_and_the_larger_taking_wins() {
    // One counter left: it walks round the ring one hole a turn and is never taken. The position (counters,
    // takings, start, player to move) comes round again after fourteen turns, and the game ends there.
    let mut s = Scenario::at(SG, sg([1, 0, 0, 0, 0, 0, 0], 14, 13, "first", 0));
    for ply in 0..14 {
        assert_eq!(s.winner(), "none", "ply {ply}");
        let moves = s.moves();
        s.play(&moves[0]);
    }
    assert_eq!(board(&s), [1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(s.winner(), "first");
    assert_eq!(s.ended_by(), "first-wins");
    assert_eq!(
        s.count("h1", "seed"),
        1,
        "the counter left counts for no one"
    );
    // The second player's larger taking wins the same way.
    let mut s = Scenario::at(SG, sg([1, 0, 0, 0, 0, 0, 0], 13, 14, "first", 0));
    play_out(&mut s);
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("second".into(), "second-wins".into())
    );
    // Equal takings draw.
    let mut s = Scenario::at(SG, sg([2, 0, 0, 0, 0, 0, 0], 13, 13, "first", 0));
    play_out(&mut s);
    assert_eq!(taken(&s), (13, 13), "no capture came");
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("draw".into(), "equal-takings".into())
    );
    // The whole game: every one of the seven openings is the same game turned round the ring, and ends
    // when no capture can come, with counters still on the ring.
    for opening in ["h1", "h4"] {
        let mut s = Scenario::new(SG);
        s.play(opening);
        play_out(&mut s);
        let (first, second) = taken(&s);
        assert!(first + second < 28);
        assert_eq!(s.winner(), if first > second { "first" } else { "second" });
        assert!(!s.ended_by().starts_with("cap:"));
    }
}

#[test]
fn sg6_an_empty_ring_ends_the_game() {
    // Only where the capture may reach the last hole sown (Murray's reading, SG-Q1) can the ring empty.
    let mut s = Scenario::at(FIRST_LOADED, sg([1, 0, 0, 0, 0, 0, 0], 13, 14, "first", 0));
    s.play("h1");
    assert_eq!(board(&s), [0; 7]);
    assert_eq!(taken(&s), (14, 14));
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("draw".into(), "equal-takings".into())
    );
}

#[test]
fn sg7_a_relay_that_comes_round_again_ends_the_move_without_a_capture() {
    // Four single counters on alternate holes: each relay lifts one counter and drops it two holes on, and
    // after a full circuit the ring is as it was after the first lap. The guard stops the move there, at
    // the relay from h3; nothing is taken, and the next sowing starts after h3, at h5.
    let mut s = Scenario::at(SG, sg([1, 0, 1, 0, 1, 0, 1], 12, 12, "first", 0));
    s.play("h1");
    assert_eq!(board(&s), [0, 1, 1, 0, 1, 0, 1]);
    assert_eq!(taken(&s), (12, 12));
    assert_eq!(s.moves(), ["h5"]);
}

#[test]
fn sg7_the_thousandth_turn_draws() {
    let mut position = sg([1, 0, 0, 3, 0, 0, 0], 14, 10, "first", 0);
    position["turn"] = json!(1000);
    let s = Scenario::at(SG, position.clone());
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("draw".into(), "cap:max_turns".into())
    );
    position["turn"] = json!(999);
    assert_eq!(Scenario::at(SG, position).winner(), "none");
}

#[test]
fn sg_q1_nothing_is_taken_beyond_two_empty_holes_and_the_delta_takes_the_first_loaded_one() {
    let position = sg([1, 0, 0, 0, 5, 0, 0], 11, 11, "first", 0);
    // One counter into h2; h3 and h4 are empty: nothing is taken, and the next sowing starts at h5.
    let s = after(SG, &position, "h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 5, 0, 0]);
    assert_eq!(taken(&s), (11, 11));
    assert_eq!(s.moves(), ["h5"]);
    // Murray's reading: the five of h5, the first loaded hole, are taken; the next sowing starts at h2.
    let s = after(FIRST_LOADED, &position, "h1");
    assert_eq!(board(&s), [0, 1, 0, 0, 0, 0, 0]);
    assert_eq!(taken(&s), (16, 11));
    assert_eq!(s.moves(), ["h2"]);
}

#[test]
fn sg_q2_the_next_start_is_after_the_hole_taken_and_the_delta_after_the_last_lift() {
    // One counter into h2 (now three); h3's two are lifted and sown into h4 and h5; h6 is empty: h7's four
    // are taken.
    let position = sg([1, 2, 2, 0, 0, 0, 4], 10, 9, "first", 0);
    let s = after(SG, &position, "h1");
    assert_eq!(board(&s), [0, 3, 0, 1, 1, 0, 0]);
    assert_eq!(taken(&s), (14, 9));
    // After h7, the hole taken: h1 is empty, h2 holds three.
    assert_eq!(s.moves(), ["h2"]);
    // The delta: after h3, the hole the last lap was lifted from: h4.
    let s = after(AFTER_LIFT, &position, "h1");
    assert_eq!(board(&s), [0, 3, 0, 1, 1, 0, 0]);
    assert_eq!(s.moves(), ["h4"]);
}

#[test]
fn sg_q3_play_goes_on_past_half_the_counters_and_the_delta_ends_it_there() {
    // The first player takes h4's three: seventeen of the 28.
    let position = sg([1, 0, 0, 3, 0, 0, 0], 14, 10, "first", 0);
    let s = after(SG, &position, "h1");
    assert_eq!(taken(&s), (17, 10));
    assert_eq!(s.winner(), "none", "a capture can still come");
    let s = after(HALF_WINS, &position, "h1");
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("first".into(), "first-wins".into())
    );
    // Exactly half is not more than half.
    let mut half = position;
    half["vars"]["store"] = json!({"first": 11, "second": 13});
    let s = after(HALF_WINS, &half, "h1");
    assert_eq!(taken(&s), (14, 13));
    assert_eq!(s.winner(), "none");
}

#[test]
fn sg_q4_a_long_lap_sows_into_its_own_hole_and_the_delta_passes_it_by() {
    let position = sg([7, 0, 0, 0, 0, 0, 0], 11, 10, "first", 0);
    // Seven counters: h2 .. h7 and h1 again, one each; the relay from h2 runs h2 -> h3, h4 -> h5,
    // h6 -> h7, h1 -> h2, h3 -> h4 and h5; h6 is empty and h7's two are taken.
    let s = after(SG, &position, "h1");
    assert_eq!(board(&s), [0, 1, 0, 1, 3, 0, 0]);
    assert_eq!(taken(&s), (13, 10));
    // The delta: h2 .. h7, then h2 again past h1; the relay from h3 runs h3 -> h4, h5 -> h6, h7 -> h1,
    // then h2's two go to h3 and h4; h5 is empty and h6's two are taken.
    let s = after(SKIP_ORIGIN, &position, "h1");
    assert_eq!(board(&s), [1, 0, 1, 3, 0, 0, 0]);
    assert_eq!(taken(&s), (13, 10));
}

#[test]
fn random_games_end_by_the_rules_with_the_counters_kept() {
    let c = compile(SG);
    let g = c.game();
    let games = 1000;
    let (mut by_rule, mut capped, mut first, mut second, mut draws) = (0, 0, 0, 0, 0);
    for i in 0..games {
        let outcome = random_game(g, 1, i).result.unwrap();
        match outcome.reason {
            Reason::End(_) => by_rule += 1,
            _ => capped += 1,
        }
        match outcome.winner.map(|w| g.players[w as usize].name.as_str()) {
            Some("first") => first += 1,
            Some(_) => second += 1,
            None => draws += 1,
        }
    }
    eprintln!(
        "{games} games: {by_rule} ended by the rules, {capped} by a cap; first {first}, second {second}, draws {draws}"
    );
    assert_eq!(by_rule + capped, games);
    assert!(capped * 5 <= games, "{capped} of {games} games capped");
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=7)
        .map(|i| format!("SG-{i}"))
        .chain((1..=4).map(|i| format!("SG-Q{i}")))
        .collect();
    check_rule_rows("sat-gol.md", "sat_gol.rs", &ids, &["sg", "random_"]);
}

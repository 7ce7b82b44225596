//! Pachisi: a scenario test (or more) per rule of `docs/rules/pachisi.md` (PA-1 .. PA-12, the questions
//! PA-Q1 .. PA-Q10) and its deltas.
//!
//! South's route: CH (0), S.mid1..S.mid8 (1-8), S.in8..S.in1 (9-16), E.out1..E.out8 (17-24), E.mid8 (25),
//! E.in8..E.in1 (26-33), north's arm (34-50), west's (51-67), S.out1..S.out8 (68-75), S.mid8 (76) and down
//! to S.mid1 (83) as `south_home`, CH (84).

use keliya_tests::{Scenario, check_rule_rows, compile};
use serde_json::{Value, json};

const PA: &str = "pachisi";
const SEVEN: &str = "pachisi/seven-shells";
const GRACE: &str = "pachisi/grace-entry";
const CLOSED: &str = "pachisi/castle-closed";
const NO_HELP: &str = "pachisi/no-help";
const VOID: &str = "pachisi/three-equal-void";

/// Every piece not named in `sites` waits in the charkoni: four per player in all.
fn position(sites: Value) -> Value {
    let mut sites = sites.as_object().cloned().unwrap_or_default();
    for p in ["south", "east", "north", "west"] {
        let placed: u64 = sites
            .values()
            .map(|s| {
                s[format!("{p}_pawn")].as_u64().unwrap_or(0)
                    + s[format!("{p}_home")].as_u64().unwrap_or(0)
            })
            .sum();
        let ch = sites.entry("CH").or_insert(json!({}));
        let here = ch[format!("{p}_pawn")].as_u64().unwrap_or(0);
        ch[format!("{p}_pawn")] = json!(here + 4 - placed);
    }
    Value::Object(sites)
}

/// `to_move` to play the throw `throw` in `ruleset`, the pieces as `sites` says (the rest in the charkoni).
fn at(ruleset: &str, to_move: &str, throw: &str, sites: Value) -> Scenario {
    Scenario::at(
        ruleset,
        json!({"to_move": to_move, "throw": throw, "sites": position(sites)}),
    )
}

/// The same, with `vars` (the home counts).
fn at_vars(ruleset: &str, to_move: &str, throw: &str, sites: Value, vars: Value) -> Scenario {
    Scenario::at(
        ruleset,
        json!({"to_move": to_move, "throw": throw, "sites": position(sites), "vars": vars}),
    )
}

/// A delta of the canonical ruleset answering `question` otherwise.
fn assert_delta_for(name: &str, question: &str) {
    let c = compile(name);
    assert_eq!(c.info.chain.len(), 2, "{name}: {:?}", c.info.chain);
    assert!(c.info.chain[1].ends_with("pachisi.yaml"), "{name}");
    assert!(c.info.description.contains(question), "{name}");
    let answer = |info: &keliya_rules::RulesetInfo| {
        info.choices
            .iter()
            .find(|(id, _)| id == question)
            .map(|(_, t)| t.clone())
    };
    assert_ne!(answer(&c.info), answer(&compile(PA).info), "{name}");
}

#[test]
fn pa1_two_partnerships_partners_facing_the_turn_anticlockwise() {
    let s = Scenario::new(PA);
    let g = s.game();
    let team = |p: &str| g.team_of(g.player(p).unwrap()).unwrap().to_string();
    assert_eq!(team("south"), team("north"));
    assert_eq!(team("east"), team("west"));
    assert_ne!(team("south"), team("east"));
    assert_eq!(s.to_move(), "south");
    // South's 2 cannot be used (nothing is out): the turn goes to east, his right-hand neighbour.
    let mut s = at(PA, "south", "do", json!({}));
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "east");
}

#[test]
fn pa2_a_cross_of_four_arms_of_three_by_eight_round_the_charkoni_three_castles_an_arm() {
    let c = compile(PA);
    let b = &c.game().board;
    let on_board: Vec<_> = b.playing_sites().collect();
    assert_eq!((b.len(), on_board.len()), (97, 4 * 3 * 8 + 1));
    for arm in ["S", "E", "N", "W"] {
        for col in ["mid", "in", "out"] {
            for d in 1..=8 {
                assert!(b.site(&format!("{arm}.{col}{d}")).is_some());
            }
        }
    }
    let castles: Vec<&str> = on_board
        .iter()
        .filter(|&&i| b.has_tag(i, "safe"))
        .map(|&i| b.name(i))
        .collect();
    assert_eq!(castles.len(), 12, "{castles:?}");
}

#[test]
fn pa3_four_pieces_each_start_in_the_charkoni() {
    let s = Scenario::new(PA);
    for p in ["south", "east", "north", "west"] {
        assert_eq!(s.count("CH", &format!("{p}_pawn")), 4, "{p}");
        assert_eq!(s.var("home", Some(p)), 0);
    }
}

#[test]
fn pa4_down_the_own_middle_round_anticlockwise_and_up_the_middle_home() {
    let c = compile(PA);
    let b = &c.game().board;
    let names: Vec<&str> = b
        .track("route_south")
        .unwrap()
        .points
        .iter()
        .map(|&s| b.name(s))
        .collect();
    assert_eq!(names.len(), 85);
    assert_eq!(
        [
            names[0], names[1], names[8], names[9], names[16], names[17], names[25]
        ],
        [
            "CH", "S.mid1", "S.mid8", "S.in8", "S.in1", "E.out1", "E.mid8"
        ]
    );
    assert_eq!(
        [
            names[42], names[59], names[75], names[76], names[83], names[84]
        ],
        ["N.mid8", "W.mid8", "S.out8", "S.mid8", "S.mid1", "CH"]
    );
    // East's route starts down his own arm and passes south's arm last.
    let e: Vec<&str> = b
        .track("route_east")
        .unwrap()
        .points
        .iter()
        .map(|&s| b.name(s))
        .collect();
    assert_eq!(
        [e[1], e[17], e[75], e[76]],
        ["E.mid1", "N.out1", "E.out8", "E.mid8"]
    );
    // Out on the first pass, home on the second: from S.out7 a 3 turns up the middle column.
    let mut s = at(
        PA,
        "south",
        "tin",
        json!({"S.out7": {"south_pawn": 1}, "S.mid3": {"south_pawn": 1}}),
    );
    assert_eq!(s.moves(), ["S.mid3-S.mid6", "S.out7-S.mid7"]);
    s.play("S.out7-S.mid7");
    assert_eq!(s.count("S.mid7", "south_home"), 1);
    // The tip of the middle column, reached a second time, is already on the way home.
    let mut s = at(PA, "south", "tin", json!({"S.out6": {"south_pawn": 1}}));
    s.play("S.out6-S.mid8");
    assert_eq!(
        (
            s.count("S.mid8", "south_home"),
            s.count("S.mid8", "south_pawn")
        ),
        (1, 0)
    );
    // A piece on its way home goes on towards the charkoni.
    let mut s = at(PA, "south", "tin", json!({"S.mid7": {"south_home": 1}}));
    s.play("S.mid7-S.mid4");
    assert_eq!(s.count("S.mid4", "south_home"), 1);
}

#[test]
fn pa5_six_cowries_and_their_values() {
    let c = compile(PA);
    let rows = c.game().throws.as_ref().unwrap();
    let values: Vec<(String, i64)> = rows.iter().map(|r| (r.name.clone(), r.value)).collect();
    assert_eq!(
        values,
        [
            ("chhakka", 6),
            ("das", 10),
            ("do", 2),
            ("tin", 3),
            ("char", 4),
            ("pachis", 25),
            ("barah", 12)
        ]
        .map(|(n, v)| (n.to_string(), v))
    );
    let again: Vec<bool> = rows.iter().map(|r| r.again).collect();
    assert_eq!(again, [true, true, false, false, false, true, true], "PA-6");
    // Six fair shells: C(6, k) / 64.
    let binom = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0];
    for (r, b) in rows.iter().zip(binom) {
        assert!((r.probability - b / 64.0).abs() < 1e-12, "{}", r.name);
    }
}

#[test]
fn pa6_throws_again_are_kept_until_a_2_3_or_4() {
    let mut s = Scenario::at(
        PA,
        json!({"to_move": "south", "sites": position(json!({"S.in8": {"south_pawn": 1}}))}),
    );
    assert!(s.state.chance_due);
    for t in ["chhakka", "das", "pachis", "barah"] {
        s.throw(t);
        assert!(
            s.state.chance_due && s.moves().is_empty(),
            "{t} throws again"
        );
    }
    s.throw("char");
    assert!(!s.state.chance_due, "a 4 ends the run");
    assert_eq!(
        s.moves(),
        [
            "use barah",
            "use char",
            "use chhakka",
            "use das",
            "use pachis"
        ]
    );
}

#[test]
fn pa7_held_throws_are_played_one_by_one_in_the_order_chosen_each_whole_on_one_piece() {
    let sites = json!({"S.in8": {"south_pawn": 1}, "E.out1": {"south_pawn": 1}});
    let mut s = Scenario::at(PA, json!({"to_move": "south", "sites": position(sites)}));
    s.throw("das").throw("tin");
    s.play("use tin");
    assert_eq!(
        s.moves(),
        ["E.out1-E.out4", "S.in8-S.in5"],
        "one piece, the whole 3"
    );
    s.play("S.in8-S.in5");
    assert_eq!(s.to_move(), "south", "the 10 is still held");
    assert_eq!(s.moves(), ["E.out1-E.in7", "S.in5-E.out6"]);
    s.play("S.in5-E.out6");
    assert_eq!(s.to_move(), "east");
    assert!(s.state.held.is_empty());
}

#[test]
fn pa8_a_25_brings_a_bonus_1_and_only_it_enters_a_piece() {
    // Nothing out: a 2 (or 10, 6, 12) cannot bring a piece out.
    for t in ["do", "das", "chhakka", "barah"] {
        assert_eq!(at(PA, "south", t, json!({})).moves(), ["pass"], "{t}");
    }
    // A 25 with everything in the charkoni: the 1 enters a piece, and the 25 moves it on.
    let mut s = at(PA, "south", "pachis", json!({}));
    assert_eq!(s.moves(), ["CH,S.mid1-S.mid1,E.in8"]);
    s.play("CH,S.mid1-S.mid1,E.in8");
    assert_eq!(
        (s.count("E.in8", "south_pawn"), s.count("CH", "south_pawn")),
        (1, 3)
    );
    // With a piece out, the 25 and the 1 go to the same piece or to two.
    let s = at(PA, "south", "pachis", json!({"S.in3": {"south_pawn": 1}}));
    assert_eq!(
        s.moves(),
        [
            "CH,S.mid1-S.mid1,E.in8",
            "S.in3,CH-N.out6,S.mid1",
            "S.in3,N.out6-N.out6,N.out7"
        ]
    );
}

#[test]
fn pa9_an_opponent_hit_off_a_castle_goes_back_to_the_charkoni() {
    // South throws `throw` in the position `sites` and plays `mv`.
    let played = |throw: &str, sites: Value, mv: &str| {
        let mut s = at(PA, "south", throw, sites);
        s.play(mv);
        s
    };
    let s = played(
        "tin",
        json!({"S.in3": {"south_pawn": 1}, "E.out1": {"east_pawn": 1}}),
        "S.in3-E.out1",
    );
    assert_eq!(
        (s.count("E.out1", "east_pawn"), s.count("CH", "east_pawn")),
        (0, 4)
    );
    assert_eq!(s.count("E.out1", "south_pawn"), 1);
    assert_eq!(s.state.captures, 1);
    // On a castle (E.out5) both stand together.
    let s = played(
        "do",
        json!({"E.out3": {"south_pawn": 1}, "E.out5": {"west_pawn": 1}}),
        "E.out3-E.out5",
    );
    let both =
        |s: &Scenario, site: &str, other: &str| (s.count(site, other), s.count(site, "south_pawn"));
    assert_eq!(both(&s, "E.out5", "west_pawn"), (1, 1));
    // A partner's piece is never hit.
    let s = played(
        "do",
        json!({"E.out1": {"south_pawn": 1}, "E.out3": {"north_pawn": 1}}),
        "E.out1-E.out3",
    );
    assert_eq!(both(&s, "E.out3", "north_pawn"), (1, 1));
    // A piece of east on its way home, on the tip of his own middle column, is hit like any other.
    let s = played(
        "do",
        json!({"E.out7": {"south_pawn": 1}, "E.mid8": {"east_home": 1}}),
        "E.out7-E.mid8",
    );
    assert_eq!(
        (s.count("E.mid8", "east_home"), s.count("CH", "east_pawn")),
        (0, 4)
    );
}

#[test]
fn pa10_the_charkoni_needs_the_exact_count_and_an_unusable_throw_is_lost() {
    let mut s = at(PA, "south", "tin", json!({"S.mid2": {"south_home": 1}}));
    assert_eq!(s.moves(), ["pass"], "3 would overshoot");
    s.play("pass");
    assert_eq!(s.to_move(), "east");
    let mut s = at(PA, "south", "do", json!({"S.mid2": {"south_home": 1}}));
    s.play("S.mid2-CH");
    assert_eq!(
        (s.count("CH", "south_home"), s.var("home", Some("south"))),
        (1, 1)
    );
    // A held throw that cannot be used is lost alone; the others are still played.
    let mut s = Scenario::at(
        PA,
        json!({"to_move": "south", "sites": position(json!({"S.mid2": {"south_home": 1}}))}),
    );
    s.throw("das").throw("do");
    s.play("use das");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "south");
    assert_eq!(s.moves(), ["S.mid2-CH"]);
}

#[test]
fn pa11_a_player_whose_pieces_are_home_plays_his_partners() {
    let sites =
        json!({"CH": {"south_home": 4}, "N.in3": {"north_pawn": 1}, "W.out1": {"east_pawn": 1}});
    let vars = json!({"home": {"south": 4}});
    let mut s = at_vars(PA, "south", "tin", sites, vars);
    assert_eq!(s.moves(), ["N.in3-W.out1"]);
    s.play("N.in3-W.out1");
    assert_eq!(
        (s.count("W.out1", "north_pawn"), s.count("CH", "east_pawn")),
        (1, 4)
    );
}

#[test]
fn pa12_the_first_partnership_with_all_eight_home_wins() {
    let sites = json!({"CH": {"south_home": 4, "north_home": 3}, "N.mid2": {"north_home": 1}});
    let vars = json!({"home": {"south": 4, "north": 3}});
    let mut s = at_vars(PA, "north", "do", sites, vars);
    assert_eq!(s.winner(), "none", "seven of eight home is not yet a win");
    s.play("N.mid2-CH");
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("south".into(), "south-north-home".into())
    );
    let g = s.game();
    assert_eq!(g.team_of(g.player("north").unwrap()), Some("south_north"));
    // One player's four alone are not a win.
    let s = at_vars(
        PA,
        "south",
        "do",
        json!({"CH": {"south_home": 4}}),
        json!({"home": {"south": 4}}),
    );
    assert_eq!(s.winner(), "none");
}

#[test]
fn pa_q1_six_shells_canonical_and_the_delta_seven_with_30_bringing_a_bonus_1() {
    assert_delta_for(SEVEN, "PA-Q1");
    let c = compile(SEVEN);
    let rows = c.game().throws.as_ref().unwrap();
    let values: Vec<(i64, bool)> = rows.iter().map(|r| (r.value, r.again)).collect();
    assert_eq!(
        values,
        [
            (7, true),
            (10, true),
            (2, false),
            (3, false),
            (4, false),
            (25, true),
            (30, true),
            (12, true)
        ]
    );
    let s = at(SEVEN, "south", "tis", json!({}));
    assert_eq!(
        s.moves(),
        ["CH,S.mid1-S.mid1,E.in3"],
        "the 1 enters, the 30 moves it on"
    );
    assert_eq!(at(PA, "south", "barah", json!({})).moves(), ["pass"]);
}

#[test]
fn pa_q2_castles_on_the_fifth_outer_and_fourth_middle_squares() {
    let c = compile(PA);
    let b = &c.game().board;
    for arm in ["S", "E", "N", "W"] {
        for (col, d) in [("in", 5), ("out", 5), ("mid", 4)] {
            let s = b.site(&format!("{arm}.{col}{d}")).unwrap();
            assert!(b.has_tag(s, "safe"), "{arm}.{col}{d}");
        }
    }
    // The castle of the middle column matters only to its owner: it is on no one else's route.
    let route = &b.track("route_east").unwrap().points;
    assert!(!route.contains(&b.site("S.mid4").unwrap()));
}

#[test]
fn pa_q3_only_the_bonus_1_enters_and_the_delta_lets_any_throw_again_enter() {
    assert_delta_for(GRACE, "PA-Q3");
    assert_eq!(at(PA, "south", "das", json!({})).moves(), ["pass"]);
    let mut s = at(GRACE, "south", "das", json!({}));
    assert_eq!(s.moves(), ["CH-S.mid1"], "the whole 10 spent on the entry");
    s.play("CH-S.mid1");
    assert_eq!(s.count("S.mid1", "south_pawn"), 1);
    assert_eq!(
        at(GRACE, "south", "tin", json!({})).moves(),
        ["pass"],
        "a 3 never enters"
    );
}

#[test]
fn pa_q4_three_equal_throws_running_are_kept_all_the_same() {
    let mut s = Scenario::at(
        PA,
        json!({"to_move": "south", "sites": position(json!({"S.in8": {"south_pawn": 1}}))}),
    );
    s.throw("das").throw("das").throw("das");
    assert!(s.state.chance_due, "a third 10 running still throws again");
    s.throw("do");
    assert_eq!(s.state.held.len(), 4);
    assert_eq!(s.moves(), ["use das", "use do"]);
}

#[test]
fn pa_q4_the_delta_voids_three_equal_throws_of_a_run() {
    assert_delta_for(VOID, "PA-Q4");
    let start = || {
        Scenario::at(
            VOID,
            json!({"to_move": "south", "sites": position(json!({"S.in8": {"south_pawn": 1}}))}),
        )
    };
    // Three 10s in a row are struck out as the third is thrown; the player throws on (a 10 throws
    // again), and the 2 that ends the run is all he plays.
    let mut s = start();
    s.throw("das").throw("das").throw("das");
    assert!(s.state.held.is_empty(), "the three 10s are gone");
    assert!(s.state.chance_due, "the third 10 gives a throw again");
    s.throw("do");
    assert_eq!(s.moves(), ["S.in8-S.in6"]);
    s.play("S.in8-S.in6");
    assert_eq!(s.to_move(), "east");
    // A 25 void takes its bonus 1 with it: only the 3 is left to play.
    let mut s = start();
    s.throw("pachis")
        .throw("pachis")
        .throw("pachis")
        .throw("tin");
    assert_eq!(s.moves(), ["S.in8-S.in5"]);
    // Two 10s are kept; so is a fourth 10 in a row once three are struck out.
    let mut s = start();
    s.throw("das").throw("das").throw("do");
    assert_eq!(s.moves(), ["use das", "use do"]);
    let mut s = start();
    s.throw("das")
        .throw("das")
        .throw("das")
        .throw("das")
        .throw("do");
    assert_eq!(s.moves(), ["use das", "use do"], "the fourth 10 is kept");
    // Equal throws with another between them are not running: 10, 25, 10, 10 keeps all four.
    let mut s = start();
    s.throw("das")
        .throw("pachis")
        .throw("das")
        .throw("das")
        .throw("char");
    assert_eq!(s.state.held.len(), 5);
}

#[test]
fn pa_q5_a_castle_holds_both_sides_and_the_delta_closes_it() {
    assert_delta_for(CLOSED, "PA-Q5");
    let sites = json!({"E.out3": {"south_pawn": 1}, "E.out5": {"west_pawn": 1}});
    assert_eq!(
        at(PA, "south", "do", sites.clone()).moves(),
        ["E.out3-E.out5"]
    );
    assert_eq!(at(CLOSED, "south", "do", sites).moves(), ["pass"]);
    // A partner's piece does not close it.
    let sites = json!({"E.out3": {"south_pawn": 1}, "E.out5": {"north_pawn": 1}});
    assert_eq!(at(CLOSED, "south", "do", sites).moves(), ["E.out3-E.out5"]);
}

#[test]
fn pa_q6_a_hit_gives_no_throw_again() {
    let mut s = at(
        PA,
        "south",
        "tin",
        json!({"S.in3": {"south_pawn": 1}, "E.out1": {"east_pawn": 1}}),
    );
    s.play("S.in3-E.out1");
    assert_eq!(s.to_move(), "east");
}

#[test]
fn pa_q7_a_finished_player_plays_for_his_partner_and_the_delta_passes() {
    assert_delta_for(NO_HELP, "PA-Q7");
    let sites = json!({"CH": {"south_home": 4}, "N.in3": {"north_pawn": 1}});
    let vars = json!({"home": {"south": 4}});
    assert_eq!(
        at_vars(PA, "south", "tin", sites.clone(), vars.clone()).moves(),
        ["N.in3-W.out1"]
    );
    assert_eq!(
        at_vars(NO_HELP, "south", "tin", sites, vars).moves(),
        ["pass"]
    );
}

#[test]
fn pa_q8_a_piece_passes_over_occupied_squares() {
    let sites = json!({"E.out1": {"south_pawn": 1}, "E.out2": {"east_pawn": 1}, "E.out3": {"west_pawn": 1}});
    assert_eq!(at(PA, "south", "tin", sites).moves(), ["E.out1-E.out4"]);
}

#[test]
fn pa_q9_south_starts() {
    let s = Scenario::new(PA);
    assert_eq!((s.to_move(), s.state.chance_due), ("south", true));
}

#[test]
fn pa_q10_a_players_pieces_may_stand_together_anywhere() {
    let mut s = at(
        PA,
        "south",
        "do",
        json!({"E.out1": {"south_pawn": 1}, "E.out3": {"south_pawn": 1}}),
    );
    s.play("E.out1-E.out3");
    assert_eq!(s.count("E.out3", "south_pawn"), 2);
}

#[test]
fn random_games_end_by_the_rules() {
    let c = compile(PA);
    let games = 1000;
    let stats = keliya_play::simulate::simulate(c.game(), games, 1).unwrap();
    let by_rule: u64 = stats.wins.iter().sum();
    println!(
        "{games} games: wins {:?}, draws {}, capped {}",
        stats.wins, stats.draws, stats.capped
    );
    assert_eq!(by_rule + stats.draws, games);
    assert!(
        stats.capped * 5 <= games,
        "{} of {games} games capped",
        stats.capped
    );
    assert!(
        stats.wins.iter().all(|&w| w > 0),
        "both partnerships win some"
    );
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=12)
        .map(|i| format!("PA-{i}"))
        .chain((1..=10).map(|i| format!("PA-Q{i}")))
        .collect();
    check_rule_rows(
        "pachisi.md",
        "pachisi.rs",
        &ids,
        &[
            "pa1", "pa2", "pa3", "pa4", "pa5", "pa6", "pa7", "pa8", "pa9", "pa_q", "random_",
        ],
    );
}

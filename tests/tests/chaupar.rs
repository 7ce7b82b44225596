//! Chaupar: a scenario test (or more) per rule of `docs/rules/chaupar.md` (CP-1 .. CP-11, the questions
//! CP-Q1 .. CP-Q12) and the deltas.
//!
//! Player a's route (the S arm): S0 (0), SM1..SM8 (1-8), SR8..SR1 (9-16), the E arm EL1..EL8, EM8,
//! ER8..ER1 (17-33), the N arm (34-50), the W arm (51-67), SL1..SL8 (68-75), SM8..SM1 on the way in as an
//! `a_inner` (76-83), the centre CH (84). The other players' routes are the same turned a quarter round: b
//! from the E arm, a2 from the N arm, b2 from the W arm.

use keliya_tests::{Scenario, check_rule_rows, compile};
use serde_json::{Value, json};

const CP: &str = "chaupar";
const START_23: &str = "chaupar/start-6-7-23-24";
const TEAM_PAIRS: &str = "chaupar/team-pairs";
const PAIRS_BLOCK: &str = "chaupar/pairs-block";
const JOINT: &str = "chaupar/joint-moves";

/// A position of `ruleset`: `to_move` plays the die `throw`, holding `held` besides.
fn at(ruleset: &str, to_move: &str, throw: &str, held: &[&str], sites: Value) -> Scenario {
    Scenario::at(
        ruleset,
        json!({"to_move": to_move, "throw": throw, "held": held, "sites": sites}),
    )
}

/// A position of the canonical game: `to_move` plays the die `throw` and holds no other.
fn die(to_move: &str, throw: &str, sites: Value) -> Scenario {
    at(CP, to_move, throw, &[], sites)
}

/// The points of a player's route, by name.
fn route(s: &Scenario, player: &str) -> Vec<String> {
    let b = &s.game().board;
    let t = b.track(&format!("route_{player}")).expect("a route");
    t.points.iter().map(|&p| b.name(p).to_string()).collect()
}

#[test]
fn cp1_four_players_in_two_teams_of_partners_with_four_pieces_each() {
    let s = Scenario::new(CP);
    let g = s.game();
    let names: Vec<&str> = g.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "a2", "b2"], "partners sit opposite");
    for (p, team) in [
        ("a", "team_a"),
        ("a2", "team_a"),
        ("b", "team_b"),
        ("b2", "team_b"),
    ] {
        assert_eq!(g.side_name(g.player(p).unwrap()), team, "{p}");
    }
    for p in ["a", "b", "a2", "b2"] {
        let on_board: u16 = g
            .board
            .names()
            .iter()
            .map(|site| s.count(site, &format!("{p}_pawn")))
            .sum();
        assert_eq!(on_board, 4, "{p} has four pieces, all on the board");
    }
}

#[test]
fn cp2_the_cross_has_four_arms_of_three_rows_of_eight_round_an_empty_centre() {
    let s = Scenario::new(CP);
    let b = &s.game().board;
    for arm in ["S", "E", "N", "W"] {
        let squares = b
            .names()
            .iter()
            .filter(|n| n.starts_with(arm) && n.len() == 3)
            .count();
        assert_eq!(squares, 24, "the {arm} arm: 3 rows of 8");
        for row in ["L", "M", "R"] {
            for k in 1..=8 {
                assert!(b.site(&format!("{arm}{row}{k}")).is_some());
            }
        }
    }
    // Every route: its own middle row, every left- and right-hand row and every arm's end; the centre
    // ends each one.
    for (p, own) in [("a", "S"), ("b", "E"), ("a2", "N"), ("b2", "W")] {
        let r = route(&s, p);
        assert_eq!(
            r.len(),
            85,
            "{p}: start, 83 squares (the middle row twice), centre"
        );
        assert_eq!(r.last().unwrap(), "CH");
        for arm in ["S", "E", "N", "W"] {
            for row in ["L", "M", "R"] {
                for k in 1..=8 {
                    let sq = format!("{arm}{row}{k}");
                    let on = row != "M" || k == 8 || arm == own;
                    assert_eq!(r.contains(&sq), on, "{p}: {sq}");
                }
            }
        }
    }
    // The centre is empty at the start: nothing stands on CH or the starts.
    for site in ["CH", "S0", "E0", "N0", "W0"] {
        assert_eq!(s.game().board.site(site).map(|_| ()), Some(()));
        for p in ["a", "b", "a2", "b2"] {
            assert_eq!(s.count(site, &format!("{p}_pawn")), 0, "{site}");
        }
    }
}

#[test]
fn cp3_pieces_start_on_the_sixth_and_seventh_of_the_middle_row_and_the_seventh_and_eighth_of_the_right()
 {
    let s = Scenario::new(CP);
    for (p, arm) in [("a", "S"), ("b", "E"), ("a2", "N"), ("b2", "W")] {
        for sq in ["M6", "M7", "R7", "R8"] {
            assert_eq!(
                s.count(&format!("{arm}{sq}"), &format!("{p}_pawn")),
                1,
                "{p} {sq}"
            );
        }
        // Route positions 6, 7, 9 and 10.
        let r = route(&s, p);
        let places: Vec<usize> = ["M6", "M7", "R8", "R7"]
            .iter()
            .map(|sq| r.iter().position(|x| *x == format!("{arm}{sq}")).unwrap())
            .collect();
        assert_eq!(places, [6, 7, 9, 10], "{p}");
    }
}

#[test]
fn cp4_a_piece_runs_out_round_the_cross_and_in_along_its_middle_row() {
    let sites = json!({"SR1": {"a_pawn": 1}, "EL8": {"a_pawn": 1}, "WR1": {"a_pawn": 1},
                       "SL8": {"a_pawn": 1}, "EM2": {"b_pawn": 1}});
    // Off its own right-hand row into the next arm's left-hand row, round that arm's end, on into its own
    // left-hand row from the last arm, and from its own left-hand row back into its middle row.
    assert_eq!(
        die("a", "one", sites.clone()).moves(),
        ["EL8-EM8", "SL8-SM8", "SR1-EL1", "WR1-SL1"]
    );
    assert_eq!(
        die("a", "two", sites).moves(),
        ["EL8-ER8", "SL8-SM7", "SR1-EL2", "WR1-SL2"]
    );
    // On its way in the piece is an `inner` and runs towards the centre.
    let mut s = die(
        "a",
        "two",
        json!({"SL8": {"a_pawn": 1}, "EM2": {"b_pawn": 1}}),
    );
    s.play("SL8-SM7");
    assert_eq!(
        (s.count("SM7", "a_inner"), s.count("SM7", "a_pawn")),
        (1, 0)
    );
    let s = die(
        "a",
        "five",
        json!({"SM8": {"a_inner": 1}, "SM6": {"a_pawn": 1},
                                            "EM2": {"b_pawn": 1}}),
    );
    assert_eq!(
        s.moves(),
        ["SM6-SR6", "SM8-SM3"],
        "a pawn runs outwards, an inner inwards"
    );
}

#[test]
fn cp5_the_centre_is_reached_by_the_exact_count_only() {
    let sites = json!({"SM2": {"a_inner": 1}, "EM2": {"b_pawn": 1}});
    let mut s = die("a", "two", sites.clone());
    assert_eq!(s.moves(), ["SM2-CH"]);
    s.play("SM2-CH");
    assert_eq!(s.count("CH", "a_pawn"), 1);
    for die in ["five", "six"] {
        assert_eq!(
            at(CP, "a", die, &[], sites.clone()).moves(),
            ["pass"],
            "{die} overshoots"
        );
    }
    assert_eq!(die("a", "one", sites).moves(), ["SM2-SM1"]);
}

#[test]
fn cp6_three_long_dice_marked_1_2_5_6_are_thrown_each_turn() {
    let c = compile(CP);
    let rows = c.game().throws.as_ref().unwrap();
    let faces: Vec<(i64, f64)> = rows.iter().map(|r| (r.value, r.probability)).collect();
    assert_eq!(faces, [(1, 0.25), (2, 0.25), (5, 0.25), (6, 0.25)]);
    let mut s = Scenario::new(CP);
    for die in ["six", "two", "one"] {
        assert!(s.state.chance_due, "a die is still to be thrown");
        s.throw(die);
    }
    assert!(!s.state.chance_due, "three dice, no fourth");
    assert_eq!(s.moves(), ["use one", "use six", "use two"]);
}

#[test]
fn cp7_each_die_is_played_on_its_own_on_any_piece_in_any_order() {
    let mut s = Scenario::new(CP);
    s.throw("six").throw("two").throw("one");
    // The 2 first, on one piece, then the 6 and the 1 on the same other piece.
    s.play("use two").play("SM6-SM8");
    assert_eq!(s.count("SM8", "a_pawn"), 1);
    s.play("use six").play("SR7-SR1");
    assert_eq!(s.to_move(), "a", "a die is still held");
    assert_eq!(
        s.moves(),
        ["SM7-SM8", "SM8-SR8", "SR1-EL1", "SR8-SR7"],
        "the 1 is played without asking"
    );
    s.play("SR1-EL1");
    assert_eq!(s.to_move(), "b", "three dice played: the turn passes");
    assert!(s.state.chance_due);
    // A die that cannot be played is lost by a pass, and the player goes on with the others.
    let mut s = at(
        CP,
        "a",
        "five",
        &["one"],
        json!({"SM3": {"a_inner": 1}, "EM2": {"b_pawn": 1}}),
    );
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "a");
    s.play("SM3-SM2");
    assert_eq!(s.to_move(), "b");
}

#[test]
fn cp8_a_lone_piece_of_the_other_team_hit_goes_back_to_its_start() {
    let mut s = die(
        "a",
        "five",
        json!({"SM6": {"a_pawn": 1}, "SR6": {"b_pawn": 1},
                                                "ER6": {"b2_pawn": 1}}),
    );
    s.play("SM6-SR6");
    assert_eq!((s.count("SR6", "b_pawn"), s.count("E0", "b_pawn")), (0, 1));
    assert_eq!(s.count("SR6", "a_pawn"), 1);
    // A piece on its way in is sent back to its start too, to run its whole course again.
    let mut s = die(
        "b2",
        "two",
        json!({"SL8": {"b2_pawn": 1}, "SM8": {"a_inner": 1}}),
    );
    s.play("SL8-SR8");
    assert_eq!(s.count("SM8", "a_inner"), 1, "passed over, not hit");
    let mut s = die(
        "b2",
        "one",
        json!({"SL8": {"b2_pawn": 1}, "SM8": {"a_inner": 1}}),
    );
    s.play("SL8-SM8");
    assert_eq!((s.count("SM8", "a_inner"), s.count("S0", "a_pawn")), (0, 1));
    // A partner's piece is never hit.
    let mut s = die(
        "a",
        "five",
        json!({"SM6": {"a_pawn": 1}, "SR6": {"a2_pawn": 1}}),
    );
    s.play("SM6-SR6");
    assert_eq!(
        (s.count("SR6", "a2_pawn"), s.count("SR6", "a_pawn")),
        (1, 1)
    );
}

#[test]
fn cp9_two_pieces_of_one_player_together_are_safe() {
    let mut s = die(
        "a",
        "five",
        json!({"SM6": {"a_pawn": 1}, "SR6": {"b_pawn": 2}}),
    );
    s.play("SM6-SR6");
    assert_eq!((s.count("SR6", "b_pawn"), s.count("E0", "b_pawn")), (2, 0));
    assert_eq!(s.count("SR6", "a_pawn"), 1, "the pieces share the square");
}

#[test]
fn cp10_a_player_whose_pieces_are_home_throws_for_his_partner() {
    let sites = json!({"CH": {"a_pawn": 4}, "NM6": {"a2_pawn": 1}, "EM2": {"b_pawn": 1}});
    let mut s = die("a", "two", sites);
    assert_eq!(s.moves(), ["NM6-NM8"], "a's die moves a2's piece");
    s.play("NM6-NM8");
    assert_eq!(s.count("NM8", "a2_pawn"), 1);
    // With one piece still out, a plays his own.
    let s = die(
        "a",
        "two",
        json!({"CH": {"a_pawn": 3}, "SM2": {"a_inner": 1},
                                           "NM6": {"a2_pawn": 1}}),
    );
    assert_eq!(s.moves(), ["SM2-CH"]);
}

#[test]
fn cp11_the_first_team_with_all_eight_pieces_home_wins() {
    let mut s = die(
        "a2",
        "one",
        json!({"CH": {"a_pawn": 4, "a2_pawn": 3},
                                                "NM1": {"a2_inner": 1}, "EM2": {"b_pawn": 4}}),
    );
    s.play("NM1-CH");
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("a".into(), "team-a-home".into())
    );
    // One player home is not enough.
    let mut s = die(
        "a",
        "one",
        json!({"CH": {"a_pawn": 3}, "SM1": {"a_inner": 1},
                                               "NM6": {"a2_pawn": 4}, "EM2": {"b_pawn": 4}}),
    );
    s.play("SM1-CH");
    assert_eq!(s.winner(), "none");
}

#[test]
fn cpq1_each_face_of_a_die_has_the_same_chance() {
    let c = compile(CP);
    let rows = c.game().throws.as_ref().unwrap();
    assert!(rows.iter().all(|r| (r.probability - 0.25).abs() < 1e-12));
    assert_eq!(rows.iter().map(|r| r.probability).sum::<f64>(), 1.0);
}

#[test]
fn cpq2_the_three_dice_are_held_together_and_none_gives_another_turn() {
    let mut s = Scenario::new(CP);
    s.throw("five").throw("five").throw("five");
    assert_eq!(s.state.held.len() + usize::from(s.state.throw.is_some()), 3);
    assert!(!s.state.chance_due);
    // Three of a kind are played one after the other without asking.
    assert!(s.moves().iter().all(|m| !m.starts_with("use")));
    s.play("SM6-SR6").play("SM7-SR5").play("SR8-SR3");
    assert_eq!(s.to_move(), "b");
}

#[test]
fn cpq3_pieces_standing_together_move_one_at_a_time_even_on_a_triple() {
    let mut s = at(
        CP,
        "a",
        "six",
        &["six", "six"],
        json!({"SR1": {"a_pawn": 3}, "EM2": {"b_pawn": 1}}),
    );
    assert_eq!(s.moves(), ["SR1-EL6"]);
    s.play("SR1-EL6");
    assert_eq!((s.count("SR1", "a_pawn"), s.count("EL6", "a_pawn")), (2, 1));
}

#[test]
fn cpq3_in_the_delta_two_pieces_together_move_as_one_on_a_double_and_three_on_a_triple() {
    // A triple of sixes, three of a's pieces on SR1 (route position 16): one alone by 6, or two or three
    // together by 12, to ER6 (28).
    let triple = json!({"SR1": {"a_pawn": 3}, "EM2": {"b_pawn": 1}});
    let mut s = at(JOINT, "a", "six", &["six", "six"], triple.clone());
    assert_eq!(s.moves(), ["SR1-EL6", "SR1-ER6x2", "SR1-ER6x3"]);
    s.play("SR1-ER6x3");
    assert_eq!(s.count("ER6", "a_pawn"), 3);
    assert_eq!(
        s.to_move(),
        "b",
        "the three dice are spent: the turn passes"
    );
    assert!(s.state.chance_due && s.state.held.is_empty());
    // Two of the three together: the third die is played next, on its own.
    let mut s = at(JOINT, "a", "six", &["six", "six"], triple);
    s.play("SR1-ER6x2");
    assert_eq!((s.count("SR1", "a_pawn"), s.count("ER6", "a_pawn")), (1, 2));
    assert_eq!(s.to_move(), "a");
    assert_eq!(s.moves(), ["ER6-NL1", "SR1-EL6"]);
    // A double of fives: the pair on SM6 (6) goes to SR1 (16) together and hits the lone piece there;
    // no three on a double; the one is left to play.
    let mut s = at(
        JOINT,
        "a",
        "five",
        &["one", "five"],
        json!({"SM6": {"a_pawn": 3}, "SR1": {"b_pawn": 1}}),
    );
    assert_eq!(s.moves(), ["SM6-SR1x2", "SM6-SR6"]);
    s.play("SM6-SR1x2");
    assert_eq!((s.count("SR1", "a_pawn"), s.count("SM6", "a_pawn")), (2, 1));
    assert_eq!((s.count("SR1", "b_pawn"), s.count("E0", "b_pawn")), (0, 1));
    assert_eq!(s.moves(), ["SM6-SM7", "SR1-EL1"], "the one, on its own");
    // Into the middle row on the way in, and home by the exact count, together.
    let two_pairs = || {
        at(
            JOINT,
            "a",
            "one",
            &["one", "six"],
            json!({"SL7": {"a_pawn": 2}, "SM2": {"a_inner": 2}}),
        )
    };
    let mut s = two_pairs();
    assert!(s.can("SL7-SM8x2") && s.can("SM2-CHx2"), "{:?}", s.moves());
    s.play("SL7-SM8x2");
    assert_eq!(s.count("SM8", "a_inner"), 2);
    let mut s = two_pairs();
    s.play("SM2-CHx2");
    assert_eq!(s.count("CH", "a_pawn"), 2);
    // No double held, or no two pieces of one player and kind together: one at a time only.
    let s = at(
        JOINT,
        "a",
        "six",
        &["one", "two"],
        json!({"SR1": {"a_pawn": 2}, "EM2": {"b_pawn": 1}}),
    );
    assert_eq!(s.moves(), ["SR1-EL6"]);
    let s = at(
        JOINT,
        "a",
        "six",
        &["six"],
        json!({"SR1": {"a_pawn": 1, "a2_pawn": 1}, "SM6": {"a_pawn": 1, "a_inner": 1}}),
    );
    assert!(
        s.moves().iter().all(|m| !m.contains('x')),
        "{:?}",
        s.moves()
    );
}

#[test]
fn cpq4_play_and_pieces_go_round_anticlockwise() {
    let s = Scenario::new(CP);
    let g = s.game();
    let b = &g.board;
    // S is at the bottom (y grows downwards), E on the right: after a's right-hand row (x = 1) a piece
    // goes east, then north, then west.
    let xy = |n: &str| b.at[b.site(n).unwrap() as usize];
    assert_eq!(xy("SR1"), (1.0, 2.0));
    assert_eq!(xy("EL1"), (2.0, 1.0));
    assert_eq!(xy("NL1"), (1.0, -2.0));
    let r = route(&s, "a");
    let arms: Vec<char> = [17, 34, 51]
        .iter()
        .map(|&i| r[i].chars().next().unwrap())
        .collect();
    assert_eq!(arms, ['E', 'N', 'W']);
    let order: Vec<&str> = g
        .turn_order
        .iter()
        .map(|&p| g.players[p as usize].name.as_str())
        .collect();
    assert_eq!(order, ["a", "b", "a2", "b2"]);
}

#[test]
fn cpq5_the_start_squares_of_the_alternative_are_positions_6_7_23_24() {
    let s = Scenario::new(START_23);
    for p in ["a", "b", "a2", "b2"] {
        let r = route(&s, p);
        let on: Vec<usize> = (0..76)
            .filter(|&i| s.count(&r[i], &format!("{p}_pawn")) > 0)
            .collect();
        assert_eq!(on, [6, 7, 23, 24], "{p}");
    }
    assert_eq!(Scenario::new(CP).count("EL7", "a_pawn"), 0);
}

#[test]
fn cpq6_a_piece_sent_back_reenters_down_its_middle_row_with_any_die() {
    for (die, to) in [
        ("one", "SM1"),
        ("two", "SM2"),
        ("five", "SM5"),
        ("six", "SM6"),
    ] {
        let s = at(
            CP,
            "a",
            die,
            &[],
            json!({"S0": {"a_pawn": 1}, "EM2": {"b_pawn": 1}}),
        );
        assert_eq!(s.moves(), [format!("S0-{to}")]);
    }
}

#[test]
fn cpq7_partners_pieces_together_are_hit_one_by_one_unless_a_teams_pair_is_safe() {
    let sites = json!({"SM6": {"a_pawn": 1}, "SR6": {"b_pawn": 1, "b2_pawn": 1}});
    let mut s = die("a", "five", sites.clone());
    s.play("SM6-SR6");
    assert_eq!((s.count("E0", "b_pawn"), s.count("W0", "b2_pawn")), (1, 1));
    let mut s = at(TEAM_PAIRS, "a", "five", &[], sites);
    s.play("SM6-SR6");
    assert_eq!(
        (s.count("SR6", "b_pawn"), s.count("SR6", "b2_pawn")),
        (1, 1)
    );
}

#[test]
fn cpq8_a_pair_does_not_block_unless_the_alternative_says_so() {
    let sites = json!({"SM6": {"a_pawn": 1}, "SM7": {"a_pawn": 1}, "SR6": {"b_pawn": 2}});
    assert_eq!(
        die("a", "five", sites.clone()).moves(),
        ["SM6-SR6", "SM7-SR5"]
    );
    assert_eq!(
        at(PAIRS_BLOCK, "a", "five", &[], sites).moves(),
        ["SM7-SR5"]
    );
}

#[test]
fn cpq9_no_square_is_marked_safe() {
    let c = compile(CP);
    let b = &c.game().board;
    assert!((0..b.len()).all(|s| !b.has_tag(s as u16, "safe")));
    // A lone piece is hit even on the end square of an arm.
    let mut s = die(
        "a",
        "one",
        json!({"EL8": {"a_pawn": 1}, "EM8": {"b2_pawn": 1}}),
    );
    s.play("EL8-EM8");
    assert_eq!(s.count("W0", "b2_pawn"), 1);
}

#[test]
fn cpq10_a_hit_gives_no_extra_throw_and_is_not_compulsory() {
    let sites = json!({"SM6": {"a_pawn": 1}, "SM7": {"a_pawn": 1}, "SR6": {"b_pawn": 1}});
    let s = die("a", "five", sites.clone());
    assert_eq!(s.moves(), ["SM6-SR6", "SM7-SR5"], "the hit may be declined");
    let mut s = die("a", "five", sites);
    s.play("SM6-SR6");
    assert_eq!(s.count("E0", "b_pawn"), 1);
    assert_eq!(s.to_move(), "b", "no throw again for the hit");
}

#[test]
fn cpq11_the_finished_player_chooses_his_partners_moves() {
    let sites = json!({"CH": {"a_pawn": 4}, "NM6": {"a2_pawn": 1}, "NR2": {"a2_pawn": 1},
                       "EM2": {"b_pawn": 1}});
    let mut s = die("a", "one", sites);
    assert_eq!(s.to_move(), "a");
    assert_eq!(s.moves(), ["NM6-NM7", "NR2-NR1"]);
    s.play("NR2-NR1");
    assert_eq!(s.to_move(), "b");
}

#[test]
fn cpq12_player_a_starts_by_throwing() {
    let s = Scenario::new(CP);
    assert_eq!(s.to_move(), "a");
    assert!(s.state.chance_due);
}

#[test]
fn a_thousand_random_games_end_by_their_own_rules() {
    let c = compile(CP);
    let stats = keliya_play::simulate::simulate(c.game(), 1000, 1).unwrap();
    assert!(stats.capped * 5 <= 1000, "{} capped", stats.capped);
    assert_eq!(stats.wins.iter().sum::<u64>() + stats.draws, 1000);
    for (reason, n) in &stats.endings {
        assert!(
            reason == "team-a-home" || reason == "team-b-home" || reason.starts_with("cap"),
            "{reason}: {n}"
        );
    }
    let home: u64 = stats
        .endings
        .iter()
        .filter(|(r, _)| r.ends_with("-home"))
        .map(|(_, n)| n)
        .sum();
    assert!(home * 5 >= 4 * 1000, "{home} of 1000 end with a team home");
}

#[test]
fn every_rule_id_has_a_row_naming_its_tests() {
    let ids: Vec<String> = (1..=11)
        .map(|i| format!("CP-{i}"))
        .chain((1..=12).map(|i| format!("CP-Q{i}")))
        .collect();
    check_rule_rows("chaupar.md", "chaupar.rs", &ids, &["cp"]);
}

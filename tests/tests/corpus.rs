//! Every bundled ruleset validates, and every game plays seeded random games to the end with its invariants
//! checked after every move and every throw, and the moves and positions of `successors` checked against
//! `legal_moves` and `apply`.

use keliya_engine::Successors;
use keliya_play::Dice;
use keliya_tests::{catalog, compile};

const GAMES_PER_RULESET: u64 = 200;
/// Long games (multi-round sowing matches run to thousands of moves) stop starting new games once a ruleset
/// has used this many moves; every game begun is played to its end.
const PLIES_PER_RULESET: u64 = 30_000;

#[test]
fn every_bundled_ruleset_validates() {
    let names = catalog().names();
    assert!(names.len() >= 3, "rulesets/ holds the bundled games");
    for (name, _) in names {
        compile(&name);
    }
}

#[test]
fn every_game_ends_with_its_invariants_holding_throughout() {
    for (name, _) in catalog().names() {
        let c = compile(&name);
        let Some(game) = &c.game else { continue };
        let mut capped = 0;
        let (mut played, mut plies) = (0u64, 0u64);
        for i in 0..GAMES_PER_RULESET {
            if plies >= PLIES_PER_RULESET {
                break;
            }
            played += 1;
            let mut dice = Dice::new(Dice::game_seed(42, i));
            let mut st = game.initial_state();
            let mut steps = 0u64;
            // One list of successors for the game, as a playout keeps it: each search clears it first.
            let mut found = Successors::new();
            while st.result.is_none() {
                let outcomes = game.chance_outcomes(&st);
                if outcomes.is_empty() {
                    let moves = game
                        .legal_moves(&st)
                        .unwrap_or_else(|e| panic!("{name} game {i}: {e}"));
                    assert!(!moves.is_empty(), "{name} game {i}: no move and no result");
                    let k = dice.below(moves.len());
                    let after = game
                        .apply(&st, &moves[k])
                        .unwrap_or_else(|e| panic!("{name} game {i}: {e}"));
                    // The search that keeps positions finds the same moves, in the same order, and
                    // the position it kept for the chosen move is the one `apply` makes, played from
                    // the list (on a copy, or in place) or taken out of it.
                    game.successors_into(&st, &mut found).expect("successors");
                    let found_moves: Vec<_> = found.moves().collect();
                    assert_eq!(found_moves, moves, "{name} game {i} ply {}", st.ply);
                    let kept = game
                        .advance_found(st.clone(), &found, k)
                        .expect("found move");
                    assert_eq!(kept, after, "{name} game {i} ply {}", st.ply);
                    let mut in_place = st.clone();
                    game.advance_found_in_place(&mut in_place, &found, k)
                        .expect("found move, in place");
                    assert_eq!(in_place, after, "{name} game {i} ply {}", st.ply);
                    let taken = found.get(k).expect("the chosen move is found");
                    let kept = game.apply_successor(&st, taken).expect("successor");
                    assert_eq!(kept, after, "{name} game {i} ply {}", st.ply);
                    st = after;
                } else {
                    let total: f64 = outcomes.iter().map(|o| o.1).sum();
                    assert!(
                        (total - 1.0).abs() < 1e-9,
                        "{name}: throw probabilities sum to {total}"
                    );
                    let k = dice.weighted(outcomes.iter().map(|o| o.1));
                    st = game.apply_chance(&st, outcomes[k].0);
                }
                let broken = game.broken_invariants(&st).expect("invariants evaluate");
                assert!(
                    broken.is_empty(),
                    "{name} game {i} ply {}: invariant(s) broken: {broken:?}",
                    st.ply
                );
                steps += 1;
                assert!(steps < 1_000_000, "{name} game {i} does not end");
            }
            plies += steps;
            if matches!(
                st.result,
                Some(keliya_engine::Outcome {
                    reason: keliya_engine::Reason::Cap(_),
                    ..
                })
            ) {
                capped += 1;
            }
        }
        eprintln!("{name}: {played} random games ended, {capped} by a cap");
    }
}

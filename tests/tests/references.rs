//! The hand-written references of `tests/benches/reference/` play by the rules of their rulesets: over the
//! same number of random games, their mean game length and win rates agree with the interpreter's within
//! statistical noise. (Games differ one by one: move order and dice draws differ.) A reference that broke
//! a rule would show as a gap here, and its speed ratio in `cargo bench` would mean nothing.

use keliya_play::{Dice, play_random_game};
use keliya_tests::compile;

#[path = "../benches/reference/bits.rs"]
mod bits;
#[path = "../benches/reference/demala_23.rs"]
mod demala_23;
#[path = "../benches/reference/hat.rs"]
mod hat;
#[path = "../benches/reference/hunt.rs"]
mod hunt;
#[path = "../benches/reference/pancha.rs"]
mod pancha;
#[path = "../benches/reference/parker.rs"]
mod parker;
#[path = "../benches/reference/raja_pasu.rs"]
mod raja_pasu;

/// Mean and standard error of the mean.
fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

fn agree(ruleset: &str, games: u64, reference: fn(u64) -> (u32, Option<u8>)) {
    let c = compile(ruleset);
    let game = c.game();
    let players = game.players.len();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut our_wins, mut their_wins) = (vec![0.0; players + 1], vec![0.0; players + 1]);
    for i in 0..games {
        let (summary, _) = play_random_game(game, Dice::game_seed(7, i)).expect("rules run");
        ours.push(summary.plies as f64);
        our_wins[summary.winner.map_or(players, |w| w as usize)] += 1.0;
        let (plies, winner) = reference(Dice::game_seed(8, i));
        theirs.push(plies as f64);
        their_wins[winner.map_or(players, |w| w as usize)] += 1.0;
    }
    let ((a, sa), (b, sb)) = (mean_se(&ours), mean_se(&theirs));
    let gap = (a - b).abs() / (sa * sa + sb * sb).sqrt();
    assert!(
        gap < 4.0,
        "{ruleset}: mean plies {a:.2} (interpreter) vs {b:.2} (reference), {gap:.1} standard errors apart"
    );
    let n = games as f64;
    for (k, (x, y)) in our_wins.iter().zip(&their_wins).enumerate() {
        let (p, q) = (x / n, y / n);
        let se = ((p * (1.0 - p) + q * (1.0 - q)) / n).sqrt().max(1e-9);
        assert!(
            (p - q).abs() / se < 4.0,
            "{ruleset}: outcome {k} (a player, or the last for draws) in {p:.3} vs {q:.3} of games"
        );
    }
}

#[test]
fn the_hunt_reference_plays_hat_diviyan_keliya_by_its_ruleset() {
    agree("hat-diviyan-keliya", 4000, hat::playout);
}

#[test]
fn the_hunt_reference_plays_the_23_point_demala_diviyan_keliya_by_its_ruleset() {
    agree(
        "demala-diviyan-keliya/pulijudam-23",
        2000,
        demala_23::playout,
    );
}

#[test]
fn the_race_reference_plays_pancha_keliya_by_its_ruleset() {
    agree("pancha-keliya", 1000, pancha::playout);
}

#[test]
fn the_race_reference_plays_parkers_pancha_keliya_by_its_ruleset() {
    agree("pancha-keliya/parker-1909", 3000, parker::playout);
}

#[test]
fn the_sowing_reference_plays_raja_pasu_by_its_ruleset() {
    agree("raja-pasu", 400, raja_pasu::playout);
}

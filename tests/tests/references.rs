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

/// The Pancha Keliya reference's pawns in a position of the interpreter: per team, each pawn's route
/// position (0 waiting, 1-60 the squares, 51 for one on R0 after its lap, 61 the throne, 0xff off the board).
fn pancha_pawns(game: &keliya_engine::Game, st: &keliya_engine::State) -> [[u8; 3]; 2] {
    let ring = |k: u32| format!("R{k}");
    let mut pawns = [[0u8; 3]; 2];
    for (team, (pawn, lapped, wait, reserve, bar, own)) in [
        ("a_pawn", "a_lapped", "WA", "HA", [0, 1, 2, 3, 4], 'A'),
        ("b_pawn", "b_lapped", "WB", "HB", [10, 9, 8, 7, 6], 'B'),
    ]
    .into_iter()
    .enumerate()
    {
        // The route's squares by position; R0 is position 11 for a pawn, 51 for a lapped one.
        let mut route: Vec<(String, u8)> = vec![(wait.into(), 0)];
        route.extend(
            bar.iter()
                .enumerate()
                .map(|(i, t)| (format!("T{t}"), i as u8 + 1)),
        );
        route.push(("T5".into(), 6));
        route.extend((1..=4).map(|k| (format!("S{k}"), k as u8 + 6)));
        route.push(("R0".into(), 11));
        route.extend((1..=39).map(|k| {
            let square = if team == 0 { ring(k) } else { ring(40 - k) };
            (square, k as u8 + 11)
        }));
        route.extend((1..=5).map(|k| (format!("C{k}"), k as u8 + 51)));
        route.extend((1..=4).map(|k| (format!("{own}{k}"), k as u8 + 56)));
        route.push(("GY".into(), 61));
        let count = |site: &str, kind: &str| {
            let s = game.board.site(site).expect("a site of the board");
            st.count(game, s, game.piece(kind).expect("a piece of the ruleset"))
        };
        let mut at = Vec::new();
        for (square, position) in &route {
            at.extend(std::iter::repeat_n(*position, count(square, pawn).into()));
        }
        at.extend(std::iter::repeat_n(51, count("R0", lapped).into()));
        at.extend(std::iter::repeat_n(0xff, count(reserve, pawn).into()));
        assert_eq!(at.len(), 3, "three pawns a team");
        pawns[team].copy_from_slice(&at);
    }
    pawns
}

/// Position by position, the Pancha Keliya reference lists as many moves as the interpreter: every throw
/// of 200 random games of the interpreter (a pass where there is none), so the reference draws its
/// moves from the same set, not only with the same mean game length.
#[test]
fn the_race_reference_lists_as_many_pancha_keliya_moves_as_the_interpreter() {
    let c = compile("pancha-keliya");
    let game = c.game();
    for seed in 0..200 {
        let mut dice = Dice::new(seed);
        let mut st = game.initial_state();
        while st.result.is_none() {
            let outcomes = game.chance_outcomes(&st);
            if !outcomes.is_empty() {
                let i = dice.weighted(outcomes.iter().map(|o| o.1));
                st = game.apply_chance(&st, outcomes[i].0);
                continue;
            }
            let moves = game.legal_moves(&st).expect("rules run");
            let up = st.throw.expect("a throw is made before each move") as usize;
            let pawns = pancha_pawns(game, &st);
            let theirs = pancha::legal_moves(pawns, st.to_move as usize, up);
            assert_eq!(
                moves.len(),
                theirs.max(1),
                "game {seed}, ply {}: {up} mouths up, pawns {pawns:?}, player {} to move",
                st.ply,
                st.to_move
            );
            st = game
                .apply(&st, &moves[dice.below(moves.len())])
                .expect("legal");
        }
    }
}

/// Position by position, a hunt reference lists as many moves as the interpreter: every position of 300
/// random games of the interpreter (a pass where there is none). `points` names the board's points in
/// the reference's order.
fn hunt_moves_agree(ruleset: &str, points: &[&str], reference: &hunt::Game) {
    let c = compile(ruleset);
    let game = c.game();
    let kind = |name: &str| game.piece(name).expect("a piece of the ruleset");
    let site = |name: &str| game.board.site(name).expect("a site of the board");
    let (hunter, prey) = (kind("hunter"), kind("prey"));
    for seed in 0..300 {
        let mut dice = Dice::new(seed);
        let mut st = game.initial_state();
        while st.result.is_none() {
            let set = |piece| {
                (points.iter().enumerate())
                    .filter(|(_, p)| st.count(game, site(p), piece) > 0)
                    .fold(0u32, |m, (i, _)| m | 1 << i)
            };
            let waiting = (
                u32::from(st.count(game, site("hunter-hand"), hunter)),
                u32::from(st.count(game, site("prey-hand"), prey)),
            );
            let moves = game.legal_moves(&st).expect("rules run");
            let theirs = hunt::legal_moves(
                reference,
                (set(hunter), set(prey)),
                waiting,
                st.to_move == 0,
            );
            assert_eq!(
                moves.len(),
                (theirs as usize).max(1),
                "{ruleset} game {seed}, ply {}",
                st.ply
            );
            st = game
                .apply(&st, &moves[dice.below(moves.len())])
                .expect("legal");
        }
    }
}

#[test]
fn the_hunt_reference_lists_as_many_hat_diviyan_keliya_moves_as_the_interpreter() {
    let points = ["A", "L1", "M1", "R1", "L2", "M2", "R2", "L3", "M3", "R3"];
    hunt_moves_agree("hat-diviyan-keliya", &points, &hat::HAT);
}

#[test]
fn the_hunt_reference_lists_as_many_23_point_demala_moves_as_the_interpreter() {
    let mut points = vec!["1A".to_string()];
    for row in 2..=4 {
        points.extend(["A", "B", "C", "D", "E", "F"].map(|c| format!("{row}{c}")));
    }
    points.extend(["A", "B", "C", "D"].map(|c| format!("5{c}")));
    let points: Vec<&str> = points.iter().map(String::as_str).collect();
    hunt_moves_agree(
        "demala-diviyan-keliya/pulijudam-23",
        &points,
        &demala_23::DEMALA_23,
    );
}

//! `cargo bench -p keliya-tests`: the hot paths of the interpreter per family (legal moves, apply, a whole
//! random playout), and a hand-written reference of one game so the interpreter's cost is a measured ratio.
//!
//! Each figure is the median of several timed rounds; compare ratios measured in one run (shared machines
//! drift). The reference shares no code with the engine and plays by the same rules as the ruleset.

use std::hint::black_box;
use std::time::Instant;

use keliya_play::{Dice, play_random_game};
use keliya_tests::compile;

const ROUNDS: usize = 7;

/// Median over rounds of the time per call, in nanoseconds.
fn median_ns(calls_per_round: u64, mut round: impl FnMut(u64)) -> f64 {
    let mut times: Vec<f64> = (0..ROUNDS)
        .map(|r| {
            let start = Instant::now();
            round(r as u64);
            start.elapsed().as_nanos() as f64 / calls_per_round as f64
        })
        .collect();
    times.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    times[ROUNDS / 2]
}

fn bench_ruleset(name: &str, playouts: u64) -> f64 {
    let c = compile(name);
    let game = c.game();
    // A mid-game position: play a few random moves from the start.
    let mut st = game.initial_state();
    let mut dice = Dice::new(5);
    for _ in 0..6 {
        if st.result.is_some() {
            break;
        }
        let outcomes = game.chance_outcomes(&st);
        if !outcomes.is_empty() {
            st = game.apply_chance(&st, outcomes[dice.below(outcomes.len())].0);
            continue;
        }
        let moves = game.legal_moves(&st).expect("rules run");
        st = game
            .apply(&st, &moves[dice.below(moves.len())])
            .expect("legal");
    }
    if st.chance_due {
        st = game.apply_chance(&st, game.chance_outcomes(&st)[0].0);
    }
    let moves = game.legal_moves(&st).expect("rules run");
    let legal = median_ns(2000, |_| {
        for _ in 0..2000 {
            black_box(game.legal_moves(black_box(&st)).expect("rules run"));
        }
    });
    let apply = median_ns(2000, |_| {
        for i in 0..2000 {
            black_box(game.apply(&st, &moves[i % moves.len()]).expect("legal"));
        }
    });
    let playout = median_ns(playouts, |r| {
        for i in 0..playouts {
            black_box(play_random_game(game, r * 1_000_000 + i).expect("rules run"));
        }
    });
    println!(
        "{name:<32} legal_moves {legal:>9.0} ns   apply {apply:>8.0} ns   playout {:>9.1} us  ({:.0} playouts/s)",
        playout / 1000.0,
        1e9 / playout
    );
    playout
}

fn main() {
    // `cargo test --benches` runs this binary with `--bench`-less args; keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let playouts = if quick { 20 } else { 2000 };
    let hat = bench_ruleset("hat-diviyan-keliya", playouts);
    for name in [
        "hat-diviyan-keliya/large",
        "demala-diviyan-keliya",
        "demala-diviyan-keliya/pulijudam-23",
        "pancha-keliya",
        "kerala",
        "raja-pasu",
    ] {
        if keliya_tests::root()
            .join("rulesets")
            .join(format!("{name}.yaml"))
            .is_file()
        {
            bench_ruleset(name, playouts / 4);
        }
    }
    let reference = median_ns(playouts * 10, |r| {
        for i in 0..playouts * 10 {
            black_box(reference::hat_playout(r * 1_000_000 + i));
        }
    });
    println!(
        "{:<32} hand-written reference      playout {:>9.1} us  ({:.0} playouts/s); interpreter at {:.1}% of it",
        "hat-diviyan-keliya",
        reference / 1000.0,
        1e9 / reference,
        100.0 * reference / hat
    );
}

/// Hat diviyan keliya written by hand with bit sets: the same rules as rulesets/hat-diviyan-keliya.yaml
/// (free tiger placement, leopard drops then steps, short leaps along lines, 4 captures, trapped tiger,
/// threefold repetition, 100 quiet turns, 1000 turns), random moves.
mod reference {
    use keliya_play::Dice;

    // Points: A=0, L1=1, M1=2, R1=3, L2=4, M2=5, R2=6, L3=7, M3=8, R3=9.
    const EDGES: [(usize, usize); 15] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 4),
        (2, 3),
        (2, 5),
        (3, 6),
        (4, 5),
        (4, 7),
        (5, 6),
        (5, 8),
        (6, 9),
        (7, 8),
        (8, 9),
    ];
    const LINES: [&[usize]; 6] = [
        &[0, 1, 4, 7],
        &[0, 2, 5, 8],
        &[0, 3, 6, 9],
        &[1, 2, 3],
        &[4, 5, 6],
        &[7, 8, 9],
    ];

    struct Tables {
        neighbours: [u16; 10],
        leaps: Vec<Vec<(usize, usize)>>,
    }

    fn tables() -> Tables {
        let mut neighbours = [0u16; 10];
        for (a, b) in EDGES {
            neighbours[a] |= 1 << b;
            neighbours[b] |= 1 << a;
        }
        let mut leaps = vec![Vec::new(); 10];
        for line in LINES {
            for w in line.windows(3) {
                leaps[w[0]].push((w[1], w[2]));
                leaps[w[2]].push((w[1], w[0]));
            }
        }
        Tables { neighbours, leaps }
    }

    #[derive(Clone, Copy)]
    enum Mv {
        Drop(usize),
        Step(usize, usize),
        Leap(usize, usize),
    }

    pub fn hat_playout(seed: u64) -> u32 {
        thread_local!(static T: Tables = tables());
        T.with(|t| play(t, seed))
    }

    fn play(t: &Tables, seed: u64) -> u32 {
        let mut dice = Dice::new(seed);
        let (mut tiger, mut leopards): (Option<usize>, u16) = (None, 0);
        let (mut in_hand, mut captures, mut turn, mut quiet) = (7u32, 0u32, 0u32, 0u32);
        let mut tiger_to_move = true;
        let mut history: Vec<u32> = Vec::new();
        let mut moves: Vec<Mv> = Vec::with_capacity(16);
        let mut plies = 0;
        loop {
            // Ends, then caps, as the ruleset checks them before each turn.
            moves.clear();
            let occupied = leopards | tiger.map_or(0, |p| 1 << p);
            if tiger_to_move {
                match tiger {
                    None => (0..10).for_each(|p| moves.push(Mv::Drop(p))),
                    Some(p) => {
                        for q in 0..10 {
                            if t.neighbours[p] >> q & 1 == 1 && occupied >> q & 1 == 0 {
                                moves.push(Mv::Step(p, q));
                            }
                        }
                        for &(o, l) in &t.leaps[p] {
                            if leopards >> o & 1 == 1 && occupied >> l & 1 == 0 {
                                moves.push(Mv::Leap(o, l));
                            }
                        }
                    }
                }
                if moves.is_empty() {
                    return plies; // the leopards win
                }
            }
            if captures >= 4 || turn >= 1000 || quiet >= 100 {
                return plies;
            }
            let key =
                (leopards as u32) << 8 | tiger.map_or(15, |p| p as u32) << 1 | tiger_to_move as u32;
            let key = key ^ in_hand << 24 ^ captures << 28;
            if history.iter().filter(|&&h| h == key).count() >= 2 {
                return plies;
            }
            history.push(key);
            if !tiger_to_move {
                if in_hand > 0 {
                    (0..10)
                        .filter(|q| occupied >> q & 1 == 0)
                        .for_each(|q| moves.push(Mv::Drop(q)));
                } else {
                    for p in (0..10).filter(|p| leopards >> p & 1 == 1) {
                        for q in 0..10 {
                            if t.neighbours[p] >> q & 1 == 1 && occupied >> q & 1 == 0 {
                                moves.push(Mv::Step(p, q));
                            }
                        }
                    }
                }
            }
            if moves.is_empty() {
                tiger_to_move = !tiger_to_move; // the leopards pass
                turn += 1;
                quiet += 1;
                plies += 1;
                continue;
            }
            match moves[dice.below(moves.len())] {
                Mv::Drop(q) if tiger_to_move => tiger = Some(q),
                Mv::Drop(q) => {
                    leopards |= 1 << q;
                    in_hand -= 1;
                }
                Mv::Step(p, q) if tiger_to_move => {
                    let _ = p;
                    tiger = Some(q)
                }
                Mv::Step(p, q) => leopards = leopards & !(1 << p) | 1 << q,
                Mv::Leap(o, l) => {
                    leopards &= !(1 << o);
                    tiger = Some(l);
                    captures += 1;
                    quiet = 0;
                    history.clear();
                }
            }
            if !matches!(moves.first(), Some(Mv::Leap(..))) {
                quiet += 1;
            }
            tiger_to_move = !tiger_to_move;
            turn += 1;
            plies += 1;
        }
    }
}

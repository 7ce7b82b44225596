//! `cargo bench -p keliya-tests`: the hot paths of the interpreter per family (legal moves, apply, a whole
//! random playout), and a hand-written reference of one game per family (`reference/`) so the
//! interpreter's cost is a measured ratio.
//!
//! Each figure is the median of several timed rounds; compare ratios measured in one run (shared machines
//! drift). The interpreter's share of a reference is taken round by round, each round timing both. The reference shares no code with the engine and plays by the same rules as the ruleset.

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

fn bench_ruleset(name: &str, playouts: u64) {
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
}

/// A hand-written reference: the ruleset it follows, its playout function, and playouts per round of the
/// interpreter and of the reference (about a fifth of a second each on a 2-vCPU machine).
struct Reference {
    ruleset: &'static str,
    playout: fn(u64) -> (u32, Option<u8>),
    ours: u64,
    theirs: u64,
}

const REFERENCES: &[Reference] = &[
    Reference {
        ruleset: "hat-diviyan-keliya",
        playout: hat::playout,
        ours: 10_000,
        theirs: 200_000,
    },
    Reference {
        ruleset: "demala-diviyan-keliya/pulijudam-23",
        playout: demala_23::playout,
        ours: 2_000,
        theirs: 50_000,
    },
    Reference {
        ruleset: "pancha-keliya",
        playout: pancha::playout,
        ours: 250,
        theirs: 50_000,
    },
    Reference {
        ruleset: "pancha-keliya/parker-1909",
        playout: parker::playout,
        ours: 4_000,
        theirs: 40_000,
    },
    Reference {
        ruleset: "raja-pasu",
        playout: raja_pasu::playout,
        ours: 100,
        theirs: 4_000,
    },
];

fn main() {
    // `cargo bench -p keliya-tests -- alone RULESET [BATCHES]`: that ruleset's reference alone, 20 (or
    // BATCHES, which may be a fraction) of its batches, for a profiler (`perf record`, `valgrind --tool=callgrind`) to see it without the interpreter.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "alone") {
        let name = args.get(i + 1).map_or("", String::as_str);
        let Some(r) = REFERENCES.iter().find(|r| r.ruleset == name) else {
            eprintln!("no reference for `{name}`");
            return;
        };
        let batches: f64 = args.get(i + 2).and_then(|b| b.parse().ok()).unwrap_or(20.0);
        let n = (batches * r.theirs as f64) as u64;
        let start = Instant::now();
        let mut plies = 0u64;
        for i in 0..n {
            plies += u64::from((r.playout)(i).0);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {n} playouts in {secs:.2} s ({:.0} playouts/s, {:.1} plies each)",
            n as f64 / secs,
            plies as f64 / n as f64
        );
        return;
    }
    // `cargo test --benches` runs this binary with `--bench`-less args; keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let playouts = if quick { 20 } else { 2000 };
    // `cargo bench -p keliya-tests -- references` times only the references against the interpreter.
    let only_references = std::env::args().any(|a| a == "references");
    for name in [
        "hat-diviyan-keliya",
        "hat-diviyan-keliya/large",
        "demala-diviyan-keliya",
        "demala-diviyan-keliya/pulijudam-23",
        "pancha-keliya",
        "pancha-keliya/parker-1909",
        "kerala",
        "raja-pasu",
    ] {
        if only_references {
            break;
        }
        let per_game = playouts / if name == "hat-diviyan-keliya" { 1 } else { 4 };
        bench_ruleset(name, per_game.max(2));
    }
    println!(
        "{:<36} {:>13} {:>13} {:>7}  rounds",
        "hand-written reference", "interpreter/s", "reference/s", "ratio"
    );
    for r in REFERENCES {
        let (ours_n, theirs_n) = if quick { (2, 20) } else { (r.ours, r.theirs) };
        let share = interleaved_share(r, ours_n, theirs_n);
        println!(
            "{:<36} {:>13.0} {:>13.0} {:>6.1}%  {:.1}-{:.1}%",
            r.ruleset,
            1e9 / share.ours_ns,
            1e9 / share.reference_ns,
            share.median,
            share.lowest,
            share.highest
        );
    }
}

#[path = "reference/bits.rs"]
mod bits;
#[path = "reference/demala_23.rs"]
mod demala_23;
#[path = "reference/hat.rs"]
mod hat;
#[path = "reference/hunt.rs"]
mod hunt;
#[path = "reference/pancha.rs"]
mod pancha;
#[path = "reference/parker.rs"]
mod parker;
#[path = "reference/raja_pasu.rs"]
mod raja_pasu;

/// The interpreter's speed as a percentage of a reference's, over [`ROUNDS`] rounds.
struct Share {
    median: f64,
    lowest: f64,
    highest: f64,
    /// The median times per playout of the interpreter and of the reference.
    ours_ns: f64,
    reference_ns: f64,
}

/// Each round times a batch of the interpreter's playouts and then a batch of the reference's, and
/// takes their ratio: a slow spell of a shared machine then weighs on both sides of a round's ratio
/// instead of on one side's median alone.
fn interleaved_share(r: &Reference, ours_n: u64, reference_n: u64) -> Share {
    let c = compile(r.ruleset);
    let game = c.game();
    let time_per_call = |n: u64, mut batch: Box<dyn FnMut() + '_>| {
        let start = Instant::now();
        batch();
        start.elapsed().as_nanos() as f64 / n as f64
    };
    let mut shares = Vec::with_capacity(ROUNDS);
    let mut reference_times = Vec::with_capacity(ROUNDS);
    let mut our_times = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS as u64 {
        let ours = time_per_call(
            ours_n,
            Box::new(|| {
                for i in 0..ours_n {
                    black_box(play_random_game(game, round * 1_000_000 + i).expect("rules run"));
                }
            }),
        );
        let reference = time_per_call(
            reference_n,
            Box::new(|| {
                for i in 0..reference_n {
                    black_box((r.playout)(round * 1_000_000 + i));
                }
            }),
        );
        shares.push(100.0 * reference / ours);
        reference_times.push(reference);
        our_times.push(ours);
    }
    our_times.sort_by(f64::total_cmp);
    shares.sort_by(f64::total_cmp);
    reference_times.sort_by(f64::total_cmp);
    Share {
        median: shares[ROUNDS / 2],
        lowest: shares[0],
        highest: shares[ROUNDS - 1],
        ours_ns: our_times[ROUNDS / 2],
        reference_ns: reference_times[ROUNDS / 2],
    }
}

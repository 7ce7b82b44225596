//! The behavioural diff: both rulesets played with the same agents and seeds, and their results compared
//! with 95% intervals and significance tests.

use keliya_engine::Game;
use keliya_play::simulate::{simulate_records, wilson};
use keliya_play::{GameSummary, RunError, SimulationStats};
use serde_json::{Value, json};

use crate::stats::{self, ALPHA};

#[derive(Clone, Debug, PartialEq)]
pub struct SimOptions {
    /// Games of each ruleset.
    pub games: u64,
    /// Master seed: game i of either ruleset is seeded from (seed, i).
    pub seed: u64,
    /// Agent specs per seat (`random`, `greedy`, `mcts:...`); empty means random for every seat.
    pub agents: Vec<String>,
    pub threads: usize,
}

/// One of the two rulesets compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    A,
    B,
}

/// Why [`simulate`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimulateError {
    /// The options cannot make a simulation.
    Options(String),
    /// The games of one ruleset could not be played: an agent that does not parse, or a rule that failed.
    Run {
        which: Which,
        ruleset: String,
        error: RunError,
    },
}

impl std::fmt::Display for SimulateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimulateError::Options(message) => f.write_str(message),
            SimulateError::Run { ruleset, error, .. } => write!(f, "{ruleset}: {error}"),
        }
    }
}

impl std::error::Error for SimulateError {}

/// One ruleset's games.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub ruleset: String,
    /// The sides results are counted by (`Game::sides`: players, or teams), as `stats.wins`.
    pub sides: Vec<String>,
    /// The side of the first player in turn order.
    pub first: String,
    pub agents: Vec<String>,
    pub summaries: Vec<GameSummary>,
    pub stats: SimulationStats,
}

/// One side's value of a metric: a rate (with `count` of `games` and a Wilson interval) or a number.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub value: f64,
    pub count: Option<u64>,
    pub ci95: Option<(f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    /// `two-proportion z-test` or `Welch's t-test`.
    pub name: &'static str,
    pub statistic: f64,
    pub df: Option<f64>,
    pub p_value: f64,
}

/// One metric of both runs, and whether they differ significantly (at the 5% level).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Stable key for scripts: `win_rate.<player>`, `draw_rate`, `first_player_win_rate`, `capped_rate`,
    /// `mean_plies`, `median_plies`, `captures_per_game`.
    pub key: String,
    /// In words, for the table.
    pub label: String,
    /// A rate (shown as a percentage) rather than a count or length.
    pub rate: bool,
    pub a: Option<Figure>,
    pub b: Option<Figure>,
    /// `None` when there is nothing to test (a median, or a metric one side lacks).
    pub test: Option<Test>,
    pub significant: bool,
}

impl Comparison {
    /// b - a, when both sides have the metric.
    pub fn difference(&self) -> Option<f64> {
        Some(self.b.as_ref()?.value - self.a.as_ref()?.value)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    pub options: SimOptions,
    pub a: Run,
    pub b: Run,
    pub comparisons: Vec<Comparison>,
    pub notes: Vec<String>,
}

/// Plays `options.games` games of each ruleset (game i of both seeded alike) and compares the results.
/// `progress` is called as each game finishes, from worker threads.
pub fn simulate(
    a: (&str, &Game),
    b: (&str, &Game),
    options: &SimOptions,
    progress: &(dyn Fn() + Sync),
) -> Result<Simulation, SimulateError> {
    if options.games == 0 {
        return Err(SimulateError::Options(
            "a simulation needs at least one game".into(),
        ));
    }
    let run = |(name, game): (&str, &Game), which: Which| -> Result<Run, SimulateError> {
        let records = simulate_records(
            game,
            options.games,
            options.seed,
            &options.agents,
            options.threads,
            keliya_play::simulate::Detail::default(),
            progress,
        )
        .map_err(|error| SimulateError::Run {
            which,
            ruleset: name.to_string(),
            error,
        })?;
        let agents = records
            .first()
            .map(|r| r.agents.clone())
            .unwrap_or_else(|| options.agents.clone());
        let summaries: Vec<GameSummary> = records.into_iter().map(|r| r.summary).collect();
        Ok(run_of(name, game, options.seed, agents, summaries))
    };
    let (ra, rb) = (run(a, Which::A)?, run(b, Which::B)?);
    Ok(compare_runs(options, ra, rb))
}

/// One ruleset's run from its games' summaries (in game order) and the agents that played them.
pub fn run_of(
    name: &str,
    game: &Game,
    seed: u64,
    agents: Vec<String>,
    summaries: Vec<GameSummary>,
) -> Run {
    let sides = game.sides();
    let stats = SimulationStats::from_summaries(&summaries, seed, &sides);
    Run {
        ruleset: name.to_string(),
        sides: sides.iter().map(|s| s.name.clone()).collect(),
        first: game
            .turn_order
            .first()
            .and_then(|p| sides.iter().find(|s| s.players.contains(p)))
            .map(|s| s.name.clone())
            .unwrap_or_default(),
        agents,
        summaries,
        stats,
    }
}

/// The comparison of two runs of the same games (game i of both seeded alike): what [`simulate`]
/// returns, for runs played elsewhere (in shards, say) and put together.
pub fn compare_runs(options: &SimOptions, ra: Run, rb: Run) -> Simulation {
    let mut notes = Vec::new();
    if ra.sides != rb.sides {
        notes.push(format!(
            "the sides differ ({} and {}): win rates are compared for sides (players, or teams) of the same \
             name; the first player's win rate, draws, capped games, length and captures for any pair",
            ra.sides.join(", "),
            rb.sides.join(", ")
        ));
    }
    let comparisons = compare(&ra, &rb);
    Simulation {
        options: options.clone(),
        a: ra,
        b: rb,
        comparisons,
        notes,
    }
}

fn rate(k: u64, n: u64) -> Figure {
    Figure {
        value: k as f64 / n.max(1) as f64,
        count: Some(k),
        ci95: Some(wilson(k, n)),
    }
}

fn rate_comparison(
    key: String,
    label: String,
    a: Option<(u64, u64)>,
    b: Option<(u64, u64)>,
) -> Comparison {
    let test = match (a, b) {
        (Some((k1, n1)), Some((k2, n2))) => stats::two_proportion_z(k1, n1, k2, n2).map(|o| Test {
            name: "two-proportion z-test",
            statistic: o.statistic,
            df: None,
            p_value: o.p_value,
        }),
        _ => None,
    };
    Comparison {
        key,
        label,
        rate: true,
        a: a.map(|(k, n)| rate(k, n)),
        b: b.map(|(k, n)| rate(k, n)),
        significant: test.as_ref().is_some_and(|t| t.p_value < ALPHA),
        test,
    }
}

fn mean_comparison(key: &str, label: &str, a: &[f64], b: &[f64]) -> Comparison {
    let test = stats::welch_t(a, b).map(|o| Test {
        name: "Welch's t-test",
        statistic: o.statistic,
        df: o.df,
        p_value: o.p_value,
    });
    let fig = |x: &[f64]| Figure {
        value: stats::mean_var(x).0,
        count: None,
        ci95: None,
    };
    Comparison {
        key: key.into(),
        label: label.into(),
        rate: false,
        a: Some(fig(a)),
        b: Some(fig(b)),
        significant: test.as_ref().is_some_and(|t| t.p_value < ALPHA),
        test,
    }
}

fn compare(a: &Run, b: &Run) -> Vec<Comparison> {
    let (na, nb) = (a.stats.games, b.stats.games);
    let mut out = Vec::new();
    let mut sides = a.sides.clone();
    for p in &b.sides {
        if !sides.contains(p) {
            sides.push(p.clone());
        }
    }
    let wins = |r: &Run, p: &str| {
        r.sides
            .iter()
            .position(|q| q == p)
            .map(|i| (r.stats.wins[i], r.stats.games))
    };
    for p in &sides {
        out.push(rate_comparison(
            format!("win_rate.{p}"),
            format!("{p} wins"),
            wins(a, p),
            wins(b, p),
        ));
    }
    out.push(rate_comparison(
        "draw_rate".into(),
        "draws".into(),
        Some((a.stats.draws, na)),
        Some((b.stats.draws, nb)),
    ));
    let label = if a.first == b.first {
        format!("first player ({}) wins", a.first)
    } else {
        format!("first player ({} / {}) wins", a.first, b.first)
    };
    out.push(rate_comparison(
        "first_player_win_rate".into(),
        label,
        wins(a, &a.first),
        wins(b, &b.first),
    ));
    out.push(rate_comparison(
        "capped_rate".into(),
        "capped games".into(),
        Some((a.stats.capped, na)),
        Some((b.stats.capped, nb)),
    ));
    let plies = |r: &Run| -> Vec<f64> { r.summaries.iter().map(|s| s.plies as f64).collect() };
    let captures =
        |r: &Run| -> Vec<f64> { r.summaries.iter().map(|s| s.captures as f64).collect() };
    out.push(mean_comparison(
        "mean_plies",
        "mean length (plies)",
        &plies(a),
        &plies(b),
    ));
    let median = |r: &Run| Figure {
        value: r.stats.plies_quantile(0.5) as f64,
        count: None,
        ci95: None,
    };
    out.push(Comparison {
        key: "median_plies".into(),
        label: "median length (plies)".into(),
        rate: false,
        a: Some(median(a)),
        b: Some(median(b)),
        test: None,
        significant: false,
    });
    out.push(mean_comparison(
        "captures_per_game",
        "captures per game",
        &captures(a),
        &captures(b),
    ));
    out
}

impl Simulation {
    /// The comparisons whose difference is significant at the 5% level.
    pub fn significant(&self) -> Vec<&Comparison> {
        self.comparisons.iter().filter(|c| c.significant).collect()
    }

    /// Deterministic for a seed: no timings. Each side's figures use the field names of
    /// `keliya simulate --json`.
    pub fn to_json(&self) -> Value {
        json!({
            "games": self.options.games,
            "seed": self.options.seed,
            "agents": self.a.agents,
            "alpha": ALPHA,
            "a": run_json(&self.a),
            "b": run_json(&self.b),
            "comparisons": self.comparisons.iter().map(comparison_json).collect::<Vec<_>>(),
            "significant": self.significant().iter().map(|c| c.key.clone()).collect::<Vec<_>>(),
            "notes": self.notes,
        })
    }
}

fn run_json(r: &Run) -> Value {
    // A run's statistics as `simulate --json` gives them, named by ruleset and first player; the seed
    // is the simulation's, given once above.
    let mut v = keliya_play::report::stats_json(&r.stats, &r.sides);
    if let Some(fields) = v.as_object_mut() {
        fields.remove("seed");
    }
    v["ruleset"] = json!(r.ruleset);
    v["first_player"] = json!(r.first);
    v
}

fn comparison_json(c: &Comparison) -> Value {
    let fig = |f: &Option<Figure>| match f {
        None => Value::Null,
        Some(f) => {
            let mut v = json!({"value": f.value});
            if let Some(k) = f.count {
                v["count"] = json!(k);
            }
            if let Some((lo, hi)) = f.ci95 {
                v["ci95"] = json!([lo, hi]);
            }
            v
        }
    };
    json!({
        "key": c.key,
        "label": c.label,
        "a": fig(&c.a),
        "b": fig(&c.b),
        "difference": c.difference(),
        "test": c.test.as_ref().map(|t| json!({
            "name": t.name,
            "statistic": if t.statistic.is_finite() { json!(t.statistic) } else { Value::Null },
            "df": t.df,
            "p_value": t.p_value,
        })),
        "significant": c.significant,
    })
}

//! End-to-end tests of the `keliya` binary, run from the repository root so bundled names resolve.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn keliya(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn keliya_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("input is taken");
    child.wait_with_output().expect("the binary ends")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("keliya-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn records_are_byte_identical_for_any_thread_count_and_replay() {
    let (a, b) = (temp("a.jsonl"), temp("b.jsonl"));
    for (threads, path) in [("1", &a), ("2", &b)] {
        let o = keliya(&[
            "simulate",
            "hat-diviyan-keliya",
            "--games",
            "40",
            "--seed",
            "9",
            "--threads",
            threads,
            "--record",
            path.to_str().expect("utf-8 path"),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let (text_a, text_b) = (
        std::fs::read(&a).expect("written"),
        std::fs::read(&b).expect("written"),
    );
    assert_eq!(text_a, text_b, "records differ between 1 and 2 threads");
    assert_eq!(String::from_utf8_lossy(&text_a).lines().count(), 40);
    let o = keliya(&["replay", a.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("40 game(s) replayed"));

    // Remove one move from game 3: replay refuses it, naming the game.
    let text = String::from_utf8(text_a).expect("utf-8");
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let moves = lines[3]["moves"].as_array_mut().expect("moves");
    moves.remove(2);
    let tampered = temp("tampered.jsonl");
    let body: Vec<String> = lines.iter().map(|v| v.to_string()).collect();
    std::fs::write(&tampered, body.join("\n") + "\n").expect("written");
    let o = keliya(&["replay", tampered.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("game 3"), "{err}");

    // A record made with other rules (another hash) is refused.
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    lines[0]["ruleset_hash"] = serde_json::json!("0000000000000000");
    let foreign = temp("foreign.jsonl");
    std::fs::write(
        &foreign,
        lines
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .expect("written");
    let o = keliya(&["replay", foreign.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("hash"));
}

#[test]
fn replay_prints_a_game_and_a_position() {
    let a = temp("one.jsonl");
    assert!(
        keliya(&[
            "simulate",
            "hat-diviyan-keliya",
            "--games",
            "2",
            "--seed",
            "4",
            "--record",
            a.to_str().expect("utf-8")
        ])
        .status
        .success()
    );
    let o = keliya(&["replay", a.to_str().expect("utf-8"), "--game", "1"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("    1. "), "{}", stdout(&o));
    let o = keliya(&[
        "replay",
        a.to_str().expect("utf-8"),
        "--game",
        "1",
        "--ply",
        "1",
    ]);
    assert!(
        stdout(&o).contains(":T"),
        "the tiger is on the board after one ply: {}",
        stdout(&o)
    );
}

#[test]
fn simulate_json_has_the_documented_fields_and_is_deterministic() {
    let run = || {
        keliya(&[
            "simulate",
            "hat-diviyan-keliya",
            "--games",
            "100",
            "--seed",
            "1",
            "--json",
        ])
    };
    let (a, b) = (run(), run());
    let parse =
        |o: &Output| -> serde_json::Value { serde_json::from_slice(&o.stdout).expect("json") };
    let (mut va, mut vb) = (parse(&a), parse(&b));
    for key in [
        "ruleset",
        "games",
        "seed",
        "wins",
        "draws",
        "capped",
        "mean_plies",
        "win_rates",
        "plies",
    ] {
        assert!(va.get(key).is_some(), "missing {key}");
    }
    let wins: u64 = va["wins"]
        .as_object()
        .expect("map")
        .values()
        .map(|v| v.as_u64().expect("n"))
        .sum();
    assert_eq!(wins + va["draws"].as_u64().expect("n"), 100);
    va.as_object_mut().expect("map").remove("games_per_sec");
    vb.as_object_mut().expect("map").remove("games_per_sec");
    assert_eq!(va, vb);
}

#[test]
fn simulate_counts_the_wins_of_a_ruleset_with_teams_by_team() {
    let args = [
        "simulate",
        "pancha-keliya/four-players",
        "--games",
        "40",
        "--seed",
        "2",
    ];
    let text = stdout(&keliya(&args));
    assert!(text.contains("  team_a (a, a2) wins"), "{text}");
    assert!(text.contains("  team_b (b, b2) wins"), "{text}");
    assert!(
        !text.contains("a2  "),
        "no line of a seat of its own: {text}"
    );
    let o = keliya(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let keys = |field: &str| -> Vec<String> {
        v[field].as_object().expect("map").keys().cloned().collect()
    };
    assert_eq!(keys("wins"), ["team_a", "team_b"]);
    assert_eq!(keys("win_rates"), ["team_a", "team_b"]);
    assert_eq!(v["teams"]["team_a"], serde_json::json!(["a", "a2"]));
    let wins = v["wins"]["team_a"].as_u64().unwrap() + v["wins"]["team_b"].as_u64().unwrap();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 40);
    let shown = stdout(&keliya(&["show", "pancha-keliya/four-players"]));
    assert!(
        shown.contains("  team_a: a, a2\n  team_b: b, b2\n"),
        "{shown}"
    );
    // A record names the winning team beside the seat the rules named, and `replay` says the team won.
    let record = temp("teams.jsonl");
    let record = record.to_str().unwrap();
    keliya(&[&args[..4], &["--seed", "2", "--record", record]].concat());
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(record)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let team = first["result"]["team"].as_str().expect("a team won");
    let seat = first["result"]["winner"].as_str().unwrap();
    assert_eq!(&team[5..], &seat[..1], "{first}");
    let replayed = stdout(&keliya(&["replay", record, "--game", "0"]));
    assert!(
        replayed.contains(&format!("result: {team} wins")),
        "{replayed}"
    );
    // Without teams there is no `teams` field.
    let o = keliya(&["simulate", "hat-diviyan-keliya", "--games", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(v.get("teams").is_none());
}

#[test]
fn mcts_leopards_beat_a_random_tiger_far_more_often_than_random_leopards() {
    let rate = |agents: &str| -> f64 {
        let o = keliya(&[
            "simulate",
            "hat-diviyan-keliya",
            "--games",
            "20",
            "--seed",
            "11",
            "--agents",
            agents,
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        v["win_rates"]["prey"]["rate"].as_f64().expect("rate")
    };
    let random = rate("random,random");
    let mcts = rate("random,mcts:iterations=150");
    assert!(
        mcts >= random + 0.20,
        "MCTS leopards {mcts:.2} v random leopards {random:.2}"
    );
}

#[test]
fn a_game_is_played_to_the_end_in_the_terminal() {
    // A new user: a wrong command, a wrong number, help, undo, then always the first listed move.
    let mut input = String::from("help\nbogus\n99\n1\nundo\n");
    input.push_str(&"1\n".repeat(200));
    let o = keliya_with_input(
        &[
            "play",
            "hat-diviyan-keliya",
            "--agents",
            "human,greedy",
            "--seed",
            "2",
        ],
        &input,
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("`bogus` is not a legal move or a command"),
        "{out}"
    );
    assert!(out.contains("No move 99"), "{out}");
    assert!(out.contains("Undone."), "{out}");
    assert!(out.contains("Game over"), "{out}");
}

#[test]
fn render_dot_has_one_statement_per_edge() {
    let o = keliya(&["render", "hat-diviyan-keliya", "--format", "dot"]);
    let out = stdout(&o);
    assert_eq!(out.matches(" -- ").count(), 15);
    let o = keliya(&["render", "hat-diviyan-keliya", "--format", "svg"]);
    assert!(stdout(&o).starts_with("<svg"));
}

#[test]
fn moves_and_apply_round_trip_through_a_state_file() {
    let o = keliya(&["apply", "hat-diviyan-keliya", "--move", "A"]);
    assert!(o.status.success());
    let state = temp("s1.json");
    std::fs::write(&state, &o.stdout).expect("written");
    let moves_of = |state: &std::path::Path| {
        let o = keliya(&[
            "moves",
            "hat-diviyan-keliya",
            "--state",
            state.to_str().expect("utf-8"),
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("json")
    };
    let v = moves_of(&state);
    assert_eq!(v["to_move"], "prey");
    assert_eq!(v["moves"].as_array().expect("list").len(), 9);
    let o = keliya(&[
        "apply",
        "hat-diviyan-keliya",
        "--state",
        state.to_str().expect("utf-8"),
        "--move",
        "A",
    ]);
    assert_eq!(o.status.code(), Some(1), "the apex is taken");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a legal move"));
    // A state file saved by an editor that puts a byte order mark first reads the same.
    let marked = temp("s1-bom.json");
    let mut text = "\u{feff}".as_bytes().to_vec();
    text.extend_from_slice(&std::fs::read(&state).expect("read"));
    std::fs::write(&marked, text).expect("written");
    assert_eq!(moves_of(&marked), v);
}

#[test]
fn a_bad_state_file_is_reported_at_the_line_and_column_of_the_value_at_fault() {
    // Each file is valid JSON with one value wrong; the error names the file, line and column.
    let cases = [
        (
            "{\n  \"to_move\": \"prey\",\n  \"sites\": {\"A\": {\"hunter\": 1}, \"Q9\": {\"prey\": 1}}\n}\n",
            ":3:33: unknown site `Q9`",
        ),
        (
            "{\n  \"sites\": {\n    \"A\": {\"hunter\": 1, \"goat\": 2}\n  }\n}\n",
            ":3:24: unknown piece `goat` on `A`",
        ),
        (
            "{\n  \"vars\": {\"captures\": {\"hunter\": 1, \"nobody\": 2}}\n}\n",
            ":2:38: unknown player `nobody`",
        ),
        (
            "{\"history\": [\"00ff\",\n  \"xyz\"]}",
            ":2:3: bad history entry `xyz`",
        ),
        (
            "{\"ply\": 1,\n \"result\": {\"winner\": \"prey\", \"reason\": \"stalemate\"}}",
            ":2:31: unknown result reason `stalemate`",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let state = temp(&format!("bad-state-{i}.json"));
        std::fs::write(&state, text).expect("written");
        let path = state.to_str().expect("utf-8");
        let o = keliya(&["moves", "hat-diviyan-keliya", "--state", path]);
        assert_eq!(o.status.code(), Some(1), "{text}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("{path}{expected}")), "{text}\n{err}");
    }
}

#[test]
fn closed_output_is_not_a_crash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(["list"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("ends");
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
}

#[test]
fn a_rule_failing_while_it_runs_is_reported_at_its_line() {
    let path = temp("fails-at-run-time.yaml");
    std::fs::write(
        &path,
        "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nrules:\n  hunter-drop:\n    do: |\n      choose to in sites() where empty(to) {\n        remove(prey, to)\n        move(hunter, hand(hunter), to)\n      }\n",
    )
    .expect("written");
    let p = path.to_str().expect("utf-8");
    assert!(
        keliya(&["validate", p]).status.success(),
        "valid as written"
    );
    let o = keliya(&["moves", p]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{p}:8:9: error: rule `hunter-drop`: no prey on A to remove"
        )),
        "{err}"
    );
    assert!(err.contains("^^^^"), "{err}");
}

#[test]
fn spending_a_throw_not_held_is_reported_at_the_spend() {
    let path = temp("spends-a-seven.yaml");
    std::fs::write(
        &path,
        "keliya: 1\ntitle: t\nextends: chaupar\nrules:\n  double:\n    when: held(throw) > 0\n    do: |\n      spend(throw + 1)\n",
    )
    .expect("written");
    let state = temp("a-double-of-sixes.json");
    std::fs::write(
        &state,
        r#"{"to_move": "a", "throw": "six", "held": ["six"], "sites": {"SM6": {"a_pawn": 1}}}"#,
    )
    .expect("written");
    let (p, st) = (
        path.to_str().expect("utf-8"),
        state.to_str().expect("utf-8"),
    );
    assert!(
        keliya(&["validate", p]).status.success(),
        "valid as written"
    );
    let o = keliya(&["moves", p, "--state", st]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{p}:8:7: error: rule `double`: no throw worth 7 is held to spend"
        )),
        "{err}"
    );
    assert!(err.contains("^^^^"), "{err}");
}

/// `simulate` and `diff --simulate` show a rule that fails in a game at its line, as `moves` does, and
/// name the first game it fails in whatever the threads, with the options that play it again.
#[test]
fn a_rule_failing_in_a_simulation_is_reported_at_its_line_with_its_game() {
    let path = temp("fails-late.yaml");
    // Fails only once a game reaches ply 30, which some games never do.
    std::fs::write(
        &path,
        "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nrules:\n  prey-step:\n    do: |\n      choose from in sites_with(prey) {\n        choose to in neighbours(from) where empty(to) {\n          move(prey, from, to)\n          assert(ply < 30)\n        }\n      }\n",
    )
    .expect("written");
    let p = path.to_str().expect("utf-8");
    let at_line =
        format!("{p}:10:11: error: rule `prey-step`: an `assert` of the rules does not hold");
    let mut first_game = None;
    for threads in ["1", "2", "2"] {
        let o = keliya(&[
            "simulate",
            p,
            "--games",
            "200",
            "--seed",
            "3",
            "--threads",
            threads,
        ]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&at_line), "{err}");
        assert!(err.contains("^^^^"), "{err}");
        let game = err
            .split("(game ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("no game named: {err}"))
            .to_string();
        assert_eq!(*first_game.get_or_insert(game.clone()), game, "{err}");
        let n: u64 = game.parse().expect("a game number");
        assert!(
            err.contains(&format!("`--games {} --seed 3` plays it again", n + 1)),
            "{err}"
        );
        // Where the game stood: the leopards' failing move and the board before it.
        assert!(
            err.contains(&format!("game {n}: after "))
                && err.contains("(leopards to move), the game failed playing `"),
            "{err}"
        );
        assert!(err.contains("pieces: T = tiger, L = leopard"), "{err}");
        // That run fails at the same game, and the one before it plays every game to its end.
        let again = keliya(&[
            "simulate",
            p,
            "--games",
            &(n + 1).to_string(),
            "--seed",
            "3",
        ]);
        assert!(String::from_utf8_lossy(&again.stderr).contains(&format!("(game {n} ")));
        let before = keliya(&["simulate", p, "--games", &n.to_string(), "--seed", "3"]);
        assert!(before.status.success() || n == 0);
    }
    for (a, b) in [("hat-diviyan-keliya", p), (p, "hat-diviyan-keliya")] {
        let o = keliya(&["diff", a, b, "--simulate", "200", "--seed", "3"]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&at_line), "{err}");
        assert!(err.contains("`--simulate "), "{err}");
    }
}

/// Statistics of no game mean nothing: `simulate --games 0` is refused, as `diff --simulate 0` is, as
/// usage errors (exit 2, as clap's own).
#[test]
fn a_simulation_of_no_game_is_refused() {
    let o = keliya(&["simulate", "hat-diviyan-keliya", "--games", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at least 1"));
    assert!(stdout(&o).is_empty(), "no statistics: {}", stdout(&o));
    let o = keliya(&[
        "diff",
        "hat-diviyan-keliya",
        "hat-diviyan-keliya/apex-start",
        "--simulate",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at least 1"));
}

/// Arguments are checked as clap checks its own: agents against seats, ranges as stated, `--ply` only
/// with `--game`; each refusal exits 2.
#[test]
fn usage_errors_exit_2_with_the_range_stated() {
    let refused = |args: &[&str], says: &str| {
        let o = keliya(args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    };
    refused(
        &[
            "simulate",
            "hat-diviyan-keliya",
            "--agents",
            "random,random,random",
        ],
        "3 agents given for 2 seats",
    );
    refused(
        &[
            "play",
            "hat-diviyan-keliya",
            "--agents",
            "human,random,random",
        ],
        "3 agents given for 2 seats",
    );
    refused(
        &["bench", "hat-diviyan-keliya", "--seconds", "0"],
        "above 0 and at most 3600",
    );
    refused(
        &["simulate", "hat-diviyan-keliya", "--threads", "0"],
        "from 1 to 256",
    );
    refused(&["replay", "games.jsonl", "--ply", "3"], "--game");
}

/// `completions` prints a script for the shell, `man` a roff page with every command.
#[test]
fn completions_and_the_manual_page_are_printed() {
    let o = keliya(&["completions", "bash"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("complete -F _keliya"), "{}", stdout(&o));
    let o = keliya(&["man"]);
    assert!(o.status.success());
    let page = stdout(&o);
    assert!(page.contains(".TH keliya 1"), "{page}");
    assert!(page.contains("simulate"), "{page}");
}

/// Every command's `--help` ends with an example.
#[test]
fn every_help_has_an_example() {
    for command in [
        "validate",
        "render",
        "moves",
        "apply",
        "simulate",
        "replay",
        "diff",
        "play",
        "bench",
        "compile",
        "completions",
        "man",
    ] {
        let o = keliya(&[command, "--help"]);
        assert!(
            stdout(&o).contains("Examples:\n  keliya "),
            "{command}: {}",
            stdout(&o)
        );
    }
}

/// `replay` prints who made each step, writes the state at a ply, and reviews a game saved unfinished.
#[test]
fn replay_reads_as_a_game_and_writes_the_state_at_a_ply() {
    let (record, state) = (temp("review.jsonl"), temp("at5.json"));
    let o = keliya(&[
        "simulate",
        "raja-pasu",
        "--games",
        "1",
        "-o",
        record.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = keliya(&[
        "replay",
        record.to_str().expect("utf-8"),
        "--game",
        "0",
        "--ply",
        "5",
        "-o",
        state.to_str().expect("utf-8"),
    ]);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("    1. South: r1h"), "{text}");
    assert!(text.contains("result: after 5 of"), "{text}");
    assert!(
        text.contains("reserve"),
        "the position with its figures: {text}"
    );
    let o = keliya(&[
        "moves",
        "raja-pasu",
        "--state",
        state.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).starts_with("north to move"), "{}", stdout(&o));

    let saved = temp("unfinished.jsonl");
    let o = keliya_with_input(
        &["play", "hat-diviyan-keliya", "--plain"],
        &format!("1\nsave {}\nquit\n", saved.display()),
    );
    assert!(o.status.success());
    let o = keliya(&[
        "replay",
        saved.to_str().expect("utf-8"),
        "--game",
        "0",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["unfinished"], true);
    assert_eq!(v["steps"][0]["player"], "tiger");
    assert_eq!(v["steps"][0]["kind"], "move");
}

/// `validate --json` gives each ruleset's diagnostics with their severity and place.
#[test]
fn validate_prints_json_and_warns_without_failing() {
    let bad = temp("over.yaml");
    std::fs::write(
        &bad,
        "keliya: 1\ntitle: No setup\nextends: hat-diviyan-keliya\nsetup: ~\ninvariants: ~\n",
    )
    .expect("written");
    let path = bad.to_str().expect("utf-8");
    let o = keliya(&["validate", path]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(": warning: the game is over before its first move"),
        "{err}"
    );
    let o = keliya(&[
        "validate",
        path,
        "tests/bad-input/unknown-piece.yaml",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["rulesets"][0]["ok"], true);
    assert_eq!(v["rulesets"][0]["diagnostics"][0]["severity"], "warning");
    assert_eq!(v["rulesets"][1]["ok"], false);
    assert_eq!(v["rulesets"][1]["diagnostics"][0]["severity"], "error");
    assert!(
        v["rulesets"][1]["diagnostics"][0]["line"]
            .as_u64()
            .is_some()
    );
}

#[test]
fn simulate_check_reports_a_broken_invariant_with_game_and_step() {
    let path = temp("broken-invariant.yaml");
    // Wrong on purpose: leopards do leave the board when captured.
    std::fs::write(&path, "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\ninvariants:\n  leopards_counted: total(prey) == 7\n")
        .expect("written");
    let p = path.to_str().expect("utf-8");
    let o = keliya(&["simulate", p, "--games", "20", "--seed", "1"]);
    assert!(
        o.status.success(),
        "without --check the games are only played"
    );
    let o = keliya(&["simulate", p, "--games", "20", "--seed", "1", "--check"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("game ") && err.contains("leopards_counted do not hold"),
        "{err}"
    );
    // At the invariant, in the file that writes it, with what plays the game again.
    assert!(
        err.contains(&format!(
            "{p}:5:21: error: after step 9 the invariant(s) leopards_counted do not hold"
        )),
        "{err}"
    );
    assert!(
        err.contains("a position reached in play breaks this invariant")
            && err.contains("`--games 1 --seed 1 --check` plays it again"),
        "{err}"
    );
    // With the step that broke it and the position before that step.
    assert!(err.contains("the game failed playing `"), "{err}");
    assert!(err.contains("pieces: T = tiger, L = leopard"), "{err}");
    let o = keliya(&[
        "simulate",
        "hat-diviyan-keliya",
        "--games",
        "50",
        "--seed",
        "1",
        "--check",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn bench_reports_the_median_round_between_the_slowest_and_the_fastest() {
    let o = keliya(&[
        "bench",
        "hat-diviyan-keliya",
        "--seconds",
        "0.3",
        "--rounds",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    let figure = |key: &str| v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"));
    assert_eq!(v["rounds"], 3);
    assert!(figure("playouts") > 0.0);
    assert!(figure("playouts_per_sec_min") > 0.0);
    assert!(figure("playouts_per_sec_min") <= figure("playouts_per_sec"));
    assert!(figure("playouts_per_sec") <= figure("playouts_per_sec_max"));
    let mut by_round: Vec<f64> = v["playouts_per_sec_by_round"]
        .as_array()
        .expect("a figure per round")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect();
    by_round.sort_by(f64::total_cmp);
    assert_eq!(by_round.len(), 3);
    assert_eq!(by_round[1], figure("playouts_per_sec"), "the median round");
    assert_eq!(by_round[0], figure("playouts_per_sec_min"));
    assert_eq!(by_round[2], figure("playouts_per_sec_max"));
    // The rounds together take the measured time; Hat's random games last tens of plies.
    assert!((figure("seconds") - 0.3).abs() < 0.2, "{v}");
    assert!((20.0..60.0).contains(&figure("mean_plies")), "{v}");

    let refused = keliya(&["bench", "hat-diviyan-keliya", "--rounds", "0"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("from 1 to 1000"));
}

/// The authoring walk-through shows `simulate`'s output as the binary prints it (runs are seeded, so
/// the figures repeat exactly).
#[test]
fn the_authoring_guide_shows_what_simulate_prints() {
    let guide = std::fs::read_to_string(root().join("docs/authoring.md")).expect("the guide");
    let mut shown = 0;
    let lines: Vec<&str> = guide.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(command) = line.strip_prefix("$ keliya simulate ") else {
            continue;
        };
        let expected: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
            .copied()
            .collect();
        let mut args = vec!["simulate"];
        args.extend(command.split_whitespace());
        let o = keliya(&args);
        assert!(o.status.success(), "{command}");
        let printed = stdout(&o);
        assert_eq!(
            printed.lines().collect::<Vec<_>>(),
            expected,
            "docs/authoring.md shows other output for `keliya simulate {command}`"
        );
        shown += 1;
    }
    assert_eq!(shown, 3, "the guide's three simulations");
}

/// docs/cli.md shows every `--help` as the binary prints it.
#[test]
fn the_command_docs_show_each_help_as_printed() {
    let docs = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    let lines: Vec<&str> = docs.lines().collect();
    let mut shown = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(command) = line.strip_prefix("$ keliya ") else {
            continue;
        };
        if !command.ends_with("--help") {
            continue;
        }
        let expected: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
            .copied()
            .collect();
        let o = keliya(&command.split_whitespace().collect::<Vec<_>>());
        assert!(o.status.success(), "{command}");
        let printed = stdout(&o);
        let printed: Vec<&str> = printed.lines().collect();
        assert_eq!(
            printed.iter().map(|l| l.trim_end()).collect::<Vec<_>>(),
            expected.iter().map(|l| l.trim_end()).collect::<Vec<_>>(),
            "docs/cli.md shows other help for `keliya {command}`"
        );
        shown += 1;
    }
    assert!(shown >= 10, "docs/cli.md shows the help of every command");
}

#[test]
fn shards_of_a_run_merge_into_exactly_the_whole_run() {
    let run = [
        "simulate",
        "pancha-keliya/parker-1909",
        "--games",
        "37",
        "--seed",
        "9",
    ];
    let whole_record = temp("whole.jsonl");
    let o = keliya(
        &[
            &run[..],
            &["--json", "--record", whole_record.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let whole: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut jsons = Vec::new();
    let mut records = Vec::new();
    for k in [3, 1, 2] {
        let json = temp(&format!("shard-s{k}.json"));
        let record = temp(&format!("shard-s{k}.jsonl"));
        let shard = format!("{k}/3");
        let o = keliya(
            &[
                &run[..],
                &[
                    "--shard",
                    &shard,
                    "--json",
                    "--record",
                    record.to_str().unwrap(),
                ],
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::write(&json, stdout(&o)).unwrap();
        jsons.push(json.to_str().unwrap().to_string());
        records.push(record.to_str().unwrap().to_string());
    }
    let o = keliya(
        &["merge"]
            .into_iter()
            .chain(jsons.iter().map(String::as_str))
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut merged: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut whole = whole;
    for v in [&mut merged, &mut whole] {
        let fields = v.as_object_mut().unwrap();
        fields.remove("games_per_sec");
        fields.remove("threads");
    }
    assert_eq!(merged, whole);
    let merged_record = temp("merged.jsonl");
    let mut args = vec!["merge", "-o", merged_record.to_str().unwrap()];
    args.extend(records.iter().map(String::as_str));
    let o = keliya(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&merged_record).unwrap(),
        std::fs::read(&whole_record).unwrap()
    );
    // A missing shard is named, not silently left out.
    let o = keliya(&["merge", &jsons[0], &jsons[1]]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("shard 2/3 is missing"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = keliya(&["merge", &records[0], &records[2]]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("is missing"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

// ---------------------------------------------------------------------------------------------------------
// No crash, no hang, no lost file (docs/errors.md, "What keliya promises on bad input").

/// Runs the binary with standard output and standard error opened on the given files.
fn keliya_to(args: &[&str], out: &str, err: &str) -> Output {
    let open = |p: &str| {
        std::fs::OpenOptions::new()
            .write(true)
            .open(p)
            .expect("opens")
    };
    Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(open(out))
        .stderr(open(err))
        .output()
        .expect("the binary runs")
}

/// A full device on standard output is an error (exit 1), not a silent success; a full standard error
/// is not a panic (exit 101). A closed pipe stays quiet.
#[test]
fn a_full_output_device_is_an_error_never_a_panic() {
    let record = temp("r-full.jsonl");
    let made = keliya(&[
        "simulate",
        "hat-diviyan-keliya",
        "--games",
        "2",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(made.status.success());
    let r = record.to_str().unwrap();
    let commands: [&[&str]; 12] = [
        &["list"],
        &["validate", "hat-diviyan-keliya"],
        &["show", "hat-diviyan-keliya"],
        &["render", "hat-diviyan-keliya"],
        &["moves", "hat-diviyan-keliya"],
        &["apply", "hat-diviyan-keliya", "--move", "A"],
        &["simulate", "hat-diviyan-keliya", "--games", "3"],
        &["diff", "hat-diviyan-keliya", "hat-diviyan-keliya/large"],
        &["replay", r, "--game", "0"],
        &["play", "hat-diviyan-keliya"],
        &["--help"],
        &["validate", "no-such-ruleset"],
    ];
    for args in commands {
        let o = keliya_to(args, "/dev/full", "/dev/null");
        assert_eq!(o.status.code(), Some(1), "{args:?} with a full stdout");
        let o = keliya_to(args, "/dev/null", "/dev/full");
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{args:?} with a full stderr: {:?}",
            o.status
        );
        let o = keliya_to(args, "/dev/full", "/dev/full");
        assert_eq!(o.status.code(), Some(1), "{args:?} with both full");
    }
}

/// `--record` replaces only a regular file: a symbolic link, a FIFO or a device standing at the path is
/// refused, before any game, and left as it was; a failed run leaves no temporary file.
#[test]
fn a_record_never_replaces_what_is_not_a_regular_file() {
    let dir = temp("not-regular");
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("target.txt");
    std::fs::write(&target, "keep me\n").unwrap();
    let link = dir.join("link.jsonl");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let fifo = dir.join("fifo.jsonl");
    let _ = std::fs::remove_file(&fifo);
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for path in [link.as_path(), fifo.as_path(), Path::new("/dev/null")] {
        let o = keliya(&[
            "simulate",
            "hat-diviyan-keliya",
            "--games",
            "2",
            "--record",
            path.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{}: {err}", path.display());
        assert!(err.contains("not a regular file"), "{err}");
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
    {
        use std::os::unix::fs::FileTypeExt;
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// Asking for more games than could ever be played is not a panic nor an allocation up front: the run
/// starts, and memory stays flat while it goes.
#[test]
fn a_huge_number_of_games_starts_with_flat_memory() {
    for games in ["9223372036854775808", "18446744073709551615"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_keliya"))
            .args(["simulate", "hat-diviyan-keliya", "--games", games])
            .current_dir(root())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let still_running = child.try_wait().expect("waits").is_none();
        let rss = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            });
        let _ = child.kill();
        let _ = child.wait();
        assert!(still_running, "--games {games} ended at once");
        assert!(
            rss.is_some_and(|kb| kb < 200_000),
            "--games {games}: {rss:?} kB"
        );
    }
}

/// A long game recorded with `--record` keeps its steps out of memory: the run needs no more than the
/// same run without a record (a few MB for the text in hand), where every step's text was once kept
/// until the game ended (about 130 bytes a step).
#[test]
fn a_long_recorded_game_holds_its_steps_in_little_memory() {
    let ruleset = temp("long-game.yaml");
    std::fs::write(
        &ruleset,
        "keliya: 1\ntitle: long\nextends: raja-pasu\nends:\n  north-cannot-open: ~\ncaps:\n  \
         max_turns: 400000\n",
    )
    .unwrap();
    let record = temp("long-game.jsonl");
    let path = ruleset.to_str().unwrap();
    let minute = std::time::Duration::from_secs(120);
    let (code, _, bare) = keliya_measured(&["simulate", path, "--games", "1"], minute);
    assert_eq!(code, Some(0));
    let with_record = [
        "simulate",
        path,
        "--games",
        "1",
        "-o",
        record.to_str().unwrap(),
    ];
    let (code, _, recorded) = keliya_measured(&with_record, minute);
    assert_eq!(code, Some(0));
    let text = std::fs::read_to_string(&record).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    let steps = line["moves"].as_array().unwrap().len();
    assert!(steps >= 400_000, "{steps} steps");
    assert!(
        recorded < bare + 10_000,
        "{steps} steps: {recorded} kB with the record, {bare} kB without"
    );
    // Checking the record keeps one position, not one per step, each with its own copy of the
    // repetition history (which took 24 GB for this game and was stopped).
    let ceiling = bare + 200_000;
    let (code, _, replayed) =
        keliya_measured_within(&["replay", record.to_str().unwrap()], minute, ceiling);
    assert_eq!(code, Some(0), "replay stopped at {replayed} kB");
    assert!(
        replayed < ceiling,
        "{steps} steps replayed in {replayed} kB"
    );
}

/// A position of a million moves is listed, as text and as JSON, in the room of its search (about 40
/// bytes a move), where the whole list was once made at once (about 300 bytes a move as text, 1.7 KB
/// as JSON); MCTS keeps no list of moves per node either.
#[test]
fn a_million_moves_are_listed_in_little_memory() {
    let ruleset = temp("million-moves.yaml");
    std::fs::write(
        &ruleset,
        "keliya: 1\ntitle: wide\nextends: hat-diviyan-keliya\nlimits:\n  max_options_per_position: \
         10000000\nrules:\n  hunter-drop:\n    do: |\n      choose a in range(1, 100) {\n        \
         choose n in range(1, 10000) {\n          move(hunter, hand(hunter), @A)\n        }\n      \
         }\n    notation: \"{a}.{n}\"\n",
    )
    .unwrap();
    let path = ruleset.to_str().unwrap();
    let minute = std::time::Duration::from_secs(120);
    for args in [
        &["moves", path][..],
        &["moves", path, "--json"],
        &[
            "simulate",
            path,
            "--games",
            "1",
            "--agents",
            "mcts:iterations=3",
        ],
    ] {
        let (code, took, kb) = keliya_measured(args, minute);
        assert_eq!(code, Some(0), "{args:?}");
        assert!(kb < 150_000, "{args:?}: {kb} kB in {took:?}");
    }
    let listed = keliya(&["moves", path, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 1_000_000);
    assert_eq!(v["moves"][1]["move"], "1.2");
}

/// A full disk while a record is written (a tiny tmpfs, mounted when the tests run as root; skipped where
/// mounting is not allowed): `--record` fails with exit 1 and `save` says it could not save, the old file
/// stays whole and no temporary or empty file is left behind.
#[test]
fn a_full_disk_leaves_the_old_record_and_no_temporary_file() {
    let dir = temp("small-disk");
    std::fs::create_dir_all(&dir).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=16k", "tmpfs"])
        .arg(&dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("note: cannot mount a small tmpfs here; skipped");
        return;
    }
    let old = dir.join("games.jsonl");
    std::fs::write(&old, "old\n").unwrap();
    let o = keliya(&[
        "simulate",
        "raja-pasu",
        "--games",
        "50",
        "--record",
        old.to_str().unwrap(),
    ]);
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let kept = std::fs::read_to_string(&old).unwrap();
    let save = dir.join("saved.jsonl");
    // Filled up to the last byte first, so that the save cannot write its first line.
    let filler = std::fs::write(dir.join("filler"), vec![b'x'; 64 * 1024]);
    let saved = keliya_with_input(
        &["play", "hat-diviyan-keliya"],
        &format!("save {}\nquit\n", save.display()),
    );
    let after: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let _ = Command::new("umount").arg(&dir).status();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("No space left"));
    assert_eq!(kept, "old\n");
    assert_eq!(files, vec!["games.jsonl".to_string()]);
    let _ = filler;
    assert!(
        stdout(&saved).contains("Could not save"),
        "{}",
        stdout(&saved)
    );
    assert!(
        after
            .iter()
            .all(|f| f != "saved.jsonl" && !f.ends_with(".tmp")),
        "{after:?}"
    );
}

/// Runs the binary in `dir` with a time limit; a run past it is killed and fails the test.
fn keliya_in(dir: &Path, args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let id = child.id();
    let (done, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        if wait
            .recv_timeout(std::time::Duration::from_secs(10))
            .is_err()
        {
            let _ = Command::new("kill").arg(id.to_string()).status();
        }
    });
    let out = child.wait_with_output().expect("the binary ends");
    let _ = done.send(());
    assert!(out.status.code().is_some(), "{args:?} was killed: it hung");
    out
}

/// A FIFO with no writer, `/dev/zero` and other endless or blocking files given as a ruleset, a state or
/// a record end at once with an error, having read at most a bounded amount.
#[test]
fn endless_and_blocking_files_are_refused_at_once() {
    let dir = temp("endless");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.yaml");
    let _ = std::fs::remove_file(&fifo);
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let fifo = fifo.to_str().unwrap();
    let cases: [&[&str]; 4] = [
        &["validate", fifo],
        &["validate", "/dev/zero"],
        &["moves", "hat-diviyan-keliya", "--state", "/dev/zero"],
        &["replay", "/dev/zero"],
    ];
    for args in cases {
        let started = std::time::Instant::now();
        let o = keliya_in(&root(), args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            started.elapsed().as_secs() < 5,
            "{args:?} took {:?}",
            started.elapsed()
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("not a regular file") || err.contains("larger than"),
            "{args:?}: {err}"
        );
    }
}

/// A record names its ruleset by name or by a path under its own folder; one that names any other file
/// is refused without reading it (its first line is never echoed), and a record made from a path
/// replays from any folder.
#[test]
fn a_record_cannot_name_a_file_outside_its_folder() {
    let dir = temp("record-paths");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "top secret line\n").unwrap();
    std::fs::write(
        dir.join("sub/c.yaml"),
        "keliya: 1\ntitle: c\nextends: hat-diviyan-keliya\n",
    )
    .unwrap();
    let o = keliya_in(
        &dir,
        &[
            "simulate",
            "sub/c.yaml",
            "--games",
            "2",
            "--record",
            "r.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let record = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    assert!(record.contains(r#""ruleset":"sub/c.yaml""#), "{record}");
    // From another folder, the record still finds its ruleset beside it.
    let o = keliya_in(&root(), &["replay", dir.join("r.jsonl").to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for named in [
        "../secret.txt".to_string(),
        secret.display().to_string(),
        "sub/../../secret.txt".to_string(),
    ] {
        let evil = record.replace(
            r#""ruleset":"sub/c.yaml""#,
            &format!(r#""ruleset":{named:?}"#),
        );
        std::fs::write(dir.join("sub/evil.jsonl"), evil).unwrap();
        let o = keliya_in(&dir, &["replay", "sub/evil.jsonl"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{named}: {err}");
        assert!(!err.contains("top secret"), "{named}: {err}");
        assert!(err.contains("--ruleset"), "{named}: {err}");
    }
}

/// `extends` finds a parent two folders up the same way however the child's path is typed.
#[test]
fn extends_finds_the_same_parent_however_the_path_is_typed() {
    let dir = temp("extends-typed");
    std::fs::create_dir_all(dir.join("a/b")).unwrap();
    std::fs::write(
        dir.join("base.yaml"),
        "keliya: 1\ntitle: base\nextends: hat-diviyan-keliya\n",
    )
    .unwrap();
    let child = "keliya: 1\ntitle: child\nextends: base\n";
    std::fs::write(dir.join("a/b/c.yaml"), child).unwrap();
    std::fs::write(
        dir.join("a/b/d.yaml"),
        "keliya: 1\ntitle: d\nextends: ../../base.yaml\n",
    )
    .unwrap();
    for (cwd, path) in [
        (dir.clone(), "a/b/c.yaml"),
        (dir.join("a"), "b/c.yaml"),
        (dir.join("a/b"), "c.yaml"),
        (dir.join("a/b"), "./c.yaml"),
        (dir.join("a/b"), "d.yaml"),
        (dir.clone(), "a/b/d.yaml"),
    ] {
        let o = keliya_in(&cwd, &["validate", path]);
        assert!(
            o.status.success(),
            "{path} from {}: {}",
            cwd.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// `list` fits a terminal of 80 columns and names each ruleset's first reference in short; `--long` and
/// `--json` give it whole.
#[test]
fn list_shows_short_references_within_80_columns() {
    let o = keliya(&["list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{} columns: {line}", line.len());
    }
    let row = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}"))
            .to_string()
    };
    assert!(row("raja-pasu").contains("de Voogt 2000"), "{text}");
    assert!(
        row("hat-diviyan-keliya").contains("Ludovisi 1873"),
        "{text}"
    );
    let long = stdout(&keliya(&["list", "--long"]));
    assert!(long.contains("Parker, H. (1909). Ancient Ceylon"), "{long}");
    let v: serde_json::Value = serde_json::from_slice(&keliya(&["list", "--json"]).stdout).unwrap();
    let rp = v
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "raja-pasu")
        .expect("raja-pasu listed");
    assert_eq!(rp["reference"], "de Voogt 2000");
    assert!(rp["sources"].as_array().unwrap().len() >= 2);
}

/// `show` of each canonical game reads as rules: every rule with its id, the choices, the references;
/// `--code` has the rules-language text and `--json` both.
#[test]
fn show_prints_the_rules_in_words_and_the_code_one_flag_away() {
    for (game, id, question) in [
        ("pancha-keliya", "PK-17", "PK-Q20"),
        ("kerala", "KE-11", "KE-Q13"),
        ("raja-pasu", "RP-14", "RP-Q10"),
        ("raja-pasu-mandiri", "MD-8", "MD-Q8"),
        ("demala-diviyan-keliya", "DD-10", "DD-Q10"),
        ("hat-diviyan-keliya", "HD-8", "HD-Q3"),
        ("bagh-chal", "BC-9", "BC-Q4"),
        ("bagh-guti", "BG-10", "BG-Q5"),
        ("pulijudamu", "PJ-8", "PJ-Q3"),
        ("koti-keliya", "KK-9", "KK-Q5"),
        ("gyan-chaupar", "GC-9", "GC-Q6"),
        ("pallankuli", "PL-9", "PL-Q4"),
        ("ovalhu", "OV-9", "OV-Q6"),
        ("puhulmutu", "PM-14", "PM-Q8"),
        ("sat-gol", "SG-7", "SG-Q4"),
        ("thaayam", "TH-12", "TH-Q9"),
        ("chaupar", "CP-11", "CP-Q12"),
        ("pachisi", "PA-12", "PA-Q10"),
    ] {
        let text = stdout(&keliya(&["show", game]));
        for part in [
            "\nRules:\n",
            "\nChoices on open questions:\n",
            "\nReferences:\n",
        ] {
            assert!(text.contains(part), "{game}: no {part:?}\n{text}");
        }
        assert!(text.contains(&format!("\n  {id} ")), "{game}: {id}\n{text}");
        assert!(
            text.contains(&format!("\n  {question} ")),
            "{game}: {question}"
        );
        assert!(
            !text.contains("| "),
            "{game}: no rules-language body in words"
        );
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{game}: {line}");
        }
        let code = stdout(&keliya(&["show", game, "--code"]));
        assert!(
            code.contains("    | ") && code.contains("    source: "),
            "{game}"
        );
        let v: serde_json::Value =
            serde_json::from_slice(&keliya(&["show", game, "--json"]).stdout).unwrap();
        assert!(v["rules"].as_array().unwrap().iter().any(|r| r["id"] == id));
        assert!(!v["references"].as_array().unwrap().is_empty());
        assert!(!v["code"]["rules"].as_array().unwrap().is_empty());
    }
    // A variant shows its own answer to the question it changes.
    let text = stdout(&keliya(&["show", "raja-pasu/north-starts"]));
    assert!(
        text.contains("RP-Q7   North starts the first round."),
        "{text}"
    );
}

/// `play` shows the figures the ruleset marks for display, names a pancha split readably, and plays a
/// seat's only move for it, saying so.
#[test]
fn play_shows_the_score_names_moves_and_plays_forced_moves() {
    let o = keliya_with_input(&["play", "hat-diviyan-keliya", "--plain"], "1\nquit\n");
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("0 of 4 captures to win"), "{text}");
    assert!(
        !text.contains("leopard: 0 of"),
        "the prey have no capture figure: {text}"
    );

    let o = keliya_with_input(
        &[
            "play",
            "pancha-keliya",
            "--agents",
            "human,random",
            "--seed",
            "3",
        ],
        &"1\n".repeat(40),
    );
    let text = stdout(&o);
    assert!(text.contains("pancha: activate 1, WA +4"), "{text}");
    assert!(text.contains("0 of 3 pawns on the throne"), "{text}");
    assert!(text.contains("(the only move, played for you)"), "{text}");
}

/// What a ruleset shows (`display:`, rules' `labels:`) is not part of its hash: a delta that changes only
/// that records as the same delta without it.
#[test]
fn display_keys_leave_the_ruleset_hash_alone() {
    let (plain, shown) = (temp("plain.yaml"), temp("shown.yaml"));
    let head = "keliya: 1\nextends: hat-diviyan-keliya\n";
    std::fs::write(&plain, head).expect("written");
    std::fs::write(
        &shown,
        format!("{head}display:\n  captures: {{label: taken}}\nrules:\n  hunter-drop: {{labels: {{to: ~}}}}\n"),
    )
    .expect("written");
    let hash = |what: &str| {
        let o = keliya(&["simulate", what, "--games", "1", "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        v["ruleset_hash"].as_str().expect("a hash").to_string()
    };
    assert_eq!(
        hash(shown.to_str().expect("utf-8")),
        hash(plain.to_str().expect("utf-8"))
    );
}

/// A mistake in a value a delta writes over its parent's is shown with the parent's line as a secondary
/// label, from the parent's file.
#[test]
fn a_delta_s_mistake_shows_the_parent_s_line_it_replaces() {
    let delta = temp("over-rule.yaml");
    std::fs::write(
        &delta,
        "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nrules:\n  prey-drop:\n    when: count(hand(prey), leoprd) > 0\n",
    )
    .expect("written");
    let o = keliya(&["validate", delta.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.lines()
            .next()
            .is_some_and(|l| l
                .ends_with("over-rule.yaml:6:29: error: unknown name (expected a piece) `leoprd`")),
        "{err}"
    );
    // (Its line moves when the library is edited; the file and the text are what matter.)
    assert!(err.contains("lib/hunt.yaml:"), "{err}");
    assert!(err.contains("when: count(hand(prey), prey) > 0"), "{err}");
    assert!(
        err.contains("the parent's value, which this replaces"),
        "{err}"
    );
}

/// Any finite coordinates that `validate` accepts draw as a picture of bounded size, as text, SVG and
/// DOT, and in a replayed position: the scale comes from the board's extent, capped.
#[test]
fn boards_with_huge_coordinates_draw_in_bounded_pictures() {
    let dir = temp("far");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (a, b)) in [
        ("1e8", "3"),
        ("1e300", "3"),
        ("2147483648", "-2147483648"),
        ("1.7e308", "-1.7e308"),
    ]
    .into_iter()
    .enumerate()
    {
        let path = dir.join(format!("far{i}.yaml"));
        std::fs::write(
            &path,
            format!(
                "keliya: 1\ntitle: far\nextends: hat-diviyan-keliya\nboard:\n  sites:\n    R3: {{at: [{a}, {b}]}}\n    L3: {{at: [{b}, {a}]}}\n"
            ),
        )
        .unwrap();
        let p = path.to_str().unwrap();
        assert!(keliya(&["validate", p]).status.success());
        for format in ["text", "svg", "dot"] {
            let o = keliya(&["render", p, "--format", format]);
            assert!(o.status.success(), "{a}: {format}: {:?}", o.status);
            assert!(
                o.stdout.len() < 100_000,
                "{a}: {format}: {} bytes",
                o.stdout.len()
            );
        }
        let record = dir.join(format!("far{i}.jsonl"));
        let r = record.to_str().unwrap();
        assert!(
            keliya(&["simulate", p, "--games", "1", "--record", r])
                .status
                .success()
        );
        let o = keliya(&["replay", r, "--game", "0", "--ply", "2"]);
        assert!(
            o.status.success(),
            "{a}: replay: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.stdout.len() < 100_000);
    }
}

/// One mutation of a ruleset's text, drawn from `next`: a character removed, inserted or replaced, a line
/// removed or doubled, or a token replaced by a hostile value (huge, negative, fractional, deep).
fn mutate(text: &str, next: &mut impl FnMut() -> u64) -> String {
    const PIECES: [&str; 24] = [
        ":", " ", "\n", "-", "[", "]", "{", "}", "~", "&a", "*a", "\"", "'", "|", "#", "@", "(",
        ")", "0", "é", "\t", "\r", "\u{a0}", "!!binary",
    ];
    const VALUES: [&str; 14] = [
        "1e300",
        "-1",
        "0",
        "99999999999999999999",
        "10000000",
        "2147483648",
        "0.5",
        "~",
        "[]",
        "{}",
        "not not not not not not not not true",
        "- - - - - - - - 1",
        "@nowhere",
        ".nan",
    ];
    let mut chars: Vec<char> = text.chars().collect();
    let pick = |n: usize, next: &mut dyn FnMut() -> u64| (next() % n.max(1) as u64) as usize;
    match next() % 6 {
        0 if !chars.is_empty() => {
            chars.remove(pick(chars.len(), next));
        }
        1 => {
            let at = pick(chars.len() + 1, next);
            let piece = PIECES[pick(PIECES.len(), next)];
            for (k, c) in piece.chars().enumerate() {
                chars.insert(at + k, c);
            }
        }
        2 if !chars.is_empty() => {
            let at = pick(chars.len(), next);
            chars[at] = PIECES[pick(PIECES.len(), next)]
                .chars()
                .next()
                .expect("one");
        }
        3 | 4 => {
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            if lines.is_empty() {
                return text.to_string();
            }
            let at = pick(lines.len(), next);
            if next().is_multiple_of(2) {
                lines.remove(at);
            } else {
                let copy = lines[at].clone();
                lines.insert(at, copy);
            }
            return lines.join("\n") + "\n";
        }
        _ => {
            // A number or a word after `: ` replaced by a hostile value.
            let spots: Vec<usize> = text.match_indices(": ").map(|(i, _)| i + 2).collect();
            if spots.is_empty() {
                return text.to_string();
            }
            let at = spots[pick(spots.len(), next)];
            let end = text[at..]
                .find(['\n', ',', '}', ']'])
                .map_or(text.len(), |e| at + e);
            return format!(
                "{}{}{}",
                &text[..at],
                VALUES[pick(VALUES.len(), next)],
                &text[end..]
            );
        }
    }
    chars.into_iter().collect()
}

/// Runs the binary with a deadline, giving its exit code, how long it ran and its peak memory (the
/// high-water mark read from /proc while it runs; 0 where there is none).
fn keliya_measured(
    args: &[&str],
    deadline: std::time::Duration,
) -> (Option<i32>, std::time::Duration, u64) {
    keliya_measured_within(args, deadline, u64::MAX)
}

/// [`keliya_measured`], the binary also stopped once its memory passes `ceiling_kb` (a regression
/// must not take the machine's memory with it).
fn keliya_measured_within(
    args: &[&str],
    deadline: std::time::Duration,
    ceiling_kb: u64,
) -> (Option<i32>, std::time::Duration, u64) {
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_file)
            && let Some(kb) = s
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(status) = child.try_wait().expect("waits") {
            return (status.code(), started.elapsed(), peak_kb);
        }
        if started.elapsed() > deadline || peak_kb > ceiling_kb {
            let _ = child.kill();
            let _ = child.wait();
            return (None, started.elapsed(), peak_kb);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// The seeded mutation fuzzer over every bundled ruleset: each mutant is validated and, if it loads,
/// a few games of it are simulated, by the binary. Every run must end by itself within 20 s and 2 GB,
/// with exit 0, 1 or 2. By default it runs for a few seconds; `KELIYA_MUTANTS=10000` runs that many
/// mutants (`KELIYA_MUTANT_SEED` changes the seed), and prints what it measured.
#[test]
fn mutated_rulesets_through_the_binary_end_in_bounded_time_and_memory() {
    let mut sources = Vec::new();
    let mut stack = vec![root().join("rulesets")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("rulesets").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                sources.push(p);
            }
        }
    }
    sources.sort();
    let wanted: Option<u64> = std::env::var("KELIYA_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok());
    let budget = std::time::Duration::from_secs(4);
    let mut state: u64 = std::env::var("KELIYA_MUTANT_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x2545_f491_4f6c_dd1d);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let dir = temp("mutants");
    std::fs::create_dir_all(&dir).unwrap();
    let limit = std::time::Duration::from_secs(20);
    let started = std::time::Instant::now();
    let (mut runs, mut loaded, mut slowest, mut largest) =
        (0u64, 0u64, std::time::Duration::ZERO, 0u64);
    let mut exits = [0u64; 3];
    let mut failures = Vec::new();
    let mut n = 0u64;
    while wanted.map_or(started.elapsed() < budget || n < 12, |w| n < w) {
        let source = &sources[(next() % sources.len() as u64) as usize];
        let original = std::fs::read_to_string(source).expect("bundled ruleset");
        let mut text = original.clone();
        for _ in 0..1 + next() % 3 {
            text = mutate(&text, &mut next);
        }
        let path = dir.join(format!("m{}.yaml", n % 64));
        std::fs::write(&path, &text).unwrap();
        let p = path.to_str().unwrap().to_string();
        let seed = (next() % 1000).to_string();
        let validate = ["validate", p.as_str()];
        let simulate = [
            "simulate",
            p.as_str(),
            "--games",
            "3",
            "--seed",
            seed.as_str(),
        ];
        for (k, args) in [&validate[..], &simulate[..]].into_iter().enumerate() {
            let (code, took, kb) = keliya_measured(args, limit);
            runs += 1;
            slowest = slowest.max(took);
            largest = largest.max(kb);
            match code {
                Some(c @ 0..=2) => exits[c as usize] += 1,
                other => {
                    let kept = dir.join(format!("failed-{n}.yaml"));
                    let _ = std::fs::write(&kept, &text);
                    failures.push(format!(
                        "{args:?} ({}): exit {other:?} after {took:?}",
                        kept.display()
                    ));
                }
            }
            if took >= limit || kb >= 2 << 20 {
                failures.push(format!("{args:?}: {took:?}, {kb} kB"));
            }
            if k == 0 && code != Some(0) {
                break;
            }
            if k == 0 {
                loaded += 1;
            }
        }
        n += 1;
    }
    eprintln!(
        "mutants: {n} ({loaded} loaded), runs: {runs}, exits 0/1/2: {exits:?}, slowest {slowest:?}, \
         peak {largest} kB, in {:?}",
        started.elapsed()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Input that once passed silently or grew without bound: an endless line and a line that is not UTF-8
/// at `play`'s prompt, an empty `--agents`, an exploration constant that is not a number, a record's
/// negative seed (not "missing").
#[test]
fn bad_values_get_their_own_error() {
    let zero = Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(["play", "hat-diviyan-keliya"])
        .current_dir(root())
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(zero.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("longer than"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(["play", "hat-diviyan-keliya"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"\xff\xfe\n").unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not UTF-8"));
    for agents in ["", " , ", "mcts:c=nan", "mcts:c=inf"] {
        let o = keliya(&[
            "simulate",
            "hat-diviyan-keliya",
            "--games",
            "2",
            "--agents",
            agents,
        ]);
        assert_eq!(o.status.code(), Some(1), "--agents {agents:?}");
    }
    let record = temp("negative-seed.jsonl");
    assert!(
        keliya(&[
            "simulate",
            "hat-diviyan-keliya",
            "--games",
            "1",
            "--record",
            record.to_str().unwrap()
        ])
        .status
        .success()
    );
    let text = std::fs::read_to_string(&record).unwrap();
    let seed_at = text.find(r#""seed":"#).unwrap() + 7;
    let end = seed_at + text[seed_at..].find(['}', ',']).unwrap();
    std::fs::write(&record, format!("{}-5{}", &text[..seed_at], &text[end..])).unwrap();
    let o = keliya(&["replay", record.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`seed` must be a whole number from 0, found -5"),
        "{err}"
    );
}

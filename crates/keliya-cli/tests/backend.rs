//! `--backend`: the commands that play games play the same games on the executor alone (`vm`) and on
//! the generated code (`compiled`), and say which ran.

use std::process::{Command, Output};

fn keliya(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("the binary runs")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A rule of a user's own: the bundled module has no code for it.
const LEAPING_LEOPARDS: &str = include_str!("leaping-leopards.yaml");

/// An end condition written anew (three captures win, where Hat's rules say four): the bundled module
/// has no test for it.
const THREE_CAPTURES: &str = "keliya: 1
title: Hat diviyan keliya, three captures win
extends: hat-diviyan-keliya
ends:
  capture-goal:
    when: captures[hunter] > 2
    winner: hunter
";

#[test]
fn simulate_plays_the_same_games_and_records_on_both_backends() {
    let dir = std::env::temp_dir().join(format!("keliya-backend-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let user = dir.join("leaping.yaml");
    std::fs::write(&user, LEAPING_LEOPARDS).unwrap();
    // A hunt, a race with throws, a sowing game, a race of teams, and a ruleset partly generated.
    for ruleset in [
        "hat-diviyan-keliya",
        "pancha-keliya",
        "raja-pasu",
        "pachisi",
        user.to_str().unwrap(),
    ] {
        let mut runs = Vec::new();
        for backend in ["vm", "compiled"] {
            let record = dir.join(format!("{backend}.jsonl"));
            let stats = ok(&keliya(&[
                "simulate",
                ruleset,
                "--games",
                "4",
                "--seed",
                "7",
                "--json",
                "--backend",
                backend,
                "-o",
                record.to_str().unwrap(),
            ]));
            // Everything but the speed.
            let mut stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
            stats.as_object_mut().unwrap().remove("games_per_sec");
            runs.push((stats, std::fs::read_to_string(&record).unwrap()));
        }
        assert!(runs[0].1.lines().count() >= 4, "{ruleset}: {}", runs[0].1);
        assert_eq!(runs[0], runs[1], "{ruleset}: vm and compiled differ");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_backend_is_a_usage_error_naming_both() {
    let o = keliya(&["simulate", "hat-diviyan-keliya", "--backend", "jit"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("compiled") && err.contains("vm"), "{err}");
}

#[test]
fn show_code_and_bench_say_what_runs_the_rules() {
    let code = ok(&keliya(&["show", "hat-diviyan-keliya", "--code"]));
    assert!(
        code.contains(
            "\nBackend: compiled (all 5 rule programs and all 7 turn conditions generated)\n"
        ),
        "{code}"
    );
    let dir = std::env::temp_dir().join(format!("keliya-backend-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let user = dir.join("leaping.yaml");
    std::fs::write(&user, LEAPING_LEOPARDS).unwrap();
    let code = ok(&keliya(&["show", user.to_str().unwrap(), "--code"]));
    assert!(
        code.contains(
            "\nBackend: compiled, the executor running what is not generated\n  generated: 5 of 6 \
             rule programs and all 8 turn conditions\n"
        ),
        "{code}"
    );
    // An end condition of a user's own: its test is not in the bundled module, the rules' are.
    let user = dir.join("three-captures.yaml");
    std::fs::write(&user, THREE_CAPTURES).unwrap();
    let code = ok(&keliya(&["show", user.to_str().unwrap(), "--code"]));
    assert!(
        code.contains(
            "\nBackend: compiled, the executor running what is not generated\n  generated: all 5 \
             rule programs and 6 of 7 turn conditions\n"
        ),
        "{code}"
    );
    let _ = std::fs::remove_dir_all(&dir);

    let bench = |backend: &str| {
        let line = ok(&keliya(&[
            "bench",
            "hat-diviyan-keliya",
            "--seconds",
            "0.2",
            "--json",
            "--backend",
            backend,
        ]));
        serde_json::from_str::<serde_json::Value>(line.trim()).unwrap()
    };
    let vm = bench("vm");
    assert_eq!(vm["backend"], "vm");
    let compiled = bench("compiled");
    assert_eq!(compiled["backend"], "compiled");
    assert_eq!(compiled["generated_programs"], 5);
    assert_eq!(compiled["rule_programs"], 5);
    assert_eq!(compiled["generated_conditions"], 7);
    assert_eq!(compiled["turn_conditions"], 7);
    let text = ok(&keliya(&[
        "bench",
        "hat-diviyan-keliya",
        "--seconds",
        "0.2",
        "--backend",
        "vm",
    ]));
    assert!(text.contains(" vm "), "{text}");
}

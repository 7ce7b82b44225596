//! The two backends of a prepared game (the executor, and the searches generated from its programs,
//! keliya-engine's codegen.rs and compiled/) play every bundled ruleset alike, and the generated module
//! the build compiles is the one the generator writes from the bundled rulesets today.

use keliya_engine::{Backend, Game, Successors, codegen};
use keliya_play::Dice;
use keliya_tests::{catalog, compile};

/// Plays seeded random games of `game` on both backends side by side: at every position the same
/// moves in the same order, and each of the first successors (and the one chosen) played to the same
/// position; gives the number of positions compared.
fn play_on_both(game: &Game, games: u64, plies: u32) -> u32 {
    let mut vm = game.clone();
    vm.set_backend(Backend::Vm);
    let mut compiled = game.clone();
    compiled.set_backend(Backend::Compiled);
    let mut compared = 0;
    let (mut found_vm, mut found_compiled) = (Successors::new(), Successors::new());
    for i in 0..games {
        let mut dice = Dice::new(Dice::game_seed(42, i));
        let (mut st, mut other) = (vm.initial_state(), compiled.initial_state());
        while st.result.is_none() && st.ply < plies {
            let at = format!("{} game {i} ply {}", game.name, st.ply);
            assert_eq!(st, other, "{at}");
            let outcomes = vm.chance_outcomes(&st);
            if !outcomes.is_empty() {
                let k = dice.weighted(outcomes.iter().map(|o| o.1));
                vm.throw_in_place(&mut st, outcomes[k].0);
                compiled.throw_in_place(&mut other, outcomes[k].0);
                continue;
            }
            vm.successors_into(&st, &mut found_vm).unwrap();
            compiled
                .successors_into(&other, &mut found_compiled)
                .unwrap();
            let moves: Vec<_> = found_vm.moves().collect();
            assert_eq!(
                moves,
                found_compiled.moves().collect::<Vec<_>>(),
                "{at}: moves"
            );
            if moves.is_empty() {
                break;
            }
            let chosen = dice.below(moves.len());
            for k in (0..moves.len().min(4)).chain([chosen]) {
                let (mut a, mut b) = (st.clone(), other.clone());
                vm.advance_found_in_place(&mut a, &found_vm, k).unwrap();
                compiled
                    .advance_found_in_place(&mut b, &found_compiled, k)
                    .unwrap();
                assert_eq!(a, b, "{at}: move {k} played");
            }
            vm.advance_found_in_place(&mut st, &found_vm, chosen)
                .unwrap();
            compiled
                .advance_found_in_place(&mut other, &found_compiled, chosen)
                .unwrap();
            compared += 1;
        }
        assert_eq!(st, other, "{} game {i}: the end", game.name);
    }
    compared
}

#[test]
fn every_bundled_ruleset_plays_alike_on_both_backends() {
    let mut with_generated = 0;
    for (name, _) in catalog().names() {
        let c = compile(&name);
        let Some(game) = &c.game else { continue };
        assert_eq!(game.backend(), Backend::Compiled, "{name}: the default");
        let (generated, programs) = game.compiled_programs();
        assert!(generated <= programs);
        if generated > 0 {
            with_generated += 1;
        }
        let compared = play_on_both(game, 3, 300);
        assert!(compared > 0, "{name}: nothing compared");
    }
    // The hunt games share lib/hunt's rules and with them their generated searches.
    assert!(
        with_generated >= 10,
        "{with_generated} rulesets run generated code"
    );
}

#[test]
fn the_hunt_games_search_every_rule_with_generated_code() {
    for name in [
        "hat-diviyan-keliya",
        "demala-diviyan-keliya",
        "demala-diviyan-keliya/pulijudam-23",
    ] {
        let c = compile(name);
        let game = c.game.as_ref().unwrap();
        let (generated, programs) = game.compiled_programs();
        assert_eq!((generated, programs), (5, 5), "{name}");
    }
}

/// The conditions of the turn (each rule's `when`, each end condition) are tested by generated code
/// on every bundled ruleset, and by the executor's compiled expressions on the VM backend: both
/// backends playing alike (above) holds the generated tests to the executor's answers.
#[test]
fn every_bundled_condition_of_the_turn_has_a_generated_test() {
    for (name, _) in catalog().names() {
        let c = compile(&name);
        let Some(game) = &c.game else { continue };
        let (generated, conditions) = game.compiled_conditions();
        assert_eq!(generated, conditions, "{name}");
    }
    let hat = compile("hat-diviyan-keliya").game.unwrap();
    // Five rules with a `when`, two end conditions (the second reads `stuck`).
    assert_eq!(hat.compiled_conditions(), (7, 7));
}

#[test]
fn every_bundled_program_finds_its_generated_search_runner_and_filters() {
    for (name, _) in catalog().names() {
        let c = compile(&name);
        let Some(game) = &c.game else { continue };
        let keys = codegen::keys(game);
        assert!(!keys.is_empty(), "{name}");
        for key in keys {
            assert!(codegen::is_bundled(key), "{name}: {key:x}");
        }
    }
}

#[test]
fn too_many_options_is_the_same_error_on_both_backends() {
    let c = compile("hat-diviyan-keliya");
    let mut game = c.game.clone().unwrap();
    // The tiger placed and seven leopards down: the tiger's steps' outer choice has one option, the
    // leopards' seven; a bound of three stops the leopards' search at their outer choice, in generated
    // code as in the executor.
    let mut st = game.initial_state();
    let mut dice = Dice::new(7);
    while st.ply < 15 {
        let moves = game.legal_moves(&st).unwrap();
        st = game.apply(&st, &moves[dice.below(moves.len())]).unwrap();
    }
    assert_eq!(
        game.rule_name(game.legal_moves(&st).unwrap()[0].rule),
        "prey-step"
    );
    game.max_options_per_position = 3;
    let error = |backend| {
        let mut g = game.clone();
        g.set_backend(backend);
        let mut found = Successors::new();
        g.successors_into(&st.clone(), &mut found).unwrap_err()
    };
    let (vm, compiled) = (error(Backend::Vm), error(Backend::Compiled));
    assert_eq!(vm.to_string(), compiled.to_string());
    assert_eq!(
        (vm.rule.as_str(), vm.at),
        (compiled.rule.as_str(), compiled.at)
    );
    assert!(vm.message.contains("more than 3 options"), "{vm}");
    assert!(vm.at > 0, "shown at the choice point");
}

#[test]
fn the_generated_module_is_what_the_generator_writes_today() {
    let mut games = Vec::new();
    for (name, _) in catalog().names() {
        games.extend(compile(&name).game);
    }
    let games: Vec<&Game> = games.iter().collect();
    let written = codegen::generate(&games, &|_| false);
    let path = keliya_tests::root().join("crates/keliya-engine/src/compiled/bundled.rs");
    let built = std::fs::read_to_string(&path).unwrap();
    assert!(
        built == written,
        "{} is out of date: run `cargo run --release -p keliya-cli -- compile --bundled`",
        path.display()
    );
    assert!(written.matches("\nfn search_").count() >= 4);
    assert!(written.matches("\nfn runner_").count() >= 300);
    assert!(written.matches("\nfn filter_").count() >= 150);
}

/// The module the generator writes for the bundled ruleset `name` alone.
fn module(name: &str) -> String {
    let game = compile(name).game.unwrap();
    codegen::generate(&[&game], &|_| false)
}

/// The options of a choice listed the plain way (its domain, then its filter on each option) are
/// listed by generated code: Pancha Keliya's pawn to move (`sites_with`, filtered) and the one square
/// it lands on (`sites() where to == E`, narrowed to that site). A choice whose filter the executor
/// tests on the values directly (a drop's `sites() where empty(to)`) keeps the executor's listing. The
/// backends playing alike holds the listings to the executor's.
#[test]
fn plainly_listed_choices_are_listed_by_generated_code() {
    let pancha = module("pancha-keliya");
    let listers = &pancha[pancha
        .find("\nfn lister_")
        .expect("Pancha Keliya has listers")..];
    assert!(
        listers.contains("listings::sites_with(g, st, "),
        "{listers}"
    );
    assert!(
        listers.contains("!g.board.offboard[s as usize]"),
        "{listers}"
    );
    assert!(listers.contains("items.truncate(kept);"), "{listers}");
    let hat = module("hat-diviyan-keliya");
    let listers = &hat[hat.find("\nfn lister_").unwrap_or(hat.len())..];
    assert!(!listers.contains("playing_sites"), "{listers}");
}

/// A rule whose run forks at two choices or more is searched by generated code that holds its locals
/// in an array and gives each option a copy of the array, not of the run: Pancha Keliya's pancha (a
/// choice of activations, then of parts and pawns in a loop), not its single moves nor Hat's rules
/// (searches of their own shapes). The backends playing alike holds these searches to the executor's.
#[test]
fn forking_rules_are_searched_with_their_locals_held() {
    let held = "ex.choose_held(run, st, node, l, go)";
    let pancha = module("pancha-keliya");
    let searches: Vec<&str> = pancha
        .split("\nfn ")
        .filter(|f| f.starts_with("search_"))
        .collect();
    // The pancha rule's three programs (the general one, and one for each side's pawns); the single
    // moves (one choice that forks) keep the executor's search.
    assert_eq!(searches.len(), 3, "{searches:?}");
    assert!(searches.iter().all(|f| f.contains(held)));
    assert!(!module("hat-diviyan-keliya").contains(held));
}

/// Raja Pasu's sowing's runner (the rule that records configurations) in its generated module.
fn sowing(raja: &str) -> &str {
    raja.split("\nfn ")
        .find(|f| f.starts_with("runner_") && f.contains("Func::SeenBefore"))
        .expect("the sowing has a runner")
}

/// A runner holds its locals in an array only where that pays: Raja Pasu's sowing (laps without a
/// choice, after the one choice of a hole), not Pancha Keliya's rules (loops, but several choices,
/// each option entering the runner again) nor Hat's (no loop).
#[test]
fn runners_hold_their_locals_only_where_a_loop_runs_without_a_choice() {
    let held = "load(&run.locals)";
    let raja = module("raja-pasu");
    assert!(raja.contains(held), "Raja Pasu's sowing holds its locals");
    assert!(!module("pancha-keliya").contains(held));
    assert!(!module("hat-diviyan-keliya").contains(held));
}

/// A runner that holds its locals keeps those that only ever hold a number, or only a truth, as
/// plain Rust values, put back in the array only when it goes to the run: Raja Pasu's sowing keeps
/// the counters in hand and the laps as numbers and whether it goes on sowing as a truth, while the
/// holes stay `Value`s (`along` may give none). The backends playing alike holds the typed code to
/// the executor's.
#[test]
fn held_locals_that_hold_one_kind_of_value_are_typed() {
    let raja = module("raja-pasu");
    let sow = sowing(&raja);
    // `let hand = count(h, seed)`, `let laps = 1`, `let sowing = true` (slots 1, 3 and 4).
    for declared in [
        "let mut li1: i64 = l[1].int();",
        "let mut li3: i64 = l[3].int();",
        "let mut lb4: bool = l[4].truthy();",
    ] {
        assert!(sow.contains(declared), "{declared}\n{sow}");
    }
    assert!(
        sow.contains("li1 = combine(AssignOp::Sub, li1, n);"),
        "{sow}"
    );
    assert!(sow.contains("if !(lb4) {"), "{sow}");
    assert!(!sow.contains("l[1].int() >"), "{sow}");
    // The holes: `let pos = h`, then `along` each step.
    assert!(sow.contains("l[2] = l[0];"), "{sow}");
    assert!(!sow.contains(": i64 = l[2]"), "{sow}");
}

/// Generated code is written as Rust's own loops and branches, entered once where a run starts or
/// resumes, not as a `match` on the next operation taken at every jump: Raja Pasu's sowing is one
/// arm for the choice of a hole and one for the sowing, its laps nested loops; the pancha, whose
/// choices stand inside its loop of parts, resumes inside the loop with the rest of that pass and
/// then the loop's further passes. No generated function of a bundled ruleset jumps by `pc`.
#[test]
fn generated_code_runs_in_loops_and_branches_not_jumps() {
    let raja = module("raja-pasu");
    let sow = sowing(&raja);
    let arms: Vec<&str> = sow
        .lines()
        .filter(|l| l.starts_with("        ") && !l.starts_with("         ") && l.ends_with("=> {"))
        .collect();
    assert_eq!(arms, ["        0 => {", "        1 => {"], "{sow}");
    // The sowing's loops: while sowing, while counters are in hand, past closed holes.
    assert!(sow.matches("loop {").count() >= 3, "{sow}");
    let pancha = module("pancha-keliya");
    let held = pancha
        .split("\nfn ")
        .find(|f| f.starts_with("search_") && f.contains("choose_held"))
        .unwrap();
    // A choice inside the loop of parts: its options resume in an arm that opens a loop of its own.
    let resumed = held
        .split(" => {\n")
        .skip(2)
        .filter(|arm| arm.contains("loop {"))
        .count();
    assert!(resumed >= 2, "{held}");
    let mut games = Vec::new();
    for (name, _) in catalog().names() {
        games.extend(compile(&name).game);
    }
    let games: Vec<&Game> = games.iter().collect();
    let written = codegen::generate(&games, &|_| false);
    assert_eq!(written.matches("pc = ").count(), 0);
    assert_eq!(written.matches("continue;").count(), 0);
}

/// The errors of the first move of `game` played from each of its successors, on each backend.
fn first_move_errors(game: &Game) -> Vec<(Backend, String, String, usize)> {
    let mut errors = Vec::new();
    for backend in [Backend::Vm, Backend::Compiled] {
        let mut g = game.clone();
        g.set_backend(backend);
        let st = g.initial_state();
        let mut found = Successors::new();
        g.successors_into(&st, &mut found).unwrap();
        assert!(!found.is_empty());
        let mut after = st.clone();
        let e = g.advance_found_in_place(&mut after, &found, 0).unwrap_err();
        errors.push((backend, e.rule, e.message, e.at));
    }
    errors
}

#[test]
fn a_failing_assert_and_the_step_limit_are_the_same_error_on_both_backends() {
    // Raja Pasu's sowing asserts after every drop that the counters add up to `counters_total`:
    // with one counter too many in the parameter, the first drop of the first move breaks it.
    let dir = std::env::temp_dir().join(format!("keliya-backends-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("miscounted.yaml");
    std::fs::write(
        &path,
        "keliya: 1\ntitle: Raja Pasu miscounted\nextends: raja-pasu\nparams:\n  counters_total: 99\n",
    )
    .unwrap();
    let c = compile(path.to_str().unwrap());
    let errors = first_move_errors(c.game.as_ref().unwrap());
    assert!(errors[0].2.contains("assert"), "{errors:?}");
    assert_eq!(
        (&errors[0].1, &errors[0].2, errors[0].3),
        (&errors[1].1, &errors[1].2, errors[1].3)
    );
    assert!(errors[0].3 > 0, "shown at the assert");

    // A sowing of seven counters takes more than three loop steps.
    let c = compile("raja-pasu");
    let mut game = c.game.clone().unwrap();
    game.max_steps_per_move = 3;
    let errors = first_move_errors(&game);
    assert!(errors[0].2.contains("more than 3 loop steps"), "{errors:?}");
    assert_eq!(
        (&errors[0].1, &errors[0].2, errors[0].3),
        (&errors[1].1, &errors[1].2, errors[1].3)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

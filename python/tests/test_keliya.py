"""The Python package against the engine and the command line: loading, playing, errors, simulation."""

import json
import pickle
import subprocess
import time
from pathlib import Path

import pytest

import keliya

REPO = Path(__file__).resolve().parents[2]


def keliya_cli(*args):
    """The command line's output, built from the same sources (cargo run)."""
    out = subprocess.run(
        ["cargo", "run", "-q", "--release", "-p", "keliya-cli", "--", *args],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


def test_every_bundled_ruleset_is_listed_and_loads():
    names = keliya.rulesets()
    assert "hat-diviyan-keliya" in names and "lib/hunt" in names
    assert "lib/hunt" not in keliya.games()
    for name in keliya.games():
        r = keliya.load(name)
        assert r.name == name and not r.is_library and r.players


def test_a_game_is_played_by_notation_and_by_index():
    hat = keliya.load("hat-diviyan-keliya")
    s = hat.initial_state()
    assert s.current_player == 0 and s.player == hat.players[0]
    moves = s.legal_moves()
    assert len(moves) == s.num_moves() == 10
    after_text = s.apply(moves[3])
    after_index = s.apply(3)
    assert after_text == after_index
    assert s.ply == 0 and after_index.ply == 1  # apply leaves the state as it was
    s.play(moves[3])
    assert s == after_text and s.current_player == 1


def test_a_throw_is_a_chance_node_with_the_tables_probabilities():
    pk = keliya.load("pancha-keliya")
    s = pk.initial_state()
    assert s.is_chance()
    outcomes = s.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    table = {name: p for name, _, p, _ in pk.throws}
    assert all(table[name] == p for name, p in outcomes)
    rows = s.chance_rows()
    assert [pk.throws[r][0] for r, _ in rows] == [n for n, _ in outcomes]
    s.throw(outcomes[0][0])
    assert not s.is_chance()
    with pytest.raises(keliya.KeliyaError, match="no throw is due"):
        s.throw(0)


def test_a_random_game_ends_with_a_result_and_returns():
    for name in ["hat-diviyan-keliya", "pancha-keliya/parker-1909", "raja-pasu"]:
        s = keliya.load(name).initial_state()
        import random

        rng = random.Random(5)
        while not s.is_terminal():
            if s.is_chance():
                rows, probs = zip(*s.chance_rows())
                s.throw(rng.choices(rows, probs)[0])
            else:
                s.play(rng.randrange(s.num_moves()))
        result = keliya.result(s)
        assert result is not None and result["reason"]
        returns = s.returns()
        assert len(returns) == len(keliya.load(name).players)
        if result["winner"] is None:
            assert returns == [0.0] * len(returns)
        else:
            assert max(returns) == 1.0 and min(returns) == -1.0


def test_a_state_round_trips_through_json_and_pickle_and_matches_the_cli():
    hat = keliya.load("hat-diviyan-keliya")
    s = hat.initial_state()
    s.play("A")
    assert hat.state_from_json(s.to_json()) == s
    assert pickle.loads(pickle.dumps(s)) == s
    # The state file is the one `keliya apply` writes.
    cli = json.loads(keliya_cli("apply", "hat-diviyan-keliya", "--move", "A"))
    assert json.loads(s.to_json()) == cli


def test_a_ruleset_that_does_not_load_raises_with_its_location():
    """The bad-input corpus's expected first line, exactly as the CLI prints it."""
    bad = REPO / "tests" / "bad-input" / "dsl-type-error.yaml"
    expected = (REPO / "tests" / "bad-input" / "dsl-type-error.expected").read_text().splitlines()[0]
    with pytest.raises(keliya.KeliyaError) as e:
        keliya.load(str(bad))
    first = e.value.diagnostics[0].splitlines()[0]
    assert first == expected.replace("tests/bad-input/", str(bad.parent) + "/")
    assert str(e.value).startswith(first)
    with pytest.raises(keliya.KeliyaError, match="no ruleset named"):
        keliya.load("no-such-game")


def test_an_illegal_move_names_the_legal_ones():
    s = keliya.load("hat-diviyan-keliya").initial_state()
    with pytest.raises(keliya.KeliyaError, match="legal moves: A, "):
        s.play("Z9")
    with pytest.raises(IndexError):
        s.play(99)


def test_simulate_gives_the_clis_statistics():
    ours = keliya.simulate("hat-diviyan-keliya", 200, seed=3, agents="random", threads=2)
    cli = json.loads(keliya_cli("simulate", "hat-diviyan-keliya", "--games", "200", "--seed", "3", "--json"))
    for d in (ours, cli):
        d.pop("games_per_sec")
        d.pop("threads")
    assert ours == cli


def test_shards_merge_into_exactly_one_runs_statistics():
    whole = keliya.simulate("pancha-keliya/parker-1909", 90, seed=11)
    parts = [keliya.simulate("pancha-keliya/parker-1909", 90, seed=11, shard=(k, 4)) for k in (4, 2, 1, 3)]
    merged = keliya.merge(parts)
    assert merged["threads"] == 4
    for d in (whole, merged):
        d.pop("games_per_sec")
        d.pop("threads")
    assert merged == whole
    with pytest.raises(ValueError, match="missing"):
        keliya.merge(parts[:3])


def test_simulate_runs_as_fast_as_the_cli():
    """The loop stays in Rust: a Python call plays games at the command line's rate (generous bound,
    the machines are shared and noisy)."""
    games = 3000
    start = time.perf_counter()
    keliya.simulate("hat-diviyan-keliya", games, seed=1)
    ours = games / (time.perf_counter() - start)
    cli = json.loads(keliya_cli("simulate", "hat-diviyan-keliya", "--games", str(games), "--seed", "1", "--json"))
    assert ours > 0.5 * cli["games_per_sec"], (ours, cli["games_per_sec"])


def test_diff_gives_the_clis_json():
    ours = keliya.diff("hat-diviyan-keliya", "hat-diviyan-keliya/large", simulate=40, seed=2)
    cli = json.loads(
        keliya_cli("diff", "hat-diviyan-keliya", "hat-diviyan-keliya/large", "--simulate", "40", "--seed", "2", "--json")
    )
    assert ours == cli


def test_a_position_is_drawn_as_the_cli_draws_it():
    s = keliya.load("raja-pasu").initial_state()
    svg = s.render()
    assert svg.startswith("<svg") and "Raja Pasu" in svg
    assert svg == keliya_cli("render", "raja-pasu", "--format", "svg")
    text = s.render("text", unicode=False)
    assert text == keliya_cli("render", "raja-pasu", "--ascii")
    assert max(len(line) for line in text.splitlines()) <= 80
    assert s.render("dot").startswith("graph") or s.render("dot").startswith("digraph")
    with pytest.raises(ValueError):
        s.render("png")

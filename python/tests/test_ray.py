"""Simulations on a local Ray cluster give exactly one machine's statistics."""

import pytest

ray = pytest.importorskip("ray")

import keliya
import keliya.ray as kray


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def without_timing(d):
    d = dict(d)
    d.pop("games_per_sec")
    d.pop("threads")
    return d


def test_four_shards_on_ray_give_one_runs_statistics(cluster):
    for name in ["hat-diviyan-keliya", "raja-pasu"]:
        games = 120 if name == "hat-diviyan-keliya" else 8
        ours = kray.simulate(name, games, seed=5, shards=4)
        one = keliya.simulate(name, games, seed=5)
        assert without_timing(ours) == without_timing(one)


def test_a_behavioural_diff_on_ray_is_one_machines(cluster):
    ours = kray.diff("hat-diviyan-keliya", "hat-diviyan-keliya/large", simulate=60, seed=3, shards=3)
    one = keliya.diff("hat-diviyan-keliya", "hat-diviyan-keliya/large", simulate=60, seed=3)
    assert ours == one
    assert ours["simulation"]["comparisons"]


def test_the_documented_study_runs_and_plots(tmp_path):
    """docs/python.md's Ray study, on a few games (it starts and stops a cluster of its own)."""
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "examples" / "hat_variants.py"
    out = tmp_path / "hat.png"
    if ray.is_initialized():
        ray.shutdown()
    done = subprocess.run(
        [sys.executable, str(example), "--games", "40", "--shards", "2", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "hat-diviyan-keliya " in done.stdout and out.stat().st_size > 1000
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

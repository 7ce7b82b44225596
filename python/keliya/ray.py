"""keliya's simulations spread over a Ray cluster.

A run of ``games`` games is cut into ``shards`` blocks of consecutive game numbers; each block is one Ray
task, which plays its games with ``keliya.simulate(..., shard=(k, shards))`` (the loop in Rust, the GIL
released), and the blocks are added up with ``keliya.merge``. Game ``i`` is seeded from the run's seed and
``i`` alone, so the statistics are exactly those of one ``keliya.simulate`` with the same arguments, on
any number of shards and machines::

    import ray, keliya.ray
    ray.init()                                # or ray.init(address="auto") to join a running cluster
    stats = keliya.ray.simulate("hat-diviyan-keliya", games=1_000_000, seed=1, shards=64)

The ruleset travels to the workers by name (bundled rulesets are inside the package) or as a path that
every worker can read.
"""

from __future__ import annotations

from typing import Any, Dict

import json

import ray as _ray

import keliya
from keliya import _keliya


@_ray.remote
def _shard(ruleset: str, games: int, seed: int, agents: str, threads: int, index: int, of: int):
    return keliya.simulate(ruleset, games, seed, agents, threads, shard=(index, of))


def _name_of(ruleset) -> str:
    return ruleset.loaded_as if isinstance(ruleset, keliya.Ruleset) else str(ruleset)


def simulate(
    ruleset,
    games: int,
    seed: int = 0,
    agents: str = "random",
    shards: int = 4,
    threads_per_shard: int = 1,
) -> Dict[str, Any]:
    """``keliya.simulate`` of ``games`` games, played as ``shards`` Ray tasks; the same statistics (but
    for ``threads`` and ``games_per_sec``, the shards' sums)."""
    if shards < 1:
        raise ValueError("shards takes at least 1")
    shards = min(shards, games)
    name = _name_of(ruleset)
    parts = _ray.get(
        [
            _shard.remote(name, games, seed, agents, threads_per_shard, k, shards)
            for k in range(1, shards + 1)
        ]
    )
    return keliya.merge(parts)


@_ray.remote
def _diff(a: str, b: str, games: int, seed: int, agents: str, index: int, of: int) -> str:
    return _keliya.diff_shard_json(a, b, games, seed, agents, (index, of))


def diff(
    a,
    b,
    simulate: int,
    seed: int = 0,
    agents: str = "random",
    shards: int = 4,
) -> Dict[str, Any]:
    """``keliya.diff(a, b, simulate=N)`` with the games of both rulesets played as ``shards`` Ray tasks
    (game ``i`` of both seeded alike): the same structural diff and the same simulation, significance
    tests included, as one machine gives."""
    if simulate < 1:
        raise ValueError("simulate takes at least 1 game")
    shards = max(1, min(shards, simulate))
    na, nb = _name_of(a), _name_of(b)
    parts = _ray.get(
        [_diff.remote(na, nb, simulate, seed, agents, k, shards) for k in range(1, shards + 1)]
    )
    return json.loads(_keliya.diff_merge_json(na, nb, simulate, seed, agents, parts))

"""keliya: traditional South Asian board games from data.

Load a ruleset by name or path, play it move by move, run seeded simulations and compare two rulesets,
with the same engine and the same JSON as the ``keliya`` command line::

    import keliya
    hat = keliya.load("hat-diviyan-keliya")
    state = hat.initial_state()
    state.legal_moves()          # ['A', 'B', ...]: the tiger's drops
    state.play("A")
    keliya.simulate("hat-diviyan-keliya", games=1000, seed=1)["wins"]

``keliya.openspiel`` registers every ruleset as an OpenSpiel game; ``keliya.ray`` spreads simulations over
a Ray cluster.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from ._keliya import ENGINE_VERSION, KeliyaError, Ruleset, State, load, rulesets
from . import _keliya

__all__ = [
    "ENGINE_VERSION",
    "KeliyaError",
    "Ruleset",
    "State",
    "load",
    "rulesets",
    "games",
    "simulate",
    "merge",
    "diff",
    "result",
]

RulesetLike = Union[Ruleset, str]


def games() -> List[str]:
    """The names of the playable rulesets (`rulesets()` without the libraries of shared rules)."""
    return [n for n in rulesets() if not n.startswith("lib/")]


def simulate(
    ruleset: RulesetLike,
    games: int,
    seed: int = 0,
    agents: str = "random",
    threads: int = 1,
    shard: Optional[Tuple[int, int]] = None,
) -> Dict[str, Any]:
    """Plays ``games`` seeded games and returns their statistics, as ``keliya simulate --json`` prints
    them. Game ``i`` is seeded from ``(seed, i)``, so the result depends on neither ``threads`` nor
    sharding. ``agents`` is one agent per seat, comma-separated (``random``, ``greedy``,
    ``mcts:iterations=N,c=X,depth=D``). With ``shard=(k, n)`` (``k`` from 1), only the k-th of n blocks of
    the games is played, and ``merge`` adds the shards up into exactly the whole run's statistics.
    The games run in Rust with the GIL released.
    """
    return json.loads(_keliya.simulate_json(ruleset, games, seed, agents, threads, shard))


def merge(parts: Iterable[Dict[str, Any]]) -> Dict[str, Any]:
    """Adds up the shards of one run (each ``simulate(..., shard=(k, n))``, every k once, in any order)
    into the statistics one ``simulate`` of all the games returns. The timing fields (``threads``,
    ``games_per_sec``) are the shards' sums."""
    return json.loads(_keliya.merge_json([json.dumps(p) for p in parts]))


def diff(
    a: RulesetLike,
    b: RulesetLike,
    simulate: int = 0,
    seed: int = 0,
    agents: str = "random",
    threads: int = 1,
) -> Dict[str, Any]:
    """What changed from ruleset ``a`` to ``b``, section by section, as ``keliya diff --json`` prints it;
    with ``simulate`` > 0, also what the change does to play over that many seeded games of each."""
    return json.loads(_keliya.diff_json(a, b, simulate, seed, agents, threads))


def result(state: State) -> Optional[Dict[str, Any]]:
    """How the game of ``state`` ended (``winner``: the winning side or ``None`` for a draw; ``player``,
    ``reason``, ``capped``), or ``None`` while it goes on."""
    text = state.result_json()
    return None if text is None else json.loads(text)

"""keliya's rulesets as OpenSpiel games.

``register()`` (called on import) registers every bundled ruleset as a Python game of OpenSpiel, named
``keliya_`` and the ruleset's name with ``-`` as ``_`` and ``/`` as ``__``, and one game ``keliya`` that
takes the ruleset as a parameter::

    import pyspiel
    import keliya.openspiel
    game = pyspiel.load_game("keliya_hat_diviyan_keliya")
    game = pyspiel.load_game("keliya", {"ruleset": "pancha-keliya/parker-1909"})
    game = keliya.openspiel.load("my-variant.yaml")   # any ruleset file

What OpenSpiel sees:

- players: the ruleset's players in turn order; returns 1 to every player of the winning side, -1 to every
  other player, 0 to all at a draw (zero-sum for two players, general-sum otherwise);
- chance nodes: a throw that is due; its outcomes are the rows of the throw table, with the table's exact
  probabilities, so a chance action is a row number and means the same in every state;
- a player's action: the index of the move in keliya's legal move order for that state (keliya lists a
  position's moves in a fixed order, so this is deterministic; its string is the move's notation).
  ``num_distinct_actions`` is the ruleset's bound on the moves of one position
  (``limits: max_options_per_position``);
- perfect information: the observation and information state strings are the position as keliya's state
  file (JSON) and, for the information state, the history of actions too.
"""

from __future__ import annotations

from typing import Dict, List, Optional

import pyspiel

import keliya

_GENERIC = "keliya"


def game_name(ruleset: str) -> str:
    """The OpenSpiel name of a bundled ruleset: ``pancha-keliya/parker-1909`` is
    ``keliya_pancha_keliya__parker_1909``."""
    return "keliya_" + ruleset.replace("/", "__").replace("-", "_")


def _game_type(short_name: str, long_name: str, ruleset: Optional[keliya.Ruleset]) -> pyspiel.GameType:
    players = len(ruleset.players) if ruleset is not None else 2
    two_sided = ruleset is not None and len(ruleset.sides) == 2 and players == 2
    chance = ruleset is None or bool(ruleset.throws)
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if two_sided else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players, 2) if ruleset is not None else 8,
        min_num_players=players if ruleset is not None else 2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"ruleset": ruleset.loaded_as if ruleset is not None else "hat-diviyan-keliya"},
    )


def _game_info(ruleset: keliya.Ruleset) -> pyspiel.GameInfo:
    players = len(ruleset.players)
    two_sided = len(ruleset.sides) == 2 and players == 2
    return pyspiel.GameInfo(
        num_distinct_actions=ruleset.max_moves,
        max_chance_outcomes=len(ruleset.throws),
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if two_sided else None,
        max_game_length=ruleset.max_steps,
    )


class KeliyaGame(pyspiel.Game):
    """A keliya ruleset as an OpenSpiel game."""

    def __init__(self, params: Optional[Dict] = None, ruleset: Optional[keliya.Ruleset] = None):
        params = dict(params or {})
        if ruleset is None:
            ruleset = keliya.load(str(params.get("ruleset", "hat-diviyan-keliya")))
        params["ruleset"] = ruleset.loaded_as
        self.ruleset = ruleset
        super().__init__(
            _game_type(game_name(ruleset.name), ruleset.title, ruleset), _game_info(ruleset), params
        )

    def new_initial_state(self) -> "KeliyaState":
        return KeliyaState(self, self.ruleset.initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(iig_obs_type, params)


class KeliyaState(pyspiel.State):
    """A position of a keliya game, for OpenSpiel."""

    def __init__(self, game: KeliyaGame, position: keliya.State):
        super().__init__(game)
        self.position = position

    # The pyspiel.State interface.

    def current_player(self) -> int:
        if self.position.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.position.is_chance():
            return pyspiel.PlayerId.CHANCE
        return self.position.current_player

    def _legal_actions(self, player: int) -> List[int]:
        return list(range(self.position.num_moves()))

    def chance_outcomes(self):
        return self.position.chance_rows()

    def _apply_action(self, action: int) -> None:
        if self.position.is_chance():
            self.position.throw(int(action))
        else:
            self.position.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "throw:" + self.get_game().ruleset.throws[action][0]
        return self.position.move_notation(int(action))

    def is_terminal(self) -> bool:
        return self.position.is_terminal()

    def returns(self) -> List[float]:
        return self.position.returns()

    def __str__(self) -> str:
        return self.position.to_json()


class _Observer:
    """Perfect information: every player observes the whole position."""

    def __init__(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"keliya's observations take no parameters; given {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = None
        self.dict = {}

    def set_from(self, state: KeliyaState, player: int) -> None:
        pass

    def string_from(self, state: KeliyaState, player: int) -> str:
        position = state.position.to_json()
        if self.perfect_recall:
            return " ".join(str(a) for a in state.history()) + "\n" + position
        return position


def load(ruleset: str) -> KeliyaGame:
    """Any ruleset (a bundled name or a file) as an OpenSpiel game, without registering it."""
    return KeliyaGame(ruleset=keliya.load(ruleset))


def _init_for(name: str):
    def __init__(self, params=None):
        KeliyaGame.__init__(self, params, keliya.load(name))

    return __init__


_registered: Dict[str, str] = {}


def register() -> Dict[str, str]:
    """Registers every bundled game (once) and the generic ``keliya`` game; returns OpenSpiel name to
    ruleset name."""
    if _registered:
        return dict(_registered)
    for name in keliya.games():
        ruleset = keliya.load(name)
        short = game_name(name)

        # A class per game, not a closure: OpenSpiel's registry outlives the interpreter, and a function
        # kept there crashes Python's exit, where a class does not.
        game_class = type(
            "KeliyaGame_" + short,
            (KeliyaGame,),
            {"__init__": _init_for(name), "__doc__": f"{ruleset.title} ({name}) as an OpenSpiel game."},
        )
        pyspiel.register_game(_game_type(short, ruleset.title, ruleset), game_class)
        _registered[short] = name
    pyspiel.register_game(_game_type(_GENERIC, "keliya ruleset (parameter: ruleset)", None), KeliyaGame)
    _registered[_GENERIC] = ""
    return dict(_registered)


register()

"""keliya's games through OpenSpiel's own interface, tests and bots."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import keliya
import keliya.openspiel as ko

GAMES = ["hat-diviyan-keliya", "pancha-keliya", "raja-pasu"]


def test_every_bundled_game_is_registered():
    registered = set(pyspiel.registered_names())
    for name in keliya.games():
        assert ko.game_name(name) in registered
    assert ko.game_name("pancha-keliya/parker-1909") == "keliya_pancha_keliya__parker_1909"


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_random_simulation_test_passes(name):
    game = pyspiel.load_game(ko.game_name(name))
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_a_hundred_random_games_end_with_returns(name):
    game = pyspiel.load_game(ko.game_name(name))
    rng = np.random.RandomState(1)
    players = game.num_players()
    for _ in range(100):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                legal = state.legal_actions()
                assert legal == sorted(legal) and legal[-1] < game.num_distinct_actions()
                state.apply_action(int(rng.choice(legal)))
        returns = state.returns()
        assert len(returns) == players and set(returns) <= {-1.0, 0.0, 1.0}


def test_chance_outcomes_are_the_throw_tables_rows():
    game = pyspiel.load_game(ko.game_name("pancha-keliya"))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    rows = keliya.load("pancha-keliya").throws
    for action, p in state.chance_outcomes():
        assert rows[action][2] == p
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, action) == "throw:" + rows[action][0]
    hunt = pyspiel.load_game(ko.game_name("hat-diviyan-keliya"))
    assert hunt.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert hunt.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_actions_are_keliyas_moves_in_order():
    game = pyspiel.load_game(ko.game_name("hat-diviyan-keliya"))
    state = game.new_initial_state()
    ours = keliya.load("hat-diviyan-keliya").initial_state()
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ours.legal_moves()
    assert game.num_distinct_actions() == keliya.load("hat-diviyan-keliya").max_moves


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_mcts_bot_plays_a_game(name):
    game = pyspiel.load_game(ko.game_name(name))
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=8,
        evaluator=mcts.RandomRolloutEvaluator(1, rng),
        random_state=rng,
    )
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    assert steps > 0 and len(state.returns()) == game.num_players()


def test_the_generic_game_takes_any_ruleset_as_a_parameter():
    game = pyspiel.load_game("keliya", {"ruleset": "pancha-keliya/parker-1909"})
    assert game.num_players() == 2
    assert "parker" in str(game)
    state = game.new_initial_state()
    assert state.is_chance_node()
    again = game.deserialize_state(game.serialize_state(state) if hasattr(game, "serialize_state") else state.serialize())
    assert str(again) == str(state)

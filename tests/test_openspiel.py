"""The OpenSpiel game: OpenSpiel's own checks and playthroughs, what each seat may see, the
public and private observers, resampling, and OpenSpiel's ISMCTS bot playing it."""
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from briscasim.cards import card_code  # noqa: E402
from briscasim.engine import layout as L  # noqa: E402
from briscasim.envs import observe, register_openspiel  # noqa: E402
from briscasim.errors import IllegalAction, UserError  # noqa: E402
from briscasim.game import Deal, seeded_deck  # noqa: E402

from repo_scripts import load  # noqa: E402

register_openspiel()
PLAYTHROUGHS = load("openspiel_playthroughs")


def _dealt(game, seed, item=0):
    state = game.new_initial_state()
    for c in seeded_deck(game.rules.to_array(), seed, item).tolist():
        state.apply_action(c)
    return state


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs-signals", "brisca-3-hidden",
                                    "briscola-6", "brisca-2-blackhand", "chiamata-5",
                                    "chiamata-5-subito-al-due", "schembil"])
def test_openspiel_random_simulation_checks(preset):
    game = pyspiel.load_game("briscasim", {"preset": preset})
    assert game.num_players() == game.rules.players
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_chiamata_game_points_sum_to_zero_and_the_auction_is_public():
    game = pyspiel.load_game("briscasim", {"preset": "chiamata-5-pagat"})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0 and game.num_players() == 5
    assert game.max_utility() == 40.0 == -game.min_utility()     # alone, ladder x cappotto
    state = _dealt(game, 6)
    rng = np.random.default_rng(2)
    while state.current_player() != pyspiel.PlayerId.TERMINAL and state.deal.phase != "play":
        state.apply_action(int(rng.choice(state.legal_actions())))
    if state.is_terminal():
        assert state.returns() == [0.0] * 5          # thrown in
        return
    called = state.deal.called
    holder = next(s for s in range(5) if called in state.deal.hand(s))
    for p in range(5):
        info = state.information_state_string(p)
        assert all(f"bid {s} {a} -" in info for s, a in state.deal.auction
                   if a.startswith("bid:"))
        assert f"call {state.deal.state[L.S_CALLER]} {card_code(called)}" in info
        seen = state.observation_string(p)
        assert "partner -" in seen                   # not played yet: secret
        tensor = np.array(state.information_state_tensor(p))
        assert tensor.sum() > 0
        if p != holder:
            other = state.resample_from_infostate(p, None, rng)
            assert other.information_state_string(p) == info
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == 0.0
    assert state.returns() == list(map(float, state.deal.contract.game_points))


def test_chiamata_reopen_question_and_a_deal_thrown_in():
    game = pyspiel.load_game("briscasim", {"preset": "chiamata-5-subito-al-due"})
    state = _dealt(game, 1)
    for _ in range(5):
        state.apply_action(L.ACTION_PASS)
    assert state.current_player() == 0 and state.deal.phase == "reopen"
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["pass", "bid:61"]
    state.apply_action(L.ACTION_PASS)
    assert "reopen 0 declines -" in state.information_state_string(3)
    for _ in range(4):
        state.apply_action(L.ACTION_PASS)
    assert state.is_terminal() and state.returns() == [0.0] * 5
    info = np.array(state.information_state_tensor(2))
    assert info.sum() > 0 and len(info) == len(state.information_state_tensor(0))


def test_pickles_clones_and_the_deal_underneath():
    game = pyspiel.load_game("briscasim", {"preset": "brisca-2"})
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 40
    state = _dealt(game, 4)
    deal = Deal.from_seed(game.rules, 4)
    while not state.is_terminal():
        clone = state.clone()
        a = state.legal_actions()[-1]
        assert state.legal_actions() == sorted(deal.legal_actions())
        state.apply_action(a)
        deal.play(a)
        assert str(clone) != str(state) and clone.history() == state.history()[:-1]
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    winner = deal.outcome.winner
    assert state.returns() == [0.0, 0.0] if winner is None else \
        state.returns()[winner] == 1.0


def test_a_seat_sees_only_what_it_may_know():
    game = pyspiel.load_game("briscasim", {"preset": "brisca-4-pairs"})
    state = _dealt(game, 2)
    rng = np.random.default_rng(0)
    steps = 0
    while not state.is_terminal():
        p = state.current_player()
        obs, _ = observe(state.deal._r, state.deal.state, p)
        assert list(state.observation_tensor(p)) == list(obs.astype(np.float32))
        others = set()
        for _ in range(3):
            other = state.resample_from_infostate(p, None, rng)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.legal_actions() == state.legal_actions()
            others.add(tuple(other.deck))
        if steps < 8:       # early on the unseen cards are dealt afresh
            assert len(others) > 1
        # the next seat's information names no card of p's hand that it has not seen
        q = (p + 1) % 4
        words = set(state.information_state_string(q).split())
        words |= set(state.observation_string(q).replace(";", " ").split())
        unseen = [c for c in state.deal.hand(p)
                  if state.deal.view(q).known[c] == L.KNOWN_UNSEEN]
        assert unseen and not words & {card_code(c) for c in unseen}
        state.apply_action(state.legal_actions()[0])
        steps += 1


def test_openspiels_ismcts_bot_plays_it():
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("briscasim", {"preset": "brisca-2"})
    rng = np.random.RandomState(0)
    resample = np.random.default_rng(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20,
                           random_state=rng)
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, None, resample))
    state = _dealt(game, 1)
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))


@pytest.mark.parametrize("preset", PLAYTHROUGHS.PRESETS)
def test_openspiels_playthrough_replays_as_stored(preset):
    stored, replayed = PLAYTHROUGHS.replay(preset)
    for i, (want, got) in enumerate(zip(stored.split("\n"), replayed.split("\n"))):
        assert got == want, f"{preset}: line {i + 1} of the playthrough differs"
    assert replayed == stored
    assert "PublicObservationString()" in stored and "PrivateObservationString(1)" in stored


def test_a_playthrough_for_each_family_and_no_other():
    assert sorted(p.name for p in PLAYTHROUGHS.DIR.iterdir()) == \
        sorted(PLAYTHROUGHS.path(p).name for p in PLAYTHROUGHS.PRESETS)


PUBLIC = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                    private_info=pyspiel.PrivateInfoType.NONE)
PRIVATE = pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                     private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)


@pytest.mark.parametrize("preset", ["brisca-4-pairs-signals", "chiamata-5", "schembil"])
def test_the_public_observer_is_everyones_and_the_private_one_the_seats_own(preset):
    game = pyspiel.load_game("briscasim", {"preset": preset})
    public, private = game.make_py_observer(PUBLIC), game.make_py_observer(PRIVATE)
    n = game.num_players()
    state = _dealt(game, 3)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        deal = state.deal
        public.set_from(state, 0)
        tensor, text = public.tensor.copy(), public.string_from(state, 0)
        for p in range(n):
            public.set_from(state, p)
            assert (public.tensor == tensor).all() and public.string_from(state, p) == text
            private.set_from(state, p)
            assert np.flatnonzero(private.dict["hand"]).tolist() == sorted(deal.hand(p))
            view = deal.view(p)
            assert private.string_from(state, p).startswith(
                f"seat {p}: hand {' '.join(card_code(c) for c in sorted(view.hand_cards))}")
        hidden = [c for s in range(n) for c in deal.hand(s)
                  if deal.view((s + 1) % n).known[c] == L.KNOWN_UNSEEN]
        named = {card_code(c) for c in hidden if c != deal.called}    # a call names a card
        assert not set(text.replace(";", " ").split()) & named
        assert not public.dict["held"][:, hidden].any()
        assert public.dict["unseen"][hidden].all()
        # every state a seat cannot tell from this one shows the same public view
        p = state.current_player()
        other = state.resample_from_infostate(p, None, rng)
        public.set_from(other, p)
        assert (public.tensor == tensor).all() and public.string_from(other, p) == text
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_the_public_view_of_a_swap_and_a_trick():
    game = pyspiel.load_game("briscasim", {"preset": "brisca-2"})
    public = game.make_py_observer(PUBLIC)
    for seed in range(20):          # a deal with a swap: swap whenever offered
        state = _dealt(game, seed)
        while not (state.deal.swaps or state.is_terminal()):
            legal = state.legal_actions()
            state.apply_action(L.ACTION_SWAP if L.ACTION_SWAP in legal else legal[0])
        if state.deal.swaps:
            break
    swap = state.deal.swaps[0]
    public.set_from(state, 0)
    assert public.dict["held"][swap.seat, swap.taken] == 1     # the face-up card taken
    assert f"{card_code(swap.taken)} at seat {swap.seat}" in public.string_from(state, 0)
    assert sum(public.dict["points"]) == sum(state.deal.points)
    assert public.dict["trick_no"][0] == len(state.deal.tricks)


def test_observers_it_does_not_have_are_refused_with_the_ones_it_has():
    game = pyspiel.load_game("briscasim", {"preset": "brisca-2"})
    for iig in (pyspiel.IIGObservationType(perfect_recall=False,
                                           private_info=pyspiel.PrivateInfoType.ALL_PLAYERS),
                pyspiel.IIGObservationType(public_info=False, perfect_recall=True)):
        with pytest.raises(ValueError, match="briscasim has no observer for .*: it observes "
                                             "a seat"):
            game.make_py_observer(iig)
    with pytest.raises(ValueError, match="observation parameters are not supported"):
        game.make_py_observer(None, {"x": 1})


def test_an_observer_called_for_a_player_not_in_the_game_names_the_players():
    game = pyspiel.load_game("briscasim", {"preset": "brisca-2"})
    state = _dealt(game, 1)
    for iig in (None, pyspiel.IIGObservationType(perfect_recall=True), PUBLIC, PRIVATE):
        observer = game.make_py_observer(iig)
        for player in (2, -1, True):
            for call in (observer.set_from, observer.string_from):
                with pytest.raises(UserError, match=f"player = {player!r}: the players of "
                                                    f"this game are 0 to 1"):
                    call(state, player)


def test_a_chance_outcome_off_the_deck_is_refused():
    game = pyspiel.load_game("briscasim", {"preset": "brisca-2"})
    state = game.new_initial_state()
    state.apply_action(3)
    with pytest.raises(IllegalAction, match="chance outcome Co: .* is placed already"):
        state.apply_action(3)
    with pytest.raises(IllegalAction, match="chance outcome 8o: .* is not in it"):
        state.apply_action(6)           # the eights and nines are not in the deck
    assert state.deck == [3] and len(state.chance_outcomes()) == 39

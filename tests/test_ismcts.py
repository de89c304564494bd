"""ismcts: legal and deterministic play in every kind of game, rewards, the inference on
sampled worlds, time budget, and convergence to the exact solver's choice in small
endgames."""
import numpy as np
import pytest

from briscasim.engine import core, layout as L
from briscasim.engine.rng import new_stream
from briscasim.game import Deal
from briscasim.replay import replay_deal
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies import dispatch, inference as F, ismcts as M
from briscasim.strategies.api import N_PARAMS
from briscasim.strategies.bidding import contract_decision
from briscasim.strategies.greedy import greedy_strategy
from briscasim.strategies.sampling import SPEC_LEN, prepare_worlds, sample_world
from briscasim.strategies.solver import MODEL_GREEDY, WIN, best_reply, new_search, position_value
import repo_scripts
from test_solver import _legal, _positions, _solve

pytestmark = pytest.mark.slow     # ISMCTS plays whole deals with many iterations a move


def _params(iterations, **kw):
    p = np.zeros(N_PARAMS)
    p[M.P_ITERATIONS] = iterations
    p[M.P_EXPLORATION] = 0.7
    p[M.P_TIME_BUDGET] = kw.get("time_budget", 0.0)
    p[M.P_ROLLOUT] = kw.get("rollout", F.ROLLOUT_RANDOM)
    p[M.P_REWARD] = kw.get("reward", M.REWARD_WIN)
    p[M.P_EXACT_ENDGAME] = kw.get("exact_endgame", 0)
    p[M.P_OTHERS] = kw.get("others", M.OTHERS_TREE)
    p[M.P_INFER] = kw.get("infer", 1.0)
    p[M.P_EXACT_STOCK] = -1
    p[M.P_EXACT_WORLDS] = 40
    return p


@pytest.mark.parametrize("preset,spec", [
    ("brisca-2", "ismcts:iterations=25"),
    ("brisca-2", "ismcts:iterations=25,others=tree,rollout=random"),
    ("brisca-2", "ismcts:iterations=25,history=2,infer=0.05,exact_stock=4,exact_worlds=5"),
    ("brisca-2", "ismcts:iterations=25,evaluation=1"),
    ("brisca-2", "ismcts:iterations=25,leaf_model=brisca-2"),
    ("brisca-3-remove2", "ismcts:iterations=25,leaf_model=auto,leaf_weight=1"),
    ("brisca-4-pairs", "ismcts:iterations=25,leaf_model=auto,leaf_weight=0,rollout=network"),
    ("briscola-2", "ismcts:iterations=25,leaf_model=auto,prior=2"),
    ("briscola-2", "ismcts:iterations=25,evaluation=0.7,reward=margin"),
    ("brisca-3-remove2", "ismcts:iterations=25,history=3,infer=0"),
    ("brisca-3-hidden", "ismcts:iterations=25,others_epsilon=0.2,epsilon=0.1"),
    ("brisca-4-pairs-signals", "ismcts:iterations=25,reward=margin"),
    ("brisca-4-pairs-signals", "ismcts:iterations=25,others=tree"),
    ("brisca-4-pairs-signals", "ismcts:iterations=25,infer=0,own_epsilon=0.3"),
    ("brisca-5-undrawn", "ismcts:iterations=25"),
    ("brisca-6-threes", "ismcts:iterations=25"),
    ("brisca-2-blackhand", "ismcts:iterations=25"),
    ("brisca-reves", "ismcts:iterations=25,reward=margin"),
    ("chiamata-5", "ismcts:iterations=25,infer_auction=0"),
])
def test_legal_and_deterministic(preset, spec):
    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, [spec, "random"] * (rules.players // 2)
                          + ["random"] * (rules.players % 2))
    a = play_chunk(rules, lineup, 5, 0, 3, rotations=rules.players)   # raises if illegal
    b = play_chunk(rules, lineup, 5, 0, 3, rotations=rules.players)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs"])
def test_peek_shown_no_hand_plays_as_ismcts(preset):
    """The cheating reference peek, shown no hand, is ismcts move for move; shown every hand,
    it plays other moves."""
    rules = Rules.preset(preset)
    k = rules.players

    def records(spec):
        lineup = Lineup.build(rules, [spec] + ["greedy"] * (k - 1))
        return play_chunk(rules, lineup, 5, 0, 4, rotations=k)
    ismcts = records("ismcts:iterations=50")
    assert np.array_equal(records("peek:iterations=50,hands=none"), ismcts)
    assert not np.array_equal(records("peek:iterations=50"), ismcts)


def test_peek_told_the_hands_late_plays_as_ismcts_until_then():
    """peek with ``stock=6`` plays ismcts's moves, card for card, while more than 6 cards are
    left to draw (the first 14 tricks of brisca-2); told the hands from the start, it plays
    other tricks."""
    rules = Rules.preset("brisca-2")

    def tricks(spec, deal):
        return [(t.leader, t.cards) for t in
                replay_deal(rules, [spec, "greedy"], 5, deal).tricks]
    late = first = 0
    for deal in range(4):
        ismcts = tricks("ismcts:iterations=50", deal)
        late_tricks = tricks("peek:iterations=50,stock=6", deal)
        assert late_tricks[:14] == ismcts[:14]
        late += late_tricks != ismcts
        first += tricks("peek:iterations=50", deal)[:14] != ismcts[:14]
    assert late > 0 and first > 0


def _records(spec):
    """The records of 4 brisca-2 deals (seed 5, both rotations), ``spec`` against greedy."""
    rules = Rules.preset("brisca-2")
    return play_chunk(rules, Lineup.build(rules, [spec, "greedy"]), 5, 0, 4, rotations=2)


def test_the_leaf_network_changes_the_search():
    """With leaf_model the leaves are valued by the network: other moves than without."""
    none = _records("ismcts:iterations=50")
    assert np.array_equal(_records("ismcts:iterations=50,leaf_model=none,leaf_weight=1"), none)
    assert not np.array_equal(_records("ismcts:iterations=50,leaf_model=brisca-2,leaf_weight=1"),
                              none)


def test_a_leaf_model_with_no_use_plays_as_without():
    """leaf_weight = 0, greedy play-outs and no prior: the network does nothing, the
    evaluation applies as without it, and the search plays the same moves."""
    assert np.array_equal(_records("ismcts:iterations=50,leaf_model=brisca-2,leaf_weight=0"),
                          _records("ismcts:iterations=50"))


def test_the_network_prior_changes_the_search():
    assert not np.array_equal(_records("ismcts:iterations=50,leaf_model=brisca-2,leaf_weight=0,"
                                       "prior=3"), _records("ismcts:iterations=50"))


def test_root_priors_are_the_softmax_of_the_network_over_the_legal_actions():
    from briscasim.observation import OBSERVATION_LEN, encode
    from briscasim.strategies.learned import model_for
    from briscasim.strategies.network import forward_batch
    for preset in ("brisca-2", "brisca-4-pairs"):
        rules = Rules.preset(preset)
        r = rules.to_array()
        w = model_for(rules, "auto").weights
        deal = Deal.from_seed(rules, 9, 2)
        while not deal.over:
            seat = deal.turn
            legal = np.array(deal.legal_actions())
            view = deal.view(seat)
            out = np.zeros(L.N_ACTIONS)
            M.root_priors(r, view.public, view.hand, seat, view.signals, w.ctypes.data,
                          legal.astype(np.int16), len(legal), out)
            obs = np.zeros((1, OBSERVATION_LEN), np.int8)
            encode(r, deal.state, seat, obs[0])
            q = np.zeros((1, L.N_ACTIONS), np.float32)
            forward_batch(w, obs, q, np.zeros(1, np.float32))
            p = np.exp(q[0, legal] - q[0, legal].max())
            assert out[legal] == pytest.approx(p / p.sum(), abs=1e-5)
            assert out.sum() == pytest.approx(1.0)
            deal.play(int(legal[-1]))


def test_network_play_outs_change_the_search():
    assert not np.array_equal(_records("ismcts:iterations=50,leaf_model=brisca-2,leaf_weight=0"),
                              _records("ismcts:iterations=50,leaf_model=brisca-2,leaf_weight=0,"
                                      "rollout=network"))


def test_a_network_play_out_moves_as_the_learned_player_from_the_same_view():
    """network_move on the whole deal state decides as learned (the network alone, its exact
    searches off) does from the seat's view."""
    from briscasim.strategies.learned import NETWORK_ALONE, model_for, network_move
    for preset in ("brisca-2", "brisca-4-pairs-signals"):
        rules = Rules.preset(preset)
        r = rules.to_array()
        address = model_for(rules, "auto").weights.ctypes.data
        lineup = Lineup.build(rules, f"learned:{NETWORK_ALONE}")
        legal = np.empty(L.MAX_LEGAL_ANY, np.int16)
        for i in range(5):
            deal = Deal.from_seed(rules, 3, i)
            while not deal.over:
                seat = deal.turn
                a = network_move(r, deal.state, address, legal, L.EVERY_FEATURE)
                assert a == dispatch.decide_entry(lineup.arrays(), r, deal.state, seat, seat,
                                                  new_stream(1))
                deal.play(int(a))


def test_position_chance_reads_the_position_value_of_the_seat_to_move():
    from briscasim.observation import OBSERVATION_LEN, encode
    from briscasim.strategies.learned import model_for
    from briscasim.strategies.network import forward_batch, position_chance
    rules = Rules.preset("brisca-3-remove2")
    r = rules.to_array()
    w = model_for(rules, "auto").weights
    deal = Deal.from_seed(rules, 7, 1)
    checked = 0
    while not deal.over:
        obs = np.zeros((1, OBSERVATION_LEN), np.int8)
        encode(r, deal.state, deal.turn, obs[0])
        v = np.zeros(1, np.float32)
        forward_batch(w, obs, np.zeros((1, L.N_ACTIONS), np.float32), v)
        chance = position_chance(r, deal.state, w.ctypes.data)
        assert chance == pytest.approx(min(max((v[0] + 1) / 2, 0), 1), abs=1e-5)
        checked += 0 < chance < 1
        deal.play(deal.legal_actions()[0])
    assert checked > 10


@pytest.mark.parametrize("spec, rules, words", [
    ("ismcts:leaf_model=/no/such/model.npz", "brisca-2",
     ["ismcts leaf_model: model file /no/such/model.npz does not exist"]),
    ("peek:leaf_model=nonesuch", "brisca-2", ["peek leaf_model: model 'nonesuch' is neither"]),
    ("ismcts:leaf_model=chiamata-5", "brisca-2", ["does not fit the rules brisca-2"]),
    ("ismcts:leaf_model=auto", "chiamata-5", ["trick games only", "leaf_model=none"]),
    ("ismcts:rollout=network", "brisca-2", ["rollout=network", "give leaf_model=M"]),
    ("ismcts:prior=2", "brisca-2", ["prior=2", "give leaf_model=M"]),
])
def test_a_leaf_model_that_cannot_play_is_refused(spec, rules, words):
    from briscasim.strategies.params import StrategyError
    with pytest.raises(StrategyError) as e:
        Lineup.build(Rules.preset(rules), spec)
    assert "\n" not in str(e.value) and all(w in str(e.value) for w in words)


def test_side_rewards():
    rules = Rules.preset("brisca-4-pairs")
    r = rules.to_array()
    out = np.zeros(8)
    rng = np.random.default_rng(1)
    for d in range(20):
        deal = Deal.from_seed(rules, 2, d)
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(int(legal[rng.integers(len(legal))]))
        p = deal.state[L.S_POINTS:L.S_POINTS + 2].astype(int)
        M.side_rewards(r, deal.state, M.REWARD_WIN, 0.0, 120, out)
        w = deal.state[L.S_WINNER]
        expect = [0.5, 0.5] if w == L.DRAW else [float(w == 0), float(w == 1)]
        assert list(out[:2]) == expect
        M.side_rewards(r, deal.state, M.REWARD_MARGIN, 0.0, 120, out)
        assert out[0] == pytest.approx(0.5 + (p[0] - p[1]) / 240)
        assert out[0] + out[1] == pytest.approx(1.0)
        M.side_rewards(r, deal.state, M.REWARD_WIN, 0.25, 120, out)
        assert out[0] == pytest.approx(0.75 * expect[0] + 0.25 * (0.5 + (p[0] - p[1]) / 240))
    assert M.deal_points(r) == 120


def test_world_weight_follows_greedy():
    """A world keeps weight 1 when greedy, holding the leader's cards in some order, would
    have led the card it led, and ``infer`` when not."""
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    gp = np.array(M._GREEDY_DEFAULTS)
    rng = new_stream(1)
    ws = M.numpy_workspace()
    seen = {True: 0, False: 0}
    for d in range(20):
        deal = Deal.from_seed(rules, 3, d)
        while not deal.over:
            legal = deal.legal_actions()
            if deal.state[L.S_PHASE] == L.PHASE_PLAY and deal.state[L.S_TRICK_N] == 0 \
                    and len(legal) > 1:
                leader = deal.turn
                v = deal.view(leader)
                g = greedy_strategy(r, v.public, v.hand, np.array(legal, np.int16), leader, 0,
                                    gp, rng)
                a = int(legal[(d + deal.state[L.S_TRICK_NO]) % len(legal)])
                deal.play(a)
                assert F.prepare_inference(r, deal.state[:L.PUBLIC_LEN], deal.turn, 0, ws) == 1
                w = F.world_weight(r, deal.state, 0.25, 0.0, ws, rng)
                same = a == g or a == greedy_strategy(
                    r, v.public, np.array(_first(v.hand, a), np.int16),
                    np.array(_first(legal, a), np.int16), leader, 0, gp, rng)
                assert w == (1.0 if same else 0.25)
                seen[same] += 1
            else:
                deal.play(int(legal[0]))
    assert seen[True] > 0 and seen[False] > 0


def _first(cards, card):
    """``cards`` with ``card`` moved to the front."""
    return [card] + [c for c in cards if c != card]


def _blank_hand(rules, state, seat, led):
    """A copy of ``state`` in which ``seat`` holds three blank plain cards of other faces than
    ``led``, taken from its hand and the face-down stock (the cards it held go where they
    were), or None if there are not three."""
    r = rules.to_array()
    h = L.S_HANDS + L.MAX_HAND * seat
    slots = [h + i for i in range(3)] + list(range(L.S_STOCK + int(state[L.S_DRAWN]),
                                                  L.S_STOCK + int(state[L.S_N_FACEDOWN])))
    trump = int(state[L.S_TRUMP])
    blank = [i for i in slots if r[L.R_POINTS + state[i] % 12] == 0
             and r[L.R_CARD_SUIT + state[i]] != trump
             and r[L.R_CARD_FACE + state[i]] != r[L.R_CARD_FACE + led]]
    if len(blank) < 3:
        return None
    world = state.copy()
    world[slots[:3]] = state[blank[:3]]
    held = [state[i] for i in slots[:3] if i not in blank[:3]]
    world[[i for i in blank[:3] if i not in slots[:3]]] = held
    return world


def _seat0_turns(rules, seed, n_deals, rng):
    """Deals of ``seed`` among greedy players: ``(deal, view, legal)`` at each of seat 0's
    turns, before greedy plays it."""
    r = rules.to_array()
    gp = np.array(M._GREEDY_DEFAULTS)
    for d in range(n_deals):
        deal = Deal.from_seed(rules, seed, d)
        while not deal.over:
            legal = np.array(deal.legal_actions(), np.int16)
            seat = deal.turn
            v = deal.view(seat)
            if seat == 0:
                yield deal, v, legal
            deal.play(int(greedy_strategy(r, v.public, v.hand, legal, seat, 0, gp, rng)))


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-3-remove2", "brisca-4-pairs"])
def test_the_true_world_stays_possible(preset):
    """Among greedy players the inference never rules out what happened: at every decision
    the true world has weight 1 for some order of the draws, ties that greedy breaks by the
    order of its hand included (a card of the suit led and one of another suit with the
    same face and points, say)."""
    rules = Rules.preset(preset)
    r = rules.to_array()
    rng = new_stream(5)
    ws = M.numpy_workspace()
    checked = 0
    for deal, v, legal in _seat0_turns(rules, 5, 12, rng):
        if len(legal) > 1 and F.prepare_inference(r, v.public, 0, 2, ws):
            assert any(F.world_weight(r, deal.state, 0.25, 0.0, ws, rng) == 1.0
                       for _ in range(4000))
            checked += 1
    assert checked > 50


def test_history_inference_reads_the_past_tricks():
    """With ``history``, the true world stays possible (weight 1 for some order of the
    draws), and a world in which the greedy opponent, two tricks ago, would have led a card
    worth less than the one it led is weighed down whatever the order of the draws; without
    ``history`` nothing is read when the opponent has not played to the current trick."""
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    rng = new_stream(2)
    ws = M.numpy_workspace()
    checked = doctored = 0
    for deal, v, legal in _seat0_turns(rules, 4, 30, rng):
        if deal.state[L.S_PHASE] == L.PHASE_PLAY and 3 <= v.public[L.S_TRICK_NO] and v.public[
                L.S_TO_DRAW] > 0 and F.prepare_inference(r, v.public, 0, 2, ws) > 0:
            # (prepare_inference lists no play right after a swap)
            weights = [F.world_weight(r, deal.state, 0.25, 0.0, ws, rng)
                       for _ in range(64)]
            assert max(weights) == 1.0
            checked += 1
            t = int(v.public[L.S_TRICK_NO]) - 1
            first = int(v.public[L.S_PLAYS + 2 * t])
            led = first % L.PLAY_SEAT
            if (first // L.PLAY_SEAT == 1 and v.public[L.S_TRICK_N] == 0
                    and int(ws.infer_info[F.I_FIRST]) <= t
                    and (r[L.R_POINTS + led % 12] > 0
                         or r[L.R_CARD_SUIT + led] == v.public[L.S_TRUMP])):
                world = _blank_hand(rules, deal.state, 1, led)
                if world is not None:
                    assert all(F.world_weight(r, world, 0.25, 0.0, ws, rng) <= 0.25
                               for _ in range(16))
                    assert F.prepare_inference(r, v.public, 0, 0, ws) == 0
                    doctored += 1
    assert checked > 50 and doctored > 5


def test_auction_weight_rejects_a_world_inconsistent_with_the_bids():
    """Briscola Chiamata: the world as dealt, auctioned by greedy's bidding rule, keeps weight
    1 at any point of the play; the same world with the caller's hand swapped for another
    seat's (who passed, or bid less) weighs ``infer``."""
    rules = Rules.preset("chiamata-5")
    deal_state = np.zeros(L.STATE_LEN, np.int16)
    legal = np.zeros(L.MAX_LEGAL_ANY, np.int16)
    played = 0
    for d in range(12):
        deal = Deal.from_seed(rules, 3, d)
        while deal.state[L.S_PHASE] >= L.PHASE_AUCTION:
            v = deal.view(deal.turn)
            deal.play(int(contract_decision(deal._r, v.public, v.hand,
                                            np.array(deal.legal_actions(), np.int16))))
        if deal.over:
            continue    # everybody passed
        for _ in range(d % 17):
            deal.play(int(deal.legal_actions()[-1]))
        world = deal.state.copy()
        assert F.auction_weight(deal._r, world, 0.25, deal_state, legal) == 1.0
        caller = world[L.S_CALLER]
        a = L.S_HANDS + caller * L.MAX_HAND
        b = L.S_HANDS + (caller + 1) % rules.players * L.MAX_HAND
        world[a:a + L.MAX_HAND], world[b:b + L.MAX_HAND] = (deal.state[b:b + L.MAX_HAND],
                                                            deal.state[a:a + L.MAX_HAND])
        assert F.auction_weight(deal._r, world, 0.25, deal_state, legal) == 0.25
        played += 1
    assert played >= 8


def test_time_budget_stops_the_search():
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    deal = Deal.from_seed(rules, 1)
    v = deal.view(0)
    rng = new_stream(3)
    a, it = M.run_search(r, v.public, v.hand, 0, 0, _params(10_000_000, time_budget=0.02),
                         rng, L.EVERY_FEATURE, v.public)
    assert a in deal.legal_actions()
    assert 0 < it < 10_000_000


@pytest.mark.parametrize("spec, iterations", [
    ("ismcts:time_budget=0.5", M.MAX_ITERATIONS),       # the budget alone: no count to stop at
    ("ismcts:time_budget=0.5,iterations=200", 200),     # both: whichever comes first
    ("ismcts:iterations=200", 200),
    ("ismcts", 1000),
])
def test_a_time_budget_alone_searches_until_it_is_spent(spec, iterations):
    from briscasim.strategies.registry import resolve
    s = resolve(spec)
    assert s.params[0][M.P_ITERATIONS] == iterations
    assert resolve(s.label) == s and resolve(s.label).params[0][M.P_ITERATIONS] == iterations


@pytest.mark.parametrize("exact_endgame", [0, 1])
def test_endgame_choice_matches_the_solver(exact_endgame):
    """The search converges to a move as good as the solver's (win / draw / loss); with
    ``exact_endgame`` it plays the solver's move itself."""
    r, positions = _positions("brisca-2", 6, 12, seed=4)
    for k, state in enumerate(positions):
        seat = int(state[L.S_TURN])
        hand = state[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3].copy()
        rng = new_stream(k)
        a = M.ismcts_strategy(r, state[:L.PUBLIC_LEN].copy(), hand, _legal(r, state), seat, 0,
                              _params(3000 if not exact_endgame else 1,
                                      exact_endgame=exact_endgame), rng)
        _, actions, values = _solve(r, state)
        outcome = np.floor((values + WIN / 2) / WIN)   # +1 win, 0 draw, -1 loss
        assert outcome[list(actions).index(a)] == outcome.max()
        if exact_endgame:
            assert values[list(actions).index(a)] == values.max()


def _against_greedy(r, state, side, greedy_params):
    """Outcome for ``side`` (+1 / 0 / -1) of its best play against greedy's moves, by full
    enumeration (plain Python over the engine's step)."""
    if state[L.S_PHASE] == L.PHASE_OVER:
        v = position_value(r, state, side)
        return 1 if v > WIN / 2 else -1 if v < -WIN / 2 else 0
    if r[L.R_SIDE + state[L.S_TURN]] != side:
        child = state.copy()
        a = F.policy_move(r, child, F.GREEDY, 0.0, greedy_params, new_stream(0),
                          np.zeros(L.MAX_LEGAL_ANY, np.int16), L.EVERY_FEATURE)
        core.step(r, child, a)
        return _against_greedy(r, child, side, greedy_params)
    outcomes = []
    for a in _legal(r, state):
        child = state.copy()
        core.step(r, child, a)
        outcomes.append(_against_greedy(r, child, side, greedy_params))
    return max(outcomes)


@pytest.mark.parametrize("plies", [5, 6, 9, 12])
def test_best_reply_matches_enumeration(plies):
    """:func:`best_reply`'s value is the best outcome against greedy's moves, stock or not."""
    r, positions = _positions("brisca-2", plies, 8, seed=6)
    search = new_search()
    greedy_params = np.array(M._GREEDY_DEFAULTS)
    scratch = np.zeros(L.MAX_LEGAL_ANY, np.int16)
    for state in positions:
        side = r[L.R_SIDE + state[L.S_TURN]]
        search.stack[:L.STATE_LEN] = state
        v = best_reply(r, search, side, greedy_params, scratch, new_stream(0))
        outcome = 1 if v > WIN / 2 else -1 if v < -WIN / 2 else 0
        assert outcome == _against_greedy(r, state, side, greedy_params)


@pytest.mark.parametrize("plies", [5, 6])
def test_exact_model_greedy_plays_the_best_reply(plies):
    """With ``exact_model = greedy`` the exact endgame plays a move of the best outcome
    against greedy's replies, and one that wins against every reply if one of that outcome
    does."""
    r, positions = _positions("brisca-2", plies, 12, seed=6)
    greedy_params = np.array(M._GREEDY_DEFAULTS)
    p = _params(1, exact_endgame=1)
    p[M.P_EXACT_MODEL] = MODEL_GREEDY
    for k, state in enumerate(positions):
        seat = int(state[L.S_TURN])
        side = r[L.R_SIDE + seat]
        hand = state[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3].copy()
        a = M.ismcts_strategy(r, state[:L.PUBLIC_LEN].copy(), hand, _legal(r, state), seat, 0,
                              p, new_stream(k))
        outcome = {}
        for b in _legal(r, state):
            child = state.copy()
            core.step(r, child, b)
            outcome[b] = _against_greedy(r, child, side, greedy_params)
        assert outcome[a] == max(outcome.values())
        _, actions, values = _solve(r, state)
        if any(v > WIN / 2 and outcome[b] == outcome[a] for b, v in zip(actions, values)):
            assert values[list(actions).index(a)] > WIN / 2


def test_exact_stock_plays_a_best_move_over_the_worlds():
    """With ``exact_stock``, the move played has a mean exact value over the worlds consistent
    with the view (estimated apart, on 1000 other worlds) close to the best move's."""
    r, positions = _positions("brisca-2", 10, 6, seed=5)
    p = _params(1, exact_endgame=1)
    p[M.P_EXACT_STOCK] = 4
    p[M.P_EXACT_WORLDS] = 1000
    base = np.zeros(L.STATE_LEN, np.int16)
    spec = np.zeros(SPEC_LEN, np.int64)
    world = np.zeros(L.STATE_LEN, np.int16)
    search = new_search()
    for k, state in enumerate(positions):
        seat = int(state[L.S_TURN])
        public = state[:L.PUBLIC_LEN].copy()
        hand = state[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3].copy()
        assert 0 < public[L.S_TO_DRAW] <= 4
        a = M.ismcts_strategy(r, public, hand, _legal(r, state), seat, 0, p, new_stream(k))
        prepare_worlds(r, public, hand, seat, 0, base, spec)
        rng = new_stream(1000 + k)
        total = 0.0
        for _ in range(1000):
            sample_world(base, spec, rng, world)
            _, actions, values = _solve(r, world, search=search)
            total = total + values
        assert total[list(actions).index(a)] / 1000 >= total.max() / 1000 - 0.05 * WIN


def test_inference_reads_the_other_sides_only():
    """In a game of pairs the inference lists the opponents' plays, never a partner's, the
    latest first, from the current trick and the tricks ``history`` reads."""
    rules = Rules.preset("brisca-4-pairs")
    r = rules.to_array()
    ws = M.numpy_workspace()
    rng = np.random.default_rng(3)
    seen = 0
    for d in range(10):
        deal = Deal.from_seed(rules, 6, d)
        while not deal.over:
            legal = deal.legal_actions()
            v = deal.view(deal.turn)
            if deal.state[L.S_PHASE] == L.PHASE_PLAY and v.public[L.S_SWAP7_SEAT] < 0 \
                    and v.public[L.S_SWAP2_SEAT] < 0:
                k = F.prepare_inference(r, v.public, deal.turn, 1, ws)
                t = int(v.public[L.S_TRICK_NO])
                played = int(v.public[L.S_TRICK_N])
                assert k == (played + 1) // 2 + (2 if t > 0 else 0)
                obs = ws.obs[:k * F.OBS_LEN].reshape(k, F.OBS_LEN)
                assert all(rules.side_of[x] != rules.side_of[deal.turn] for x in obs[:, 0])
                assert list(obs[:, 2]) == sorted(obs[:, 2], reverse=True)
                seen += k
            deal.play(int(legal[rng.integers(len(legal))]))
    assert seen > 100


def test_inference_accuracy_script_prints_a_share_per_setting(capsys):
    """scripts/inference_accuracy.py: one row per inference setting, shares within [0, 1]."""
    script = repo_scripts.load("inference_accuracy")
    script.main(["--preset", "brisca-3-remove2", "--deals", "2", "--worlds", "4"])
    rows = capsys.readouterr().out.splitlines()[2:]
    assert len(rows) == len(script.SETTINGS)
    for row, (name, *_) in zip(rows, script.SETTINGS):
        shares = [float(x) for x in row[len(name):].split() if x != "-"]
        assert row.startswith(name) and shares and all(0 <= x <= 1 for x in shares)


def test_the_search_is_cached_as_every_kernel():
    """The resampler is a constant of the search's code, never a function passed down as a
    value (which numba cannot cache: every run would compile the search anew)."""
    from briscasim.jit import compiled
    kernel = compiled(dispatch.search_decider(L.EVERY_FEATURE), dispatch.SEARCH_SIGNATURE)
    assert kernel.overloads and all(not c.library.has_dynamic_globals
                                    for c in kernel.overloads.values())

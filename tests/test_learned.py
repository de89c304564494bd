"""The ``learned`` strategy: model files, their checks, the network in numba, and play."""
import hashlib
import json

import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.observation import OBSERVATION_LEN, observe
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies import learned
from briscasim.strategies.network import WEIGHTS_LEN, forward_batch, layout
from briscasim.strategies.registry import StrategyError


def _model(path, seed=0, preset="brisca-2", **meta):
    w = np.random.default_rng(seed).normal(0, 0.1, WEIGHTS_LEN).astype(np.float32)
    rules = Rules.preset(preset)
    learned.save_model(path, w, {"preset": preset, "players": rules.players,
                                 "auction": rules.chiamata, **meta})
    return w


def _network_choice(w, r, state, seat):
    """The legal actions of ``seat`` and the one of highest value under the weights ``w``,
    from the observation the environments give."""
    obs, mask = observe(r, state, seat)
    q = np.zeros((1, L.N_ACTIONS), np.float32)
    forward_batch(w, obs[None], q, np.zeros(1, np.float32))
    legal = np.flatnonzero(mask)
    return legal, legal[np.argmax(q[0, legal])]

def test_shipped_models_match_their_checksums():
    sums = learned.shipped_checksums()
    assert {"brisca-2.npz", "briscola-2.npz", "brisca-4-pairs.npz", "brisca-3-remove2.npz",
            "chiamata-5.npz"} <= set(sums)
    for name, digest in sums.items():
        path = learned.MODELS_DIR / name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, name
        assert path.stat().st_size <= 1_000_000
        model = learned.load_model(path)
        assert model.meta["preset"] == name.removesuffix(".npz")


def test_default_model_is_the_presets_own_or_one_for_as_many_players():
    assert learned.default_model(Rules.preset("brisca-2")) == "brisca-2"
    assert learned.default_model(Rules.preset("chiamata-5-points")) == "chiamata-5"
    assert learned.default_model(Rules.preset("brisca-3-hidden")) == "brisca-3-remove2"
    assert learned.default_model(Rules.preset("briscola-4")) == "brisca-4-pairs"


def test_a_model_file_is_checked(tmp_path):
    path = tmp_path / "m.npz"
    _model(path)
    assert learned.load_model(path).weights.shape == (WEIGHTS_LEN,)
    with pytest.raises(StrategyError, match="does not exist"):
        learned.load_model(tmp_path / "none.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    with pytest.raises(StrategyError, match="is not a model file"):
        learned.load_model(tmp_path / "junk.npz")
    with np.load(path) as z:
        w, meta = z["weights"].copy(), json.loads(str(z["meta"]))
    w[0] += 1
    np.savez(tmp_path / "damaged.npz", weights=w, meta=np.array(json.dumps(meta)))
    with pytest.raises(StrategyError, match="do not match their sha256"):
        learned.load_model(tmp_path / "damaged.npz")
    np.savez(tmp_path / "old.npz", weights=w, meta=np.array(json.dumps(
        dict(meta, observation="0" * 16))))
    with pytest.raises(StrategyError, match="another observation layout"):
        learned.load_model(tmp_path / "old.npz")


def test_a_model_that_does_not_fit_the_rules_is_refused(tmp_path):
    path = tmp_path / "chiamata.npz"
    _model(path, preset="chiamata-5")
    with pytest.raises(StrategyError, match="does not fit the rules brisca-2"):
        Lineup.build(Rules.preset("brisca-2"), f"learned:model={path}")
    with pytest.raises(StrategyError, match="neither a shipped model"):
        Lineup.build(Rules.preset("brisca-2"), "learned:model=nonesuch")


def test_the_strategy_plays_the_legal_action_of_highest_value(tmp_path):
    """Against the network's values computed for the observation the environments give (the
    exact searches off: the network decides every move)."""
    path = tmp_path / "m.npz"
    w = _model(path, seed=3)
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    lineup = Lineup.build(rules, f"learned:model={path},{learned.NETWORK_ALONE}")
    from briscasim.strategies.dispatch import decide_entry
    from briscasim.engine.rng import new_stream
    checked = 0
    for i in range(20):
        deal = Deal.from_seed(rules, 5, i)
        while not deal.over:
            seat = deal.turn
            legal, best = _network_choice(w, r, deal.state, seat)
            a = decide_entry(lineup.arrays(), r, deal.state, seat, seat, new_stream(1))
            if len(legal) > 1:
                assert a == best
                checked += 1
            deal.play(int(a))
    assert checked > 500


def _mean_exact_values(r, state, seat):
    """Every legal action's exact value averaged over every world the seat's view allows,
    by brute force: the one face-down card left in the stock is any of the cards the seat
    has not seen, the opponent's hand the others."""
    from test_solver import _solve
    facedown = range(state[L.S_DRAWN], state[L.S_N_FACEDOWN])
    assert len(facedown) == 1
    slot = L.S_STOCK + facedown[0]
    other = L.S_HANDS + L.MAX_HAND * (1 - seat)
    unseen = [int(c) for c in state[other:other + L.MAX_HAND] if c != L.NO_CARD]
    unseen.append(int(state[slot]))
    total = {}
    for x in unseen:
        world = state.copy()
        world[slot] = x
        rest = [c for c in unseen if c != x]
        world[other:other + L.MAX_HAND] = rest + [L.NO_CARD] * (L.MAX_HAND - len(rest))
        _, actions, values = _solve(r, world)
        for a, v in zip(actions, values):
            total[int(a)] = total.get(int(a), 0.0) + v / len(unseen)
    return total


def _play_decisions(rules, lineup, w, deals, stream):
    """Play ``deals`` deals of seed 6 with ``lineup`` at every seat, seat ``s`` of deal ``i``
    deciding with ``new_stream(stream(i))``; yield ``(state, seat, action, the network's
    action under the weights w, i)`` at every play-phase decision with a choice."""
    from briscasim.engine.rng import new_stream
    from briscasim.strategies.dispatch import decide_entry
    r, arrays = rules.to_array(), lineup.arrays()
    for i in range(deals):
        deal = Deal.from_seed(rules, 6, i)
        while not deal.over:
            seat = deal.turn
            legal, best = _network_choice(w, r, deal.state, seat)
            a = decide_entry(arrays, r, deal.state, seat, seat, new_stream(stream(i)))
            if len(legal) > 1 and deal.state[L.S_PHASE] == L.PHASE_PLAY:
                yield deal.state, seat, a, best, i
            deal.play(int(a))


@pytest.mark.parametrize("preset", ["brisca-2", "briscola-2", "brisca-2-blackhand"])
def test_near_the_end_it_plays_a_move_of_best_exact_value(tmp_path, preset):
    """With two players every card is known once the stock is empty: the move played is one
    the alpha-beta solver values best, whatever the network says. With one face-down card
    left to draw, a handful of worlds remain: the move is one of best mean exact value over
    all of them. Before, the network's move."""
    from test_solver import _solve
    path = tmp_path / "m.npz"
    w = _model(path, seed=4, preset=preset)
    rules = Rules.preset(preset)
    r = rules.to_array()
    lineup = Lineup.build(rules, f"learned:model={path}")
    exact = averaged = network = 0
    for state, seat, a, best, _ in _play_decisions(rules, lineup, w, 20, lambda i: 1):
        if state[L.S_TO_DRAW] == 0:
            _, actions, values = _solve(r, state.copy())
            assert values[list(actions).index(a)] == pytest.approx(max(values))
            exact += 1
        elif state[L.S_TO_DRAW] == 2:
            mean = _mean_exact_values(r, state, seat)
            assert mean[int(a)] == pytest.approx(max(mean.values()))
            averaged += 1
        elif state[L.S_TO_DRAW] > 4:
            assert a == best
            network += 1
    assert exact > 60 and averaged > 30 and network > 150


@pytest.mark.parametrize("preset", ["brisca-3-remove2", "brisca-4-pairs", "chiamata-5"])
def test_with_more_players_the_last_tricks_are_searched_in_sampled_worlds(tmp_path, preset):
    """With more than two players, once the stock is empty and at most ``late_plies`` cards
    remain, the move is pimc's exact search over as many worlds drawn from the same stream;
    before, the network's move."""
    from briscasim.engine.rng import new_stream
    from briscasim.strategies.dispatch import decide_entry
    from briscasim.strategies.solver import remaining_plies
    path = tmp_path / "m.npz"
    w = _model(path, seed=4, preset=preset)
    rules = Rules.preset(preset)
    r = rules.to_array()
    mine = Lineup.build(rules, f"learned:model={path},late_worlds=8,late_plies=10")
    pimc = Lineup.build(rules, "pimc:worlds=8,exact_plies=48").arrays()
    late = network = differ = 0
    for state, seat, a, best, i in _play_decisions(rules, mine, w, 6, lambda i: i):
        if state[L.S_TO_DRAW] == 0 and remaining_plies(r, state) <= 10:
            assert a == decide_entry(pimc, r, state, seat, seat, new_stream(i))
            late += 1
            differ += a != best
        else:
            assert a == best
            network += 1
    assert late > 20 and network > 20 and differ > 0


def test_the_sparse_network_equals_a_dense_forward_pass(tmp_path):
    w = np.random.default_rng(1).normal(0, 0.1, WEIGHTS_LEN).astype(np.float32)
    obs = np.random.default_rng(2).integers(0, 3, (16, OBSERVATION_LEN)).astype(np.int8)
    q = np.zeros((16, L.N_ACTIONS), np.float32)
    v = np.zeros(16, np.float32)
    forward_batch(w, obs, q, v)
    blocks = {k: w[o:o + n] for k, (o, n) in layout().items()}
    from briscasim.strategies.network import HIDDEN1, HIDDEN2
    h = np.maximum(obs @ blocks["w1"].reshape(OBSERVATION_LEN, HIDDEN1) + blocks["b1"], 0)
    h = np.maximum(h @ blocks["w2"].reshape(HIDDEN2, HIDDEN1).T + blocks["b2"], 0)
    np.testing.assert_allclose(q, h @ blocks["wq"].reshape(L.N_ACTIONS, HIDDEN2).T
                               + blocks["bq"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(v, h @ blocks["wv"] + blocks["bv"], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("preset", ["brisca-2", "briscola-2"])
def test_the_shipped_model_beats_random(preset):
    """The shipped two-player models win well over half their deals against random (a model
    that plays at random, or a network read wrongly, wins about half)."""
    rules = Rules.preset(preset)
    rec = play_chunk(rules, Lineup.build(rules, ["learned", "random"]), 11, 0, 400, rotations=2)
    won = np.where(np.arange(len(rec)) % 2 == 0, rec[:, L.REC_WINNER] == 0,
                   rec[:, L.REC_WINNER] == 1)
    assert won.mean() > 0.6


def test_teacher_agreement_counts_every_decision_by_trick():
    """scripts/teacher_agreement.py: a deterministic teacher always repeats its own move, and
    the model, taught by no one, agrees with it in part."""
    import repo_scripts
    rows = repo_scripts.load("teacher_agreement").agreement("brisca-2", "auto", "greedy",
                                                            envs=8, deals=8, seed=1)
    assert [r["trick"] for r in rows] == list(range(1, 20))     # trick 20: one card left
    assert all(r["teacher_teacher"] == 1.0 for r in rows)
    assert sum(r["decisions"] for r in rows) >= 8 * 2 * 19
    assert 0.2 < np.mean([r["model_teacher"] for r in rows]) < 1.0

"""Conformance of EVERY registered strategy (REGISTRY is read when the tests are collected,
so strategies registered later are covered without editing this file).

For each one: only legal actions in every preset, alone and against others; the same
decision when the cards its seat cannot know (other hands, the face-down stock) are
permuted; the same decision and the same records for the same seed. ``omniscient``
strategies see every card by design: they are left out of the hidden-card test (and listed
by :func:`test_omniscient_strategies_are_labelled`). Search strategies run with the small
``test_params`` of their registry entry.
"""
import zlib

import numpy as np
import pytest

from briscasim.engine import core
from briscasim.engine import layout as L
from briscasim.engine.rng import new_stream
from briscasim.game import Deal
from briscasim.rules import PRESETS, Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies.dispatch import decide_entry
from briscasim.strategies.registry import REGISTRY

pytestmark = pytest.mark.slow     # every strategy, search ones included, in every preset

HIDDEN_PRESETS = ("brisca-2", "brisca-3-hidden", "brisca-4-pairs-signals", "brisca-5-undrawn",
                  "brisca-6-threes", "brisca-reves", "briscolone-2-follow", "briscola-2-31",
                  "briscola-2-scoperta", "schembil",
                  "chiamata-5", "chiamata-5-points", "chiamata-5-subito-al-due")


def spec(name: str) -> str:
    d = REGISTRY[name]
    return name + (":" + d.test_params if d.test_params else "")


JITTED = sorted(n for n, d in REGISTRY.items() if not d.python)
HONEST = [n for n in JITTED if not REGISTRY[n].omniscient]


def _positions(rules, seed, count, rng):
    """``count`` decision points from deals played at random through the step API."""
    found = []
    i = 0
    while len(found) < count:
        deal = Deal.from_seed(rules, seed, i)
        i += 1
        stop = int(rng.integers(0, rules.tricks * rules.players))
        k = 0
        while not deal.over and len(found) < count:
            if k == stop or deal.phase == "swap":
                found.append(deal.state.copy())
                if k >= stop:
                    break
            legal = deal.legal_actions()
            deal.play(legal[int(rng.integers(len(legal)))])
            k += 1
    return found


def _hidden_slots(r, state, seat):
    """Places of the cards ``seat`` cannot see: unknown cards in other seats' hands (not
    its partners' when signals are on) and the face-down stock still undrawn (not its top
    when it is shown)."""
    n = r[L.R_PLAYERS]
    slots = []
    for q in range(n):
        if q == seat or (r[L.R_SIGNALS] and r[L.R_SIDE + q] == r[L.R_SIDE + seat]):
            continue
        for j in range(L.MAX_HAND):
            i = L.S_HANDS + q * L.MAX_HAND + j
            c = state[i]
            if c != L.NO_CARD and state[L.S_KNOWN + c] == L.KNOWN_UNSEEN:
                slots.append(i)
    slots.extend(i for i in range(L.S_STOCK + state[L.S_DRAWN], L.S_STOCK + state[L.S_N_FACEDOWN])
                 if state[L.S_KNOWN + state[i]] == L.KNOWN_UNSEEN)     # not a stock top shown
    return np.array(slots, np.int64)


def _decide(r, arrays, state, seat, rng_word):
    return decide_entry(arrays, r, state, seat, seat, new_stream(rng_word))


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("name", JITTED)
def test_only_legal_actions_in_every_preset(name, preset):
    rules = Rules.preset(preset, match="deal")
    n = rules.players
    others = ("greedy+hold", "random:swap_prob=0.5")
    mixed = [spec(name)] + [others[i % 2] for i in range(n - 1)]
    for lineup in (Lineup.build(rules, spec(name)), Lineup.build(rules, mixed)):
        out = play_chunk(rules, lineup, 17, 0, 3, rotations=n)
        pts = out[:, L.REC_POINTS:L.REC_POINTS + len(rules.sides)].sum(axis=1)
        done = (out[:, L.REC_BLACK_HAND] < 0) & (out[:, L.REC_TARGET_SEAT] < 0)
        if rules.chiamata:      # a deal thrown in takes no card points; game points are zero-sum
            done &= out[:, L.REC_CONTRACT] >= 0
            assert not out[:, L.REC_GAME_POINTS:L.REC_GAME_POINTS + n].sum(axis=1).any()
        assert (pts[done] + out[done, L.REC_OUT_POINTS] == 120).all()
        target = out[out[:, L.REC_TARGET_SEAT] >= 0]
        side_of = np.array(rules.side_of)
        assert (target[:, L.REC_WINNER] == side_of[target[:, L.REC_TARGET_SEAT]]).all()


@pytest.mark.parametrize("preset", HIDDEN_PRESETS)
@pytest.mark.parametrize("name", HONEST)
def test_decision_ignores_hidden_cards(name, preset):
    rules = Rules.preset(preset)
    r = rules.to_array()
    arrays = Lineup.build(rules, spec(name)).arrays()
    rng = np.random.default_rng(zlib.crc32(f"{name}/{preset}".encode()))
    changed = 0
    for state in _positions(rules, 23, 12, rng):
        seat = int(state[L.S_TURN])
        slots = _hidden_slots(r, state, seat)
        if len(slots) < 2:
            continue
        word = int(rng.integers(2**63))
        before = _decide(r, arrays, state, seat, word)
        for _ in range(2):
            other = state.copy()
            other[slots] = state[rng.permutation(slots)]
            sig = core.signals(r, state, seat) if r[L.R_SIGNALS] else 0
            assert (core.signals(r, other, seat) if r[L.R_SIGNALS] else 0) == sig
            assert (other[:L.PUBLIC_LEN] == state[:L.PUBLIC_LEN]).all()
            changed += int((other != state).any())
            assert _decide(r, arrays, other, seat, word) == before, (
                f"{name} changed its decision when hidden cards moved ({preset})")
    assert changed > 0


@pytest.mark.parametrize("name", JITTED)
def test_deterministic_for_a_seed(name):
    for preset in ("brisca-2", "brisca-4-pairs-signals"):
        rules = Rules.preset(preset)
        r = rules.to_array()
        lineup = Lineup.build(rules, [spec(name)] + ["greedy"] * (rules.players - 1))
        a = play_chunk(rules, lineup, 99, 0, 4, rotations=rules.players)
        b = play_chunk(rules, lineup, 99, 0, 4, rotations=rules.players)
        np.testing.assert_array_equal(a, b)
        arrays = Lineup.build(rules, spec(name)).arrays()
        rng = np.random.default_rng(5)
        for state in _positions(rules, 31, 6, rng):
            seat = int(state[L.S_TURN])
            word = int(rng.integers(2**63))
            assert _decide(r, arrays, state, seat, word) == _decide(r, arrays, state, seat, word)


def test_omniscient_strategies_are_labelled():
    """Omniscient entries skip the hidden-card test by design; each says so in its doc."""
    for name, d in REGISTRY.items():
        if d.omniscient:
            assert name not in HONEST
            assert any(w in d.doc.lower() for w in ("omniscient", "cheat", "sees every")), name

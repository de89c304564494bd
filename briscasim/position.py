"""What each legal action is worth in a position, for the seat to act: ``briscasim analyze``.

The seat knows its hand and the public state, not the other hands or the stock. The analysis
samples *worlds* consistent with what it knows (:mod:`briscasim.strategies.sampling`, every
consistent world equally likely), plays each legal action in each world and then plays the
rest of the deal out with ``greedy`` at every seat, and averages over the worlds: the
expected score (a win 1, a draw 1/2, a loss 0) and the expected point margin (the seat's
side's points minus the best other side's, turned round under ``objective = fewest``), each
with a 95% interval (normal, over worlds; every action is played in the same worlds).

Where the rest of the deal is perfect information (two players, the stock empty: the seat
then knows the other hand), the value is exact instead: alpha-beta to the end of the deal
(:mod:`briscasim.strategies.solver`), both seats playing their best, and ``exact`` is True.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from . import cards as C
from .engine.core import legal_actions, signals
from .engine.layout import (HAND_SIZE, MAX_LEGAL, PHASE_OVER, PUBLIC_LEN, R_SIDE, R_SIGNALS,
                            S_HANDS, S_PHASE, S_TRICK_NO, S_TURN, STATE_LEN)
from .engine.rng import new_stream, stream_key
from .envs.observation import REWARD_MARGIN, REWARD_OUTCOME, write_rewards
from .errors import UserError
from .game import Deal, action_code
from .strategies.greedy import greedy_strategy
from .strategies.sampling import SPEC_LEN, prepare_worlds, sample_world, unique_world
from .strategies.solver import NO_HORIZON, WIN, copy_state, new_search, play, root_values

_CHUNK = 64
"""Worlds per call of the kernel (the budget in seconds is checked between calls)."""


@njit(cache=True, _nrt=False)
def _play_out(rules, state, params, rng, legal, rewards):
    """Play ``state`` to its end with greedy at every seat; every seat's outcome and margin
    into ``rewards`` (two rows of seats)."""
    while state[S_PHASE] != PHASE_OVER:
        seat = state[S_TURN]
        k = legal_actions(rules, state, legal)
        sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
        a = greedy_strategy(rules, state[:PUBLIC_LEN],
                            state[S_HANDS + seat * HAND_SIZE:S_HANDS + (seat + 1) * HAND_SIZE],
                            legal[:k], seat, sig, params, rng)
        play(rules, state, a)
    write_rewards(rules, state, REWARD_OUTCOME, rewards[0])
    write_rewards(rules, state, REWARD_MARGIN, rewards[1])


@njit(cache=True, _nrt=False)
def _sample_values(rules, base, spec, seat, actions, worlds, params, rng, world, scratch,
                   legal, rewards, score, margin):
    """For ``worlds`` worlds drawn from ``base`` and ``spec``: each action of ``actions``
    played, then the deal played out by greedy; the seat's score and margin per (world,
    action) into ``score`` and ``margin``."""
    for w in range(worlds):
        sample_world(base, spec, rng, world)
        for j in range(actions.shape[0]):
            copy_state(scratch, world)
            play(rules, scratch, actions[j])
            _play_out(rules, scratch, params, rng, legal, rewards)
            score[w, j] = (rewards[0, seat] + 1.0) / 2.0
            margin[w, j] = rewards[1, seat]


@njit(cache=True, _nrt=False)
def _prepare(rules, state, seat, base, spec):
    """Sampling for what ``seat`` knows of ``state``; True if only one world fits."""
    sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
    prepare_worlds(rules, state[:PUBLIC_LEN],
                   state[S_HANDS + seat * HAND_SIZE:S_HANDS + (seat + 1) * HAND_SIZE], seat,
                   sig, base, spec)
    return unique_world(spec)


def _exact_values(rules, world, side, actions, values):
    """Alpha-beta value (``solver.position_value`` units) of every legal action of
    ``world``, to the end of the deal; returns how many actions."""
    return root_values(rules, world, side, 0, NO_HORIZON, new_search(), actions, values)


@dataclass(frozen=True)
class ActionValue:
    action: int
    score: float
    score_ci95: tuple[float, float]
    margin: float
    margin_ci95: tuple[float, float]
    exact: bool

    def to_dict(self) -> dict:
        return {"action": action_code(self.action), "score": self.score,
                "score_ci95": list(self.score_ci95), "margin": self.margin,
                "margin_ci95": list(self.margin_ci95), "exact": self.exact}


@dataclass(frozen=True)
class Analysis:
    position: dict
    actions: list[ActionValue]
    worlds: int

    def to_dict(self) -> dict:
        return {"position": self.position, "worlds": self.worlds,
                "actions": [a.to_dict() for a in self.actions]}


def position_of(deal: Deal) -> dict:
    """What the seat to act knows, as plain data (cards as codes)."""
    seat = deal.turn
    r = deal.rules
    return {"rules": r.name, "at": len(deal.actions), "seat": seat, "side": r.side_of[seat],
            "phase": deal.phase, "hand": [C.card_code(c) for c in deal.hand(seat)],
            "trick": [C.card_code(c) for c in deal.current_trick],
            "face_up": C.card_code(deal.face_up), "trump": C.SUIT_NAMES[deal.trump],
            "points": list(deal.points), "tricks_done": int(deal.state[S_TRICK_NO]),
            "legal": [action_code(a) for a in deal.legal_actions()]}


def _interval(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    m = float(x.mean())
    half = 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("inf")
    return m, (m - half, m + half)


def analyze(deal: Deal, iterations: int = 1000, seconds: float | None = None,
            seed: int = 0) -> Analysis:
    """Every legal action of the seat to act in ``deal`` (a deal in progress) with its
    expected score and margin: from ``iterations`` sampled worlds at most, within
    ``seconds`` if given (at least one batch of worlds is always played), or exact where
    the rest of the deal is perfect information."""
    if deal.over:
        raise UserError("the deal is over: there is no decision to analyze")
    if iterations < 1:
        raise UserError(f"--iterations = {iterations}: give at least 1")
    r = deal._r
    state = deal.state.copy()
    seat = deal.turn
    actions = np.array(deal.legal_actions(), np.int64)
    base = np.empty(STATE_LEN, np.int16)
    spec = np.empty(SPEC_LEN, np.int64)
    position = position_of(deal)
    if _prepare(r, state, seat, base, spec):
        world = np.empty(STATE_LEN, np.int16)
        sample_world(base, spec, new_stream(), world)
        values = np.empty(MAX_LEGAL, np.float64)
        solved = np.empty(MAX_LEGAL, np.int64)
        k = _exact_values(r, world, r[R_SIDE + seat], solved, values)
        out = []
        for j in range(k):
            v = float(values[j])
            score, margin = ((1.0, v - WIN) if v > WIN / 2 else
                             (0.0, v + WIN) if v < -WIN / 2 else (0.5, v))
            out.append(ActionValue(int(solved[j]), score, (score, score), margin,
                                   (margin, margin), True))
        return Analysis(position, out, 1)
    from .strategies.registry import resolve
    params = np.ascontiguousarray(resolve("greedy").params[0])
    rng = new_stream(int(stream_key(np.uint64(seed), 0, 0)))
    world = np.empty(STATE_LEN, np.int16)
    scratch = np.empty(STATE_LEN, np.int16)
    legal = np.empty(MAX_LEGAL, np.int16)
    rewards = np.empty((2, deal.rules.players), np.float32)
    score = np.empty((iterations, len(actions)))
    margin = np.empty((iterations, len(actions)))
    done = 0
    t0 = time.perf_counter()
    while done < iterations:
        n = min(_CHUNK, iterations - done)
        _sample_values(r, base, spec, seat, actions, n, params, rng, world, scratch, legal,
                       rewards, score[done:done + n], margin[done:done + n])
        done += n
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
    out = []
    for j, a in enumerate(actions):
        s, s_ci = _interval(score[:done, j])
        m, m_ci = _interval(margin[:done, j])
        out.append(ActionValue(int(a), s, s_ci, m, m_ci, False))
    return Analysis(position, out, done)


def deal_at(deal: Deal, at: int) -> Deal:
    """The position of ``deal`` (typed in or replayed) after its first ``at`` actions."""
    n = len(deal.actions)
    if at < 0 or at > n:
        raise UserError(f"--at {at} is past the end of the deal (it has {n} actions; give "
                        f"0 to {n})")
    pos = Deal(deal.rules, deal.deck)
    for a in deal.actions[:at]:
        pos.play(a)
    if pos.over:
        raise UserError(f"--at {at}: the deal is over after {at} actions; nothing to "
                        f"decide")
    return pos


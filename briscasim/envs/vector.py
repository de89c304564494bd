"""Many deals stepped together for learning: :class:`VectorEnv`.

``VectorEnv(rules, num_envs, seed)`` holds ``num_envs`` deals and steps them all in one call
of a jitted kernel over the engine's :func:`~briscasim.engine.core.step`. What it hands back
are numpy arrays, one row per deal::

    env = VectorEnv("brisca-2", num_envs=1024, seed=0)
    obs, mask = env.reset()                 # (N, OBSERVATION_LEN) int8, (N, N_ACTIONS) int8
    while training:
        actions = policy(obs, mask)         # (N,) ints, each legal in its row's mask
        obs, mask, rewards, done = env.step(actions)

- ``obs[i]`` is what the seat to act in deal ``i`` (``env.seat[i]``) may know, laid out as
  :data:`~briscasim.observation.OBSERVATION` says; ``mask[i]`` its legal actions.
- ``rewards[i, s]`` (float32, a column per seat) is 0 except on the step that ends a deal:
  then every seat receives its outcome (+1 win, 0 draw, -1 loss; in Briscola Chiamata its
  game points) or, with ``reward="margin"``, its side's point margin
  (:data:`~briscasim.observation.REWARDS`); ``done[i]`` is True on that step.
- A finished deal is replaced at once by the next one (auto-reset): the observation of a
  ``done`` row is already the first decision of the new deal. Deal ``k`` started in row
  ``i`` is deal ``i + k * num_envs`` under ``seed`` (``env.deal_index[i]``), the very deal
  that ``Deal.from_seed(rules, seed, index)`` and ``briscasim simulate --seed`` play: the run
  is reproducible from ``(seed, index)``, whatever the actions.

By default the caller acts for every seat (self-play). With ``opponent`` (a strategy spec,
``"greedy"``, ``"random"``, ``"ismcts:iterations=200"``...) the caller acts only for
``agent_seats`` (default: seat 0) and the kernel plays the other seats with that strategy,
with the batch kernels' random streams, so ``rewards[i, agent seat]`` is the agent's result
against it. A deal that ends before the agent's first decision (a black hand dealt) is
skipped.

The arrays returned are the environment's own buffers, overwritten by the next call: copy
what must be kept.
"""
from __future__ import annotations

from functools import partial

import numpy as np
from numba import njit, types

from ..engine.core import legal_actions, shuffled_deck, start_deal, step
from ..engine.layout import (MAX_LEGAL, MAX_LEGAL_ANY, MAX_PLAYERS, N_ACTIONS, N_CARD_IDS,
                             PHASE_OVER, PUBLIC_LEN, R_PLAYERS, S_PHASE, S_TURN, STATE_LEN)
from ..engine.primitives import at, hand_of
from ..engine.rng import (STREAM_LEN, STREAMS_PER_DEAL, below, item_key, seat_stream,
                          start_stream, stream_key, substream_key)
from ..errors import IllegalAction, UserError
from ..game import action_code, check_count
from ..jit import entry_point
from ..lineup import Lineup
from ..rules import Rules
from ..strategies.dispatch import EVERY_SHAPE, EntryFunctions, SearchFunction, decider
from .adviser import jitted_lineup
from .episode import deal_rules
from ..observation import (OBSERVATION_LEN, REWARDS, check_reward, encode, write_mask,
                           write_rewards)

_NO_OPPONENT = 0
"""The lineup shape of the self-play kernel: no seat is played by the kernel. Opponents and
advisers of any lineup run the kernels of ``EVERY_SHAPE``: three kernels in all
(:func:`kernel_work`), which ``briscasim compile`` compiles ahead."""

_AGENT_STREAM = STREAMS_PER_DEAL - 1
"""Stream number (of item ``row``) of a row's :meth:`VectorEnv.random_actions`: past every
seat's stream."""

_ADVICE_STREAM = STREAMS_PER_DEAL - 2
"""Stream number (of item ``row``) of a row's :meth:`VectorEnv.advice`."""


@njit(cache=True, _nrt=False, inline="always")
def _deal(rules, seed, index, state, deck, partners, card_rng, seat_rngs, opponents):
    """Start deal ``index`` under ``seed`` in ``state`` (the cards of ``Deal.from_seed``),
    and point the seats' streams at that deal's, as the batch kernels do, if ``opponents``
    play in it."""
    key = item_key(seed, index)
    shuffled_deck(rules, deck, partners, card_rng, key, 0)
    if opponents:
        for s in range(rules[R_PLAYERS]):
            start_stream(seat_rngs[s], substream_key(key, seat_stream(0, 0, s)))
    start_deal(rules, state, deck, None)


def _kernel(shape: int):
    """The stepping kernel for opponents of lineup ``shape`` (``_NO_OPPONENT``: self-play)."""
    opponents = shape != _NO_OPPONENT
    decide_view = decider(shape)

    @njit(cache=True, nogil=True, _nrt=False)
    def advance(kinds, params, entry_fns, search_fn, rules, seed, agent, reward_kind, start,
                actions, states, streams, work16, legal, n_legal, deal_index, seat, obs, mask,
                rewards, done):
        """Apply ``actions`` (or, with ``start``, start every row's deal ``deal_index``),
        play the kernel's seats, start the next deal where one ends, and write every row's
        observation, mask, rewards and done flag. Returns -1; or the first row whose action
        is not legal, and then nothing has changed; or ``-2 - row`` if the opponent chose
        an illegal action in that row (jitted, releases the GIL)."""
        n_envs = states.shape[0]
        if not start:
            for i in range(n_envs):
                a = actions[i]
                if a < 0 or a >= N_ACTIONS or mask[i, at(a)] == 0:
                    return i
        deck = work16[:N_CARD_IDS]
        partners = work16[N_CARD_IDS:2 * N_CARD_IDS]
        card_rng = streams[0, MAX_PLAYERS]       # scratch: the card stream of a new deal
        for i in range(n_envs):
            state = states[i]
            for s in range(rules[R_PLAYERS]):
                rewards[i, s] = 0.0
            if start:
                _deal(rules, seed, deal_index[i], state, deck, partners, card_rng, streams[i],
                      opponents)
            else:
                step(rules, state, actions[i], None)
            # the deal the action was for, until it ends; a deal that ends before the
            # agent's first decision (a black hand dealt) is skipped
            ours = not start
            finished = False
            while True:
                if state[S_PHASE] == PHASE_OVER:
                    if ours:
                        write_rewards(rules, state, reward_kind, rewards[i])
                        finished = True
                        ours = False
                    deal_index[i] += n_envs
                    _deal(rules, seed, deal_index[i], state, deck, partners, card_rng,
                          streams[i], opponents)
                    continue
                turn = state[S_TURN]
                if not opponents or agent[at(turn)] != 0:
                    break
                k = legal_actions(rules, state, legal[i])
                a = decide_view(kinds, params, entry_fns, search_fn, rules, state,
                                state[:PUBLIC_LEN], hand_of(rules, state, turn),
                                legal[i, :k], turn, turn,
                                streams[i, turn])
                if step(rules, state, a, None) < 0:
                    return -2 - i
            done[i] = finished
            seat[i] = turn
            encode(rules, state, turn, obs[i])
            n_legal[i] = write_mask(rules, state, legal[i], mask[i])
        return -1

    return advance


def _advice(shape: int):
    """The kernel that asks a lineup of ``shape`` for the action of the seat to act."""
    decide_view = decider(shape)

    @njit(cache=True, nogil=True, _nrt=False)
    def advise(kinds, params, entry_fns, search_fn, rules, ask, states, legal, n_legal, rngs,
               out):
        """Into ``out[i]``, for every row ``i`` with ``ask[i]``, the action the lineup's
        entry of the seat to act chooses from that seat's view (jitted, releases the
        GIL)."""
        for i in range(states.shape[0]):
            if ask[i]:
                state = states[i]
                turn = state[S_TURN]
                out[i] = decide_view(kinds, params, entry_fns, search_fn, rules, state,
                                     state[:PUBLIC_LEN], hand_of(rules, state, turn),
                                     legal[i, :n_legal[i]], turn, turn, rngs[i])

    return advise


_ADVICE_SIGNATURE = types.void(
    types.int64[:, ::1], types.float64[:, :, ::1], EntryFunctions, SearchFunction,
    types.int64[::1], types.boolean[::1], types.int16[:, ::1], types.int16[:, ::1],
    types.int64[::1], types.uint64[:, ::1], types.int64[::1])
_SIGNATURE = types.int64(
    types.int64[:, ::1], types.float64[:, :, ::1], EntryFunctions, SearchFunction,
    types.int64[::1], types.uint64, types.int64[::1], types.int64, types.boolean,
    types.int64[::1], types.int16[:, ::1], types.uint64[:, :, ::1], types.int16[::1],
    types.int16[:, ::1], types.int64[::1], types.int64[::1], types.int64[::1],
    types.int8[:, ::1], types.int8[:, ::1], types.float32[:, ::1], types.boolean[::1])
_KERNELS: dict[tuple, tuple] = {}


def _entry(make, signature, shape: int):
    """The entry point of the kernel ``make(shape)`` (the stepping or the advice kernel) for
    ``signature``, compiled (or loaded from the cache) on first use; its dispatcher is kept
    alive beside it."""
    key = (make, shape)
    if key not in _KERNELS:
        kernel = make(shape)
        _KERNELS[key] = (kernel, entry_point(kernel, signature))
    return _KERNELS[key][1]


def kernel_work() -> list[tuple[str, object]]:
    """``(what, compile)`` for each of the environment's kernels (stepping self-play,
    stepping against an opponent, advice), for ``briscasim compile``."""
    return [(what, partial(_entry, make, signature, shape)) for what, make, signature, shape in (
        ("the vectorised environment, self-play", _kernel, _SIGNATURE, _NO_OPPONENT),
        ("the vectorised environment, against a lineup", _kernel, _SIGNATURE, EVERY_SHAPE),
        ("the vectorised environment's advice", _advice, _ADVICE_SIGNATURE, EVERY_SHAPE))]


@njit(cache=True, nogil=True, _nrt=False)
def _random_actions(legal, n_legal, rngs, out):
    """A uniformly random legal action of every row, drawn from the row's stream (jitted)."""
    for i in range(legal.shape[0]):
        out[i] = legal[i, at(below(rngs[i], n_legal[i]))]


@njit(cache=True, _nrt=False)
def _start_streams(rngs, seed, stream):
    for i in range(rngs.shape[0]):
        start_stream(rngs[i], stream_key(seed, i, stream))


class VectorEnv:
    """``num_envs`` deals of ``rules`` stepped together (the module's docstring says how).

    ``rules`` is a :class:`~briscasim.rules.Rules` or a preset name, with ``options`` as
    rule overrides (``VectorEnv("brisca-2", 1024, swap_timing="after_draw")``); a preset that
    plays a match is played deal by deal (:func:`~briscasim.envs.episode.deal_rules`).
    """

    def __init__(self, rules: Rules | str = "brisca-2", num_envs: int = 1024, seed: int = 0,
                 *, opponent=None, agent_seats=None, reward: str = "outcome", **options):
        rules = deal_rules(rules, options)
        check_reward(reward)
        self.rules = rules
        self.players = n = rules.players
        self.num_envs = check_count("num_envs", num_envs, 2 ** 31)
        if self.num_envs == 0:
            raise UserError("num_envs must be at least 1")
        self.seed = check_count("seed", seed, 2 ** 64)
        self.reward = reward
        self._r = rules.to_array()
        self.agent = np.ones(MAX_PLAYERS, np.int64)
        if opponent is None:
            if agent_seats is not None:
                raise UserError("agent_seats needs an opponent to play the other seats")
            lineup = Lineup.build(rules, "random")       # never asked: self-play
            self._shape = _NO_OPPONENT
        else:
            seats = (0,) if agent_seats is None else agent_seats
            if isinstance(seats, (str, bytes)) or not hasattr(seats, "__iter__") \
                    or not (seats := tuple(seats)) or any(
                        isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer))
                        or not 0 <= s < n for s in seats):
                raise UserError(f"agent_seats = {agent_seats!r}: give a list of seats from 0 "
                                f"to {n - 1} (the seats the caller acts for)")
            self.agent[:] = 0
            self.agent[list(seats)] = 1
            if self.agent[:n].all():
                raise UserError("agent_seats holds every seat: leave the opponent out for "
                                "self-play")
            lineup = jitted_lineup(rules, opponent, "opponent")
            self._shape = EVERY_SHAPE
        self.opponent = opponent
        self.agent_seats = tuple(int(s) for s in np.flatnonzero(self.agent[:n]))
        self._lineup = lineup.arrays()
        N = self.num_envs
        self._states = np.zeros((N, STATE_LEN), np.int16)
        self._streams = np.zeros((N, MAX_PLAYERS + 1, STREAM_LEN), np.uint64)
        self._work16 = np.zeros(2 * N_CARD_IDS, np.int16)
        width = MAX_LEGAL_ANY if rules.chiamata else MAX_LEGAL     # the auction's pass and bids
        self._legal = np.zeros((N, width), np.int16)
        self._n_legal = np.zeros(N, np.int64)
        self.deal_index = np.zeros(N, np.int64)
        self.seat = np.zeros(N, np.int64)
        self.obs = np.zeros((N, OBSERVATION_LEN), np.int8)
        self.action_mask = np.zeros((N, N_ACTIONS), np.int8)
        self.rewards = np.zeros((N, n), np.float32)
        self.done = np.zeros(N, np.bool_)
        self._agent_rngs = np.zeros((N, STREAM_LEN), np.uint64)
        self._actions = np.zeros(N, np.int64)
        self._advice_rngs = np.zeros((N, STREAM_LEN), np.uint64)
        self._advice_out = np.zeros(N, np.int64)
        self._advisers: dict[str, tuple] = {}
        self._advance = _entry(_kernel, _SIGNATURE, self._shape)
        self._head = (*self._lineup, self._r, np.uint64(self.seed), self.agent,
                      REWARDS[reward])
        self._tail = (self._states, self._streams, self._work16, self._legal, self._n_legal,
                      self.deal_index, self.seat, self.obs, self.action_mask, self.rewards,
                      self.done)
        self._started = False

    @property
    def observation_size(self) -> int:
        return OBSERVATION_LEN

    @property
    def num_actions(self) -> int:
        return N_ACTIONS

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Start deals ``0 .. num_envs - 1``; the observations and action masks of their
        first decisions."""
        self.deal_index[:] = np.arange(self.num_envs)
        _start_streams(self._agent_rngs, np.uint64(self.seed), _AGENT_STREAM)
        _start_streams(self._advice_rngs, np.uint64(self.seed), _ADVICE_STREAM)
        self._run(True, self._actions)
        self._started = True
        return self.obs, self.action_mask

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per row (for the seat to act, ``self.seat``); returns
        ``(obs, action_mask, rewards, done)``. An action not legal in its row raises
        ``IllegalAction`` naming the row, and no row moves."""
        if not self._started:
            raise UserError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise UserError(f"actions must be {self.num_envs} whole numbers (one per deal), "
                            f"not an array of shape {a.shape} and type {a.dtype}")
        if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
            row = int(np.argmax(a > np.iinfo(np.int64).max))     # it would wrap round
            raise IllegalAction(f"row {row} (deal {self.deal_index[row]}, seat "
                                f"{self.seat[row]}): {a[row]} is not an action id (0 to "
                                f"{N_ACTIONS - 1})")
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            a = np.ascontiguousarray(a, np.int64)
        self._run(False, a)
        return self.obs, self.action_mask, self.rewards, self.done

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every row (from each row's own random
        stream, keyed by the seed and the row: reproducible)."""
        _random_actions(self._legal, self._n_legal, self._agent_rngs, self._actions)
        return self._actions

    def advice(self, strategy, rows=None) -> np.ndarray:
        """The action ``strategy`` (a spec: ``"expert"``, ``"ismcts:iterations=200"``...)
        would take in every row, for the seat to act and from that seat's view alone (a
        teacher's labels, an opponent's move for a caller who plays it). ``rows``, a boolean
        array, limits the asking to those rows (the others read -1). Each row's stream
        (keyed by the seed and the row) serves the strategy's random choices: reproducible.
        The array returned is overwritten by the next call."""
        if not self._started:
            raise UserError("call reset() before advice()")
        if strategy not in self._advisers:
            lineup = jitted_lineup(self.rules, strategy)
            self._advisers[strategy] = (_entry(_advice, _ADVICE_SIGNATURE, EVERY_SHAPE),
                                       lineup.arrays())
        kernel, arrays = self._advisers[strategy]
        if rows is None:
            ask = np.ones(self.num_envs, np.bool_)
        else:
            ask = np.ascontiguousarray(rows, np.bool_)
            if ask.shape != (self.num_envs,):
                raise UserError(f"rows must be {self.num_envs} booleans (one per deal), not "
                                f"an array of shape {ask.shape}")
        self._advice_out[:] = -1
        kernel(*arrays, self._r, ask, self._states, self._legal, self._n_legal,
               self._advice_rngs, self._advice_out)
        return self._advice_out

    def _run(self, start: bool, actions: np.ndarray) -> None:
        bad = self._advance(*self._head, start, actions, *self._tail)
        if bad >= 0:
            a = int(actions[bad])
            legal = " ".join(action_code(x) for x in np.flatnonzero(self.action_mask[bad]))
            what = action_code(a) if 0 <= a < N_ACTIONS else str(a)
            raise IllegalAction(f"row {bad} (deal {self.deal_index[bad]}, seat "
                                f"{self.seat[bad]}): {what} is not legal; legal: {legal}")
        if bad < -1:
            row = -2 - bad
            raise IllegalAction(f"opponent {self.opponent!r} chose an illegal action in row "
                                f"{row} (deal {self.deal_index[row]})")

    def states(self) -> np.ndarray:
        """Every row's whole deal state (a copy, hidden cards included: for tests and
        analysis, never for a learner's input)."""
        return self._states.copy()

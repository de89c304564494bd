"""What each legal action is worth in a position, for the seat to act: ``briscasim analyze``.

The seat knows its hand and the public state, not the other hands or the stock. The analysis
samples *worlds* consistent with what it knows (:mod:`briscasim.strategies.sampling`, every
consistent world equally likely), plays each legal action in each world and then plays the
rest of the deal out with ``greedy`` at every seat, and averages over the worlds: the
expected score (a win 1, a draw 1/2, a loss 0) and the expected point margin (the seat's
side's points minus the best other side's, turned round under ``objective = fewest``), each
with a 95% interval (normal, over worlds; every action is played in the same worlds). In
Briscola Chiamata a win is a deal with positive game points for the seat, a deal thrown in
counts as a draw, and the margin is the card points of the seat's side beyond what it
needed (:data:`briscasim.observation.REWARDS`); the auction, the reopen question and the
call are analysed like the play (the other seats' bids and calls by greedy).

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
from .engine.layout import (ACTION_KEEP, ACTION_SWAP, KNOWN_UNSEEN, MAX_LEGAL, MAX_LEGAL_ANY,
                            PHASE_OVER, PUBLIC_LEN, R_SIDE, R_SIGNALS, S_PHASE, S_TRICK_NO,
                            S_TURN, STATE_LEN)
from .engine.primitives import hand_of
from .engine.rng import new_stream, stream_key
from .observation import REWARD_MARGIN, REWARD_OUTCOME, write_rewards
from .arguments import finite, whole
from .errors import ArgumentTypeError, UserError
from .game import Deal, action_code, parse_action
from .strategies.greedy import greedy_strategy
from .strategies.registry import resolve
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
        a = greedy_strategy(rules, state[:PUBLIC_LEN], hand_of(rules, state, seat),
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
            outcome = rewards[0, seat]      # Briscola Chiamata: game points
            score[w, j] = 1.0 if outcome > 0 else (0.0 if outcome < 0 else 0.5)
            margin[w, j] = rewards[1, seat]


@njit(cache=True, _nrt=False)
def _prepare(rules, state, seat, base, spec):
    """Sampling for what ``seat`` knows of ``state``; True if only one world fits."""
    sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
    prepare_worlds(rules, state[:PUBLIC_LEN], hand_of(rules, state, seat), seat, sig, base,
                   spec)
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
    """The actions' values; ``tied`` are the actions that cannot be told from the best (the
    best first, then in the order of :attr:`ranked`): their paired 95% intervals of the
    difference from the best, in score and in margin, hold 0 (exact values: equal)."""
    position: dict
    actions: list[ActionValue]
    worlds: int
    tied: tuple[int, ...] = ()

    @property
    def ranked(self) -> list[ActionValue]:
        """The actions best first (by score, then margin)."""
        return sorted(self.actions, key=lambda a: (-a.score, -a.margin))

    def to_dict(self) -> dict:
        return {"position": self.position, "worlds": self.worlds,
                "actions": [a.to_dict() for a in self.actions],
                "tied_with_best": [action_code(a) for a in self.tied]}


def position_of(deal: Deal) -> dict:
    """What the seat to act knows, as plain data (cards as codes)."""
    seat = deal.turn
    r = deal.rules
    return {"rules": r.name, "at": len(deal.actions), "seat": seat, "side": r.side_of[seat],
            "phase": deal.phase, "hand": [C.card_code(c) for c in deal.hand(seat)],
            "trick": [C.card_code(c) for c in deal.current_trick],
            "face_up": C.card_code(deal.face_up), "trump": C.suit_name(deal.trump),
            "points": list(deal.points), "tricks_done": int(deal.state[S_TRICK_NO]),
            "legal": [action_code(a) for a in deal.legal_actions()],
            **({"auction": [f"{s}:{a}" for s, a in deal.auction],
                "called": None if deal.called is None else C.card_code(deal.called)}
               if r.chiamata else {})}


def _interval(x: np.ndarray, low: float = -np.inf, high: float = np.inf
              ) -> tuple[float, tuple[float, float]]:
    """The mean of ``x`` and its normal 95% interval, clipped to ``[low, high]`` (what the
    quantity can be)."""
    m = float(x.mean())
    half = 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("inf")
    return m, (max(m - half, low), min(m + half, high))


def _tied(score: np.ndarray, margin: np.ndarray) -> tuple[int, ...]:
    """Columns of the per-world ``score`` and ``margin`` that cannot be told from the best
    (by mean score, then margin), best first: the best, and each column that is below it
    neither in score nor in margin by a paired 95% interval."""
    order = sorted(range(score.shape[1]), key=lambda j: (-score[:, j].mean(),
                                                         -margin[:, j].mean()))
    best = order[0]
    out = []
    for j in order:
        apart = [lo > 0 for lo, _ in (_interval(x[:, best] - x[:, j])[1]
                                      for x in (score, margin))]
        if j == best or not any(apart):
            out.append(j)
    return tuple(out)


def analyze(deal: Deal, iterations: int = 1000, seconds: float | None = None,
            seed: int = 0, separate: bool = False) -> Analysis:
    """Every legal action of the seat to act in ``deal`` (a deal in progress) with its
    expected score and margin: from ``iterations`` sampled worlds at most, within
    ``seconds`` if given (at least one batch of worlds is always played; compiling does not
    count), or exact where the rest of the deal is perfect information. With ``separate``,
    sampling stops as soon as no action is tied with the best (:attr:`Analysis.tied`)."""
    if not isinstance(deal, Deal):
        raise ArgumentTypeError(f"deal must be a briscasim Deal (a deal in progress), not "
                                f"{type(deal).__name__}")
    iterations = whole("iterations", iterations, 1)
    if seconds is not None:
        seconds = finite("seconds", seconds)
        if seconds <= 0:
            raise UserError(f"seconds = {seconds:g}: give a positive number of seconds")
    seed = whole("seed", seed, 0, 2 ** 64)
    if deal.over:
        raise UserError("the deal is over: there is no decision to analyze")
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
        top = max((a.score, a.margin) for a in out)
        tied = tuple(a.action for a in out if (a.score, a.margin) == top)
        return Analysis(position, out, 1, tied)
    params = np.ascontiguousarray(resolve("greedy").params[0])
    rng = new_stream(int(stream_key(np.uint64(seed), 0, 0)))
    world = np.empty(STATE_LEN, np.int16)
    scratch = np.empty(STATE_LEN, np.int16)
    legal = np.empty(MAX_LEGAL_ANY, np.int16)     # room for an auction's pass and bids
    rewards = np.empty((2, deal.rules.players), np.float32)
    score = np.empty((iterations, len(actions)))
    margin = np.empty((iterations, len(actions)))
    done = 0
    # no world: compiles (or loads) the kernel, so that the budget counts sampling alone
    _sample_values(r, base, spec, seat, actions, 0, params, rng, world, scratch, legal,
                   rewards, score[:0], margin[:0])
    t0 = time.perf_counter()
    while done < iterations:
        n = min(_CHUNK, iterations - done)
        _sample_values(r, base, spec, seat, actions, n, params, rng, world, scratch, legal,
                       rewards, score[done:done + n], margin[done:done + n])
        done += n
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        if separate and len(_tied(score[:done], margin[:done])) == 1:
            break
    out = []
    for j, a in enumerate(actions):
        s, s_ci = _interval(score[:done, j], 0.0, 1.0)
        m, m_ci = _interval(margin[:done, j])
        out.append(ActionValue(int(a), s, s_ci, m, m_ci, False))
    tied = tuple(int(actions[j]) for j in _tied(score[:done], margin[:done]))
    return Analysis(position, out, done, tied)


def deal_at(deal: Deal, at: int) -> Deal:
    """The position of ``deal`` (typed in or replayed) after its first ``at`` actions."""
    n = len(deal.actions)
    if at < 0:
        raise UserError(f"--at {at}: a position is a count of actions, 0 (before the first) "
                        f"to {n}")
    if at > n:
        raise UserError(f"--at {at} is past the end of the deal (it has {n} actions; give "
                        f"0 to {n})")
    pos = Deal(deal.rules, deal.deck)
    for a in deal.actions[:at]:
        pos.play(a)
    if pos.over:
        raise UserError(f"--at {at}: the deal is over after {at} actions; nothing to "
                        f"decide")
    return pos



# ---- positions typed in from a real table ----------------------------------------------------
_REBUILDS, _TRIES = 400, 4
"""At most this many deck orders are tried while fitting a typed-in position, from at most
this many starting orders."""


class _Misfit(Exception):
    """The deck order tried does not fit the typed-in history (a card must move)."""

    def __init__(self, item: int, seat: int, card: int | None, deal: Deal):
        self.item, self.seat, self.card, self.deal = item, seat, card, deal


def parse_history(text: str, rules) -> list[tuple[int | None, int, str]]:
    """``--played``: ``[SEAT:]ACTION`` items (cards, ``swap``, ``keep``) in playing order, as
    ``(seat or None, action, item text)``."""
    out = []
    for item in text.replace(",", " ").split():
        who, colon, what = item.rpartition(":")
        seat = None
        if colon:
            if not who.isdigit() or int(who) >= rules.players:
                raise UserError(f"--played {item!r}: the seat before ':' is a number from 0 "
                                f"to {rules.players - 1} in {rules.name}")
            seat = int(who)
        try:
            out.append((seat, parse_action(what), item))
        except UserError as e:
            raise UserError(f"--played {item!r}: {e}") from None
    return out


def typed_position(rules, seat: int, hand, face_up, played: str = "", seed: int = 0) -> Deal:
    """The position of a real table: ``seat`` to act holding ``hand``, ``face_up`` the card
    turned at the deal, ``played`` the actions so far (:func:`parse_history`; a swap as
    ``SEAT:swap``).

    The cards nobody has seen are placed in a deck order that fits the history (every card
    played was in its player's hand, every swap was offered, ``seat`` holds ``hand`` now);
    the engine checks every action. Only what ``seat`` may know is read from the position
    (:func:`analyze` samples the unseen cards afresh), so how they were placed matters not.
    Offers that nobody may know were made are declined. Bad input raises :class:`UserError`
    naming the option and the value."""
    if rules.chiamata:
        raise UserError(f"a typed-in position has no auction; analyze a {rules.name} deal from "
                        "--file or a simulated one (--strategy, --at)")
    if rules.signals != "none":
        raise UserError(f"a typed-in position takes no partner signals; {rules.name} has "
                        "signals (give a preset without them)")
    if isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise UserError(f"--seat {seat}: seats are numbered 0 to {rules.players - 1} in "
                        f"{rules.name}")
    in_play = set(rules.deck_ids)
    try:
        held = C.parse_cards(hand, where="--hand")
        turned = C.parse_cards(face_up, where="--face-up")
    except C.CardError as e:
        raise UserError(str(e)) from None
    if len(turned) != 1:
        raise UserError(f"--face-up {face_up!r}: give the one card turned face up at the deal")
    turned = turned[0]
    history = parse_history(played, rules)
    cards_played = [a for _, a, _ in history if a < C.N_CARD_IDS]
    for option, value, ids in (("--hand", hand, held), ("--face-up", face_up, [turned]),
                               ("--played", played, cards_played)):
        for c in ids:
            if c not in in_play:
                raise UserError(f"{option} {value!r}: {C.card_code(c)} is not in play in "
                                f"{rules.name}")
            if ids.count(c) > 1:
                raise UserError(f"{option} {value!r}: {C.card_code(c)} is given twice")
    twice = set(held) & set(cards_played)
    if twice:
        raise UserError(f"--hand {hand!r}: {C.card_code(min(twice))} is also in --played")
    if rules.face_up_reshuffle and turned % C.N_FACES in (C.ACE, C.THREE):
        raise UserError(f"--face-up {face_up!r}: under face_up_reshuffle an ace or three "
                        "never stays face up")
    n = rules.players
    rng = np.random.default_rng(seed)
    first = None
    for _ in range(_TRIES):     # another start, if a black hand ended the deal at once
        rest = [c for c in rules.deck_ids if c != turned]
        rng.shuffle(rest)
        dealt = rules.hand_size * n
        deck = rest[:dealt] + [turned] + rest[dealt:]
        try:
            for _ in range(_REBUILDS):
                try:
                    return _fit(rules, deck, seat, held, history, hand)
                except _Misfit as m:
                    deck = _moved(m, deck, held, seat, history)
            raise UserError(f"--played {played!r}: no deal fits this history")
        except UserError as e:
            first = first or e
    raise first


def _fit(rules, deck, seat, held, history, hand_text, partial=False) -> Deal:
    """``deck`` played through the typed history (checking the position it leads to unless
    ``partial``); a :class:`_Misfit` names the first card that is not where the history
    needs it."""
    deal = Deal(rules, deck)
    i = 0
    while i < len(history):
        who, a, text = history[i]
        if deal.over:
            raise UserError(f"--played {text!r} (item {i + 1}): the deal is over before it")
        if deal.phase == "swap":        # an offer: taken if the history swaps here
            take = a == ACTION_SWAP and who in (None, deal.turn)
            deal.play(ACTION_SWAP if take else ACTION_KEEP)
            i += take or a == ACTION_KEEP
            continue
        if a == ACTION_KEEP:
            i += 1                      # a declined offer changes nothing anyone knows
            continue
        if a == ACTION_SWAP:            # no offer here: the swapper must hold another card
            raise _Misfit(i, who if who is not None else _last_winner(deal), None, deal)
        if who is not None and who != deal.turn:
            raise UserError(f"--played {text!r} (item {i + 1}): seat {deal.turn} is to "
                            f"play, not seat {who}")
        if a not in deal.hand(deal.turn):
            raise _Misfit(i, deal.turn, a, deal)
        deal.play(a)
        i += 1
    if partial:
        return deal
    while deal.phase == "swap" and (deal.turn != seat or len(deal.hand(seat)) < len(held)):
        deal.play(ACTION_KEEP)          # (the seat has drawn since: it kept)
    if deal.over:
        raise UserError("--played: the deal is over after these actions; nothing to decide")
    if deal.turn != seat:
        raise UserError(f"--seat {seat}: after --played it is seat {deal.turn} to act")
    now = deal.hand(seat)
    missing = [c for c in held if c not in now]
    if missing:
        raise _Misfit(len(history), seat, missing[0], deal)
    if len(now) != len(held):
        raise UserError(f"--hand {hand_text!r}: {len(held)} cards, but seat {seat} holds "
                        f"{len(now)} at this point of {rules.name}")
    return deal


def _last_winner(deal: Deal) -> int:
    tricks = deal.tricks
    return tricks[-1].winner if tricks else deal.turn


def _moved(m: _Misfit, deck: list[int], held, seat: int, history) -> list[int]:
    """A deck order in which seat ``m.seat`` holds ``m.card`` at item ``m.item`` (or, for a
    swap, a card that gets it the offer), else :class:`UserError`."""
    deal, who = m.deal, m.seat
    public = {c for c, k in deal.view(who).known.items() if k == KNOWN_UNSEEN}
    hand = deal.hand(who)
    unseen = public - set(hand) - (set() if who == seat else set(held))
    later = {a for _, a, _ in history[m.item:]}
    # a card to give up for it: best one neither played later nor held at the end
    spare = sorted((x for x in hand if x in public and (m.item < len(history)
                                                         or x not in held)),
                   key=lambda x: (who == seat and x in held, x in later))
    _, _, text = history[m.item] if m.item < len(history) else (None, None, "")
    where = f"--played {text!r} (item {m.item + 1})" if text else "--hand"
    if m.card is not None:
        if m.card not in unseen:
            raise UserError(f"{where}: seat {who} cannot hold {C.card_code(m.card)} here "
                            "(it is played, face up or known to be elsewhere)")
        if not spare:
            raise UserError(f"{where}: seat {who} cannot hold {C.card_code(m.card)} here")
        return _exchanged(deck, m.card, spare[0])
    for c in sorted(unseen):            # a swap: find a card that gets the seat the offer
        for x in spare:
            trial = _exchanged(deck, c, x)
            try:
                _fit(deal.rules, trial, seat, held, history[:m.item + 1], "", partial=True)
                return trial
            except _Misfit:
                pass
    raise UserError(f"{where}: seat {who} cannot be offered a swap here")


def _exchanged(deck: list[int], a: int, b: int) -> list[int]:
    out = list(deck)
    i, j = out.index(a), out.index(b)
    out[i], out[j] = b, a
    return out

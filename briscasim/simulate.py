"""Batch simulation from Python: lineups of strategies, chunks of deals, records, totals.

:func:`play_chunk` is the one door to the batch kernels used by :func:`simulate`, the
experiment runner and the benchmarks. :func:`simulate` plays many deals (or matches) on a pool
of threads and keeps only running totals, so its memory does not grow with the number of
deals. Records are int32 rows (``REC_*`` fields of
:mod:`briscasim.engine.layout` for single deals, ``M_*`` of :mod:`briscasim.batch` for
matches), one per (deal, rotation), in the order ``deal * n_rotations + rotation``.
"""
from __future__ import annotations

import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from . import batch
from .arguments import flag, whole
from .driver import find_failure, play_prototype_chunk
from .engine import layout as L
from .errors import UserError
from .jit import compile_seconds
from .limits import deals_error, usable_cores
from .lineup import Lineup, needed_features
from .rules import Rules
from .stats import mean_interval, mean_sd, totals_ci, wilson_interval
from .strategies.params import StrategyError


def record_len(rules: Rules) -> int:
    if rules.match_kind != "deal":
        return batch.MATCH_RECORD_LEN
    return L.CHIAMATA_RECORD_LEN if rules.chiamata else L.RECORD_LEN


def play_chunk(rules: Rules, lineup: Lineup, seed: int, first: int, count: int,
               rotations: int = 1, work=None, features: int = L.EVERY_FEATURE,
               shape: int | None = None) -> np.ndarray:
    """Play deals (or matches) ``first .. first + count - 1`` and return their records.

    With ``rotations = n`` every deal is replayed with the lineup rotated ``r = 0..n-1``
    seats (duplicate play: same cards). Results depend only on ``(rules, lineup, seed,
    deal index)``, never on how deals are split into chunks or threads. A lineup holding a
    prototype (pure-Python) strategy is played by a slow Python loop instead of the kernels.
    ``features`` and ``shape`` choose the kernel: the rule features (``F_*``) and the strategy
    kinds (``HAS_*``, by default :attr:`Lineup.shape`) its code holds, at least
    :func:`needed_features` and :attr:`Lineup.own_shape`; a run of many cells passes what all
    of them need, so that one kernel plays them all.
    """
    if any(s.python_fn is not None for s in lineup.strategies):
        return play_prototype_chunk(rules, lineup, seed, first, count, rotations)
    out = np.empty((count * rotations, record_len(rules)), np.int32)
    r, w16, w64 = work if work is not None else batch.new_work()
    r[:] = rules.to_array()
    missing = needed_features(rules, lineup) & ~features
    if missing:
        raise ValueError(f"a kernel of rule features {features:#x} cannot play "
                         f"{rules.name} with {lineup.labels}: it lacks {missing:#x}")
    shape = lineup.shape if shape is None else shape
    if lineup.own_shape & ~shape:
        raise ValueError(f"a kernel of shape {shape:#x} cannot play {lineup.labels}")
    kernel = batch.kernel(rules.match_kind, shape, features)
    try:
        bad = kernel(*lineup.arrays(features), r, np.uint64(seed), first, count, rotations,
                     out, w16, w64)
    except Exception as e:
        if not lineup.has_user_strategy:
            raise
        # a user strategy raised: find the deal, seat and decision through the driver
        raise _failure(rules, lineup, seed, first, count, rotations) or e
    if bad >= 0:
        raise _failure(rules, lineup, seed, bad, 1, rotations) or StrategyError(
            f"a strategy in lineup {lineup.labels} chose an illegal action in deal {bad} "
            f"(seed {seed})")
    return out


def _failure(rules, lineup, seed, first, count, rotations):
    """The error of the first deal of the chunk that fails when played move by move (see
    :func:`briscasim.driver.find_failure`); matches are described by their first deal."""
    if rules.match_kind != "deal":
        return None
    return find_failure(rules, lineup, seed, first, count, rotations)


# ---- many deals on many threads ----------------------------------------------------------
MAX_CHUNK = 32768
"""Most deal-plays (deals x rotations) in one chunk: bounds the records held at once."""


@dataclass
class _Totals:
    """Running integer totals over records; adding chunks in any order gives the same sums.

    Per seat ``s`` and rotation ``r`` (arrays ``[seat, rotation]``): plays won by the seat's
    side, its side's points and their squares, black hands shown by the seat (single deals)
    or deals won by its side (matches). In Briscola Chiamata a seat's points are its game
    points, a win is a deal with positive game points, and the third count is the deals in
    which it was the caller.

    ``pair`` (duplicate play) names the cells ``[seat, rotation]`` of two lineup groups A
    (1) and B (-1); per deal the difference of their score (win 1, draw 1/2) and of their
    points, each averaged over the group's cells, is totalled with its square, as integers
    (:attr:`pair_scale` turns them back).
    """
    rules: Rules
    rotations: int
    pair: np.ndarray | None = None
    plays: int = 0
    draws: int = 0
    black_hands: int = 0
    deals_played: int = 0
    wins: np.ndarray = field(default=None)
    points: np.ndarray = field(default=None)
    points_sq: np.ndarray = field(default=None)
    extra: np.ndarray = field(default=None)

    def __post_init__(self):
        shape = (self.rules.players, self.rotations)
        self.wins, self.points, self.points_sq, self.extra = (
            np.zeros(shape, np.int64) for _ in range(4))
        self.side = np.array(self.rules.side_of, np.int64)
        self.matches = self.rules.match_kind != "deal"
        self.paired = np.zeros((2, 3), object)     # score, points: deals, sum, sum of squares
        if self.pair is not None:
            a, b = int((self.pair == 1).sum()), int((self.pair == -1).sum())
            # |B| * (sum over A) - |A| * (sum over B) is |A| |B| times the difference
            self.weights = np.where(self.pair == 1, b, np.where(self.pair == -1, -a, 0))
            self.pair_scale = a * b

    def add(self, records: np.ndarray) -> None:
        """Fold one chunk of records (rows ``deal * rotations + rotation``) into the totals."""
        rec = records.reshape(-1, self.rotations, records.shape[1]).astype(np.int64)
        win_col, pts_col = ((batch.M_WINNER, batch.M_POINTS) if self.matches
                            else (L.REC_WINNER, L.REC_POINTS))
        winner = rec[:, :, win_col]                              # (deals, rot)
        if self.rules.chiamata and not self.matches:
            # a seat's points are its game points; it wins when they are positive
            pts = rec[:, :, L.REC_GAME_POINTS + self.side].transpose(0, 2, 1)
            won = pts > 0
        else:
            won = winner[:, None, :] == self.side[None, :, None]     # (deals, seat, rot)
            pts = rec[:, :, pts_col + self.side].transpose(0, 2, 1)  # (deals, seat, rot)
        self.plays += winner.size
        self.draws += int((winner == L.DRAW).sum())
        if self.pair is not None:
            twice = 2 * won + (winner == L.DRAW)[:, None, :]       # twice the score
            for row, x in enumerate((twice, pts)):
                d = (x * self.weights[None]).sum(axis=(1, 2))
                self.paired[row] += [len(d), int(d.sum()), int((d * d).sum())]
        self.wins += won.sum(axis=0)
        self.points += pts.sum(axis=0)
        self.points_sq += (pts * pts).sum(axis=0)
        if self.matches:
            self.deals_played += int(rec[:, :, batch.M_DEALS].sum())
            self.black_hands += int(rec[:, :, batch.M_BLACK_HANDS].sum())
            self.extra += rec[:, :, batch.M_DEALS_WON + self.side].transpose(0, 2, 1).sum(axis=0)
        else:
            self.deals_played += winner.size
            black = rec[:, :, L.REC_CALLER if self.rules.chiamata else L.REC_BLACK_HAND]
            self.black_hands += 0 if self.rules.chiamata else int((black >= 0).sum())
            seats = np.arange(self.rules.players)
            self.extra += (black[:, None, :] == seats[None, :, None]).sum(axis=0)

    def by_entry(self, a: np.ndarray) -> np.ndarray:
        """Per lineup entry: the sum over rotations of ``a[seat, r]`` at the seat where
        rotation ``r`` put the entry (seat ``(entry - r) % n``)."""
        n = self.rules.players
        return np.array([sum(a[(e - r) % n, r] for r in range(self.rotations))
                         for e in range(n)], np.int64)


@dataclass
class SimulationResult:
    """Totals of a simulation and the statistics derived from them (:meth:`to_dict`).

    A seat's win is its side's win ("a side's win counts for each of its members"); its
    points are its side's card points (match points: summed over the match's deals).
    """
    rules: Rules
    lineup: Lineup
    seed: int
    deals: int
    duplicate: bool
    workers: int
    chunk_size: int
    seconds: float
    totals: _Totals

    @property
    def is_match(self) -> bool:
        return self.totals.matches

    def _item(self, n, wins, pts, pts_sq, extra, base: dict) -> dict:
        """Statistics of one seat or strategy over ``n`` seat-plays."""
        t = self.totals
        mean, sd = mean_sd(float(pts), float(pts_sq), n)
        # n seat-plays come from n_plays deal-plays; the Wilson interval uses the number of
        # deal-plays (exact when every seat of the group sits on one side, conservative
        # otherwise: seats in the same deal are not independent).
        share = wins / n if n else 0.0
        item = dict(base)
        item.update(
            n=int(t.plays), win_rate=share,
            win_rate_ci95=list(wilson_interval(share * t.plays, t.plays)),
            mean_points=mean, sd_points=sd,
            mean_points_ci95=list(mean_interval(mean, sd, t.plays)))
        if self.is_match:
            item["mean_deals_won"] = extra / n if n else float("nan")
        elif self.rules.chiamata:
            item["caller_rate"] = extra / n if n else float("nan")
        else:
            item["black_hand_rate"] = extra / n if n else float("nan")
        return item

    @property
    def by_seat(self) -> list[dict]:
        t = self.totals
        labels = self.lineup.labels
        out = []
        for s in range(self.rules.players):
            base = {"seat": s, "side": self.rules.side_of[s],
                    "strategy": None if self.duplicate else labels[s]}
            out.append(self._item(t.plays, t.wins[s].sum(), t.points[s].sum(),
                                  t.points_sq[s].sum(), t.extra[s].sum(), base))
        return out

    @property
    def by_strategy(self) -> list[dict]:
        """One item per distinct strategy, in the order first given; a strategy holding
        several seats is pooled over them."""
        t = self.totals
        wins, pts, sq, extra = (t.by_entry(a) for a in (t.wins, t.points, t.points_sq,
                                                        t.extra))
        out = []
        labels = self.lineup.labels
        for label in dict.fromkeys(labels):
            ent = [e for e, x in enumerate(labels) if x == label]
            n = t.plays * len(ent)
            out.append(self._item(n, wins[ent].sum(), pts[ent].sum(), sq[ent].sum(),
                                  extra[ent].sum(), {"strategy": label, "entries": ent}))
        return out

    def to_dict(self) -> dict:
        """Plain data (the ``--json`` output of ``briscasim simulate``).

        ``plays`` counts deal-plays (deals x rotations; matches x rotations under a match
        rule, where ``matches`` is the number of matches and ``deals`` the deals they took).
        ``deals_per_second`` counts every deal played, replays of a duplicate deal included.
        """
        t = self.totals
        secs = max(self.seconds, 1e-9)
        d = {
            "rules": self.rules.name, "options": self.rules.options(), "match": self.rules.match,
            "seed": self.seed, "strategies": self.lineup.labels, "duplicate": self.duplicate,
            "rotations": t.rotations,
            "deals": t.deals_played if self.is_match else self.deals, "plays": t.plays, "workers": self.workers, "chunk_size": self.chunk_size,
            "seconds": self.seconds, "deals_per_second": t.deals_played / secs,
            "draw_rate": t.draws / t.plays if t.plays else float("nan"),
            "draw_rate_ci95": list(wilson_interval(t.draws, t.plays)),
            "black_hand_rate": (t.black_hands / t.deals_played if t.deals_played
                                else float("nan")),
        }
        if self.is_match:
            d.update(matches=self.deals, matches_per_second=self.deals / secs,
                     mean_deals_per_match=t.deals_played / t.plays if t.plays else float("nan"))
        d["by_seat"] = self.by_seat
        d["by_strategy"] = self.by_strategy
        if self.totals.pair is not None:
            d["paired"] = self.paired
        return d

    @property
    def paired(self) -> dict:
        """Duplicate play: the first two strategies' difference A - B on the same deals, per
        deal (averaged over the rotations and the seats each holds), in score (win 1, draw
        1/2) and in points, each with its 95% t interval and the paired t-test's p-value."""
        t = self.totals
        a, b = list(dict.fromkeys(self.lineup.labels))[:2]
        out = {"a": a, "b": b, "deals": int(t.paired[0, 0])}
        for row, (what, scale) in enumerate((("score", 2 * t.pair_scale),
                                             ("points", t.pair_scale))):
            n, total, sq = (int(x) for x in t.paired[row])
            e = totals_ci(n, total / scale, sq / scale ** 2)
            out.update({f"{what}_diff": e.mean, f"{what}_diff_ci95": [e.lo, e.hi],
                        f"{what}_p_value": e.p})
        return out


def simulate(rules: Rules, specs, deals: int, seed: int, duplicate: bool = False,
             workers: int | None = None, chunk_size: int | None = None,
             progress: bool = False) -> SimulationResult:
    """Play ``deals`` deals (matches, under a match rule) between strategies and total them.

    Parameters
    ----------
    rules : Rules or str
        The rules, or the name of a preset.
    specs : str, sequence of str, or Lineup
        One strategy spec for every seat, or one per seat (``"random"``,
        ``"greedy:trump_threshold=10"``).
    deals : int
        Deals to play (matches when ``rules.match`` is not ``"deal"``).
    seed : int
        Master seed; deal ``i`` draws only from the streams of ``(seed, i)``.
    duplicate : bool
        Play every deal once per rotation of the lineup over the seats, with the same cards.
    workers : int, optional
        Threads (the kernels release the GIL); default: every core the process may use.
    chunk_size : int, optional
        Deals per chunk; by default about 16 chunks per worker, at most ``MAX_CHUNK``
        deal-plays each. Results never depend on ``workers`` or ``chunk_size``.
    progress : bool
        Show a progress bar on stderr.

    Returns
    -------
    SimulationResult
    """
    rules = Rules.coerce(rules)
    lineup = specs if isinstance(specs, Lineup) else Lineup.build(rules, specs)
    if len(lineup.strategies) != rules.players:
        raise StrategyError(f"specs: a lineup of {len(lineup.strategies)} strategies for "
                            f"{rules.players} seats")
    # the fastest kernel ready that plays it, else the one of every lineup for its rules
    shape, features = batch.kernel_key(rules.match_kind, lineup.own_shape,
                                       needed_features(rules, lineup))
    deals = whole("deals", deals, 1)
    if deals_error(deals):
        raise UserError(f"deals = {deals} {deals_error(deals)}")
    seed = whole("seed", seed, 0, 2 ** 64)
    duplicate, progress = flag("duplicate", duplicate), flag("progress", progress)
    workers = whole("workers", workers if workers is not None else usable_cores(), 1)
    rotations = rules.players if duplicate else 1
    labels = lineup.labels
    pair = None
    if duplicate and len(set(labels)) > 1:
        a, b = list(dict.fromkeys(labels))[:2]
        n = rules.players
        group = {a: 1, b: -1}
        pair = np.array([[group.get(labels[(s + r) % n], 0) for r in range(rotations)]
                         for s in range(n)], np.int64)
    if chunk_size is None:
        chunk_size = min(max(1, -(-deals // (16 * workers))), max(1, MAX_CHUNK // rotations))
    chunk_size = whole("chunk_size", chunk_size, 1)
    totals = _Totals(rules, rotations, pair)
    chunks = ((first, min(chunk_size, deals - first)) for first in range(0, deals, chunk_size))
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=deals, unit=" match" if totals.matches else " deal", file=sys.stderr,
                   unit_scale=True, leave=False)

    def run(chunk):
        first, count = chunk
        return count, play_chunk(rules, lineup, seed, first, count, rotations,
                                 batch.new_work(), features, shape)

    def fold(count, records):
        totals.add(records)
        if bar is not None:
            bar.update(count)

    compiling = compile_seconds()
    start = time.perf_counter()
    try:
        if workers == 1:
            for chunk in chunks:
                fold(*run(chunk))
        else:
            with ThreadPoolExecutor(workers) as pool:
                pending = set()
                try:
                    for chunk in chunks:
                        # a bounded window of chunks in flight keeps memory flat
                        if len(pending) >= 2 * workers:
                            done, pending = wait(pending, return_when=FIRST_COMPLETED)
                            for f in done:
                                fold(*f.result())
                        pending.add(pool.submit(run, chunk))
                    for f in pending:
                        fold(*f.result())
                except BaseException:
                    for f in pending:
                        f.cancel()
                    raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start - (compile_seconds() - compiling)  # play alone
    return SimulationResult(rules, lineup, seed, deals, duplicate, workers, chunk_size,
                            seconds, totals)

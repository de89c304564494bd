"""Per-deal records as tables: column names, Arrow tables for Parquet, and outcomes per
lineup entry.

A chunk's table holds one row per (deal, rotation): ``cell``, ``deal`` (the engine's deal
index), ``rotation`` (the rotation, or the seating of a rotated lineup played without
duplicate deals), ``entry_0 ..`` (the lineup entry at each seat), then
the record fields: the ``REC_*`` fields of :mod:`briscasim.engine.layout` for single deals or
the ``M_*`` fields of :mod:`briscasim.batch` for matches, in lower case (``winner``,
``swap7_trick``, ``points_0`` ...; per-side fields only for the cell's sides).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pyarrow as pa

from ..engine import layout as L

MAX_SEATS = L.MAX_PLAYERS
PER_SIDE = ("points", "deals_won")


def _fields(module, prefix: str, arrays: dict) -> list[tuple[str, int]]:
    """``(column, record index)`` pairs for the ``prefix*`` constants of ``module``."""
    out = []
    for name, value in vars(module).items():
        if not name.startswith(prefix) or not isinstance(value, int) or name in arrays:
            continue
        out.append((name[len(prefix):].lower(), value))
    for name, size in arrays.items():
        base = getattr(module, name)
        out += [(f"{name[len(prefix):].lower()}_{i}", base + i) for i in range(size)]
    return sorted(out, key=lambda t: t[1])


DEAL_FIELDS = _fields(L, "REC_", {"REC_POINTS": L.MAX_SIDES})
assert [i for _, i in DEAL_FIELDS] == list(range(L.RECORD_LEN))


@lru_cache(maxsize=1)
def match_fields() -> list[tuple[str, int]]:
    """``(column, record index)`` of match records (imports the batch kernels, so lazily)."""
    from .. import batch
    fields = _fields(batch, "M_", {"M_DEALS_WON": L.MAX_SIDES, "M_POINTS": L.MAX_SIDES})
    assert [i for _, i in fields] == list(range(batch.MATCH_RECORD_LEN))
    return fields


def to_table(cell, records: np.ndarray, n_sides: int, rotations: int, block: int,
             first: int, count: int) -> pa.Table:
    """The Arrow table of one chunk's records (rows ``deal * rotations + rotation``).

    ``cell`` is a resolved cell dict (:meth:`Cell.to_dict`); ``block`` is the seating of a
    rotated lineup without duplicate deals (rotation column), else 0. Only the cell's seats
    and sides get columns (``entry_0 .. entry_{players-1}``, ``points_0 .. points_{sides-1}``):
    every column costs writing time.
    """
    n_rows = count * rotations
    matches = records.shape[1] != L.RECORD_LEN
    fields = match_fields() if matches else DEAL_FIELDS
    dtype = np.int32 if matches else np.int16
    rot = (np.tile(np.arange(rotations, dtype=np.int8), count) if rotations > 1
           else np.full(n_rows, block, np.int8))
    cols = {"cell": np.full(n_rows, cell["id"], np.int16),
            "deal": np.repeat(np.arange(first, first + count, dtype=np.int64), rotations),
            "rotation": rot}
    seats = seat_entries(cell, max(rotations, block + 1))       # (rotations, MAX_SEATS)
    for s in range(len(cell["seating"])):
        cols[f"entry_{s}"] = seats[rot, s]
    rec = np.ascontiguousarray(records.T, dtype=dtype)    # one contiguous row per field
    for name, i in fields:
        base, _, side = name.rpartition("_")
        if not (side.isdigit() and base in PER_SIDE and int(side) >= n_sides):
            cols[name] = rec[i]
    return pa.table(cols)


def seat_entries(cell, rotations: int) -> np.ndarray:
    """``(rotations, MAX_SEATS)`` int8: lineup entry at each seat per rotation, -1 no seat."""
    seating = cell["seating"]
    n = len(seating)
    out = np.full((rotations, MAX_SEATS), -1, np.int8)
    for r in range(rotations):
        out[r, :n] = [seating[(s + r) % n] for s in range(n)]
    return out


def entry_rows(cell, side_of, rotation: np.ndarray, winner: np.ndarray,
               points: np.ndarray) -> dict:
    """Outcomes per (record, side, lineup entry): the long form every statistic starts from.

    A lineup entry that holds several seats of one side counts once for that side (a team of
    one strategy); seats of different sides count separately.

    Parameters
    ----------
    cell : dict
        Resolved cell (``seating``, ``rotations``, ``blocks``).
    side_of : sequence of int
        Side of each seat.
    rotation, winner : (n,) arrays
        Record columns.
    points : (n, n_sides) array
        Points per side.

    Returns
    -------
    dict of arrays
        ``row`` (record index), ``entry``, ``side``, ``seat`` (the side's lowest seat holding
        the entry), ``result`` (1 win, 0 draw, -1 loss), ``points`` (the side's points) and
        ``margin`` (its points minus the best other side's).
    """
    n_sides = points.shape[1]
    points = points.astype(np.int32, copy=False)
    best_other = np.empty_like(points)
    for t in range(n_sides):
        others = np.delete(points, t, axis=1)
        best_other[:, t] = others.max(axis=1)
    per_rot = seat_entries(cell, max(cell["rotations"], cell["blocks"]))
    out = {k: [] for k in ("row", "entry", "side", "seat", "result", "points", "margin")}
    for r in np.unique(rotation):
        idx = np.flatnonzero(rotation == r)
        seen = set()
        for s, t in enumerate(side_of):
            e = int(per_rot[r, s])
            if (t, e) in seen:
                continue
            seen.add((t, e))
            w = winner[idx]
            out["row"].append(idx)
            out["entry"].append(np.full(idx.size, e, np.int8))
            out["side"].append(np.full(idx.size, t, np.int8))
            out["seat"].append(np.full(idx.size, s, np.int8))
            out["result"].append(np.where(w == t, 1, np.where(w == L.DRAW, 0, -1)).astype(np.int8))
            out["points"].append(points[idx, t])
            out["margin"].append(points[idx, t] - best_other[idx, t])
    return {k: np.concatenate(v) if v else np.empty(0, np.int64) for k, v in out.items()}


def entry_tally(cell, side_of, table: pa.Table) -> np.ndarray:
    """``(k, 2)`` int64: per lineup entry, rows won and rows played in ``table``."""
    n_sides = len(set(side_of))
    pts = np.stack([table.column(f"points_{t}").to_numpy() for t in range(n_sides)], axis=1)
    rows = entry_rows(cell, side_of, table.column("rotation").to_numpy(),
                      table.column("winner").to_numpy(), pts)
    k = len(cell["lineup"])
    wins = np.bincount(rows["entry"], weights=rows["result"] == 1, minlength=k)
    plays = np.bincount(rows["entry"], minlength=k)
    return np.stack([wins, plays], axis=1).astype(np.int64)

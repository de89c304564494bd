"""Per-deal records as tables: column names, chunk files, and outcomes per lineup entry.

A chunk's records, as every reader sees them (:func:`read_chunk`), are one row per (deal,
rotation): ``cell``, ``deal`` (the engine's deal index), ``rotation`` (the rotation, or the
seating of a rotated lineup played without duplicate deals), ``entry_0 ..`` (the lineup entry
at each seat), then the record fields: the ``REC_*`` fields of
:mod:`briscasim.engine.layout` for single deals or the ``M_*`` fields of
:mod:`briscasim.batch` for matches, in lower case (``winner``, ``swap7_trick``, ``points_0``
...; per-side fields only for the cell's sides).

A chunk file stores less, because writing is most of what the runner costs over the engine:
``cell``, ``deal``, ``rotation`` and ``entry_*`` follow from the chunk (its cell, first deal,
rotations and seating), and a record field with one value in every row of the chunk (a swap
the rules do not allow, a side that never shows a black hand ...) is stored once. Both go into
the file's key-value metadata (key ``briscasim``, JSON, :data:`CHUNK_FORMAT`); the Parquet
columns are the other record fields (``winner`` always), non-nullable, byte-stream-split
and LZ4, which is several times faster to write than plain and smaller than plain LZ4.
"""
from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

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


CHUNK_FORMAT = 2
"""Version of the chunk files' layout (metadata key ``briscasim``); 1 wrote every column."""
META_KEY = b"briscasim"
PARQUET_OPTIONS = dict(compression="lz4", use_dictionary=False, write_statistics=False,
                       column_encoding="BYTE_STREAM_SPLIT")
"""Split int32 values into byte streams: the high bytes of small integers are runs that LZ4
packs almost for free (about 6 bytes per brisca-2 deal)."""


def to_table(cell, records: np.ndarray, n_sides: int, rotations: int, block: int,
             first: int, count: int) -> pa.Table:
    """The table a chunk file stores (rows ``deal * rotations + rotation``; module docstring).

    ``cell`` is a resolved cell dict (:meth:`Cell.to_dict`); ``block`` is the seating of a
    rotated lineup without duplicate deals (rotation column), else 0. Only the cell's seats
    and sides are columns (``entry_0 .. entry_{players-1}``, ``points_0 .. points_{sides-1}``).
    :func:`restore` turns it into the whole records table.
    """
    matches = records.shape[1] != L.RECORD_LEN
    fields = [(name, i) for name, i in (match_fields() if matches else DEAL_FIELDS)
              if _kept(name, n_sides)]
    dtype = pa.int32() if matches else pa.int16()
    lo, hi = _column_range(records)
    stored = [(name, i) for name, i in fields if i == 0 or lo[i] != hi[i]]   # 0: winner
    values = records.T[[i for _, i in stored]].astype(dtype.to_pandas_dtype(), copy=False)
    meta = dict(format=CHUNK_FORMAT, cell=cell["id"], first=first, count=count,
                rotations=rotations, block=block,
                seats=seat_entries(cell, max(rotations, block + 1))[:, :len(cell["seating"])]
                .tolist(),
                fields=[name for name, _ in fields], type=str(dtype),
                constants={name: int(lo[i]) for name, i in fields if (name, i) not in stored})
    schema = pa.schema([pa.field(name, dtype, nullable=False) for name, _ in stored],
                       metadata={META_KEY: json.dumps(meta)})
    return pa.Table.from_arrays([pa.array(v) for v in values], schema=schema)


def _kept(name: str, n_sides: int) -> bool:
    """False for a per-side field of a side the cell does not have."""
    base, _, side = name.rpartition("_")
    return not (side.isdigit() and base in PER_SIDE and int(side) >= n_sides)


def _column_range(records: np.ndarray, rows: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Least and greatest value of every column of ``records``. The rows are folded ``rows``
    at a time into one wide row first: numpy reduces long rows far faster than many short
    ones."""
    n, k = records.shape
    m = n - n % rows
    parts = [records[m:]] if m < n else []
    lo, hi = [p.min(axis=0) for p in parts], [p.max(axis=0) for p in parts]
    if m:
        wide = records[:m].reshape(-1, rows * k)
        lo.append(wide.min(axis=0).reshape(rows, k).min(axis=0))
        hi.append(wide.max(axis=0).reshape(rows, k).max(axis=0))
    return np.min(lo, axis=0), np.max(hi, axis=0)


def chunk_meta(schema: pa.Schema) -> dict:
    """The ``briscasim`` metadata of a chunk file's schema; ValueError if it has none (a
    file written by an older briscasim) or another version."""
    raw = (schema.metadata or {}).get(META_KEY)
    meta = json.loads(raw) if raw is not None else {}
    if meta.get("format") != CHUNK_FORMAT:
        raise ValueError(f"chunk layout {meta.get('format', 1)}, this briscasim reads "
                         f"{CHUNK_FORMAT} (written by an older briscasim: re-run)")
    return meta


def chunk_columns(meta: dict) -> list[str]:
    """Every column of a chunk's records, in order (module docstring)."""
    return (["cell", "deal", "rotation"] + [f"entry_{s}" for s in range(len(meta["seats"][0]))]
            + meta["fields"])


def restore(table: pa.Table, columns=None, meta: dict | None = None) -> pa.Table:
    """The records table (``columns`` of it, in that order; default all) from a chunk
    file's table (:func:`to_table`), or from any of its columns with its ``meta``."""
    meta = chunk_meta(table.schema) if meta is None else meta
    every = chunk_columns(meta)
    columns = every if columns is None else list(columns)
    unknown = [c for c in columns if c not in every]
    if unknown:
        raise KeyError(f"no column {unknown[0]!r} in these records (columns: "
                       f"{', '.join(every)})")
    rotations, first, count = meta["rotations"], meta["first"], meta["count"]
    n = count * rotations
    rot = (np.tile(np.arange(rotations, dtype=np.int8), count) if rotations > 1
           else np.full(n, meta["block"], np.int8))
    seats = np.array(meta["seats"], np.int8)
    dtype = pa.int32() if meta["type"] == "int32" else pa.int16()
    out = []
    for name in columns:
        if name in table.column_names:
            col = table.column(name)
        elif name == "cell":
            col = pa.array(np.full(n, meta["cell"], np.int16))
        elif name == "deal":
            col = pa.array(np.repeat(np.arange(first, first + count, dtype=np.int64),
                                     rotations))
        elif name == "rotation":
            col = pa.array(rot)
        elif name.startswith("entry_"):
            col = pa.array(seats[rot, int(name[6:])])
        else:
            col = pa.array(np.full(n, meta["constants"][name], dtype.to_pandas_dtype()))
        out.append(col)
    return pa.table(dict(zip(columns, out)))


def read_chunk(path, columns=None) -> pa.Table:
    """The records of one chunk file (``columns`` of them, in that order; default all).
    ValueError for a file of an older layout, KeyError for an unknown column."""
    schema = pq.read_schema(path)
    meta = chunk_meta(schema)
    stored = [c for c in (chunk_columns(meta) if columns is None else columns)
              if c in schema.names]
    return restore(pq.read_table(path, columns=stored), columns, meta)


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
    """``(k, 2)`` int64: per lineup entry, rows won and rows played in ``table`` (records
    with ``rotation``, ``winner`` and ``points_*``)."""
    n_sides = len(set(side_of))
    pts = np.stack([table.column(f"points_{t}").to_numpy() for t in range(n_sides)], axis=1)
    rows = entry_rows(cell, side_of, table.column("rotation").to_numpy(),
                      table.column("winner").to_numpy(), pts)
    k = len(cell["lineup"])
    wins = np.bincount(rows["entry"], weights=rows["result"] == 1, minlength=k)
    plays = np.bincount(rows["entry"], minlength=k)
    return np.stack([wins, plays], axis=1).astype(np.int64)

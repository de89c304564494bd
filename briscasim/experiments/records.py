"""Per-deal records as tables: column names, chunk files, and outcomes per lineup entry.

A run folder is a standard Parquet dataset, partitioned by cell (hive style)::

    cell=0/chunk-000000.parquet
    cell=0/chunk-000001.parquet
    cell=1/chunk-000000.parquet

Every chunk file of a run has the same columns (:func:`run_schema`), so that
``pandas.read_parquet(run_dir)``, DuckDB and Polars read every column of every cell: ``deal``
(the engine's deal index), ``rotation`` (the rotation, or the seating of a rotated lineup
played without duplicate deals), ``entry_0 ..`` (the lineup entry at each seat), then the
record fields: the ``REC_*`` fields of :mod:`briscasim.engine.layout` for single deals or the
``M_*`` fields of :mod:`briscasim.batch` for matches, in lower case (``winner``,
``swap7_trick``, ``points_0`` ...). The cell is the folder (``cell=K``); :func:`read_chunk`
adds it as a column. A column a cell does not have (a seat or a side beyond its table, a match
field in a cell of single deals) is null there.

Writing is most of what the runner costs over the engine, so each column is encoded for what
it holds: record fields that vary in the chunk are byte-stream-split (the high bytes of small
integers become runs), ``deal`` is delta-encoded (one step of 1), and columns whose values
repeat (``rotation``, ``entry_*``, a field with one value in the whole chunk such as a swap
the rules do not allow) are stored plain, which LZ4, over all of it, packs to almost nothing
(dictionary encoding packs them a little smaller but takes three times as long to write).
Columns are nullable only where some cell of the run lacks them (definition levels cost
time too). The file's key-value metadata (key ``briscasim``, JSON) names the chunk: its cell,
first deal and count.
"""
from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..engine import layout as L
from ..rules import Rules

MAX_SEATS = L.MAX_PLAYERS
PER_SIDE = ("points", "deals_won", "game_points")


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


DEAL_FIELDS = _fields(L, "REC_", {"REC_POINTS": L.MAX_SIDES,
                                   "REC_GAME_POINTS": L.MAX_PLAYERS})
"""Every field of a deal record; a trick game's record holds the first ``RECORD_LEN``, a
Briscola Chiamata record all of them (:func:`deal_fields`)."""
assert [i for _, i in DEAL_FIELDS] == list(range(L.CHIAMATA_RECORD_LEN))


def deal_fields(width: int) -> list[tuple[str, int]]:
    """``(column, record index)`` of deal records of ``width`` fields."""
    return [f for f in DEAL_FIELDS if f[1] < width]


@lru_cache(maxsize=1)
def match_fields() -> list[tuple[str, int]]:
    """``(column, record index)`` of match records (imports the batch kernels, so lazily)."""
    from .. import batch
    fields = _fields(batch, "M_", {"M_DEALS_WON": L.MAX_SIDES, "M_POINTS": L.MAX_SIDES})
    assert [i for _, i in fields] == list(range(batch.MATCH_RECORD_LEN))
    return fields


CHUNK_FORMAT = 3
"""Version of the chunk files' layout (metadata key ``briscasim``): 1 and 2 stored only some
columns and are not read any more."""
META_KEY = b"briscasim"


def _kept(name: str, n_sides: int) -> bool:
    """False for a per-side field of a side the cell does not have."""
    base, _, side = name.rpartition("_")
    return not (side.isdigit() and base in PER_SIDE and int(side) >= n_sides)


def cell_shape(cell: dict) -> tuple[int, int, bool, int]:
    """Seats, sides, whether it plays matches, and the width of its deal records, of a
    resolved cell dict."""
    rules = Rules.from_options(cell["rules"])
    width = L.CHIAMATA_RECORD_LEN if rules.chiamata else L.RECORD_LEN
    return len(cell["seating"]), len(rules.sides), rules.match_kind != "deal", width


def run_schema(cells) -> pa.Schema:
    """The columns of every chunk file of a run of the resolved ``cells`` (module docstring):
    the seats and sides of its largest cell, the fields of single deals and of matches as its
    cells play them. A column that some cell does not have is nullable; the others are not
    (definition levels cost time to write)."""
    shapes = [cell_shape(c) for c in cells]
    seats = max(s for s, _, _, _ in shapes)
    kinds = {m for _, _, m, _ in shapes}
    widths = {w for _, _, m, w in shapes if not m}
    names, everywhere = [], set()
    for matches in sorted(kinds):
        of_kind = [t for _, t, m, _ in shapes if m == matches]
        for name, i in (match_fields() if matches else deal_fields(max(widths))):
            if _kept(name, max(of_kind)) and name not in names:
                names.append(name)
            if len(kinds) == 1 and _kept(name, min(of_kind)) and (
                    matches or i < min(widths)):
                everywhere.add(name)
    dtype = pa.int32() if True in kinds else pa.int16()
    low = min(s for s, _, _, _ in shapes)
    return pa.schema([pa.field("deal", pa.int64(), nullable=False),
                      pa.field("rotation", pa.int8(), nullable=False)]
                     + [pa.field(f"entry_{s}", pa.int8(), nullable=s >= low)
                        for s in range(seats)]
                     + [pa.field(name, dtype, nullable=name not in everywhere)
                        for name in names])


def to_table(cell, records: np.ndarray, n_sides: int, schema: pa.Schema, rotations: int,
             block: int, first: int, count: int) -> tuple[pa.Table, list[str]]:
    """The table of one chunk (rows ``deal * rotations + rotation``; module docstring) and
    the columns whose values repeat (stored plain, for LZ4 to pack).

    ``cell`` is a resolved cell dict (:meth:`Cell.to_dict`); ``block`` is the seating of a
    rotated lineup without duplicate deals (the rotation column), else 0; ``schema`` is the
    run's (:func:`run_schema`).
    """
    n = count * rotations
    index = dict(deal_fields(records.shape[1]) if records.shape[1] in (
        L.RECORD_LEN, L.CHIAMATA_RECORD_LEN) else match_fields())
    dtype = schema.field(schema.names[-1]).type
    np_type = dtype.to_pandas_dtype()
    lo, hi = _column_range(records)
    varying = [index[f.name] for f in schema
               if f.name in index and _kept(f.name, n_sides) and lo[index[f.name]] != hi[index[f.name]]]
    rows = dict(zip(varying, records.T[varying].astype(np_type)))   # one pass, a row per field
    if rotations > 1:
        rot = np.tile(np.arange(rotations, dtype=np.int8), count)
    else:
        rot = np.full(n, block, np.int8)
    seats = seat_entries(cell, max(rotations, block + 1))
    n_seats = len(cell["seating"])
    arrays, repeating = [], []
    for f in schema:
        name = f.name
        if name == "deal":
            deal = np.arange(first, first + count, dtype=np.int64)
            arrays.append(pa.array(np.repeat(deal, rotations) if rotations > 1 else deal))
            continue
        if name == "rotation":
            values = rot
        elif name.startswith("entry_"):
            s = int(name[6:])
            values = (None if s >= n_seats else seats[rot, s] if rotations > 1
                      else np.full(n, seats[block, s], np.int8))
        elif index.get(name) in rows:
            arrays.append(pa.array(rows[index[name]], f.type))
            continue
        elif name in index and _kept(name, n_sides):
            values = np.full(n, lo[index[name]], np_type)
        else:
            values = None
        arrays.append(pa.nulls(n, f.type) if values is None else pa.array(values, f.type))
        repeating.append(name)
    meta = dict(format=CHUNK_FORMAT, cell=cell["id"], first=first, count=count,
                rotations=rotations, block=block)
    return (pa.Table.from_arrays(arrays, schema=schema.with_metadata(
        {META_KEY: json.dumps(meta)})), repeating)


def write_chunk(sink, table: pa.Table, repeating: list[str]) -> None:
    """Write a chunk's table (:func:`to_table`) as Parquet to ``sink`` (a path or an Arrow
    output stream), each column encoded as the module docstring says."""
    encoding = {f.name: ("DELTA_BINARY_PACKED" if f.name == "deal" else
                         "PLAIN" if f.name in repeating else "BYTE_STREAM_SPLIT")
                for f in table.schema}
    pq.write_table(table, sink, compression="lz4", write_statistics=False,
                   use_dictionary=False, column_encoding=encoding)


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
    """The ``briscasim`` metadata of a chunk file's schema; ValueError if it has none (not a
    chunk file) or is of another layout."""
    raw = (schema.metadata or {}).get(META_KEY)
    meta = json.loads(raw) if raw is not None else {}
    if meta.get("format") != CHUNK_FORMAT:
        raise ValueError(f"chunk layout {meta.get('format', 1)}, this briscasim reads "
                         f"{CHUNK_FORMAT} (written by an older briscasim: re-run)")
    return meta


def read_chunk(source, columns=None) -> pa.Table:
    """The records of one chunk file (a path or an Arrow buffer) with its ``cell`` first, or
    ``columns`` of them in that order. ValueError for a file of an older layout, KeyError for
    an unknown column."""
    if isinstance(source, (pa.Buffer, bytes)):
        source = pa.BufferReader(source)
    pf = pq.ParquetFile(source)
    schema = pf.schema_arrow
    meta = chunk_meta(schema)
    every = ["cell"] + schema.names
    columns = every if columns is None else list(columns)
    unknown = [c for c in columns if c not in every]
    if unknown:
        raise KeyError(f"no column {unknown[0]!r} in these records (columns: "
                       f"{', '.join(every)})")
    table = pf.read(columns=[c for c in columns if c != "cell"])
    if "cell" in columns:
        cell = pa.array(np.full(table.num_rows, meta["cell"], np.int16))
        table = table.add_column(columns.index("cell"),
                                 pa.field("cell", pa.int16(), nullable=False), cell)
    return table.select(columns)


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

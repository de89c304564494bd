"""The experiment runner: every cell of a spec in chunks, on threads or a Dask cluster.

A results directory holds::

    manifest.json                       the resolved spec, versions, what is done
    chunks/cell0003-chunk000012.parquet one file per finished chunk (records.py layout)

Chunk ``j`` of a cell is a fixed range of deal indices (:func:`spec.chunk_bounds`), and the
engine's per-deal random streams make its records depend only on the spec, so the results
never depend on the number of workers, on the executor, or on interruptions. Each chunk file
is written under a temporary name and renamed into place (atomic), so a run killed at any
moment keeps every finished chunk and ``resume`` plays exactly the missing ones.

Target mode (``[target]`` in the spec): chunks of a cell are considered in order and the cell
stops after the first whole round of seatings where the widest 95% Wilson interval of a lineup
entry's win rate has a half-width below the target (or at the cap). Chunks played ahead of that
point are discarded, so the result is the same however many ran in parallel.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from ..errors import UserError
from ..stats import wilson_interval
from .records import (PARQUET_OPTIONS, chunk_meta, entry_tally, read_chunk, restore,
                      seat_entries, to_table)
from .spec import Spec, chunk_bounds, n_chunks

MANIFEST = "manifest.json"
FORMAT = "briscasim-run"
FORMAT_VERSION = 2
"""2: chunk files in the layout of :mod:`.records` (format 1 stored every column per deal)."""
CHUNK_DIR = "chunks"
TMP_DIR = ".tmp"
CHUNK_NAME = re.compile(r"cell(\d{4,})-chunk(\d{6,})\.parquet\Z")


def chunk_name(cell: int, j: int) -> str:
    return f"cell{cell:04d}-chunk{j:06d}.parquet"


def default_dir(spec: Spec) -> Path:
    return Path("runs") / spec.name


def versions() -> dict:
    """Versions that could change the results: packages, and the digest of the engine and
    strategy sources this process loaded (``briscasim.SOURCE_DIGEST``)."""
    import numba
    import pyarrow

    from .. import SOURCE_DIGEST, __version__
    return dict(briscasim=__version__, engine_sources=SOURCE_DIGEST, numpy=np.__version__,
                numba=numba.__version__, pyarrow=pyarrow.__version__,
                python=sys.version.split()[0])


# ---- the results directory --------------------------------------------------------------

def read_manifest(path: Path) -> dict:
    """The manifest of results directory ``path``; UserError if it is missing or not ours."""
    path = Path(path)
    m = path / MANIFEST
    if not path.is_dir():
        raise UserError(f"{path}: no such results directory")
    if not m.is_file():
        raise UserError(f"{path}: not a briscasim results directory (no {MANIFEST})")
    try:
        data = json.loads(m.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UserError(f"{m}: corrupt manifest ({e}); nothing was changed") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserError(f"{m}: not a briscasim run manifest (format "
                        f"{data.get('format') if isinstance(data, dict) else None!r}); "
                        "nothing was changed")
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        older = isinstance(version, int) and version < FORMAT_VERSION
        raise UserError(f"{m}: results format version {version!r}, this briscasim reads "
                        f"version {FORMAT_VERSION} (written by "
                        f"{'an older' if older else 'another'} briscasim: re-run the spec "
                        "into a new directory); nothing was changed")
    for key in ("digest", "spec", "status"):
        if key not in data:
            raise UserError(f"{m}: corrupt manifest (no {key!r}); nothing was changed")
    return data


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1, default=str))
    os.replace(tmp, path)


def scan_chunks(path: Path, manifest: dict, check_rows: bool = True) -> dict:
    """``{(cell, j): file}`` of the chunk files present; UserError on a file that does not
    belong to this run or is damaged (nothing is deleted)."""
    resolved = manifest["spec"]
    cells = resolved["cells"]
    found = {}
    d = Path(path) / CHUNK_DIR
    if not d.is_dir():
        return found
    for f in sorted(d.iterdir()):
        m = CHUNK_NAME.match(f.name)
        if not m:
            raise UserError(f"{f}: unexpected file in a briscasim results directory; "
                            "nothing was changed")
        c, j = int(m.group(1)), int(m.group(2))
        if c >= len(cells) or j >= n_chunks(resolved, cells[c]):
            raise UserError(f"{f}: chunk not in the plan of experiment "
                            f"{resolved['name']!r}; nothing was changed")
        if check_rows:
            _, first, count = chunk_bounds(resolved, cells[c], j)
            want = count * cells[c]["rotations"]
            try:
                meta = pq.read_metadata(f)
            except Exception as e:
                raise UserError(f"{f}: damaged chunk file ({type(e).__name__}: {e}); delete "
                                "it and resume to play it again; nothing was changed") from None
            try:
                layout = chunk_meta(meta.schema.to_arrow_schema())
            except ValueError as e:
                raise UserError(f"{f}: {e}; nothing was changed") from None
            got = (meta.num_rows, layout["cell"], layout["first"])
            if got != (want, c, first):
                raise UserError(f"{f}: damaged chunk file ({got[0]} records of cell {got[1]} "
                                f"from deal {got[2]}, expected {want} of cell {c} from deal "
                                f"{first}); delete it and resume to play it again; nothing "
                                "was changed")
        found[(c, j)] = f
    return found


def _prepare(out: Path, spec: Spec, resume: bool) -> dict | None:
    """Create or check the results directory; the manifest, or None if already complete."""
    digest = spec.digest()
    fresh = dict(format=FORMAT, format_version=FORMAT_VERSION, digest=digest,
                 spec_file=str(spec.path), description=spec.description,
                 spec=spec.resolved(), versions=versions(), status="running",
                 created=_dt.datetime.now().isoformat(timespec="seconds"))
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: exists and is not a directory")
    if out.is_dir() and any(out.iterdir()):
        manifest = read_manifest(out)
        if manifest["digest"] != digest:
            raise UserError(
                f"{out}: holds a different experiment ({manifest['spec'].get('name')!r}, "
                f"spec {manifest.get('spec_file')}, digest {manifest['digest']}; this spec's "
                f"digest is {digest}); refusing to overwrite it: choose another -o DIR")
        if manifest["status"] == "complete":
            return None
        if not resume:
            raise UserError(f"{out}: holds an unfinished run of this experiment; pass --resume "
                            "to complete it, or choose another -o DIR")
        old = manifest.get("versions", {})
        new = fresh["versions"]
        changed = [k for k in ("briscasim", "engine_sources", "numpy", "numba")
                   if old.get(k) != new[k]]
        if changed:
            print(f"warning: {out} was started with other versions of "
                  f"{', '.join(changed)}; resumed chunks may not match the earlier ones "
                  "bit for bit", file=sys.stderr)
        return manifest
    (out / CHUNK_DIR).mkdir(parents=True, exist_ok=True)
    _write_json(out / MANIFEST, fresh)
    return fresh


class _Cell:
    """Progress of one cell: chunks done, in flight, and (target mode) where it stops."""

    def __init__(self, resolved: dict, cell: dict, target: dict | None):
        self.cell = cell
        self.n_max = n_chunks(resolved, cell)
        self.target = target
        self.stop = None if target else self.n_max     # chunks that make the result
        self.done: dict[int, np.ndarray | None] = {}
        self.inflight: set[int] = set()
        self.next_j = 0
        self.prefix = 0                                # chunks 0..prefix-1 checked
        self.sum = np.zeros((len(cell["lineup"]), 2), np.int64)

    @property
    def limit(self) -> int:
        return self.stop if self.stop is not None else self.n_max

    def next_chunk(self, lookahead: int) -> int | None:
        while self.next_j < self.limit and (self.next_j in self.done
                                            or self.next_j in self.inflight):
            self.next_j += 1
        if self.next_j >= self.limit:
            return None
        if self.stop is None and self.next_j >= self.prefix + lookahead:
            return None
        return self.next_j

    def advance(self) -> bool:
        """Target mode: fold finished chunks in order; True when the stop is decided now."""
        if self.stop is not None:
            return False
        blocks = self.cell["blocks"]
        while self.prefix in self.done:
            self.sum += self.done[self.prefix]
            self.prefix += 1
            if self.prefix == self.n_max or (self.prefix % blocks == 0
                                             and self.half_width() < self.target["ci_half_width"]):
                self.stop = self.prefix
                return True
        return False

    def half_width(self) -> float:
        widths = [(hi - lo) / 2 for lo, hi in (wilson_interval(w, n) for w, n in self.sum)]
        return max(widths)


def run(spec: Spec, out=None, workers: int | None = None, resume: bool = False,
        executor: str = "local", scheduler: str | None = None, progress: bool = True,
        log=None) -> Path:
    """Play every chunk of ``spec`` not yet in ``out`` and mark the run complete.

    Parameters
    ----------
    spec : Spec
        From :func:`briscasim.experiments.spec.load_spec`.
    out : path, optional
        Results directory (default ``runs/<spec name>``). A directory holding another
        experiment is refused; one holding an unfinished run of this spec needs ``resume``.
    workers : int, optional
        Threads (local) or chunks in flight per worker thread (Dask); default every core.
    executor, scheduler : str
        ``"local"``, or ``"dask"`` with the scheduler's address.
    progress : bool
        Show a progress bar (deals done, deals per second, time left).

    Returns
    -------
    Path
        The results directory.
    """
    from .executors import make_executor        # the engine: not needed to read results
    log = log or (lambda msg: print(msg, file=sys.stderr))
    out = Path(out) if out is not None else default_dir(spec)
    ex = make_executor(executor, workers, scheduler)
    try:
        return _run(spec, out, resume, ex, progress, log)
    except BaseException:
        ex.close(cancel=True)
        raise


def _run(spec, out, resume, ex, progress, log) -> Path:
    manifest = _prepare(out, spec, resume)
    if manifest is None:
        log(f"{out}: this experiment is already complete; nothing to do")
        ex.close()
        return out
    resolved = manifest["spec"]
    cells = [_Cell(resolved, c, resolved["target"]) for c in resolved["cells"]]
    target = resolved["target"] is not None
    rules_of = {c.id: c.rules for c in spec.cells}

    existing = scan_chunks(out, manifest)
    for (c, j), f in existing.items():
        side_of = rules_of[c].side_of
        cells[c].done[j] = (entry_tally(cells[c].cell, side_of,
                                        read_chunk(f, _tally_columns(side_of)))
                            if target else None)
    for st in cells:
        if st.advance():
            _discard(out, st)

    tmp_dir = out / TMP_DIR
    tmp_dir.mkdir(exist_ok=True)
    for f in tmp_dir.iterdir():        # half-written chunks of a killed run (ours only)
        if f.name.endswith(".tmp") and CHUNK_NAME.match(f.name.split(".parquet")[0] + ".parquet"):
            f.unlink()

    def deals_of(st: _Cell, js) -> int:
        return sum(chunk_bounds(resolved, st.cell, j)[2] for j in js)

    total = sum(deals_of(st, range(st.limit)) for st in cells)
    initial = sum(deals_of(st, [j for j in st.done if j < st.limit]) for st in cells)
    window = 2 * ex.workers
    bar = _bar(total, initial, progress)
    pending = {}
    started = time.perf_counter()
    try:
        while True:
            _fill(ex, resolved, cells, rules_of, pending, window, out, target)
            if not pending:
                break
            done, _ = ex.wait(set(pending))
            for fut in done:
                st, j = pending.pop(fut)
                tally = ex.result(fut)
                st.inflight.discard(j)
                count = chunk_bounds(resolved, st.cell, j)[2]
                if j >= st.limit:            # played ahead of a target stop
                    (out / CHUNK_DIR / chunk_name(st.cell["id"], j)).unlink(missing_ok=True)
                    continue
                st.done[j] = tally
                bar.update(count)
                before = st.limit
                if st.advance():
                    _discard(out, st)
                    bar.total -= deals_of(st, range(st.limit, before))
                    bar.refresh()
    finally:
        bar.close()
    ex.close()
    elapsed = time.perf_counter() - started
    manifest.update(status="complete", done={str(st.cell["id"]): st.limit for st in cells},
                    deals={str(st.cell["id"]): deals_of(st, range(st.limit)) for st in cells},
                    finished=_dt.datetime.now().isoformat(timespec="seconds"),
                    last_session=dict(seconds=round(elapsed, 3),
                                      deals=int(total - initial),
                                      executor=type(ex).__name__, workers=ex.workers))
    _write_json(out / MANIFEST, manifest)
    return out




def _discard(out: Path, st: _Cell) -> None:
    """Remove this run's chunk files beyond a target stop (played ahead in parallel)."""
    for j in [j for j in st.done if j >= st.stop]:
        (out / CHUNK_DIR / chunk_name(st.cell["id"], j)).unlink(missing_ok=True)
        del st.done[j]


def _fill(ex, resolved, cells, rules_of, pending, window, out, target):
    """Submit chunks, cells in order, until ``window`` are in flight."""
    from . import executors
    for st in cells:
        while len(pending) < window:
            j = st.next_chunk(lookahead=window)
            if j is None:
                break
            cell = st.cell
            b, first, count = chunk_bounds(resolved, cell, j)
            rules = rules_of[cell["id"]]
            seats = seat_entries(cell, b + 1)[b, :len(cell["seating"])]
            lineup = tuple(cell["lineup"][e] for e in seats)
            job = executors.Job(rules, lineup, resolved["seed"], first, count, cell["rotations"])
            finish = _Finisher(out, cell, rules.side_of, j, b, first, count, target)
            pending[ex.submit(job, finish)] = (st, j)
            st.inflight.add(j)
        if len(pending) >= window:
            return


class _Finisher:
    """Writes one chunk's records as Parquet (atomically) and tallies them if needed."""

    def __init__(self, out, cell, side_of, j, block, first, count, target):
        self.out, self.cell, self.side_of = out, cell, side_of
        self.j, self.block, self.first, self.count, self.target = j, block, first, count, target

    def __call__(self, records: np.ndarray):
        table = to_table(self.cell, records, len(set(self.side_of)), self.cell["rotations"],
                         self.block, self.first, self.count)
        name = chunk_name(self.cell["id"], self.j)
        tmp = self.out / TMP_DIR / f"{name}.{os.getpid()}-{threading.get_ident()}.tmp"
        pq.write_table(table, tmp, **PARQUET_OPTIONS)
        os.replace(tmp, self.out / CHUNK_DIR / name)
        if not self.target:
            return None
        return entry_tally(self.cell, self.side_of, restore(table, _tally_columns(self.side_of)))


def _tally_columns(side_of) -> list[str]:
    """The record columns :func:`entry_tally` reads."""
    return ["rotation", "winner"] + [f"points_{t}" for t in range(len(set(side_of)))]


def _bar(total: int, initial: int, show: bool):
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit=" deals", unit_scale=True,
                disable=not show, dynamic_ncols=True, smoothing=0.1,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} deals "
                           "[{elapsed}<{remaining}, {rate_fmt}]")

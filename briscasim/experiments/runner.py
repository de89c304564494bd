"""The experiment runner: every cell of a spec in chunks, on threads or a Dask cluster.

A results directory is a Parquet dataset partitioned by cell (:mod:`.records`), with the
run's own files beside it, each named so that Parquet readers skip it::

    _manifest.json                  the resolved spec and its digest, versions, what is done,
                                    and a checksum of every chunk file once the run is
                                    complete; sealed field by field against hand edits
    _checksums.txt                  while the run is unfinished: a checksum per finished chunk
    cell=3/chunk-000012.parquet     one file per finished chunk
    .lock                           held by the run writing here (a second one is refused)
    .tmp/                           chunk files being written

Chunk ``j`` of a cell is a fixed range of deal indices (:func:`spec.chunk_bounds`), and the
engine's per-deal random streams make its records depend only on the spec, so the results
never depend on the number of workers, on the executor, or on interruptions. Each chunk file
is written under a temporary name and renamed into place, and its checksum (SHA-256 of the
file's bytes) is recorded once it is in place, so a run killed at any moment keeps every
finished chunk. ``resume`` checks every chunk file against its checksum and plays again
exactly the chunks that are missing, damaged or unrecorded, in an unfinished run or a
finished one. ``report`` and :func:`briscasim.load` check every chunk they read.

Target mode (``[target]`` in the spec): chunks of a cell are considered in order and the cell
stops after the first whole round of seatings where the widest 95% Wilson interval of a lineup
entry's win rate has a half-width below the target (or at the cap). Chunks played ahead of that
point are discarded, so the result is the same however many ran in parallel.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..errors import ArgumentTypeError, UserError
from ..stats import wilson_interval
from .records import entry_tally, read_chunk, run_schema, seat_entries, to_table, write_chunk
from .spec import Spec, chunk_bounds, digest_of, n_chunks

try:
    import fcntl
except ImportError:             # not on POSIX: no lock
    fcntl = None

MANIFEST = "_manifest.json"
OLD_MANIFEST = "manifest.json"
"""The manifest's name in results directories of format 1 and 2."""
FORMAT = "briscasim-run"
FORMAT_VERSION = 4
"""4: a Parquet dataset partitioned by cell, every column in every file, a checksum per chunk,
the manifest sealed field by field (3 had no seal; 2 and 1 kept some columns in the files'
metadata, or every column without checksums)."""
SEAL = "seal"
"""The manifest's field holding a digest of each of its other fields (:func:`seal_of`)."""
JOURNAL = "_checksums.txt"
TMP_DIR = ".tmp"
LOCK = ".lock"
CELL_DIR = re.compile(r"cell=(\d+)\Z")
CHUNK_NAME = re.compile(r"chunk-(\d{6,})\.parquet\Z")


def chunk_path(out, cell: int, j: int) -> Path:
    """Where chunk ``j`` of cell ``cell`` lives in results directory ``out``."""
    return Path(out) / f"cell={cell}" / f"chunk-{j:06d}.parquet"


def checksum(data) -> str:
    """The checksum recorded for a chunk file's bytes (SHA-256: the fastest of hashlib's
    hashes where the processor has instructions for it)."""
    return hashlib.sha256(data).hexdigest()


def default_dir(spec: Spec) -> Path:
    return Path("runs") / spec.name


def versions() -> dict:
    """Versions that could change the results: packages, the digest of the engine and
    strategy sources this process loaded (``briscasim.SOURCE_DIGEST``) and that of the
    shipped models of the ``learned`` player (their ``SHA256SUMS``)."""
    import numba

    from .. import SOURCE_DIGEST, __version__
    from ..strategies.learned import CHECKSUMS
    models = hashlib.sha256(CHECKSUMS.read_bytes()).hexdigest()[:16]
    return dict(briscasim=__version__, engine_sources=SOURCE_DIGEST, models=models,
                numpy=np.__version__, numba=numba.__version__, pyarrow=pa.__version__,
                python=sys.version.split()[0])


# ---- the results directory --------------------------------------------------------------

def read_manifest(path: Path) -> dict:
    """The manifest of results directory ``path``; UserError if it is missing, not ours, of
    another format, or does not match its own digest (edited by hand)."""
    path = Path(path)
    m = path / MANIFEST
    if not path.is_dir():
        raise UserError(f"{path}: no such results directory")
    if not m.is_file():
        if (path / OLD_MANIFEST).is_file():
            raise UserError(f"{path}: results of an older briscasim (a {OLD_MANIFEST}, not "
                            f"{MANIFEST}): re-run the spec into a new directory; nothing "
                            "was changed")
        raise UserError(f"{path}: not a briscasim results directory (no {MANIFEST})")
    try:
        data = json.loads(m.read_bytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
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
    try:
        bound = data["digest"] == digest_of(data["spec"])
    except (TypeError, ValueError):
        bound = False
    if not bound:
        raise UserError(f"{m}: the spec recorded in the manifest does not match its digest "
                        f"{data['digest']!r} (the manifest was edited): its chunks cannot be "
                        "trusted; re-run the spec into a new directory; nothing was changed")
    _check_seal(m, data)
    return data


def _field_digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()[:16]


def seal_of(manifest: dict) -> dict:
    """A digest of each field of ``manifest`` (as read back from JSON), but the seal: a hand
    edit of any field no longer matches it."""
    data = json.loads(json.dumps(manifest, default=str))
    return {k: _field_digest(v) for k, v in sorted(data.items()) if k != SEAL}


def _check_seal(m: Path, data: dict) -> None:
    """UserError naming the first field of manifest ``m`` that does not match its seal."""
    seal = data.get(SEAL)
    if not isinstance(seal, dict):
        raise UserError(f"{m}: corrupt manifest (no {SEAL!r} of its fields): its results "
                        "cannot be trusted; re-run the spec into a new directory; nothing was "
                        "changed")
    for key in sorted(set(data) | set(seal)):
        if key == SEAL:
            continue
        what = ("is missing" if key not in data else "was added" if key not in seal
                else None if seal[key] == _field_digest(data[key]) else "was changed")
        if what:
            raise UserError(f"{m}: field {key!r} {what} since briscasim wrote the manifest "
                            f"(it does not match the manifest's seal): its results cannot be "
                            "trusted; restore the manifest, or re-run the spec into a new "
                            "directory; nothing was changed")


def _write_manifest(out: Path, manifest: dict) -> None:
    """Write ``manifest`` into ``out``, sealed (:func:`seal_of`)."""
    manifest[SEAL] = seal_of(manifest)
    _write_json(out / MANIFEST, manifest)


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=1, default=str))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _resume_hint(manifest: dict, out: Path) -> str:
    return f"briscasim run {manifest.get('spec_file') or 'SPEC'} -o {out} --resume"


def scan_chunks(path: Path, manifest: dict) -> dict:
    """``{(cell, j): file}`` of the chunk files present; UserError on a file that does not
    belong to this run (nothing is deleted)."""
    resolved = manifest["spec"]
    cells = resolved["cells"]
    found = {}
    for d in sorted(Path(path).iterdir()):
        m = CELL_DIR.match(d.name)
        if not m:
            continue
        c = int(m.group(1))
        if not d.is_dir() or c >= len(cells):
            raise UserError(f"{d}: not a cell of experiment {resolved['name']!r}; nothing "
                            "was changed")
        for f in sorted(d.iterdir()):
            m = CHUNK_NAME.match(f.name)
            if not m:
                raise UserError(f"{f}: unexpected file in a briscasim results directory; "
                                "nothing was changed")
            j = int(m.group(1))
            if j >= n_chunks(resolved, cells[c]):
                raise UserError(f"{f}: chunk not in the plan of experiment "
                                f"{resolved['name']!r}; nothing was changed")
            found[(c, j)] = f
    return found


_JOURNAL_LINE = re.compile(r"(\d+) (\d+) ([0-9a-f]{64})\Z")


def _recorded(out: Path, manifest: dict, log) -> dict:
    """``{(cell, j): checksum}`` recorded in the manifest (a finished run) and the journal.

    A journal line that cannot be read (invalid bytes, an edit) records nothing, so its
    chunk is played again; the journal is rewritten from what checks out before play
    starts. Only the last line may be cut short by a kill without a word."""
    sums = {}
    for c, values in manifest.get("checksums", {}).items():
        for j, s in enumerate(values):
            sums[(int(c), j)] = s
    try:
        data = (out / JOURNAL).read_bytes()
    except FileNotFoundError:
        data = b""
    lines = data.decode(errors="replace").split("\n")
    damaged = 0
    for i, line in enumerate(lines):
        m = _JOURNAL_LINE.match(line)
        if m:
            sums[(int(m.group(1)), int(m.group(2)))] = m.group(3)
        elif line and i < len(lines) - 1:
            damaged += 1
    if damaged:
        log(f"{out / JOURNAL}: {damaged} damaged lines, ignored: their chunks are played "
            "again")
    return sums


def read_checked_chunk(path, manifest: dict, cell: int, j: int, columns=None) -> pa.Table:
    """The records of chunk ``j`` of ``cell`` of the finished run in ``path`` (columns as
    :func:`.records.read_chunk`), checked against the manifest's checksum: UserError naming
    the file and the command that plays it again if it is missing or damaged."""
    f = chunk_path(path, cell, j)
    fix = f"play it again with: {_resume_hint(manifest, Path(path))}; nothing was changed"
    try:
        data = f.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{f}: missing chunk file; {fix}") from None
    try:
        want = manifest["checksums"][str(cell)][j]
    except (KeyError, IndexError, TypeError):
        raise UserError(f"{Path(path) / MANIFEST}: corrupt manifest (no checksum of chunk {j} "
                        f"of cell {cell}); nothing was changed") from None
    if checksum(data) != want:
        raise UserError(f"{f}: damaged chunk file (its checksum does not match the one "
                        f"recorded when it was written); {fix}")
    return read_chunk(data, columns)


def finished(path) -> dict:
    """The manifest of the finished run in ``path``; UserError if it is unfinished."""
    manifest = read_manifest(path)
    if manifest["status"] != "complete":
        raise UserError(f"{path}: the run is not finished; complete it with "
                        f"{_resume_hint(manifest, Path(path))}")
    for key in ("done", "checksums"):
        if key not in manifest:
            raise UserError(f"{Path(path) / MANIFEST}: corrupt manifest (no {key!r}); "
                            "nothing was changed")
    return manifest


def _is_debris(p: Path) -> bool:
    """A file a run leaves before it has written its first manifest (a fresh directory)."""
    return (p.name == LOCK or (p.name.startswith(MANIFEST + ".") and p.name.endswith(".tmp"))
            or (p.name == TMP_DIR and p.is_dir() and not any(p.iterdir())))


@contextlib.contextmanager
def _locked(out: Path):
    """Hold ``out/.lock`` (released when the process ends, however it ends)."""
    if fcntl is None:
        yield
        return
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise UserError(f"{out}: another briscasim run (process {pid}) is writing to this "
                            "directory; wait for it to finish, or choose another -o DIR") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def _prepare(out: Path, spec: Spec, resume: bool) -> dict | None:
    """Check the results directory (locked); the manifest, or None if already complete and
    not resumed."""
    digest = spec.digest()
    fresh = dict(format=FORMAT, format_version=FORMAT_VERSION, digest=digest,
                 spec_file=str(spec.path), description=spec.description,
                 spec=spec.resolved(), versions=versions(), status="running",
                 created=_dt.datetime.now().isoformat(timespec="seconds"))
    if any(not _is_debris(p) for p in out.iterdir()):
        manifest = read_manifest(out)
        if manifest["digest"] != digest:
            raise UserError(
                f"{out}: holds a different experiment ({manifest['spec'].get('name')!r}, "
                f"spec {manifest.get('spec_file')}, digest {manifest['digest']}; this spec's "
                f"digest is {digest}); refusing to overwrite it: choose another -o DIR")
        if manifest["status"] == "complete" and not resume:
            return None
        if manifest["status"] != "complete" and not resume:
            raise UserError(f"{out}: holds an unfinished run of this experiment; pass --resume "
                            "to complete it, or choose another -o DIR")
        old = manifest.get("versions", {})
        new = fresh["versions"]
        changed = [k for k in ("briscasim", "engine_sources", "models", "numpy", "numba")
                   if old.get(k) != new[k]]
        if changed:
            print(f"warning: {out} was started with other versions of "
                  f"{', '.join(changed)}; chunks played again may not match the others "
                  "bit for bit", file=sys.stderr)
        return manifest
    for p in out.iterdir():            # a manifest half-written by a killed run
        if p.is_file() and p.name != LOCK:
            p.unlink()
    _write_manifest(out, fresh)
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
    resume : bool
        Complete an unfinished run, or check a finished one: every chunk file is checked
        against its checksum, and the missing or damaged ones are played again.
    executor, scheduler : str
        ``"local"``, or ``"dask"`` with the scheduler's address.
    progress : bool
        Show a progress bar (deals done, deals per second, time left).

    Returns
    -------
    Path
        The results directory.

    Errors of the file system (a read-only or full disk, a path under a file) raise
    UserError naming the path and what was kept.
    """
    from .executors import make_executor        # the engine: not needed to read results
    log = log or (lambda msg: print(msg, file=sys.stderr))
    out = Path(out) if out is not None else default_dir(spec)
    ex = None
    try:
        if out.exists() and not out.is_dir():
            raise UserError(f"{out}: exists and is not a directory; choose another -o DIR")
        out.mkdir(parents=True, exist_ok=True)
        with _locked(out):
            ex = make_executor(executor, workers, scheduler)
            return _run(spec, out, resume, ex, progress, log)
    except OSError as e:
        if ex is not None:
            ex.close(cancel=True)
        raise UserError(_os_error(e, out, spec)) from None
    except BaseException:
        if ex is not None:
            ex.close(cancel=True)
        raise


def _os_error(e: OSError, out: Path, spec: Spec) -> str:
    """One line: the path, what went wrong, and what is kept."""
    where = e.filename or out
    kept = 0
    with contextlib.suppress(OSError):
        kept = sum(1 for d in out.glob("cell=*") for _ in d.glob("chunk-*.parquet"))
    saved = (f"{kept} finished chunk files are kept in {out}; when the problem is fixed, "
             f"complete the run with: briscasim run {spec.path} -o {out} --resume"
             if kept else "no results were written")
    return f"{where}: {e.strerror or e}; {saved}"


def _run(spec, out, resume, ex, progress, log) -> Path:
    manifest = _prepare(out, spec, resume)
    if manifest is None:
        log(f"{out}: this experiment is already complete; nothing to do (--resume checks "
            "every chunk file and plays any damaged or missing one again)")
        ex.close()
        return out
    resolved = manifest["spec"]
    cells = [_Cell(resolved, c, resolved["target"]) for c in resolved["cells"]]
    target = resolved["target"] is not None
    rules_of = {c.id: c.rules for c in spec.cells}
    kernel_key = _kernel_key(resolved["cells"], rules_of)
    schema = run_schema(resolved["cells"])

    recorded = _recorded(out, manifest, log)
    sums = {}
    bad = []
    for (c, j), f in scan_chunks(out, manifest).items():
        data = f.read_bytes()
        if recorded.get((c, j)) != checksum(data):
            bad.append(f)              # played again; its new file replaces it
            continue
        sums[(c, j)] = recorded[(c, j)]
        side_of = rules_of[c].side_of
        cells[c].done[j] = (entry_tally(cells[c].cell, side_of,
                                        read_chunk(data, _tally_columns(side_of)))
                            if target else None)
    for f in bad[:5]:
        log(f"{f}: damaged, or its checksum was never recorded: playing it again")
    if len(bad) > 5:
        log(f"... and {len(bad) - 5} more chunk files: playing them again")
    for st in cells:
        if st.advance():
            _discard(out, st, sums)
    if manifest["status"] == "complete":
        missing = sum(st.limit for st in cells) - sum(
            1 for st in cells for j in st.done if j < st.limit)
        if not missing:
            log(f"{out}: this experiment is already complete, and every chunk file matches "
                "its checksum; nothing to do")
            ex.close()
            return out
        log(f"{out}: {missing} chunk files missing or damaged: playing them again")
        manifest.update(status="running")
        manifest.pop("checksums", None)
        _write_journal(out, sums)
        _write_manifest(out, manifest)
    else:
        _write_journal(out, sums)

    tmp_dir = out / TMP_DIR
    tmp_dir.mkdir(exist_ok=True)
    for f in tmp_dir.iterdir():        # half-written chunks of a killed run (ours: locked)
        if f.name.endswith(".tmp"):
            f.unlink()
    for st in cells:
        chunk_path(out, st.cell["id"], 0).parent.mkdir(exist_ok=True)

    def deals_of(st: _Cell, js) -> int:
        return sum(chunk_bounds(resolved, st.cell, j)[2] for j in js)

    total = sum(deals_of(st, range(st.limit)) for st in cells)
    initial = sum(deals_of(st, [j for j in st.done if j < st.limit]) for st in cells)
    window = 2 * ex.workers
    bar = _bar(total, initial, progress)
    pending = {}
    from .. import jit
    compiling = jit.compile_seconds()
    started = time.perf_counter()
    journal = open(out / JOURNAL, "a")
    try:
        while True:
            _fill(ex, resolved, cells, rules_of, kernel_key, schema, pending, window, out,
                  target)
            if not pending:
                break
            done, _ = ex.wait(set(pending))
            for fut in done:
                st, j = pending.pop(fut)
                tally, digest = ex.result(fut)
                st.inflight.discard(j)
                count = chunk_bounds(resolved, st.cell, j)[2]
                if j >= st.limit:            # played ahead of a target stop
                    chunk_path(out, st.cell["id"], j).unlink(missing_ok=True)
                    continue
                st.done[j] = tally
                sums[(st.cell["id"], j)] = digest
                journal.write(f"{st.cell['id']} {j} {digest}\n")
                journal.flush()
                bar.update(count)
                before = st.limit
                if st.advance():
                    _discard(out, st, sums)
                    bar.total -= deals_of(st, range(st.limit, before))
                    bar.refresh()
    finally:
        bar.close()
        journal.close()
    ex.close()
    elapsed = time.perf_counter() - started
    compiled = jit.compile_seconds() - compiling
    played = int(total - initial)
    manifest.update(status="complete", done={str(st.cell["id"]): st.limit for st in cells},
                    deals={str(st.cell["id"]): deals_of(st, range(st.limit)) for st in cells},
                    checksums={str(st.cell["id"]): [sums[(st.cell["id"], j)]
                                                    for j in range(st.limit)]
                               for st in cells},
                    finished=_dt.datetime.now().isoformat(timespec="seconds"),
                    last_run=dict(seconds=round(elapsed, 3),
                                      compile_seconds=round(compiled, 3),
                                      deals=played,
                                      deals_per_second=round(played / max(elapsed - compiled,
                                                                          1e-9)),
                                      executor=type(ex).__name__, workers=ex.workers))
    _write_manifest(out, manifest)
    (out / JOURNAL).unlink(missing_ok=True)
    rate = manifest["last_run"]["deals_per_second"]
    log(f"played {played:,} deals in {elapsed - compiled:.1f} s ({rate:,} deals/s)"
        + (f", after {compiled:.0f} s compiling the engine" if compiled >= 1 else ""))
    return out


def _write_journal(out: Path, sums: dict) -> None:
    """The journal of an unfinished run: the checksum of every chunk file checked so far."""
    tmp = out / (JOURNAL + f".{os.getpid()}.tmp")
    try:
        tmp.write_text("".join(f"{c} {j} {s}\n" for (c, j), s in sorted(sums.items())))
        os.replace(tmp, out / JOURNAL)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _discard(out: Path, st: _Cell, sums: dict) -> None:
    """Remove this run's chunk files beyond a target stop (played ahead in parallel)."""
    for j in [j for j in st.done if j >= st.stop]:
        chunk_path(out, st.cell["id"], j).unlink(missing_ok=True)
        del st.done[j]
        sums.pop((st.cell["id"], j), None)


def _kernel_key(cells, rules_of) -> tuple[int, int]:
    """The strategy kinds (``HAS_*``) and rule features (``F_*``) the cells need together:
    one kernel that holds them (:func:`briscasim.batch.kernel_key`) plays them all."""
    from . import executors
    from ..lineup import needed_features
    shape = features = 0
    for cell in cells:
        rules = rules_of[cell["id"]]
        seats = seat_entries(cell, 1)[0, :len(cell["seating"])]
        lineup = executors.lineup_of(rules, tuple(cell["lineup"][e] for e in seats))
        shape |= lineup.own_shape
        features |= needed_features(rules, lineup)
    return shape, features


def _fill(ex, resolved, cells, rules_of, kernel_key, schema, pending, window, out, target):
    """Submit chunks, cells in order, until ``window`` are in flight."""
    from . import executors
    from ..batch import kernel_key as kernel_of
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
            shape, features = kernel_of(rules.match_kind, *kernel_key)
            job = executors.Job(rules, lineup, resolved["seed"], first, count, cell["rotations"],
                                features=features, shape=shape)
            finish = _Finisher(out, cell, rules.side_of, schema, j, b, first, count, target)
            pending[ex.submit(job, finish)] = (st, j)
            st.inflight.add(j)
        if len(pending) >= window:
            return


class _Finisher:
    """Writes one chunk's records as Parquet (atomically); its tally if needed and checksum."""

    def __init__(self, out, cell, side_of, schema, j, block, first, count, target):
        self.out, self.cell, self.side_of, self.schema = out, cell, side_of, schema
        self.j, self.block, self.first, self.count, self.target = j, block, first, count, target

    def __call__(self, records: np.ndarray):
        table, repeating = to_table(self.cell, records, len(set(self.side_of)), self.schema,
                                    self.cell["rotations"], self.block, self.first, self.count)
        sink = pa.BufferOutputStream()
        write_chunk(sink, table, repeating)
        data = sink.getvalue()
        path = chunk_path(self.out, self.cell["id"], self.j)
        tmp = self.out / TMP_DIR / f"{self.cell['id']}-{path.name}.{os.getpid()}-" \
                                   f"{threading.get_ident()}.tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        tally = (entry_tally(self.cell, self.side_of, table) if self.target else None)
        return tally, checksum(data)


def _tally_columns(side_of) -> list[str]:
    """The record columns :func:`entry_tally` reads."""
    return ["rotation", "winner"] + [f"points_{t}" for t in range(len(set(side_of)))]


def _bar(total: int, initial: int, show: bool):
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit=" deals", unit_scale=True,
                disable=not show, dynamic_ncols=True, smoothing=0.1,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} deals "
                           "[{elapsed}<{remaining}, {rate_fmt}]")


_NULLABLE = {pa.int8(): "Int8", pa.int16(): "Int16", pa.int32(): "Int32", pa.int64(): "Int64"}


def load(path):
    """Every record of the finished run in ``path`` as one tidy pandas DataFrame.

    One row per (cell, deal, rotation): the cell's parameters (``cell``, ``variant``,
    ``label``, ``preset``, every rule option as ``rules.OPTION``, ``lineup``), the deal
    (``deal``, ``rotation``), each seat's lineup entry and strategy (``entry_S``,
    ``strategy_S``), then the record fields (docs/specs.md). Integer columns are pandas'
    nullable integers: a seat or a side that a cell does not have is ``<NA>``. Every chunk is
    checked against its checksum first (UserError naming a damaged or missing file).
    """
    import pandas as pd

    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path must be the folder of a run (a str or a Path), not "
                                f"{type(path).__name__}")
    path = Path(path)
    manifest = finished(path)
    frames = []
    for cell in manifest["spec"]["cells"]:
        c = cell["id"]
        table = pa.concat_tables([read_checked_chunk(path, manifest, c, j)
                                  for j in range(manifest["done"][str(c)])])
        records = table.to_pandas(types_mapper=lambda t: (pd.api.types.pandas_dtype(_NULLABLE[t])
                                                          if t in _NULLABLE else None))
        params = dict(variant=cell["variant"], label=cell["label"], preset=cell["preset"])
        params.update({f"rules.{k}": (v if v is None or isinstance(v, (str, int, float, bool))
                                      else json.dumps(v))
                       for k, v in cell["rules"].items()})
        params["lineup"] = " | ".join(cell["labels"])
        labels = np.asarray(cell["labels"], dtype=object)
        seats = {f"strategy_{s}": labels[records[f"entry_{s}"].to_numpy(dtype=np.int64)]
                 for s in range(len(cell["seating"]))}
        head = pd.DataFrame({"cell": records.pop("cell")})
        head = head.assign(**params)
        frames.append(pd.concat([head, records, pd.DataFrame(seats)], axis=1))
    df = pd.concat(frames, ignore_index=True)
    for name in df.columns:
        if df[name].dtype == object or pd.api.types.is_string_dtype(df[name].dtype):
            df[name] = df[name].astype("category")
    return df

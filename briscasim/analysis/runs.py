"""A finished run as the analyses read it: its manifest, its cells, their records (read
through the run folder's own reader, :mod:`briscasim.experiments.records`) and the long form
(one row per record, side and lineup entry) every statistic starts from."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from ..errors import UserError
from ..experiments.records import entry_rows, read_chunk
from ..experiments.runner import read_manifest, scan_chunks
from ..rules import Rules


@dataclass
class Run:
    """A finished run folder."""
    path: Path
    manifest: dict

    @classmethod
    def open(cls, path) -> "Run":
        """Read a finished run; UserError if it is unfinished, foreign or damaged."""
        path = Path(path)
        manifest = read_manifest(path)
        if manifest["status"] != "complete":
            raise UserError(f"{path}: the run is not finished; complete it with "
                            f"briscasim run SPEC -o {path} --resume")
        return cls(path, manifest)

    @property
    def spec(self) -> dict:
        return self.manifest["spec"]

    @property
    def name(self) -> str:
        return self.spec["name"]

    @property
    def analysis(self) -> str | None:
        return self.spec.get("analysis")

    @property
    def cells(self) -> list[dict]:
        return self.spec["cells"]

    @property
    def seconds(self) -> float:
        """Wall time of the session that finished the run (compiling included)."""
        return float(self.manifest.get("last_run", {}).get("seconds", math.nan))

    @property
    def compile_seconds(self) -> float:
        """Of :attr:`seconds`, the time spent compiling the engine."""
        return float(self.manifest.get("last_run", {}).get("compile_seconds", 0.0))

    @property
    def workers(self):
        return self.manifest.get("last_run", {}).get("workers")

    @property
    def deals(self) -> int:
        return int(sum(self.manifest.get("deals", {}).values()))

    def rules(self, cell: dict) -> Rules:
        return Rules.from_options(cell["rules"], name=cell["preset"])

    def records(self, cell: dict, columns=None) -> pd.DataFrame:
        """The records of one cell (all its chunk files, in deal order); ``columns`` not
        stored for this cell (e.g. seats it does not have) are left out."""
        files = self._files().get(cell["id"], [])
        if not files:
            raise UserError(f"{self.path}: no records of cell {cell['id']}")
        frames = []
        for f in files:
            try:
                frames.append(read_chunk(f, columns).to_pandas())
            except KeyError:       # a column this cell does not have: read what it has
                frames.append(read_chunk(f, [c for c in columns
                                             if c in _stored(f)]).to_pandas())
        return pd.concat(frames, ignore_index=True)

    def _files(self) -> dict:
        if not hasattr(self, "_chunk_files"):
            found = scan_chunks(self.path, self.manifest)
            files: dict[int, list] = {}
            for (c, j) in sorted(found):
                files.setdefault(c, []).append(found[(c, j)])
            self._chunk_files = files
        return self._chunk_files

    def long(self, cell: dict, rec: pd.DataFrame | None = None) -> pd.DataFrame:
        """One row per (record, side, lineup entry): ``entry``, ``side``, ``seat``,
        ``result`` (1 win, 0 draw, -1 loss), ``score`` (wins + draws/2), ``points``,
        ``margin`` (the side's points minus the best other side's), ``deal``, ``rotation``."""
        rules = self.rules(cell)
        cols = ["deal", "rotation", "winner"] + [f"points_{t}" for t in range(len(rules.sides))]
        rec = self.records(cell, cols) if rec is None else rec
        pts = rec[[f"points_{t}" for t in range(len(rules.sides))]].to_numpy()
        rows = entry_rows(cell, rules.side_of, rec["rotation"].to_numpy(),
                          rec["winner"].to_numpy(), pts)
        df = pd.DataFrame({k: v for k, v in rows.items() if k != "row"})
        df["deal"] = rec["deal"].to_numpy()[rows["row"]]
        df["rotation"] = rec["rotation"].to_numpy()[rows["row"]]
        df["score"] = (df["result"] + 1) / 2
        return df


def _stored(path) -> set:
    """The columns :func:`~briscasim.experiments.records.read_chunk` gives of a chunk file."""
    return {"cell", *pq.read_schema(path).names}


def per_deal(long: pd.DataFrame, entry: int, col: str = "score") -> pd.Series:
    """``col`` of lineup entry ``entry`` averaged over its plays of each deal (the deal is the
    independent observation of a duplicate run)."""
    return long[long["entry"] == entry].groupby("deal")[col].mean()


def per_deal_side(long: pd.DataFrame, side: int, col: str = "score") -> pd.Series:
    """``col`` of side ``side`` averaged over the plays of each deal."""
    return long[long["side"] == side].groupby("deal")[col].mean()


def entry_won(rec: pd.DataFrame, n_seats: int, side_of, entry: int = 0) -> np.ndarray:
    """Per record: did lineup entry ``entry``'s side win (records with ``winner`` and
    ``entry_<seat>`` columns)."""
    ent = rec[[f"entry_{s}" for s in range(n_seats)]].to_numpy()
    w = rec["winner"].to_numpy()
    won = np.zeros(len(rec), bool)
    for s in range(n_seats):
        won |= (ent[:, s] == entry) & (w == side_of[s])
    return won


def cost_line(runs: list[Run]) -> str:
    """What the runs cost: deals and wall time per run, and the worker threads (the deals
    alone when a run's manifest recorded no time)."""
    deals = sum(r.deals for r in runs)
    untimed = [r.name for r in runs if math.isnan(r.seconds)]
    if untimed:
        parts = ", ".join(f"`{r.name}` {r.deals:,}" for r in runs)
        return (f"Compute: {deals:,} deals ({parts}); the wall time of "
                f"{', '.join(f'`{n}`' for n in untimed)} was not recorded.")
    secs = sum(r.seconds for r in runs)
    compiling = sum(r.compile_seconds for r in runs)
    workers = sorted({r.workers for r in runs} - {None})
    parts = ", ".join(f"`{r.name}` {r.deals:,} deals in {r.seconds - r.compile_seconds:.0f} s"
                      for r in runs)
    return (f"Compute: {deals:,} deals in {(secs - compiling) / 60:.1f} min of wall time "
            f"({parts}; compiling the engine took {compiling / 60:.1f} min more) on "
            f"{'/'.join(map(str, workers)) or '?'} worker thread(s) of a 2-core machine shared "
            "with other jobs, so the times are rough.")


def ensure(cond: bool, analysis: str, run: Run, why: str, valid: str = "") -> None:
    """Refuse an analysis that does not fit a run: one line naming both, and what would."""
    if not cond:
        raise UserError(f"analysis {analysis!r} does not fit run {run.name!r} ({run.path}): "
                        f"{why}" + (f"; {valid}" if valid else ""))

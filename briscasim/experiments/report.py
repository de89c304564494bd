"""Reports of a finished run: pandas tables, a Markdown report with charts, CSV files.

From Python::

    from briscasim.experiments import report
    res = report.load("runs/quickstart")        # manifest + per-deal records
    tables = report.summarize(res)              # dict of DataFrames (names below)
    tables["strategies"]

Tables (one row per ...):

- ``strategies``: cell and lineup entry: plays, win/draw/loss rates with 95% Wilson
  intervals (rates over plays), score (wins + draws/2) with its 95% t interval over deals
  (the interval every analysis of :mod:`briscasim.analysis` gives a score: a duplicate
  deal's rotations are averaged first), mean, SD and variance of the side's card points,
  and quantiles of the point margin (own side's points minus the best other side's).
Every table starts with the cell's id, variant, label and grid values (one column per grid
key, e.g. ``rules.swap_timing`` or ``lineup.0.stock``).

- ``sides``: cell and side (a seat when everyone plays alone): the same rates and points,
  whatever strategy sat there (seat advantage).
- ``duplicate``: for cells played in duplicate, each pair of lineup entries: the per-deal
  paired difference of score and of points (averaged over the rotations) with a 95% t
  interval and a two-sided one-sample t-test (scipy) against no difference.
- ``swaps``: cell, swap (7 or 2) and lineup entry: how often the entry's seat swapped, at
  which trick (mean, median), the card taken most often; and the offers declined per deal.
- ``swap_tricks``: cell, swap and trick number: how many swaps.
- ``points_hist``: cell, lineup entry and points: how many plays ended with those points.

A lineup entry holding several seats of one side counts once per play (a team playing one
strategy); seats of different sides count separately.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import stats
from ..cards import card_code
from ..rules import Rules
from .records import entry_rows, seat_entries
from .runner import finished, read_checked_chunk

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
_COLUMNS = ["cell", "deal", "rotation", "winner"]
_DEAL_COLUMNS = ["black_hand", "out_points", "swap7_seat", "swap7_trick", "swap7_card",
                 "swap2_seat", "swap2_trick", "swap2_card", "swap7_declined",
                 "swap2_declined"]     # single deals only


@dataclass
class Results:
    """A finished run: its manifest, cells, rules per cell and per-deal records."""
    path: Path
    manifest: dict
    records: pd.DataFrame

    @property
    def cells(self) -> list[dict]:
        return self.manifest["spec"]["cells"]

    def rules(self, cell: int) -> Rules:
        c = self.cells[cell]
        return Rules.from_options(c["rules"], name=c["preset"])


def load(path) -> Results:
    """Read a finished results directory, every chunk checked against its checksum;
    UserError if it is unfinished, foreign or damaged."""
    path = Path(path)
    manifest = finished(path)
    frames = []
    for cell in manifest["spec"]["cells"]:
        c = cell["id"]
        rules = Rules.from_options(cell["rules"])
        cols = (_COLUMNS + [f"points_{t}" for t in range(len(rules.sides))]
                + (_DEAL_COLUMNS if rules.match_kind == "deal" else []))
        for j in range(manifest["done"][str(c)]):
            frames.append(read_checked_chunk(path, manifest, c, j, cols).to_pandas())
    records = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=_COLUMNS)
    return Results(path, manifest, records)


# ---- the long form ----------------------------------------------------------------------

def entries(res: Results) -> pd.DataFrame:
    """One row per (record, side, lineup entry): ``result`` (1 win, 0 draw, -1 loss),
    ``score``, ``points``, ``margin``, with the cell's variant and strategy labels."""
    parts = []
    for cell in res.cells:
        rec = res.records[res.records["cell"] == cell["id"]]
        rules = res.rules(cell["id"])
        n_sides = len(rules.sides)
        pts = rec[[f"points_{t}" for t in range(n_sides)]].to_numpy()
        rows = entry_rows(cell, rules.side_of, rec["rotation"].to_numpy(),
                          rec["winner"].to_numpy(), pts)
        df = pd.DataFrame({k: v for k, v in rows.items() if k != "row"})
        df["deal"] = rec["deal"].to_numpy()[rows["row"]]
        df["cell"] = cell["id"]
        df["strategy"] = np.asarray(cell["labels"], dtype=object)[df["entry"].to_numpy()]
        parts.append(df)
    long = pd.concat(parts, ignore_index=True)
    long["score"] = (long["result"] + 1) / 2
    return long


def _rates(long: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Counts, rates with Wilson intervals, points and margin quantiles of rows grouped by
    ``keys``."""
    g = long.assign(win=long["result"] == 1, draw=long["result"] == 0).groupby(keys)
    out = g.agg(plays=("result", "size"), wins=("win", "sum"), draws=("draw", "sum"),
                mean_points=("points", "mean"), sd_points=("points", "std"),
                var_points=("points", "var"))
    out["losses"] = out["plays"] - out["wins"] - out["draws"]
    for what in ("win", "draw", "loss"):
        k = out[what + "s" if what != "loss" else "losses"]
        ci = [stats.wilson_interval(a, b) for a, b in zip(k, out["plays"])]
        out[f"{what}_rate"] = k / out["plays"]
        out[f"{what}_lo"] = [c[0] for c in ci]
        out[f"{what}_hi"] = [c[1] for c in ci]
    out["score"] = (out["wins"] + out["draws"] / 2) / out["plays"]
    q = g["margin"].quantile(list(QUANTILES)).unstack()
    q.columns = [f"margin_q{int(round(100 * c)):02d}" for c in q.columns]
    return out.join(q)


def summarize(res: Results, long: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """Every table of the report (module docstring), as DataFrames."""
    long = entries(res) if long is None else long
    cells = pd.DataFrame([dict(cell=c["id"], variant=c["variant"], label=c["label"],
                               **_point_columns(c)) for c in res.cells]).set_index("cell")
    strat = _rates(long, ["cell", "entry", "strategy"])
    per = long.groupby(["cell", "entry", "deal"])["score"].mean()
    ci = {k: stats.mean_ci(g.to_numpy()) for k, g in per.groupby(level=["cell", "entry"])}
    strat["score_lo"] = [ci[(c, e)].lo for c, e, _ in strat.index]
    strat["score_hi"] = [ci[(c, e)].hi for c, e, _ in strat.index]
    strat = strat.reset_index()
    strat = cells.join(strat.set_index("cell"), how="right").reset_index()
    sides = _rates(long, ["cell", "side"]).reset_index()
    sides["fair_share"] = sides["cell"].map(
        lambda c: 1 / len(res.rules(c).sides))
    sides = cells[["variant", "label"]].join(sides.set_index("cell"),
                                                       how="right").reset_index()
    hist = (long.groupby(["cell", "strategy", "points"]).size().rename("plays")
            .reset_index())
    hist = cells[["variant", "label"]].join(hist.set_index("cell"), how="right").reset_index()
    tables = dict(strategies=strat, sides=sides, duplicate=_duplicate(res, long, cells),
                  points_hist=hist)
    tables.update(_swaps(res, cells))
    return tables


def _point_columns(cell: dict) -> dict:
    return {k: (v if not isinstance(v, list) else " | ".join(v))
            for k, v in cell["point"].items()}


def _duplicate(res: Results, long: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for cell in res.cells:
        if cell["rotations"] < 2:
            continue
        d = long[long["cell"] == cell["id"]]
        per = d.groupby(["deal", "entry"])[["score", "points"]].mean().unstack("entry")
        k = len(cell["lineup"])
        for a in range(k):
            for b in range(a + 1, k):
                row = dict(cell=cell["id"], entry_a=a, strategy_a=cell["labels"][a],
                           entry_b=b, strategy_b=cell["labels"][b])
                for what in ("score", "points"):
                    d = stats.paired(per[(what, a)], per[(what, b)])
                    row.update({"deals": d.n, f"{what}_diff": d.mean, f"{what}_diff_lo": d.lo,
                                f"{what}_diff_hi": d.hi, f"{what}_p_value": d.p})
                rows.append(row)
    cols = ["cell", "entry_a", "strategy_a", "entry_b", "strategy_b", "deals"] + [
        f"{w}_{s}" for w in ("score", "points") for s in ("diff", "diff_lo", "diff_hi",
                                                           "p_value")]
    df = pd.DataFrame(rows, columns=cols)
    return cells[["variant", "label"]].join(df.set_index("cell"), how="right").reset_index()


def _swaps(res: Results, cells: pd.DataFrame) -> dict[str, pd.DataFrame]:
    rows, trick_rows = [], []
    rec = res.records
    for cell in res.cells:
        r = rec[rec["cell"] == cell["id"]]
        if r.empty or res.rules(cell["id"]).match_kind != "deal":
            continue
        n = len(cell["seating"])
        seats = seat_entries(cell, max(cell["rotations"], cell["blocks"]))[:, :n]
        rot = r["rotation"].to_numpy()
        present = np.zeros((len(r), len(cell["lineup"])), bool)
        for s in range(n):
            present[np.arange(len(r)), seats[rot, s]] = True
        for kind in ("7", "2"):
            # int64: columns missing in match cells turn into floats when frames are joined
            seat, trick, card = (r[f"swap{kind}_{f}"].to_numpy().astype(np.int64)
                                 for f in ("seat", "trick", "card"))
            declined = float(r[f"swap{kind}_declined"].mean())
            made = seat >= 0
            who = np.where(made, seats[rot, np.maximum(seat, 0)], -1)
            for e, label in enumerate(cell["labels"]):
                mine = who == e
                plays = int(present[:, e].sum())
                cards = pd.Series(card[mine]).value_counts()
                rows.append(dict(
                    cell=cell["id"], swap=kind, entry=e, strategy=label, plays=plays,
                    swaps=int(mine.sum()), swap_rate=mine.sum() / plays if plays else math.nan,
                    mean_trick=float(trick[mine].mean()) if mine.any() else math.nan,
                    median_trick=float(np.median(trick[mine])) if mine.any() else math.nan,
                    top_card=card_code(int(cards.index[0])) if len(cards) else "",
                    top_card_share=float(cards.iloc[0] / mine.sum()) if len(cards) else math.nan,
                    swap_rate_any_seat=float(made.mean()),
                    declined_per_deal=declined))
            t = pd.Series(trick[made]).value_counts().sort_index()
            trick_rows += [dict(cell=cell["id"], swap=kind, trick=int(k), swaps=int(v))
                           for k, v in t.items()]
    swaps = pd.DataFrame(rows)
    tricks = pd.DataFrame(trick_rows, columns=["cell", "swap", "trick", "swaps"])
    join = cells[["variant", "label"]]
    return dict(swaps=join.join(swaps.set_index("cell"), how="right").reset_index(),
                swap_tricks=join.join(tricks.set_index("cell"), how="right").reset_index())


# ---- the Markdown report ----------------------------------------------------------------

def markdown_table(df: pd.DataFrame, columns: dict) -> str:
    """A Markdown table of ``df`` with ``columns`` = {column: (header, format)}."""
    head = "| " + " | ".join(h for h, _ in columns.values()) + " |"
    rule = "|" + "|".join("---" if f is None else "---:" for _, f in columns.values()) + "|"
    lines = [head, rule]
    for _, row in df.iterrows():
        cells = []
        for col, (_, f) in columns.items():
            v = f(row) if callable(f) else row[col]
            cells.append(str(v) if f is None or callable(f) else
                         ("" if pd.isna(v) else format(v, f)))
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def _ci(prefix: str, scale: float = 100, digits: int = 1):
    return lambda r: (f"{scale * r[prefix + '_rate']:.{digits}f} "
                      f"[{scale * r[prefix + '_lo']:.{digits}f}, {scale * r[prefix + '_hi']:.{digits}f}]")


def write_report(res: Results, out=None, charts: bool = True) -> Path:
    """Write ``report.md``, CSV tables and charts into ``out`` (default: ``report/`` in the
    run's folder); return the Markdown file."""
    out = Path(out) if out is not None else Path(res.path) / "report"
    out.mkdir(parents=True, exist_ok=True)
    tables = summarize(res)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
    figures = {}
    if charts:
        from .plots import plot_all
        figures = plot_all(tables, out)
    md = _markdown(res, tables, figures)
    path = out / "report.md"
    path.write_text(md)
    return path


def _markdown(res: Results, t: dict, figures: dict) -> str:
    m, spec = res.manifest, res.manifest["spec"]
    v = m.get("versions", {})
    amount = (f"{spec['deals']:,} deals per seating" if spec["deals"] else
              f"until every win rate's 95% CI half-width is below "
              f"{spec['target']['ci_half_width']} (cap {spec['target']['max_deals']:,})")
    total = sum(m.get("deals", {}).values())
    out = [f"# {spec['name']}", ""]
    if m.get("description"):
        out += [m["description"], ""]
    out += [f"Spec `{m.get('spec_file')}` (digest `{m['digest']}`), seed {spec['seed']}, "
            f"{amount}; {total:,} deals in {len(spec['cells'])} cells. "
            f"briscasim {v.get('briscasim')} (engine sources `{v.get('engine_sources')}`, "
            f"models `{v.get('models')}`), "
            f"numpy {v.get('numpy')}, numba {v.get('numba')}, Python {v.get('python')}.", "",
            "Rates are percentages with 95% Wilson intervals over plays in brackets; the score "
            "(wins + draws/2) has a 95% t interval over deals (a duplicate deal's rotations "
            "averaged first); points are card "
            "points of the player's side; the margin is the side's points minus the best "
            "other side's. CSV files next to this report hold every figure at full precision.",
            ""]
    for key, title in (("win_rates", "Win rates"), ("seat_advantage", "Seat advantage"),
                       ("score_distribution", "Points")):
        if key in figures:
            out += [f"![{title}]({figures[key].name})", ""]
    for key in sorted(k for k in figures if k.startswith("sweep_")):
        out += [f"![Sweep]({figures[key].name})", ""]
    out += ["## Strategies", "", markdown_table(t["strategies"], {
        "label": ("cell", None), "strategy": ("strategy", None), "plays": ("plays", ","),
        "win": ("win %", _ci("win")), "draw": ("draw %", _ci("draw")),
        "score": ("score %", lambda r: stats.fmt_ci(r["score"], r["score_lo"],
                                                    r["score_hi"])),
        "mean_points": ("mean pts", ".1f"),
        "sd_points": ("SD pts", ".1f"), "var_points": ("var pts", ".0f"),
        "q": ("margin q05 / q50 / q95", lambda r: f"{r['margin_q05']:.0f} / "
              f"{r['margin_q50']:.0f} / {r['margin_q95']:.0f}")}), ""]
    if len(t["duplicate"]):
        out += ["## Duplicate pairs", "",
                "Each deal played once per rotation of the lineup with the same cards; the "
                "difference is A minus B per deal (score: win 1, draw 1/2), with a 95% t "
                "interval and the p-value of a two-sided one-sample t-test.", "",
                markdown_table(t["duplicate"], {
                    "label": ("cell", None), "strategy_a": ("A", None),
                    "strategy_b": ("B", None), "deals": ("deals", ","),
                    "s": ("score A-B", lambda r: f"{r['score_diff']:+.3f} "
                          f"[{r['score_diff_lo']:+.3f}, {r['score_diff_hi']:+.3f}]"),
                    "score_p_value": ("p", ".2g"),
                    "p": ("points A-B", lambda r: f"{r['points_diff']:+.2f} "
                          f"[{r['points_diff_lo']:+.2f}, {r['points_diff_hi']:+.2f}]"),
                    "points_p_value": ("p (points)", ".2g")}), ""]
    out += ["## Seats and sides", "", markdown_table(t["sides"], {
        "label": ("cell", None), "side": ("side", None), "plays": ("plays", ","),
        "win": ("win %", _ci("win")), "fair": ("fair share %",
                                               lambda r: f"{100 * r['fair_share']:.1f}"),
        "mean_points": ("mean pts", ".1f"), "sd_points": ("SD pts", ".1f")}), ""]
    sw = t["swaps"]
    if len(sw) and (sw["swap_rate_any_seat"] > 0).any():
        out += ["## Swaps", "",
                "How often the seat of each strategy made the swap of the 7 (or the 2) of "
                "trumps for the face-up card, at which trick, and the card it took most often; "
                "declined offers are per deal, all seats together.", "",
                markdown_table(sw[sw["swap_rate_any_seat"] > 0], {
                    "label": ("cell", None), "swap": ("swap", None),
                    "strategy": ("strategy", None),
                    "r": ("swaps % of plays", lambda r: f"{100 * r['swap_rate']:.1f}"),
                    "mean_trick": ("mean trick", ".2f"), "median_trick": ("median", ".0f"),
                    "top_card": ("top card", None),
                    "top_card_share": ("its share", ".0%"),
                    "declined_per_deal": ("declined / deal", ".3f")}), ""]
    return "\n".join(out)

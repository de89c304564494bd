#!/usr/bin/env python
"""The research pack: six questions, each answered by specs in experiments/ and a
report in reports/<question>/ (Markdown, CSV tables, PNG and SVG charts).

    python scripts/research.py                       # every question (about 20 minutes on 2 cores)
    python scripts/research.py --only hold_the_seven # one question
    python scripts/research.py --quick               # smoke run: few deals, small searches

Every spec has a fixed seed, so a rerun gives the same numbers. Finished runs are kept in
``runs/research/<spec name>`` and reused (``--fresh`` plays them again, as does a change to
the spec); an interrupted run is resumed where it stopped. ``--quick`` plays a few deals with 10x smaller searches into
``runs/research-quick`` and writes its reports there, never over reports/.

Statistics: a lineup entry's score is wins + draws/2. Every interval is a 95% t interval
over *deals* (the per-deal mean over the rotations of a duplicate deal), so the correlation
between the rotations of one deal is accounted for; paired differences compare the same
deals (same cards) deal by deal.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import re
import shutil
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscasim.engine import layout as L  # noqa: E402
from briscasim.experiments import runner  # noqa: E402
from briscasim.experiments.elo import fit_elo  # noqa: E402
from briscasim.experiments.records import entry_rows  # noqa: E402
from briscasim.experiments.report import markdown_table  # noqa: E402
from briscasim.experiments.spec import Spec, parse_spec  # noqa: E402
from briscasim.experiments.style import PALETTE, RC, save  # noqa: E402
from briscasim.rules import Rules  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402  (Agg backend set by style)
from scipy import stats  # noqa: E402

EXPERIMENTS = ROOT / "experiments"
SEARCH = re.compile(r"\b(ismcts|pimc|omniscient)\b")
QUICK_DEALS, QUICK_SEARCH_DEALS = 2000, 6
QUICK_BUDGETS = (("iterations=200", "iterations=20"), ('"ismcts"', '"ismcts:iterations=20"'),
                 ('"pimc"', '"pimc:worlds=3"'))


# ---- running the specs -----------------------------------------------------------------

@dataclass
class Run:
    """A finished spec: where its results are and what it cost."""
    spec: Spec
    path: Path
    manifest: dict

    @property
    def cells(self) -> list[dict]:
        return self.manifest["spec"]["cells"]

    @property
    def seconds(self) -> float:
        return float(self.manifest.get("last_run", {}).get("seconds", math.nan))

    @property
    def deals(self) -> int:
        return int(sum(self.manifest.get("deals", {}).values()))

    def rules(self, cell: dict) -> Rules:
        return Rules.from_options(cell["rules"], name=cell["preset"])

    def records(self, cell: dict, columns=None) -> pd.DataFrame:
        """The records of one cell (all its chunk files, in deal order)."""
        c = cell["id"]
        return pd.concat([runner.read_checked_chunk(self.path, self.manifest, c, j, columns)
                          .to_pandas() for j in range(self.manifest["done"][str(c)])],
                         ignore_index=True)

    def long(self, cell: dict, rec: pd.DataFrame | None = None) -> pd.DataFrame:
        """One row per (record, side, lineup entry): result, score, points, margin, deal."""
        rec = self.records(cell) if rec is None else rec
        rules = self.rules(cell)
        pts = rec[[f"points_{t}" for t in range(len(rules.sides))]].to_numpy()
        rows = entry_rows(cell, rules.side_of, rec["rotation"].to_numpy(),
                          rec["winner"].to_numpy(), pts)
        df = pd.DataFrame(rows)
        df["deal"] = rec["deal"].to_numpy()[rows["row"]]
        df["score"] = (df["result"] + 1) / 2
        return df


def load_spec(name: str, quick: bool) -> Spec:
    path = EXPERIMENTS / f"{name}.toml"
    text = path.read_text()
    if quick:
        for old, new in QUICK_BUDGETS:
            text = text.replace(old, new)
    data = tomllib.loads(text)
    if quick:
        cap = QUICK_SEARCH_DEALS if SEARCH.search(text) else QUICK_DEALS
        data["deals"] = min(data["deals"], cap)
        data["chunk"] = min(data.get("chunk", data["deals"]), data["deals"])
        data["name"] += "-quick"
    return parse_spec(data, str(path.relative_to(ROOT)))


def _older_run(out: Path) -> bool:
    """True if ``out`` holds a run in an older results format (its chunks cannot be read)."""
    if (out / runner.OLD_MANIFEST).is_file() and not (out / runner.MANIFEST).exists():
        return True
    try:
        data = json.loads((out / runner.MANIFEST).read_text())
        version = data["format_version"]
        return data["format"] == runner.FORMAT and version < runner.FORMAT_VERSION
    except (OSError, ValueError, KeyError, TypeError):
        return False


def run_spec(name: str, args) -> Run:
    spec = load_spec(name, args.quick)
    out = args.runs / spec.name
    if out.exists():
        older = _older_run(out)
        old = None if older else runner.read_manifest(out)   # refuses anything not a run
        if older or args.fresh or old["digest"] != spec.digest():
            why = ("written by an older briscasim" if older else
                   "--fresh" if args.fresh else "the spec changed")
            print(f"[research] {out}: {why}; playing it again", file=sys.stderr)
            shutil.rmtree(out)
        elif old.get("versions", {}).get("engine_sources") != \
                runner.versions()["engine_sources"]:
            print(f"[research] warning: {out} was played by other engine or strategy sources "
                  f"({old.get('versions', {}).get('engine_sources')}); reusing it; pass --fresh "
                  "to play it with the current code", file=sys.stderr)
    resume = out.exists()
    deals = spec.deals or spec.target["max_deals"]
    print(f"[research] {spec.name}: {len(spec.cells)} cells, {deals:,} deals per seating"
          f"{' (results folder exists: resumed, or reused if complete)' if resume else ''}", file=sys.stderr)
    runner.run(spec, out=out, workers=args.workers, resume=resume,
               progress=sys.stderr.isatty() and not args.quiet)
    return Run(spec, out, runner.read_manifest(out))


# ---- statistics --------------------------------------------------------------------------

def t_ci(x) -> tuple[float, float, float, int]:
    """Mean of ``x`` with its 95% t interval: ``(mean, lo, hi, n)``."""
    x = np.asarray(x, float)
    n = x.size
    m = float(x.mean()) if n else math.nan
    if n < 2:
        return m, math.nan, math.nan, n
    half = stats.t.ppf(0.975, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half, n


def per_deal(long: pd.DataFrame, entry: int, col: str = "score") -> pd.Series:
    """``col`` of lineup entry ``entry`` averaged over its plays of each deal."""
    d = long[long["entry"] == entry]
    return d.groupby("deal")[col].mean()


def paired(x: pd.Series, y: pd.Series) -> tuple[float, float, float, int]:
    """Mean of ``x - y`` over the deals both have, with its 95% t interval."""
    a, b = x.align(y, join="inner")
    return t_ci(a.to_numpy() - b.to_numpy())


def fmt_ci(m, lo, hi, scale=100.0, digits=1, sign=False) -> str:
    if math.isnan(m):
        return "n/a"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    if math.isnan(lo):
        return f.format(scale * m)
    return f"{f.format(scale * m)} [{f.format(scale * lo)}, {f.format(scale * hi)}]"


def verdict(lo, hi, up="higher", down="lower", what="") -> str:
    if math.isnan(lo):
        return "not measurable"
    if lo > 0:
        return up
    if hi < 0:
        return down
    return f"not distinguishable from no difference{what}"


def entry_label(cell: dict, entry: int) -> str:
    return cell["labels"][entry]


def cost_line(runs: list[Run]) -> str:
    secs = sum(r.seconds for r in runs)
    deals = sum(r.deals for r in runs)
    workers = sorted({r.manifest.get("last_run", {}).get("workers") for r in runs} - {None})
    parts = ", ".join(f"`{r.spec.name}` {r.deals:,} deals in {r.seconds:.0f} s" for r in runs)
    return (f"Compute: {deals:,} deals in {secs / 60:.1f} min of wall time ({parts}) on "
            f"{'/'.join(map(str, workers)) or '?'} worker threads of a 2-core machine shared "
            "with other jobs, so the times are rough.")


def header(title: str, question: str, runs: list[Run], args) -> list[str]:
    specs = ", ".join(f"[`{r.spec.path}`](../../{r.spec.path}) (seed {r.spec.seed}, digest "
                      f"`{r.manifest['digest']}`)" for r in runs)
    out = [f"# {title}", "", f"**Question.** {question}", "",
           f"Specs: {specs}. Regenerate: `python scripts/research.py --only {args.current}`"
           + (" (this is a `--quick` smoke run: too few deals for conclusions)"
              if args.quick else "") + ".", "", cost_line(runs), "",
           f"Generated {_dt.date.today().isoformat()} from the runs in "
           f"`{_rel(runs[0].path.parent)}`. Intervals are 95%: t intervals over deals (the mean "
           "over a duplicate deal's rotations is one observation), so they account for the "
           "pairing of rotations; differences are paired deal by deal (same cards). Numbers "
           "from search strategies (ismcts, pimc, omniscient) depend on their code, which was "
           "still being tuned when these runs were made: `--fresh` replays every run with the "
           "current code (greedy and random results are pinned by the engine regression "
           "tests).", ""]
    return out


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def write(out: Path, lines: list[str], tables: dict[str, pd.DataFrame]) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
    path = out / "report.md"
    path.write_text("\n".join(lines).rstrip() + "\n")
    return path


def style():
    return plt.rc_context(RC)


# ---- 1. hold the seven -------------------------------------------------------------------

POLICY_NAMES = {
    "immediate": "immediate (control)", "never": "never",
    "hold": "hold to the last chance",
    "hold:trumps_gone=true": "hold until the trump A and 3 are gone (or last chance)",
}


def policy_name(label: str) -> str:
    pol = label.partition("+")[2] or "by_play"
    m = re.fullmatch(r"hold:stock=(\d+),last_chance=false", pol)
    if m:
        return f"hold until {m.group(1)} cards are left to draw"
    return POLICY_NAMES.get(pol, pol)


def hold_the_seven(args) -> Path:
    runs = [run_spec(n, args) for n in ("hold_the_seven", "hold_the_seven_3p",
                                        "hold_the_seven_ismcts")]
    rows = []
    for run in runs:
        play = run.cells[0]["labels"][0].partition("+")[0]
        for variant in dict.fromkeys(c["variant"] for c in run.cells):
            cells = [c for c in run.cells if c["variant"] == variant]
            control = next(c for c in cells if c["labels"][0].endswith("+immediate"))
            clong = run.long(control)
            c_score, c_margin = per_deal(clong, 0), per_deal(clong, 0, "margin")
            for cell in cells:
                cols = ["deal", "rotation", "winner", "swap7_seat", "swap7_declined"] + [
                    f"entry_{s}" for s in range(L.MAX_PLAYERS)] + [
                    f"points_{t}" for t in range(len(run.rules(cell).sides))]
                rec = run.records(cell, cols)
                long = run.long(cell, rec)
                score, margin = per_deal(long, 0), per_deal(long, 0, "margin")
                ent = rec[[f"entry_{s}" for s in range(len(cell["seating"]))]].to_numpy()
                seat = rec["swap7_seat"].to_numpy()
                who = np.where(seat >= 0, ent[np.arange(len(rec)), np.maximum(seat, 0)], -1)
                swapped = who == 0
                held = rec["swap7_declined"].to_numpy() > 0
                lost = held & ~swapped
                s = t_ci(score)
                ds, dm = paired(score, c_score), paired(margin, c_margin)
                rows.append(dict(
                    variant=variant, play=play, policy=policy_name(cell["labels"][0]),
                    strategy=cell["labels"][0], opponent=cell["labels"][1], deals=s[3],
                    score=s[0], score_lo=s[1], score_hi=s[2],
                    d_score=ds[0], d_score_lo=ds[1], d_score_hi=ds[2],
                    d_score_p=_pvalue(score, c_score),
                    d_margin=dm[0], d_margin_lo=dm[1], d_margin_hi=dm[2],
                    swapped=swapped.mean(), held=held.mean(), lost=lost.mean(),
                    lost_if_held=lost.sum() / held.sum() if held.any() else math.nan,
                    win_if_lost=_win_rate(rec, lost, ent),
                    spec=run.spec.name))
    t = pd.DataFrame(rows)
    out = args.reports / "hold_the_seven"
    out.mkdir(parents=True, exist_ok=True)
    with style():
        fig = _forest(t, "d_score", 100, "score minus the control's (percentage points)",
                      "Holding the 7 against swapping at once: paired difference in score")
        save(fig, out / "score_difference")
        fig = _forest(t, "d_margin", 1, "point margin minus the control's (card points)",
                      "Holding the 7: paired difference in point margin")
        save(fig, out / "margin_difference")
        fig = _bars(t, "lost", "deals in which the holder never made the 7-swap (%)",
                    "How often holding loses the swap altogether")
        save(fig, out / "swap_lost")
    lines = header("Hold the 7: does delaying the swap of the 7 of trumps pay off?",
                   "Swap policies (immediate; hold until the stock is down to k cards; hold "
                   "to the last chance; hold until the opponents' trump A and 3 are gone; "
                   "never) with greedy and ISMCTS play, in brisca-2 under both swap timings, "
                   "brisca-4-pairs and brisca-3-remove2: win rate and point margin against "
                   "the immediate policy on duplicate deals, and how often holding loses the "
                   "swap altogether.", runs, args)
    lines += ["## Conclusion", ""] + _hold_conclusion(t) + [""]
    lines += ["## Method", "",
              "Entry 0 plays each swap policy; its opponents swap at once (greedy: "
              "`greedy+immediate`; for ISMCTS the opponent is plain `greedy`, which also "
              "swaps at the first offer). Every cell of a variant deals the same cards, so "
              "entry 0's result in each cell is compared, deal by deal, with the control "
              "cell where entry 0 swaps at once (`+immediate`). *Score* is entry 0's wins + "
              "draws/2 (0.5 is an even game in two sides, 1/3 in three players); *margin* "
              "its side's card points minus the best other side's. A hold with "
              "`last_chance=false` swaps only once the stock is down to k cards still to "
              "draw: if the window closes first (before_draw: at least 2n cards to draw, "
              "after_draw: n) it never swaps. *Held* = a 7-swap offer was declined; *lost* = "
              "declined and never made. ISMCTS cells use 200 iterations a move (the issue's "
              "strength target uses 1000) to fit the compute budget.", "",
              f"Precision: the score difference's 95% half-width is about "
              f"{_half(t[t['play'] == 'greedy'], 'd_score', 100):.2f} percentage points for "
              f"greedy ({t[t['play'] == 'greedy']['deals'].min():,} deals per cell) and "
              f"{_half(t[t['play'] != 'greedy'], 'd_score', 100):.1f} for ISMCTS "
              f"({t[t['play'] != 'greedy']['deals'].min():,} deals per cell).", "",
              "![score difference](score_difference.png)", "",
              "![margin difference](margin_difference.png)", "",
              "![swap lost](swap_lost.png)", "", "## Results", ""]
    for (variant, play), g in t.groupby(["variant", "play"], sort=False):
        lines += [f"### {variant}, {play}", "", markdown_table(g, {
            "policy": ("policy", None), "deals": ("deals", ","),
            "s": ("score %", lambda r: fmt_ci(r["score"], r["score_lo"], r["score_hi"])),
            "d": ("score - control (pp)", lambda r: fmt_ci(r["d_score"], r["d_score_lo"],
                                                           r["d_score_hi"], sign=True, digits=2)),
            "d_score_p": ("p", ".2g"),
            "m": ("margin - control (pts)", lambda r: fmt_ci(
                r["d_margin"], r["d_margin_lo"], r["d_margin_hi"], 1, 2, True)),
            "w": ("7-swap made %", lambda r: f"{100 * r['swapped']:.1f}"),
            "h": ("held %", lambda r: f"{100 * r['held']:.1f}"),
            "l": ("lost %", lambda r: f"{100 * r['lost']:.2f}"),
            "lh": ("lost if held %", lambda r: "" if math.isnan(r["lost_if_held"])
                   else f"{100 * r['lost_if_held']:.1f}"),
            "wl": ("win % when lost", lambda r: "" if math.isnan(r["win_if_lost"])
                   else f"{100 * r['win_if_lost']:.1f}")}), ""]
    lines += ["Percentages of plays of entry 0 (a duplicate deal counts once per rotation). "
              "p: two-sided paired t-test of the score difference. CSV: `policies.csv`."]
    return write(out, lines, {"policies": t})


def _pvalue(x: pd.Series, y: pd.Series) -> float:
    a, b = x.align(y, join="inner")
    d = a.to_numpy() - b.to_numpy()
    if d.size < 2 or d.std() == 0:
        return 1.0 if d.size >= 2 else math.nan
    return float(stats.ttest_1samp(d, 0.0).pvalue)


def _win_rate(rec: pd.DataFrame, mask: np.ndarray, ent: np.ndarray) -> float:
    """Win rate of entry 0's side in the records selected by ``mask``."""
    if not mask.any():
        return math.nan
    w = rec["winner"].to_numpy()[mask]
    e = ent[mask]
    # the winner is a side; in these lineups side s holds seat s (and s + sides in pairs)
    won = np.array([0 <= x < e.shape[1] and e[i, x] == 0 for i, x in enumerate(w)])
    return float(won.mean())


def _half(t: pd.DataFrame, col: str, scale: float) -> float:
    d = t[~t["policy"].str.startswith("immediate")]
    return float(scale * ((d[col + "_hi"] - d[col + "_lo"]) / 2).median()) if len(d) else math.nan


def _forest(t: pd.DataFrame, col: str, scale: float, xlabel: str, title: str):
    groups = list(t.groupby(["variant", "play"], sort=False))
    fig, axes = plt.subplots(len(groups), 1, figsize=(7.0, 1.3 + 1.25 * len(t) / 3.2),
                             sharex=False, squeeze=False)
    for ax, ((variant, play), g) in zip(axes[:, 0], groups):
        g = g.reset_index(drop=True)
        y = np.arange(len(g))
        m = scale * g[col]
        err = [m - scale * g[col + "_lo"], scale * g[col + "_hi"] - m]
        ax.errorbar(m, y, xerr=np.nan_to_num(err), fmt="o", color=PALETTE[0], capsize=3,
                    markersize=4)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, g["policy"])
        ax.invert_yaxis()
        ax.set_title(f"{variant}, {play}", fontsize=9)
        ax.grid(axis="y", visible=False)
    axes[-1, 0].set_xlabel(xlabel + ", 95% CI")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _bars(t: pd.DataFrame, col: str, xlabel: str, title: str):
    g = t[~t["policy"].str.startswith("immediate")].copy()
    g["cell"] = g["variant"] + ", " + g["play"]
    cells = list(dict.fromkeys(g["cell"]))
    policies = list(dict.fromkeys(g["policy"]))
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 0.35 * len(policies) * len(cells) / 2.2))
    height = 0.8 / len(cells)
    for i, cell in enumerate(cells):
        h = g[g["cell"] == cell].set_index("policy").reindex(policies)
        y = np.arange(len(policies)) + (i - (len(cells) - 1) / 2) * height
        ax.barh(y, 100 * h[col], height * 0.9, color=PALETTE[i % len(PALETTE)], label=cell)
    ax.set_yticks(range(len(policies)), policies)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def _hold_conclusion(t: pd.DataFrame) -> list[str]:
    lines = []
    for (variant, play), g in t.groupby(["variant", "play"], sort=False):
        g = g[~g["policy"].str.startswith("immediate")]
        best = g.loc[g["d_score"].idxmax()]
        sig_up = g[g["d_score_lo"] > 0]["policy"].tolist()
        sig_down = g[g["d_score_hi"] < 0]["policy"].tolist()

        def d(r):
            return (f"{fmt_ci(r['d_score'], r['d_score_lo'], r['d_score_hi'], sign=True, digits=2)}"
                    " pp")
        if sig_up:
            s = (f"- **{variant}, {play}: holding pays.** Best: *{best['policy']}*, {d(best)} "
                 f"of score against swapping at once; significantly better: "
                 f"{', '.join(sig_up)}.")
        elif len(sig_down) == len(g):
            s = (f"- **{variant}, {play}: swap at once.** Every hold policy scores "
                 f"significantly less than swapping at the first offer; the least costly is "
                 f"*{best['policy']}*, {d(best)}.")
        else:
            s = (f"- **{variant}, {play}: no policy beats swapping at once.** The best is "
                 f"*{best['policy']}*, {d(best)} (not distinguishable from no difference); "
                 f"significantly worse: {', '.join(sig_down) or 'none'}.")
        for name, what in (("hold to the last chance", "Holding to the last chance"),
                           ("never", "Never swapping")):
            r = g[g["policy"] == name]
            if len(r):
                r = r.iloc[0]
                s += (f" {what}: {d(r)}, margin "
                      f"{fmt_ci(r['d_margin'], r['d_margin_lo'], r['d_margin_hi'], 1, 2, True)}"
                      f" points" + (f"; it loses the swap in {100 * r['lost']:.1f}% of plays "
                                    f"({100 * r['lost_if_held']:.0f}% of the deals where it "
                                    "held)" if name != "never" else "") + ".")
        lines.append(s)
    return lines


# ---- 2. three players ----------------------------------------------------------------------

def three_players(args) -> Path:
    run, irun = run_spec("three_players", args), run_spec("three_players_ismcts", args)
    fair, skill, outp, hists = [], [], [], []
    for r in (run, irun):
        for cell in r.cells:
            rules = r.rules(cell)
            rec = r.records(cell)
            long = r.long(cell, rec)
            labels = cell["labels"]
            lineup = " / ".join(labels) if len(set(labels)) > 1 else f"3 x {labels[0]}"
            if len(set(labels)) == 1:
                for side in range(len(rules.sides)):
                    d = long[long["side"] == side].groupby("deal")
                    s = t_ci(d["score"].mean())
                    p = d["points"].mean()
                    fair.append(dict(variant=cell["variant"], strategy=labels[0], seat=side,
                                     deals=s[3], score=s[0], lo=s[1], hi=s[2],
                                     mean_points=long[long["side"] == side]["points"].mean(),
                                     sd_points=long[long["side"] == side]["points"].std(),
                                     mean_points_deal=p.mean()))
                h = long.groupby("points").size() / len(long)
                hists.append((cell["variant"], labels[0], h))
                pts = long["points"]
                win_pts = rec[[f"points_{t}" for t in range(3)]].max(axis=1)
                skill.append(dict(variant=cell["variant"], lineup=lineup, strategy=labels[0],
                                  opponents=labels[0], deals=s[3], score=math.nan,
                                  lo=math.nan, hi=math.nan, sd_points=pts.std(),
                                  iqr_points=pts.quantile(0.75) - pts.quantile(0.25),
                                  winner_points=win_pts.mean(),
                                  margin_abs=long[long["result"] == 1]["margin"].mean(),
                                  draws=(long["result"] == 0).mean()))
            else:
                s = t_ci(per_deal(long, 0))
                pts = long["points"]
                skill.append(dict(variant=cell["variant"], lineup=lineup, strategy=labels[0],
                                  opponents=" + ".join(labels[1:]), deals=s[3], score=s[0],
                                  lo=s[1], hi=s[2], sd_points=pts.std(),
                                  iqr_points=pts.quantile(0.75) - pts.quantile(0.25),
                                  winner_points=rec[[f"points_{t}" for t in range(3)]]
                                  .max(axis=1).mean(),
                                  margin_abs=long[long["result"] == 1]["margin"].mean(),
                                  draws=(long["result"] == 0).mean()))
            o = rec["out_points"].to_numpy()
            counts = pd.Series(o).value_counts(normalize=True).sort_index()
            outp.append(dict(variant=cell["variant"], lineup=lineup, plays=len(o),
                             has_points=(o > 0).mean(), mean_points=o.mean(),
                             mean_if_points=o[o > 0].mean() if (o > 0).any() else 0.0,
                             distribution=", ".join(f"{int(k)}: {100 * v:.1f}%"
                                                    for k, v in counts.items())))
    fair, skill, outp = pd.DataFrame(fair), pd.DataFrame(skill), pd.DataFrame(outp)
    out = args.reports / "three_players"
    out.mkdir(parents=True, exist_ok=True)
    with style():
        save(_seat_chart(fair), out / "seat_fairness")
        save(_skill_chart(skill), out / "skill")
        save(_hist_chart(hists), out / "score_distribution")
    lines = header("Three players: remove a 2, or leave the last card undrawn?",
                   "Removing the 2 of coins (brisca-3-remove2) against leaving the last card "
                   "undrawn, face up (brisca-3-faceup) or face down (brisca-3-hidden): "
                   "fairness between the seats, spread of the scores, how far a stronger "
                   "strategy beats weaker ones (skill against luck), and how often the card "
                   "out of play has points and how many.", [run, irun], args)
    lines += ["## Conclusion", ""] + _three_conclusion(fair, skill, outp) + [""]
    lines += ["## Method", "",
              "Each variant plays the same lineups on duplicate deals (every deal three "
              "times, the lineup rotated one seat each time): three random players, three "
              "greedy players (seat fairness, spread), greedy against two random players, "
              f"and ISMCTS (200 iterations a move) against two greedy players "
              f"({skill[skill['strategy'].str.startswith('ismcts')]['deals'].min():,} deals "
              "per variant; the others "
              f"{skill[~skill['strategy'].str.startswith('ismcts')]['deals'].min():,}). "
              "The three variants shuffle different decks, so they are compared with "
              "independent intervals, not deal by deal.", "",
              "![seat fairness](seat_fairness.png)", "", "![skill](skill.png)", "",
              "![score distribution](score_distribution.png)", "",
              "## Fairness between the seats", "",
              "Score (wins + draws/2) of each seat when every seat plays the same strategy; "
              "a fair game gives each 33.3%. Seat 0 leads the first trick.", "",
              markdown_table(fair, {
                  "variant": ("variant", None), "strategy": ("strategy", None),
                  "seat": ("seat", None), "deals": ("deals", ","),
                  "s": ("score %", lambda r: fmt_ci(r["score"], r["lo"], r["hi"])),
                  "mean_points": ("mean pts", ".1f"), "sd_points": ("SD pts", ".1f")}), "",
              "## Spread of the scores and skill against luck", "",
              "Score of the first strategy of the lineup (fair share 33.3%); SD and "
              "interquartile range of a player's card points; mean points of the deal's "
              "top scorer; mean margin of a winner over the runner-up; draws.", "",
              markdown_table(skill, {
                  "variant": ("variant", None), "lineup": ("lineup", None),
                  "deals": ("deals", ","),
                  "s": ("score of first %", lambda r: "" if math.isnan(r["score"])
                        else fmt_ci(r["score"], r["lo"], r["hi"])),
                  "sd_points": ("SD pts", ".1f"), "iqr_points": ("IQR pts", ".0f"),
                  "winner_points": ("top score", ".1f"),
                  "margin_abs": ("winning margin", ".1f"),
                  "dr": ("draws %", lambda r: f"{100 * r['draws']:.2f}")}), "",
              "## The card out of play", "",
              "Points of the card that nobody plays: the removed 2 of coins, or the undrawn "
              "last card (after any swap: a swapped 7 or 2 left face up is worth nothing).",
              "", markdown_table(outp, {
                  "variant": ("variant", None), "lineup": ("lineup", None),
                  "plays": ("plays", ","),
                  "h": ("has points %", lambda r: f"{100 * r['has_points']:.1f}"),
                  "mean_points": ("mean pts", ".2f"),
                  "mean_if_points": ("mean pts if any", ".2f"),
                  "distribution": ("distribution (points: share)", None)}), ""]
    return write(out, lines, {"seats": fair, "skill": skill, "out_of_play": outp})


def _seat_chart(fair: pd.DataFrame):
    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    groups = list(fair.groupby(["variant", "strategy"], sort=False))
    width = 0.8 / 3
    for i, ((variant, strategy), g) in enumerate(groups):
        for _, r in g.iterrows():
            x = i + (r["seat"] - 1) * width
            ax.bar(x, 100 * r["score"], width * 0.9, color=PALETTE[int(r["seat"])],
                   label=f"seat {int(r['seat'])}" if i == 0 else None)
            ax.errorbar(x, 100 * r["score"], yerr=[[100 * (r["score"] - r["lo"])],
                                                   [100 * (r["hi"] - r["score"])]],
                        fmt="none", ecolor="black", capsize=2)
    ax.axhline(100 / 3, color="black", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(len(groups)), [f"{v}\n{s}" for v, s in (k for k, _ in groups)],
                  fontsize=8)
    lo = 100 * fair["lo"].min()
    hi = 100 * fair["hi"].max()
    ax.set_ylim(max(0, lo - 2), hi + 2)
    ax.set_ylabel("score (%), 95% CI")
    ax.set_title("Seat fairness with three equal players (fair share 33.3%)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def _skill_chart(skill: pd.DataFrame):
    s = skill.dropna(subset=["score"])
    fig, ax = plt.subplots(figsize=(7.0, 3.4))
    lineups = list(dict.fromkeys(s["lineup"]))
    variants = list(dict.fromkeys(s["variant"]))
    width = 0.8 / len(variants)
    for j, v in enumerate(variants):
        g = s[s["variant"] == v].set_index("lineup").reindex(lineups)
        x = np.arange(len(lineups)) + (j - (len(variants) - 1) / 2) * width
        ax.bar(x, 100 * g["score"], width * 0.9, color=PALETTE[j], label=v)
        ax.errorbar(x, 100 * g["score"], yerr=[100 * (g["score"] - g["lo"]),
                                               100 * (g["hi"] - g["score"])],
                    fmt="none", ecolor="black", capsize=2)
    ax.axhline(100 / 3, color="black", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(len(lineups)), [f"{x} (first)" for x in lineups], fontsize=8)
    ax.set_ylabel("score of the first strategy (%), 95% CI")
    ax.set_title("Skill against luck: score of the lineup's first strategy (fair share 33.3%)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def _hist_chart(hists):
    fig, axes = plt.subplots(1, 2, figsize=(7.0, 3.0), sharey=True)
    for ax, strategy in zip(axes, ("random", "greedy")):
        for i, (variant, strat, h) in enumerate(x for x in hists if x[1] == strategy):
            ax.step(h.index, 100 * h.to_numpy(), where="mid", color=PALETTE[i], label=variant,
                    linewidth=1.1)
        ax.set_title(f"three {strategy} players", fontsize=9)
        ax.set_xlabel("card points of a player")
    axes[0].set_ylabel("share of plays (%)")
    axes[1].legend(loc="upper right")
    fig.suptitle("Distribution of a player's card points per deal")
    fig.tight_layout()
    return fig


def _three_conclusion(fair, skill, outp) -> list[str]:
    lines = []
    for strategy in dict.fromkeys(fair["strategy"]):
        f = fair[fair["strategy"] == strategy]
        parts = []
        for v, g in f.groupby("variant", sort=False):
            spread = 100 * (g["score"].max() - g["score"].min())
            best = g.loc[g["score"].idxmax()]
            unfair = g[(g["lo"] > 1 / 3) | (g["hi"] < 1 / 3)]["seat"].tolist()
            parts.append(f"{v}: seats {'/'.join(f'{100 * x:.1f}' for x in g['score'])}% "
                         f"(range {spread:.1f} pp; best seat {int(best['seat'])} at "
                         f"{fmt_ci(best['score'], best['lo'], best['hi'])}%; seats off the "
                         f"fair 33.3%: {', '.join(map(str, unfair)) or 'none'})")
        lines.append(f"- **Seat fairness, three {strategy} players.** " + "; ".join(parts) + ".")
    sp = skill[skill["lineup"] == "3 x greedy"]
    if len(sp):
        lines.append("- **Spread of the scores (three greedy players).** SD of a player's "
                     "points: " + ", ".join(f"{r['variant']} {r['sd_points']:.1f}"
                                            for _, r in sp.iterrows())
                     + "; the deal's top scorer averages "
                     + ", ".join(f"{r['winner_points']:.1f}" for _, r in sp.iterrows())
                     + " points.")
    for first in dict.fromkeys(skill.dropna(subset=["score"])["lineup"]):
        g = skill[skill["lineup"] == first]
        best = g.loc[g["score"].idxmax()]
        worst = g.loc[g["score"].idxmin()]
        sep = best["lo"] > worst["hi"]
        lines.append(f"- **Skill, {first} (first strategy's score):** "
                     + ", ".join(f"{r['variant']} {fmt_ci(r['score'], r['lo'], r['hi'])}%"
                                 for _, r in g.iterrows())
                     + f". The first strategy does best in {best['variant']}"
                     + ("" if sep else " but the intervals overlap with "
                        f"{worst['variant']}, so the variants are not clearly apart")
                     + ("; it stays below the fair 33.3% everywhere: at this budget it is "
                        "weaker than its opponents" if (g["hi"] < 1 / 3).all() else "") + ".")
    o = outp.groupby("variant", sort=False).agg(has=("has_points", "mean"),
                                                mean=("mean_points", "mean"),
                                                cond=("mean_if_points", "mean"))
    lines.append("- **The card out of play** has points in "
                 + ", ".join(f"{v} {100 * r['has']:.1f}% of deals (mean {r['mean']:.2f} "
                             f"points, {r['cond']:.1f} when it has any)"
                             for v, r in o.iterrows())
                 + " (averaged over the lineups; the face-up card changes when it is swapped).")
    return lines


# ---- 3. seat advantage ---------------------------------------------------------------------

def seat_advantage(args) -> Path:
    runs = [run_spec("seat_advantage", args), run_spec("seat_advantage_ismcts", args)]
    rows = []
    for run in runs:
        for cell in run.cells:
            rules = run.rules(cell)
            n_sides = len(rules.sides)
            rec = run.records(cell, ["deal", "winner"])
            w = rec["winner"].to_numpy()
            s0 = np.where(w == 0, 1.0, np.where(w == L.DRAW, 0.5, 0.0))
            s = t_ci(s0 - 1 / n_sides)
            last = np.where(w == n_sides - 1, 1.0, np.where(w == L.DRAW, 0.5, 0.0))
            rows.append(dict(preset=cell["preset"], strategy=cell["labels"][0],
                             players=rules.players, sides=n_sides, deals=s[3],
                             first_score=s0.mean(), edge=s[0], lo=s[1], hi=s[2],
                             last_score=last.mean(), draws=(w == L.DRAW).mean()))
    t = pd.DataFrame(rows)
    out = args.reports / "seat_advantage"
    out.mkdir(parents=True, exist_ok=True)
    with style():
        save(_seat_forest(t), out / "seat_advantage")
    lines = header("Seat advantage: how much is it worth to play first?",
                   "For every preset, the edge of the first player (or side) under random, "
                   "greedy and ISMCTS play.", runs, args)
    lines += ["## Conclusion", ""] + _seat_conclusion(t) + [""]
    hw = t.groupby("strategy")[["lo", "hi"]].apply(
        lambda g: float(100 * ((g["hi"] - g["lo"]) / 2).median()))
    lines += ["## Method", "",
              "Every seat plays the same strategy; each deal is played once with the seats "
              "fixed. Seat 0 leads the first trick (the dealer is the last seat); side 0 is "
              "the side holding seat 0. The *edge* is side 0's score (wins + draws/2) minus "
              "its fair share (1 / number of sides). Random and greedy: "
              f"{t[~t['strategy'].str.startswith('ismcts')]['deals'].min():,} deals per "
              "preset; ISMCTS (200 iterations a move in every seat, to fit the compute budget): "
              f"{t[t['strategy'].str.startswith('ismcts')]['deals'].min():,} deals per "
              "preset. Median 95% half-width of the edge: "
              + ", ".join(f"{k} {v:.2f} pp" for k, v in hw.items()) + ".", "",
              "![seat advantage](seat_advantage.png)", "", "## Results", "",
              markdown_table(t, {
                  "preset": ("preset", None), "strategy": ("strategy", None),
                  "sides": ("sides", None), "deals": ("deals", ","),
                  "f": ("side 0 score %", lambda r: f"{100 * r['first_score']:.1f}"),
                  "e": ("edge (pp)", lambda r: fmt_ci(r["edge"], r["lo"], r["hi"], sign=True)),
                  "l": ("last side's score %", lambda r: f"{100 * r['last_score']:.1f}"),
                  "d": ("draws %", lambda r: f"{100 * r['draws']:.2f}")}), ""]
    return write(out, lines, {"seat_advantage": t})


def _seat_forest(t: pd.DataFrame):
    presets = list(dict.fromkeys(t["preset"]))
    strategies = list(dict.fromkeys(t["strategy"]))
    fig, ax = plt.subplots(figsize=(7.0, 1.0 + 0.32 * len(presets)))
    off = 0.8 / len(strategies)
    for j, s in enumerate(strategies):
        g = t[t["strategy"] == s].set_index("preset").reindex(presets)
        y = np.arange(len(presets)) + (j - (len(strategies) - 1) / 2) * off
        ax.errorbar(100 * g["edge"], y, xerr=[100 * (g["edge"] - g["lo"]),
                                              100 * (g["hi"] - g["edge"])],
                    fmt="o", markersize=3.5, capsize=2, color=PALETTE[j], label=s)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(presets)), presets)
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("side 0's score minus its fair share (percentage points), 95% CI")
    ax.set_title("Edge of the first player (or side) by preset")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def _seat_conclusion(t: pd.DataFrame) -> list[str]:
    lines = []
    for s, g in t.groupby("strategy", sort=False):
        up = g[g["lo"] > 0]
        down = g[g["hi"] < 0]
        big = g.loc[g["edge"].abs().idxmax()]
        lines.append(
            f"- **{s}:** the first side is significantly ahead in {len(up)} of {len(g)} "
            f"presets and behind in {len(down)}; the largest edge is {big['preset']}, "
            f"{fmt_ci(big['edge'], big['lo'], big['hi'], sign=True)} pp"
            + (f". Behind: {', '.join(down['preset'])}" if len(down) else "")
            + (f". Not distinguishable from fair: "
               f"{', '.join(g[(g['lo'] <= 0) & (g['hi'] >= 0)]['preset']) or 'none'}") + ".")
    b2 = t[t["preset"] == "brisca-2"]
    if len(b2):
        lines.append("- **brisca-2 in particular:** "
                     + "; ".join(f"{r['strategy']} {fmt_ci(r['edge'], r['lo'], r['hi'], sign=True)} pp"
                                 for _, r in b2.iterrows()) + ".")
    return lines


# ---- 4. signals ----------------------------------------------------------------------------

def signals(args) -> Path:
    run, irun = run_spec("signals", args), run_spec("signals_ismcts", args)
    rows = []
    for cell in run.cells:
        long = run.long(cell)
        s = t_ci(per_deal(long, 0))
        d = paired(per_deal(long, 0, "points"), per_deal(long, 1, "points"))
        rows.append(dict(what="greedy using signals vs greedy ignoring them",
                         variant=cell["variant"], a=cell["labels"][0], b=cell["labels"][1],
                         deals=s[3], score=s[0], lo=s[1], hi=s[2], points_diff=d[0],
                         points_lo=d[1], points_hi=d[2]))
    per = {}
    for cell in irun.cells:
        long = irun.long(cell)
        per[cell["variant"]] = (per_deal(long, 0), per_deal(long, 0, "margin"))
        s = t_ci(per[cell["variant"]][0])
        d = paired(per_deal(long, 0, "points"), per_deal(long, 1, "points"))
        rows.append(dict(what="ISMCTS side vs greedy side ignoring signals",
                         variant=cell["variant"], a=cell["labels"][0], b=cell["labels"][1],
                         deals=s[3], score=s[0], lo=s[1], hi=s[2], points_diff=d[0],
                         points_lo=d[1], points_hi=d[2]))
    t = pd.DataFrame(rows)
    on, off = per.get("brisca-4-pairs-signals"), per.get("brisca-4-pairs")
    ds = paired(on[0], off[0]) if on and off else (math.nan,) * 4
    dm = paired(on[1], off[1]) if on and off else (math.nan,) * 4
    same = _same_cards(irun)
    out = args.reports / "signals"
    out.mkdir(parents=True, exist_ok=True)
    with style():
        fig, ax = plt.subplots(figsize=(7.0, 2.6))
        labels = [f"{r['what']}\n{r['variant']}" for _, r in t.iterrows()]
        y = np.arange(len(t))
        ax.errorbar(100 * t["score"], y, xerr=[100 * (t["score"] - t["lo"]),
                                               100 * (t["hi"] - t["score"])],
                    fmt="o", color=PALETTE[0], capsize=3)
        ax.axvline(50, color="black", linewidth=0.8, linestyle=":")
        ax.set_yticks(y, labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("score of the first side (%), 95% CI")
        ax.set_title("Partner signals in brisca-4-pairs")
        save(fig, out / "signals")
    g_on = t[(t["what"].str.startswith("greedy")) & (t["variant"] == "brisca-4-pairs-signals")]
    lines = header("Signals: what are honest partner signals worth?",
                   "What honest partner signals (RULES.md section 8: each player knows which "
                   "of its partner's top trumps are in hand, whether the partner holds a "
                   "non-trump A or 3, and whether it holds no trump) are worth in "
                   "brisca-4-pairs, for greedy and ISMCTS play.", [run, irun], args)
    lines += ["## Conclusion", ""]
    if len(g_on):
        r = g_on.iloc[0]
        lines.append(f"- **Greedy:** a pair that uses the signals scores "
                     f"{fmt_ci(r['score'], r['lo'], r['hi'])}% against an identical pair "
                     f"that ignores them (50% = worth nothing; "
                     f"{verdict(r['lo'] - 0.5, r['hi'] - 0.5, 'they help', 'they hurt')}), "
                     f"and takes {fmt_ci(r['points_diff'], r['points_lo'], r['points_hi'], 1, 2, True)}"
                     " more card points per deal than the other side.")
    lines.append(f"- **{irun.cells[0]['labels'][0]}:** with the same cards and the same "
                 f"opponents (greedy ignoring signals), turning signals on changes the ISMCTS "
                 f"side's score by {fmt_ci(*ds[:3], sign=True)} percentage points and its "
                 f"point margin by {fmt_ci(*dm[:3], 1, 2, True)} points per deal "
                 f"({verdict(ds[1], ds[2], 'signals help it', 'signals hurt it')}; "
                 f"{ds[3]:,} deals).")
    lines += ["", "## Method", "",
              "Greedy reads the signals in two places: it does not spend a trump when its "
              "partner, still to play, signalled the top trump left, and it loads points on "
              "such a trick. `greedy:use_signals=false` plays the same greedy as if no signal "
              "were given. In `brisca-4-pairs-signals` a greedy pair using the signals meets "
              "a greedy pair ignoring them on duplicate deals (both rotations); "
              "`brisca-4-pairs` (no signals) is the control where both play alike, so the "
              "score there must be exactly 50%.", "",
              "ISMCTS uses the signals when it samples the hidden cards (a signalled card is "
              "placed in the partner's hand, an unsignalled one never). It has no switch to "
              "ignore them, so its value is measured across variants instead: an ISMCTS pair "
              "against a greedy pair that ignores signals, once with signals on and once "
              "off; the deals are the same "
              f"({100 * same:.1f}% of deals have the same face-up card in both variants), so "
              "the two scores are paired deal by deal.", "",
              "![signals](signals.png)", "", "## Results", "",
              markdown_table(t, {
                  "what": ("lineup", None), "variant": ("variant", None),
                  "deals": ("deals", ","),
                  "s": ("score of first side %", lambda r: fmt_ci(r["score"], r["lo"], r["hi"])),
                  "p": ("points first - second", lambda r: fmt_ci(
                      r["points_diff"], r["points_lo"], r["points_hi"], 1, 2, True))}), "",
              f"ISMCTS side, signals on minus off (paired): score "
              f"{fmt_ci(*ds[:3], sign=True, digits=2)} pp, margin "
              f"{fmt_ci(*dm[:3], 1, 2, True)} points, {ds[3]:,} deals.", ""]
    extra = pd.DataFrame([dict(what="ISMCTS side: signals on minus off", deals=ds[3],
                               score_diff=ds[0], score_lo=ds[1], score_hi=ds[2],
                               margin_diff=dm[0], margin_lo=dm[1], margin_hi=dm[2])])
    return write(out, lines, {"signals": t, "ismcts_on_minus_off": extra})


def _same_cards(run: Run) -> float:
    recs = [run.records(c, ["deal", "rotation", "turned"]).query("rotation == 0")
            .set_index("deal")["turned"] for c in run.cells]
    if len(recs) < 2:
        return math.nan
    a, b = recs[0].align(recs[1], join="inner")
    return float((a == b).mean())


# ---- 5. ladder -----------------------------------------------------------------------------

def _elo_by_variant(pairs: pd.DataFrame) -> pd.DataFrame:
    """Elo ratings (random = 0) fitted separately for every variant of the pairings."""
    fits = []
    for variant, g in pairs.groupby("variant", sort=False):
        fit = fit_elo(g[["a", "b", "score", "plays_eff"]].rename(columns={"plays_eff": "plays"}),
                      anchor="random", anchor_rating=0.0)
        fit.insert(0, "variant", variant)
        fits.append(fit)
    return pd.concat(fits, ignore_index=True)


def ladder(args) -> Path:
    runs = [run_spec("ladder", args), run_spec("ladder_search", args)]
    pairs = _pairings(runs)
    elo = _elo_by_variant(pairs)
    elo["cheating"] = elo["strategy"].str.startswith("omniscient")
    out = args.reports / "ladder"
    out.mkdir(parents=True, exist_ok=True)
    with style():
        save(_elo_chart(elo), out / "elo")
    lines = header("Strategy ladder: a round robin of the built-in strategies",
                   "A round robin of every built-in strategy in brisca-2 and briscola-2 with "
                   "scores, CIs and an Elo-style rating.", runs, args)
    lines += ["## Conclusion", ""] + _ladder_conclusion(pairs, elo) + [""]
    lines += ["## Method", "",
              "Every pair of strategies plays duplicate deals (each deal twice, seats "
              "swapped). Strategies: "
              + ", ".join(f"`{x}`" for x in dict.fromkeys(pairs["a"].tolist() + pairs["b"].tolist()))
              + " at their default parameters (`briscasim strategies`); `omniscient` **sees "
              "every card: a cheating upper bound, not a player**. "
              "The pairing of the two fast strategies plays "
              f"{pairs[pairs['spec'] == 'ladder']['deals'].min():,} deals; every pairing "
              f"with a search strategy {pairs[pairs['spec'] != 'ladder']['deals'].min():,}.",
              "",
              "The Elo rating is fit by maximum likelihood over all pairings at once "
              "(`briscasim.experiments.elo.fit_elo`: expected score 1/(1+10^(-diff/400)), "
              "draws count half, one drawn pseudo-play per pairing keeps a clean sweep "
              "finite), anchored at random = 0. Each pairing enters with its effective number "
              "of plays, s(1-s)/SE^2 from the per-deal interval, so the duplicate pairing "
              "of rotations is accounted for. Rating intervals are 95% relative to random.",
              "", "![Elo](elo.png)", "", "## Ratings", "",
              markdown_table(elo, {
                  "variant": ("variant", None),
                  "s": ("strategy", lambda r: r["strategy"] + (" (CHEATING)" if r["cheating"]
                                                               else "")),
                  "r": ("Elo", lambda r: f"{r['rating']:.0f} [{r['lo']:.0f}, {r['hi']:.0f}]"),
                  "plays": ("plays", ",")}), "", "## Pairings", "",
              "Score of A against B (wins + draws/2) on duplicate deals.", "",
              markdown_table(pairs, {
                  "variant": ("variant", None), "a": ("A", None), "b": ("B", None),
                  "deals": ("deals", ","),
                  "s": ("score of A %", lambda r: fmt_ci(r["score"], r["lo"], r["hi"])),
                  "w": ("A wins %", lambda r: f"{100 * r['win_a']:.1f}"),
                  "d": ("draws %", lambda r: f"{100 * r['draws']:.1f}"),
                  "m": ("margin of A (pts)", lambda r: fmt_ci(r["margin"], r["margin_lo"],
                                                              r["margin_hi"], 1, 1, True))}), ""]
    return write(out, lines, {"pairings": pairs, "elo": elo})


def _pairings(runs: list[Run]) -> pd.DataFrame:
    rows = []
    for run in runs:
        for cell in run.cells:
            long = run.long(cell)
            s = t_ci(per_deal(long, 0))
            m = t_ci(per_deal(long, 0, "margin"))
            a_rows = long[long["entry"] == 0]
            se = (s[2] - s[1]) / 2 / 1.96 if not math.isnan(s[1]) else math.nan
            eff = (s[0] * (1 - s[0]) / se ** 2) if se and se > 0 and 0 < s[0] < 1 \
                else float(len(a_rows))
            rows.append(dict(variant=cell["variant"], a=cell["labels"][0], b=cell["labels"][1],
                             deals=s[3], plays=len(a_rows), plays_eff=eff, score=s[0],
                             lo=s[1], hi=s[2], win_a=(a_rows["result"] == 1).mean(),
                             draws=(a_rows["result"] == 0).mean(), margin=m[0],
                             margin_lo=m[1], margin_hi=m[2], spec=run.spec.name))
    return pd.DataFrame(rows)


def _elo_chart(elo: pd.DataFrame):
    variants = list(dict.fromkeys(elo["variant"]))
    fig, axes = plt.subplots(1, len(variants), figsize=(7.0, 3.0), sharey=False,
                             squeeze=False)
    for ax, v in zip(axes[0], variants):
        g = elo[elo["variant"] == v].reset_index(drop=True)
        y = np.arange(len(g))
        colors = [PALETTE[3] if c else PALETTE[0] for c in g["cheating"]]
        ax.barh(y, g["rating"], 0.6, color=colors)
        ax.errorbar(g["rating"], y, xerr=[g["rating"] - g["lo"], g["hi"] - g["rating"]],
                    fmt="none", ecolor="black", capsize=2.5)
        ax.set_yticks(y, [s + (" (cheating)" if c else "") for s, c in
                          zip(g["strategy"], g["cheating"])], fontsize=8)
        ax.invert_yaxis()
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(v, fontsize=9)
        ax.set_xlabel("Elo (random = 0), 95% CI")
        ax.grid(axis="y", visible=False)
    fig.suptitle("Strategy ladder: maximum-likelihood Elo ratings")
    fig.tight_layout()
    return fig


def _ladder_conclusion(pairs, elo) -> list[str]:
    lines = []
    for v, g in elo.groupby("variant", sort=False):
        honest = g[~g["cheating"]]
        order = " > ".join(f"{r['strategy']} {r['rating']:.0f} [{r['lo']:.0f}, {r['hi']:.0f}]"
                           for _, r in honest.iterrows())
        lines.append(f"- **{v}:** ladder (Elo, random = 0): {order}."
                     + "".join(f" The cheating omniscient reference rates {r['rating']:.0f} "
                               f"[{r['lo']:.0f}, {r['hi']:.0f}]." for _, r in
                               g[g["cheating"]].iterrows()))
        p = pairs[pairs["variant"] == v]
        key = p[p["a"].str.startswith("ismcts") | (p["a"] == "greedy")]
        key = key[key["b"].isin(["random", "greedy"])]
        lines.append("  Head to head: " + "; ".join(
            f"{r['a']} vs {r['b']} {fmt_ci(r['score'], r['lo'], r['hi'])}%"
            for _, r in key.iterrows()) + ".")
    return lines


# ---- 6. brisca al revés ----------------------------------------------------------------------

def reves(args) -> Path:
    runs = [run_spec("reves", args), run_spec("reves_ismcts", args)]
    pairs = _pairings(runs)
    elo = _elo_by_variant(pairs)
    out = args.reports / "reves"
    out.mkdir(parents=True, exist_ok=True)
    with style():
        fig, ax = plt.subplots(figsize=(7.0, 3.4))
        variants = list(dict.fromkeys(pairs["variant"]))
        labels = list(dict.fromkeys(pairs["a"] + " vs " + pairs["b"]))
        width = 0.8 / len(variants)
        for j, v in enumerate(variants):
            g = pairs[pairs["variant"] == v].assign(k=lambda d: d["a"] + " vs " + d["b"])
            g = g.set_index("k").reindex(labels)
            y = np.arange(len(labels)) + (j - (len(variants) - 1) / 2) * width
            ax.barh(y, 100 * g["score"], width * 0.9, color=PALETTE[j], label=v)
            ax.errorbar(100 * g["score"], y, xerr=[100 * (g["score"] - g["lo"]),
                                                   100 * (g["hi"] - g["score"])],
                        fmt="none", ecolor="black", capsize=2)
        ax.axvline(50, color="black", linewidth=0.8, linestyle=":")
        ax.set_yticks(range(len(labels)), labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel("score of the first strategy (%), 95% CI")
        ax.set_title("Brisca al revés (fewest points wins) against brisca-2")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.grid(axis="y", visible=False)
        save(fig, out / "reves")
    lines = header("Brisca al revés: which strategies carry over to the reverse objective?",
                   "Which strategies carry over to the reverse objective (brisca-reves: the "
                   "fewest card points wins), and what a strategy built for it gains.", runs,
                   args)
    lines += ["## Conclusion", ""] + _reves_conclusion(pairs, elo) + [""]
    lines += ["## Method", "",
              "`greedy:objective=most` plays for the most points whatever the rules say (a "
              "Brisca strategy carried over unchanged); `greedy:objective=fewest` plays for "
              "the fewest (it is what `greedy` does by default in brisca-reves, where its "
              "objective `auto` follows the rules: it dumps its most valuable card on tricks "
              "others take, and keeps the 7 of trumps instead of swapping it); ISMCTS (200 "
              "iterations a move) searches the actual rules, so it is built for either "
              "objective. Each pairing plays duplicate deals in brisca-reves and, for "
              "comparison, brisca-2: "
              f"{pairs[pairs['spec'] == 'reves']['deals'].min():,} deals for the greedy and "
              f"random pairings, {pairs[pairs['spec'] != 'reves']['deals'].min():,} for ISMCTS."
              " Elo ratings as in the ladder report (maximum likelihood, random = 0).", "",
              "![reves](reves.png)", "", "## Pairings", "",
              markdown_table(pairs, {
                  "variant": ("variant", None), "a": ("A", None), "b": ("B", None),
                  "deals": ("deals", ","),
                  "s": ("score of A %", lambda r: fmt_ci(r["score"], r["lo"], r["hi"])),
                  "m": ("margin of A (pts)", lambda r: fmt_ci(r["margin"], r["margin_lo"],
                                                              r["margin_hi"], 1, 1, True))}),
              "", "The margin is A's card points minus B's: negative is good in brisca-reves.",
              "", "## Ratings", "",
              markdown_table(elo, {
                  "variant": ("variant", None), "strategy": ("strategy", None),
                  "r": ("Elo", lambda r: f"{r['rating']:.0f} [{r['lo']:.0f}, {r['hi']:.0f}]")}),
              ""]
    return write(out, lines, {"pairings": pairs, "elo": elo})


def _reves_conclusion(pairs, elo) -> list[str]:
    def get(v, a, b):
        g = pairs[(pairs["variant"] == v) & (pairs["a"] == a) & (pairs["b"] == b)]
        return g.iloc[0] if len(g) else None

    lines = []
    v = "brisca-reves"
    most = get(v, "greedy:objective=most", "random")
    fewest = get(v, "greedy:objective=fewest", "random")
    head = get(v, "greedy:objective=fewest", "greedy:objective=most")
    m2 = get("brisca-2", "greedy:objective=most", "random")
    if most is not None and m2 is not None:
        lines.append(f"- **Carried over unchanged**, the Brisca greedy (most points) scores "
                     f"{fmt_ci(most['score'], most['lo'], most['hi'])}% against random in "
                     f"brisca-reves, against {fmt_ci(m2['score'], m2['lo'], m2['hi'])}% in "
                     "brisca-2: "
                     + ("it does not carry over: it loses to random."
                        if most["hi"] < 0.5 else
                        "it keeps an edge over random." if most["lo"] > 0.5 else
                        "it is no better than random."))
    if fewest is not None:
        lines.append(f"- **Built for it**, greedy playing for the fewest points scores "
                     f"{fmt_ci(fewest['score'], fewest['lo'], fewest['hi'])}% against random"
                     + (f" and {fmt_ci(head['score'], head['lo'], head['hi'])}% against the "
                        f"greedy that plays for the most (margin "
                        f"{fmt_ci(head['margin'], head['margin_lo'], head['margin_hi'], 1, 1, True)}"
                        " card points per deal)." if head is not None else "."))
    search = [a for a in dict.fromkeys(pairs["a"]) if a.startswith("ismcts")]
    for a, b in ((a, b) for a in search
                 for b in ("random", "greedy:objective=most", "greedy:objective=fewest")):
        r, r2 = get(v, a, b), get("brisca-2", a, b)
        if r is not None:
            lines.append(f"- {a} against {b}: {fmt_ci(r['score'], r['lo'], r['hi'])}% in "
                         "brisca-reves"
                         + (f", {fmt_ci(r2['score'], r2['lo'], r2['hi'])}% in brisca-2"
                            if r2 is not None else "") + ".")
    g = elo[elo["variant"] == v]
    if len(g):
        lines.append("- **Ladder in brisca-reves** (Elo, random = 0): " + " > ".join(
            f"{r['strategy']} {r['rating']:.0f} [{r['lo']:.0f}, {r['hi']:.0f}]"
            for _, r in g.iterrows()) + ".")
    return lines


# ---- main ----------------------------------------------------------------------------------

QUESTIONS = {
    "hold_the_seven": hold_the_seven,
    "three_players": three_players,
    "seat_advantage": seat_advantage,
    "signals": signals,
    "ladder": ladder,
    "reves": reves,
}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", action="append", choices=list(QUESTIONS), metavar="NAME",
                   help=f"answer only this question (repeatable): {', '.join(QUESTIONS)}")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: few deals, small searches, results under runs/research-quick")
    p.add_argument("--workers", type=int, default=None, help="threads (default: every core)")
    p.add_argument("--runs", type=Path, default=None, help="results folder (default "
                   "runs/research, or runs/research-quick)")
    p.add_argument("--reports", type=Path, default=None, help="reports folder (default "
                   "reports/, or runs/research-quick/reports)")
    p.add_argument("--fresh", action="store_true", help="play the runs again from scratch")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    args = p.parse_args(argv)
    base = ROOT / "runs" / ("research-quick" if args.quick else "research")
    args.runs = args.runs or base
    args.reports = args.reports or (base / "reports" if args.quick else ROOT / "reports")
    for name in args.only or list(QUESTIONS):
        started = time.perf_counter()
        args.current = name
        path = QUESTIONS[name](args)
        print(f"[research] {name}: {path} ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

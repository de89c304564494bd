"""Reports: tables agree with the records, duplicate pairs, Markdown and CSV, bad directories."""
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from briscasim.errors import UserError
from briscasim.experiments import report, runner
from briscasim.experiments.runner import run
from briscasim.experiments.spec import load_spec
from briscasim.stats import wilson_interval

SPEC = """
name = "rep"
seed = 3
deals = 400
chunk = 150
lineup = ["random", "random:swap_prob=1"]
[[variants]]
preset = "brisca-2"
[[variants]]
preset = "brisca-4-pairs"
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("rep")
    (d / "s.toml").write_text(SPEC)
    out = run(load_spec(d / "s.toml"), d / "run", progress=False)
    return report.load(out)


def test_strategy_rates_match_the_records(results):
    t = report.summarize(results)
    s = t["strategies"]
    assert list(s["strategy"][:2]) == ["random", "random:swap_prob=1"]
    rec = results.records[results.records["cell"] == 0]
    # entry 0 sits at seat 0 (side 0) in rotation 0 and at seat 1 in rotation 1
    side = np.where(rec["rotation"] == 0, 0, 1)
    won = (rec["winner"].to_numpy() == side).sum()
    row = s[(s["cell"] == 0) & (s["entry"] == 0)].iloc[0]
    assert row["plays"] == 800 and row["wins"] == won
    assert (row["win_lo"], row["win_hi"]) == pytest.approx(wilson_interval(won, 800))
    pts = np.where(side == 0, rec["points_0"], rec["points_1"])
    assert row["mean_points"] == pytest.approx(pts.mean())
    assert row["var_points"] == pytest.approx(pts.var(ddof=1))
    assert row["margin_q50"] == pytest.approx(np.quantile(2 * pts - 120, 0.5))
    assert (s["win_rate"] + s["draw_rate"] + s["loss_rate"]).round(12).eq(1).all()
    # a team of one strategy counts once per play in 4 players
    assert s[s["cell"] == 1]["plays"].tolist() == [800, 800]


def test_duplicate_pairs(results):
    d = report.summarize(results)["duplicate"]
    assert len(d) == 2
    long = report.entries(results)
    c0 = long[long["cell"] == 0]
    per = c0.groupby(["deal", "entry"])["score"].mean().unstack()
    x = per[0] - per[1]
    row = d[d["cell"] == 0].iloc[0]
    assert row["deals"] == 400
    assert row["score_diff"] == pytest.approx(x.mean())
    assert row["score_diff_lo"] < row["score_diff"] < row["score_diff_hi"]
    assert 0 <= row["score_p_value"] <= 1


def test_sides_and_swaps(results):
    t = report.summarize(results)
    sides = t["sides"]
    assert sides[sides["cell"] == 0]["plays"].tolist() == [800, 800]
    assert (sides["fair_share"] == 0.5).all()
    sw = t["swaps"]
    never = sw[(sw["strategy"] == "random") & (sw["swap"] == "7")]
    always = sw[(sw["strategy"] == "random:swap_prob=1") & (sw["swap"] == "7")]
    assert (never["swaps"] == 0).all() and (always["swaps"] > 0).all()
    assert ((always["mean_trick"] >= 1) & (always["mean_trick"] <= 20)).all()
    assert t["swap_tricks"]["swaps"].sum() == int((results.records[["swap7_seat",
                                                                   "swap2_seat"]] >= 0)
                                                  .to_numpy().sum())


def test_markdown_and_csv(results, tmp_path):
    md = report.write_report(results, tmp_path / "out", charts=False)
    text = md.read_text()
    for head in ("# rep", "## Strategies", "## Duplicate pairs", "## Seats and sides",
                 "## Swaps"):
        assert head in text
    for name in ("strategies", "sides", "duplicate", "swaps", "swap_tricks", "points_hist"):
        df = pd.read_csv(tmp_path / "out" / f"{name}.csv")
        assert len(df) > 0


def test_cli_report_with_charts(results, tmp_path):
    r = subprocess.run([sys.executable, "-c", "from briscasim.cli.main import main; main()",
                        "report", str(results.path), "-o", str(tmp_path / "r")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "r" / "report.md").read_text()
    assert "![Win rates](win_rates.png)" in text
    assert (tmp_path / "r" / "win_rates.svg").stat().st_size > 1000


def test_unfinished_or_foreign_directory(results, tmp_path):
    with pytest.raises(UserError, match="not a briscasim results directory"):
        report.load(tmp_path)
    (tmp_path / "_manifest.json").write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(UserError, match="not a briscasim run manifest"):
        report.load(tmp_path)
    m = dict(results.manifest, status="running")
    m["seal"] = runner.seal_of(m)
    run_dir = tmp_path / "half"
    run_dir.mkdir()
    (run_dir / "_manifest.json").write_text(json.dumps(m))
    with pytest.raises(UserError, match="not finished"):
        report.load(run_dir)
    assert (run_dir / "_manifest.json").exists()


def test_match_cells_next_to_deal_cells(tmp_path):
    (tmp_path / "m.toml").write_text(SPEC.replace("deals = 400", "deals = 60").replace(
        'preset = "brisca-4-pairs"', 'preset = "brisca-2"\nrules = { match = "deals 3" }'))
    res = report.load(run(load_spec(tmp_path / "m.toml"), tmp_path / "run", progress=False))
    t = report.summarize(res)
    s = t["strategies"]
    assert s[s["cell"] == 1]["plays"].tolist() == [120, 120]
    # match points add up over three deals
    assert s[s["cell"] == 1]["mean_points"].sum() > 300
    assert set(t["swaps"]["cell"]) == {0}


def test_report_beside_its_run_and_never_over_another_runs(results, tmp_path):
    def report(*args):
        return subprocess.run([sys.executable, "-c", "from briscasim.cli.main import main; "
                               "main()", "report", *map(str, args), "--no-charts"],
                              capture_output=True, text=True, cwd=tmp_path)

    r = report(results.path)
    assert r.returncode == 0, r.stderr
    beside = results.path / "report" / "report.md"
    assert f"report: {beside}" in r.stdout and beside.exists()
    assert not (tmp_path / "reports").exists()
    assert report(results.path).returncode == 0            # the same run's report again
    other = tmp_path / "other"
    run(load_spec(results.path.parent / "s.toml"), other, progress=False)
    r = report(other, "-o", results.path / "report")
    assert r.returncode == 2 and "holds the report of another run" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert report(other, "-o", results.path / "report", "--force").returncode == 0
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("mine")
    r = report(other, "-o", tmp_path / "notes")
    assert r.returncode == 2 and "not a briscasim report" in r.stderr
    assert (tmp_path / "notes" / "mine.txt").read_text() == "mine"

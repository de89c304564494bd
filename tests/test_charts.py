"""Every chart of the research pack, drawn from the CSV tables of its report in reports/ (what
``briscasim research NAME --charts`` draws) and from small made-up tables: each asks its
question in its title, names its axes, keys every marker and line in one legend outside the
data, has no text over another and says "not run" where a cell is empty."""
import functools
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from chartcheck import check, texts

from briscasim.analysis import luck_skill, pack, registry, seat_fairness, swap_policy
from briscasim.errors import UserError
from briscasim.experiments import style

REPORTS = Path(__file__).resolve().parent.parent / "reports"


def report_tables(name: str) -> dict:
    return {p.stem: pd.read_csv(p) for p in sorted((REPORTS / name).glob("*.csv"))}


def analysis_of(name: str) -> registry.Analysis:
    q = pack.question(name)
    return pack._analysis(q, [pack.load_spec(s, pack.Options()) for s in q.specs])


@functools.cache
def draw(name: str) -> dict:
    """The charts of question ``name`` from its report's tables (drawn once per module)."""
    with style.style():
        return analysis_of(name).figures(report_tables(name))


@pytest.fixture(autouse=True, scope="module")
def _close():
    yield
    draw.cache_clear()
    plt.close("all")


@pytest.mark.parametrize("name", list(pack.QUESTIONS))
def test_every_research_chart_passes(name):
    figs = draw(name)
    shipped = {p.stem for p in (REPORTS / name).glob("*.png")}
    assert set(figs) == shipped, f"{name}: charts drawn {sorted(figs)}, shipped {sorted(shipped)}"
    for chart, fig in figs.items():
        faults = check(fig)
        assert faults == [], f"{name}/{chart}: " + "; ".join(faults)


def test_empty_cells_say_not_run():
    figs = draw("hold_the_seven")
    t = report_tables("hold_the_seven")["policies"]
    groups = t.groupby(["variant", "play"]).ngroups
    missing = groups * t["policy"].nunique() - len(t)
    assert missing > 0                      # the ISMCTS cells hold fewer policies
    assert texts(figs["score_difference"]).count("not run") == missing
    lost = t[~t["policy"].str.startswith("immediate")]
    assert texts(figs["swap_lost"]).count("not run") == \
        groups * lost["policy"].nunique() - len(lost)
    assert "not run" in texts(draw("luck_skill")["deal_share"])
    assert "not run" not in texts(draw("ladder")["elo"])


def test_count_ticks_are_integers():
    fig = draw("luck_skill")["match_length"]
    ticks = [t for ax in fig.axes if ax.get_visible() for t in ax.get_xticklabels()
             if t.get_visible() and t.get_text()]
    drawn = {t.get_text() for t in ticks}
    assert {"1", "10", "100"} <= drawn and not any("." in s for s in drawn)


def test_one_palette_and_no_look_twice():
    """No two series look alike, no panel holds both oranges, and the colours are the
    package's."""
    with style.style():
        fig = luck_skill.curve_chart(luck_skill.curves(report_tables("luck_skill")[
            "match_length"]))
    looks = {}
    for ax in fig.axes:
        for line in ax.lines:
            if not line.get_label().startswith("_") and line.get_linestyle() != ":":
                looks[line.get_label()] = (line.get_color(), line.get_marker(),
                                           line.get_linestyle())
    assert len(set(looks.values())) == len(looks) > 1
    assert {c for c, _, _ in looks.values()} <= set(style.PALETTE)
    vermillion, orange = "#D55E00", "#E69F00"      # the two that look alike
    for ax in fig.axes:
        assert not {vermillion, orange} <= {line.get_color() for line in ax.lines}
    assert len(set(style.PALETTE)) == len(style.PALETTE) == len(style.MARKERS)


def test_chiamata_has_one_y_axis_per_panel():
    fig = draw("chiamata")["chiamata"]
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 4                   # success and game points apart, no twin axes
    assert {ax.get_ylabel() for ax in axes} >= {"success (%)", "game points"}


def test_seat_fairness_key_is_outside_the_data():
    fig = draw("three_players")["seat_fairness"]
    assert all(ax.get_legend() is None for ax in fig.axes)
    keys = [t.get_text() for t in fig.legends[0].get_texts()]
    assert keys[:3] == ["seat 0 (leads first)", "seat 1", "seat 2"]
    assert "fair share (33.3%)" in keys
    assert "fair share" not in fig.axes[0].get_ylabel()


def made_up_policies() -> pd.DataFrame:
    """Two (variant, play) cells, the second without the 'never' policy."""
    rows = []
    for variant, play, policies in (("brisca-2", "greedy", ("immediate (control)", "hold",
                                                              "never")),
                                    ("brisca-2", "ismcts", ("immediate (control)", "hold"))):
        for k, p in enumerate(policies):
            d = -0.01 * k
            rows.append(dict(variant=variant, play=play, policy=p, d_score=d,
                             d_score_lo=d - 0.004, d_score_hi=d + 0.004, d_margin=10 * d,
                             d_margin_lo=10 * d - 0.5, d_margin_hi=10 * d + 0.5,
                             lost=0.02 * k, lost_lo=0.02 * k - 0.005, lost_hi=0.02 * k + 0.005))
    return pd.DataFrame(rows)


def test_made_up_tables_draw_clean_charts():
    rng = np.random.default_rng(1)
    with style.style():
        figs = dict(swap_policy.figures({"policies": made_up_policies()}))
        pts = {("brisca-3-remove2", "random"): rng.integers(0, 121, 500),
               ("brisca-3-faceup", "random"): rng.integers(0, 121, 500)}
        hist = seat_fairness.histogram([(v, s, p) for (v, s), p in pts.items()])
        figs["hist"] = seat_fairness.hist_chart(hist)
    for name, fig in figs.items():
        faults = check(fig)
        assert faults == [], f"{name}: " + "; ".join(faults)
    assert texts(figs["score_difference"]).count("not run") == 1
    assert hist.groupby("variant")["plays"].sum().tolist() == [500, 500]


def test_checker_sees_faults():
    """The checks catch a chart without a question, a key, or room for its labels."""
    with style.style():
        fig, axes = style.figure(1, 1, width=1.2)
        ax = axes[0, 0]
        ax.plot([0, 1], [0, 1], marker="o")
        ax.set_xticks([0, 0.5, 1], ["a long tick label", "another long one", "and a third"])
        fig.get_figure(root=True).suptitle("A statement")
    faults = check(fig)
    assert any("asks no question" in f for f in faults)
    assert "no legend" in faults
    assert any("overlaps" in f for f in faults)
    assert any("y axis has no label" in f for f in faults)


def test_redraw_writes_the_charts_from_the_tables(tmp_path):
    (tmp_path / "signals").mkdir()
    for p in (REPORTS / "signals").glob("*.csv"):
        (tmp_path / "signals" / p.name).write_bytes(p.read_bytes())
    out = pack.redraw("signals", pack.Options(reports=tmp_path))
    assert list(out) == ["signals"]
    assert out["signals"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out["signals"].with_suffix(".svg").exists()
    with pytest.raises(UserError, match="no CSV tables"):
        pack.redraw("ladder", pack.Options(reports=tmp_path))
    (tmp_path / "signals" / "signals.csv").unlink()
    with pytest.raises(UserError, match="no table or column 'signals'"):
        pack.redraw("signals", pack.Options(reports=tmp_path))

"""Charts of a run: every chart written as PNG and SVG and fit to print, a sweep chart for a
numeric grid key."""
import matplotlib.pyplot as plt
import pytest
from chartcheck import check

from briscasim.experiments import plots, report, style
from briscasim.experiments.runner import run
from briscasim.experiments.spec import load_spec

SPEC = """
name = "pl"
seed = 9
deals = 200
seats = ["random", "random", "random"]
[[variants]]
preset = "brisca-3-remove2"
[[variants]]
preset = "brisca-3-faceup"
name = "three"
[grid]
"seats.0.swap_prob" = [0.0, 0.5, 1.0]
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    d = tmp_path_factory.mktemp("pl")
    (d / "s.toml").write_text(SPEC)
    return report.summarize(report.load(run(load_spec(d / "s.toml"), d / "run",
                                            progress=False)))


def test_plot_all_writes_png_and_svg(tables, tmp_path):
    figs = plots.plot_all(tables, tmp_path)
    assert set(figs) == {"win_rates", "seat_advantage", "score_distribution",
                         "sweep_seats_0_swap_prob"}
    for png in figs.values():
        assert png.suffix == ".png" and png.stat().st_size > 5000
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        svg = png.with_suffix(".svg").read_text()
        assert "<svg" in svg and ("win rate" in svg or "points" in svg)


def test_sweep_keys_and_labels(tables):
    assert plots.sweep_keys(tables["strategies"]) == ["seats.0.swap_prob"]
    fig = plots.sweep(tables["strategies"], "seats.0.swap_prob")
    ax = fig.axes[0]
    assert ax.get_xlabel() == "parameter swap_prob of lineup entry 0"
    assert "win rate" in ax.get_ylabel()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert len(labels) == 2 * 3 + 1    # two variants x three seats (entries), the band
    assert labels[-1] == "95% Wilson band"
    assert any(lab.startswith("three: random (entry 0)") for lab in labels)
    plt.close("all")


def test_every_chart_of_a_run_is_fit_to_print(tables):
    with style.style():
        figs = plots.figures(tables)
    for name, fig in figs.items():
        faults = check(fig)
        assert faults == [], f"{name}: " + "; ".join(faults)
    plt.close("all")

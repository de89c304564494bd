"""``briscasim research NAME --quick`` on one question, end to end, and its rerun."""
import subprocess
import sys

import pandas as pd
import pytest

pytestmark = pytest.mark.slow     # a whole research question, runs and report


def _research(tmp_path, *args):
    cmd = [sys.executable, "-c", "from briscasim.cli.main import main; main()", "research",
           *args, "--quick", "--quiet", "--workers", "2", "--runs", str(tmp_path / "runs"),
           "--reports", str(tmp_path / "reports")]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900)


def test_research_quick_signals(tmp_path):
    done = _research(tmp_path, "signals")
    assert done.returncode == 0, done.stderr[-3000:]
    out = tmp_path / "reports" / "signals"
    md = (out / "report.md").read_text()
    assert md.startswith("# Signals")
    assert "## Conclusion" in md and "--quick" in md and "briscasim research signals" in md
    assert (out / "signals.png").stat().st_size > 0 and (out / "signals.svg").exists()
    t = pd.read_csv(out / "signals.csv")
    assert set(t["variant"]) == {"brisca-4-pairs-signals", "brisca-4-pairs"}
    # the control: without signals the two greedy sides play alike, so exactly 50%
    control = t[(t["variant"] == "brisca-4-pairs") & t["a"].str.startswith("greedy")]
    assert control["score"].iloc[0] == 0.5
    assert control["deals"].iloc[0] == 2000
    d = pd.read_csv(out / "on_minus_off.csv")
    assert len(d) == 2 and (d["deals"] > 0).all()
    # both runs are complete and reused: a second call plays nothing and gives the same table
    again = _research(tmp_path, "signals")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "already complete" in again.stderr
    pd.testing.assert_frame_equal(pd.read_csv(out / "signals.csv"), t)


def test_research_refuses_unknown_names_before_any_work(tmp_path):
    done = _research(tmp_path, "signals", "nope")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "valid questions:" in done.stderr
    assert not (tmp_path / "runs").exists()

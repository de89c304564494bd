"""The research script (scripts/research.py) in --quick mode on one question, end to end."""
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.slow     # a whole research question, runs and report

ROOT = Path(__file__).resolve().parent.parent


def test_research_quick_signals(tmp_path):
    cmd = [sys.executable, str(ROOT / "scripts" / "research.py"), "--only", "signals",
           "--quick", "--quiet", "--workers", "2", "--runs", str(tmp_path / "runs"),
           "--reports", str(tmp_path / "reports")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    out = tmp_path / "reports" / "signals"
    md = (out / "report.md").read_text()
    assert md.startswith("# Signals")
    assert "## Conclusion" in md and "--quick" in md
    assert (out / "signals.png").stat().st_size > 0 and (out / "signals.svg").exists()
    t = pd.read_csv(out / "signals.csv")
    assert set(t["variant"]) == {"brisca-4-pairs-signals", "brisca-4-pairs"}
    # the control: without signals the two greedy sides play alike, so exactly 50%
    control = t[(t["variant"] == "brisca-4-pairs") & t["what"].str.startswith("greedy")]
    assert control["score"].iloc[0] == 0.5
    assert control["deals"].iloc[0] == 2000
    # both runs are complete and reused: a second call plays nothing and gives the same table
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "already complete" in again.stderr
    pd.testing.assert_frame_equal(pd.read_csv(out / "signals.csv"), t)

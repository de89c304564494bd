"""The README's Python examples run as written, but those that read a finished run or write or
import the example strategy (test_example_strategy runs examples/last_word.py)."""
import re
from pathlib import Path

import pytest

README = Path(__file__).parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
RUNNABLE = [b for b in BLOCKS if "runs/" not in b and "last_word" not in b and "@njit" not in b]


def test_the_readme_has_python_examples_to_run():
    assert len(RUNNABLE) >= 2, len(RUNNABLE)


@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.split("\n", 1)[0])
def test_a_readme_python_example_runs(block, tmp_path, monkeypatch):
    if "pyspiel" in block:
        pytest.importorskip("pyspiel")
    monkeypatch.chdir(tmp_path)
    exec(compile(block, str(README), "exec"), {"__name__": "readme_example"})

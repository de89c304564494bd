"""The README and every page of docs/: their Python blocks and command lines run as written,
and their links resolve.

A ```python block runs unless its fence says ``python no-run: REASON`` (a block that reads a
finished run, defines the example strategy that tests/test_example_strategy.py runs, or shows
an excerpt or a signature); the reason is required. Command lines run with at most 1,000
deals, and only the quick commands (``doc_pages.QUICK``; not a person at the keyboard, nor a
file of the user's; ``compare`` has tests of its own). The engineering notebook (docs/notes/)
has its links checked; its code is the record of its date and is not run."""
import pytest

import doc_pages
from command_line import run

PYTHON = [(page, info, code) for page in doc_pages.PAGES
          for info, code in doc_pages.blocks(page) if info.split()[:1] == ["python"]]
RUNNABLE = [(page, code) for page, info, code in PYTHON if info == "python"]
COMMANDS = [(page, argv) for page in doc_pages.PAGES
            for info, code in doc_pages.blocks(page) if info in ("bash", "sh", "")
            for argv in doc_pages.runnable_command_lines(code)]


@pytest.fixture
def briscasim(capsys):
    """The command line in this process: ``(exit status, stderr)``."""
    return lambda *args: run(capsys, *args)[::2]


def _id(page, item):
    text = item.strip().splitlines()[0] if isinstance(item, str) else " ".join(item)
    return f"{page.name}: {text}"


def test_the_pages_have_examples_to_run():
    assert {page.name for page, _ in RUNNABLE} >= {"README.md", "environments.md", "rules.md"}
    assert len(COMMANDS) >= 5, len(COMMANDS)


@pytest.mark.parametrize("page, info", [(p, i) for p, i, _ in PYTHON if i != "python"],
                         ids=lambda x: getattr(x, "name", x))
def test_a_block_not_run_says_why(page, info):
    assert info.startswith("python no-run: ") and len(info) > len("python no-run: ") + 5, info


@pytest.mark.slow
@pytest.mark.parametrize("page, code", RUNNABLE, ids=[_id(p, c) for p, c in RUNNABLE])
def test_a_python_example_runs(page, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(page), "exec"), {"__name__": "doc_example"})


@pytest.mark.parametrize("page, argv", COMMANDS, ids=[_id(p, a) for p, a in COMMANDS])
def test_a_command_line_runs(page, argv, briscasim):
    argv = list(argv)
    if "--deals" in argv:                   # the same command line, a smaller batch
        argv[argv.index("--deals") + 1] = str(min(1000, int(argv[argv.index("--deals") + 1])))
    code, err = briscasim(*argv)
    assert code == 0, err


@pytest.mark.parametrize("page", doc_pages.PAGES + doc_pages.NOTEBOOK, ids=lambda p: p.name)
def test_the_links_of_a_page_resolve(page):
    broken = []
    for target in doc_pages.links(page):
        path, _, anchor = target.partition("#")
        to = (page.parent / path).resolve() if path else page
        if not to.exists():
            broken.append(target)
        elif anchor and to.suffix == ".md" and anchor not in doc_pages.anchors(to):
            broken.append(target)
    assert not broken, broken

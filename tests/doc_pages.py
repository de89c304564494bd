"""Test helper: the README and the pages of ``docs/``, their code blocks, links and command
lines."""
import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the pages a user reads; the engineering notebook (docs/notes/) has its links checked but
# its code is the record of its date, not run
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOTEBOOK = sorted((ROOT / "docs" / "notes").glob("*.md"))

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)

# commands an example may run here: not play (a person at the keyboard), nor the long jobs
QUICK = {"analyze", "presets", "replay", "simulate", "strategies", "validate"}


def blocks(page: Path):
    """``(info, code)`` of every fenced block of ``page``; ``info`` is the fence's info string
    (``python``, ``python no-run: reason``, ``bash`` ...), ``code`` is preceded by as many
    empty lines as come before it in the page, so that a traceback names the page's line."""
    text = page.read_text()
    return [(m.group(1).strip(), "\n" * text.count("\n", 0, m.start(2)) + m.group(2))
            for m in FENCE.finditer(text)]


def runnable_command_lines(text: str):
    """The ``briscasim`` command lines in ``text`` (continuations joined, comments dropped)
    that run here: a quick command, no file of the user's, no elided part, no module of the
    user's."""
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if line.startswith("briscasim ") and "..." not in line:
            argv = shlex.split(line, comments=True)[1:]
            if argv[0] in QUICK and "--file" not in argv and "last_word" not in line:
                yield argv


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set:
    """The anchors of the headings of ``page`` (outside code blocks), GitHub's way."""
    text = FENCE.sub("", page.read_text())
    seen, out = {}, set()
    for m in re.finditer(r"^#{1,6} (.+)$", text, re.M):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)|^\[[^\]\n]+\]: (\S+)", re.M)


def links(page: Path):
    """Every relative link of ``page`` outside code blocks (web addresses left out)."""
    text = FENCE.sub("", page.read_text())
    text = re.sub(r"`[^`\n]*`", "", text)                  # code spans hold no links
    for m in LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if not re.match(r"[a-z]+:", target):
            yield target

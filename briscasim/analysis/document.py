"""What every analysis report shares: the context it is written in, its header (question,
specs, how to regenerate it, what it cost, how its intervals are made) and writing it out."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .runs import Run, cost_line


@dataclass
class Context:
    """Where and how an analysis writes its report.

    ``title`` and ``question`` default to the run's spec name and description; ``regenerate``
    is the command that writes the report again; ``root`` is the folder spec paths are
    relative to (links from the report to the specs); ``quick`` marks a smoke run; ``note``
    is a paragraph for the header (e.g. what the compute was when the manifest cannot say)."""
    out: Path
    regenerate: str = ""
    title: str | None = None
    question: str | None = None
    quick: bool = False
    root: Path | None = None
    note: str = ""


INTERVALS = ("Intervals are 95%: a score (wins + draws/2) or a margin is a t interval over "
             "deals (the mean over a duplicate deal's rotations is one observation, so the "
             "pairing of rotations is accounted for); differences are paired deal by deal "
             "(same cards), with paired t-tests{holm}. Numbers from search strategies "
             "(ismcts, pimc, peek, omniscient) depend on their code and budget; greedy and random "
             "results are pinned by the engine regression tests.")


def header(runs: list[Run], ctx: Context, holm: bool = False) -> list[str]:
    """The title, the question, the specs with their seeds and digests, how to regenerate,
    the compute, and the statistics used."""
    title = ctx.title or runs[0].name
    question = ctx.question or runs[0].manifest.get("description") or ""
    specs = ", ".join(_spec_link(r, ctx) for r in runs)
    out = [f"# {title}", ""]
    if question:
        out += [f"**Question.** {question}", ""]
    out += [f"Specs: {specs}."
            + (f" Regenerate: `{ctx.regenerate}`" if ctx.regenerate else "")
            + (" (this is a `--quick` smoke run: too few deals for conclusions)"
               if ctx.quick else "") + ".", "", cost_line(runs), ""]
    if ctx.note and not ctx.quick:
        out += [ctx.note, ""]
    out += [
            f"Generated {_dt.date.today().isoformat()}. " + INTERVALS.format(
                holm=("; where a table makes several comparisons, the p-values are Holm-"
                      "adjusted (column *p adj*) and a difference is called significant only "
                      "if its adjusted p is below 0.05" if holm else "")), ""]
    return out


def _spec_link(run: Run, ctx: Context) -> str:
    path = run.manifest.get("spec_file") or ""
    seed = run.spec["seed"]
    digest = run.manifest.get("digest", "")
    if ctx.root is not None and path and not Path(path).is_absolute():
        rel = Path("..") / ".." / path
        return f"[`{path}`]({rel.as_posix()}) (seed {seed}, digest `{digest}`)"
    return f"`{path or run.name}` (seed {seed}, digest `{digest}`)"


def write(out: Path, lines: list[str], tables: dict[str, pd.DataFrame]) -> Path:
    """Write the CSV tables and ``report.md`` into ``out``; return the Markdown file."""
    out.mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
    path = out / "report.md"
    path.write_text("\n".join(lines).rstrip() + "\n")
    return path

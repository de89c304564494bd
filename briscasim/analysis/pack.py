"""The research pack: each question is answered by specs in ``experiments/`` (which name their
analysis) and a report in ``reports/<question>/`` (Markdown, CSV tables, PNG and SVG charts).

    briscasim research hold_the_seven        # one question
    briscasim research --all                 # every question
    briscasim research signals --quick       # smoke run: few deals, small searches
    briscasim research luck_skill --charts   # the charts again, from the report's tables

Every spec has a fixed seed, so a rerun gives the same numbers. Finished runs are kept in
``runs/research/<spec name>`` and reused (``--fresh`` plays them again, as does a change to
the spec); an interrupted run is resumed where it stopped. ``--quick`` plays a few deals with
small searches into ``runs/research-quick`` and writes its reports there, never over reports/.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError
from ..experiments import runner
from ..experiments.spec import Spec, parse_spec
from ..suggest import valid_choices
from . import registry
from .document import Context
from .runs import Run

ROOT = Path(__file__).resolve().parent.parent.parent
"""The source tree (its ``experiments/`` holds the specs of the pack)."""
SEARCH = re.compile(r"\b(ismcts|pimc|omniscient|peek)\b")
QUICK_DEALS, QUICK_SEARCH_DEALS = 2000, 6
QUICK_BUDGETS = (("iterations=1000", "iterations=20"), ("iterations=200", "iterations=20"),
                 ('"ismcts"', '"ismcts:iterations=20"'), ('"pimc"', '"pimc:worlds=3"'),
                 ('"peek"', '"peek:iterations=20"'))


@dataclass(frozen=True)
class Question:
    name: str
    title: str
    question: str
    specs: tuple[str, ...]
    note: str = ""


QUESTIONS = {q.name: q for q in (
    Question("hold_the_seven", "Hold the 7: does delaying the swap of the 7 of trumps pay off?",
             "Swap policies (immediate; hold until the stock is down to k cards; hold to the "
             "last chance; hold until the opponents' trump A and 3 are gone; never) with greedy "
             "and ISMCTS play, in brisca-2 under both swap timings, brisca-4-pairs and "
             "brisca-3-remove2: win rate and point margin against the immediate policy on "
             "duplicate deals, and how often holding loses the swap altogether.",
             ("hold_the_seven", "hold_the_seven_3p", "hold_the_seven_ismcts")),
    Question("three_players", "Three players: remove a 2, or leave the last card undrawn?",
             "Removing the 2 of coins (brisca-3-remove2) against leaving the last card "
             "undrawn, face up (brisca-3-faceup) or face down (brisca-3-hidden): fairness "
             "between the seats, spread of the scores, how far a stronger strategy beats "
             "weaker ones (skill against luck), and how often the card out of play has points "
             "and how many.", ("three_players", "three_players_ismcts")),
    Question("seat_advantage", "Seat advantage: how much is it worth to play first?",
             "For every preset, the edge of the first player (or side) under random, greedy "
             "and ISMCTS play.", ("seat_advantage", "seat_advantage_ismcts")),
    Question("signals", "Signals: what are honest partner signals worth?",
             "What honest partner signals (docs/rules.md, what each player knows: which of "
             "its partner's top trumps are in hand, whether the partner holds a non-trump A or "
             "3, and whether it holds no trump) are worth in brisca-4-pairs, for greedy and "
             "ISMCTS play.", ("signals", "signals_ismcts")),
    Question("ladder", "Strategy ladder: a round robin of the built-in strategies",
             "A round robin of every built-in strategy in brisca-2, briscola-2 and "
             "brisca-4-pairs (a strategy holds one pair) with scores, intervals and an Elo "
             "rating.", ("ladder", "ladder_search")),
    Question("reves", "Brisca al revés: which strategies carry over to the reverse objective?",
             "Which strategies carry over to the reverse objective (brisca-reves: the fewest "
             "card points wins), and what a strategy built for it gains.",
             ("reves", "reves_ismcts")),
    Question("luck_skill", "Luck or skill: how much of a deal's result does the deal decide?",
             "For each preset (two sides, and three sides: three players, six in pairs) and "
             "each strategy pairing (random, greedy, expert, learned, ismcts): a logistic "
             "regression of "
             "the result on the signed difference in trumps dealt and on the pairing, a "
             "decomposition of the point margin into deal, strategy and the rest, and how "
             "many deals the better player needs to win 95% of matches.",
             ("luck_skill", "luck_skill_expert", "luck_skill_three_sides", "luck_skill_learned",
              "luck_skill_ismcts")),
    Question("chiamata", "Briscola Chiamata: what to bid and whom to call",
             "In chiamata-5 with greedy bidding, calling and play: the caller's success rate "
             "and game points by contract and by the card points of his hand, calling a "
             "partner against calling one's own card, each seat's edge, whether the caller "
             "should lead the first trick, flat against ladder scoring, an auction by points; "
             "and the strength of greedy among random players and of expert and ISMCTS among "
             "greedy players, as caller, partner and defender, on duplicate deals.",
             ("chiamata", "chiamata_greedy_random", "chiamata_expert", "chiamata_strength")),
    Question("hold_the_seven_strong", "Hold the 7 with strong players",
             "Does holding the 7 of trumps help a strong player, and in which variants? "
             "`expert` on both sides (the opponent swaps at once) with each swap policy in "
             "brisca-2 with the swap before and after the draw and in brisca-2-blackhand, the "
             "same with the `learned` player on both sides, and ISMCTS at 1000 iterations a "
             "move on both sides holding the 7 to the last chance in brisca-2 before and after "
             "the draw, on duplicate deals; and where the three players' conclusions agree.",
             ("hold_the_seven_expert", "hold_the_seven_learned", "hold_the_seven_strong"),
             note="The ISMCTS cells (ISMCTS against ISMCTS at `ismcts:iterations=1000`) are "
                  "most of the compute above: 5,000 duplicate deals a cell bring the "
                  "half-width of a score difference to about 0.4 pp. `expert` and `learned` "
                  "are cheap: 40,000 and 200,000 deals a cell."),
)}


@dataclass
class Options:
    quick: bool = False
    fresh: bool = False
    workers: int | None = None
    runs: Path | None = None
    reports: Path | None = None
    specs: Path | None = None
    progress: bool = False

    def __post_init__(self):
        base = ROOT / "runs" / ("research-quick" if self.quick else "research")
        self.runs = Path(self.runs) if self.runs else base
        self.reports = Path(self.reports) if self.reports else (
            base / "reports" if self.quick else ROOT / "reports")
        self.specs = Path(self.specs) if self.specs else ROOT / "experiments"


def question(name: str) -> Question:
    if name not in QUESTIONS:
        raise UserError(f"unknown research question {name!r}"
                        f"{valid_choices(name, QUESTIONS, 'questions')}")
    return QUESTIONS[name]


def load_spec(name: str, opts: Options) -> Spec:
    """The pack's spec ``name``; with ``quick`` its deals capped and its searches shrunk."""
    path = opts.specs / f"{name}.toml"
    if not path.exists():
        raise UserError(f"{path}: spec of the research pack not found (pass --specs DIR)")
    text = path.read_text()
    if opts.quick:
        for old, new in QUICK_BUDGETS:
            text = text.replace(old, new)
    data = tomllib.loads(text)
    if opts.quick:
        cap = QUICK_SEARCH_DEALS if SEARCH.search(text) else QUICK_DEALS
        data["deals"] = min(data["deals"], cap)
        data["chunk"] = min(data.get("chunk", data["deals"]), data["deals"])
        data["name"] += "-quick"
    try:
        shown = str(path.relative_to(ROOT))
    except ValueError:
        shown = str(path)
    return parse_spec(data, shown)


def _older_run(out: Path) -> bool:
    """True if ``out`` holds a run in an older results format (its chunks cannot be read)."""
    try:
        data = json.loads((out / runner.MANIFEST).read_text())
        return data["format"] == runner.FORMAT and data["format_version"] < runner.FORMAT_VERSION
    except (OSError, ValueError, KeyError, TypeError):
        return False


def run_spec(name: str, opts: Options, log=print) -> Run:
    """Play (or resume, or reuse) the pack's spec ``name``; return the finished run."""
    spec = load_spec(name, opts)
    out = opts.runs / spec.name
    if out.exists():
        now = runner.versions()
        older = _older_run(out)
        old = None if older else runner.read_manifest(out)   # refuses anything not a run
        if older or opts.fresh or old["digest"] != spec.digest():
            why = ("written by an older briscasim" if older else
                   "--fresh" if opts.fresh else "the spec changed")
            log(f"[research] {out}: {why}; playing it again")
            shutil.rmtree(out)
        elif any(old.get("versions", {}).get(k) != now[k] for k in ("engine_sources", "models")):
            log(f"[research] warning: {out} was played by other engine or strategy sources "
                "or learned models; reusing it; pass --fresh to play it with the current code")
    resume = out.exists()
    deals = spec.deals or spec.target["max_deals"]
    log(f"[research] {spec.name}: {len(spec.cells)} cells, {deals:,} deals per seating"
        + (" (results folder exists: resumed, or reused if complete)" if resume else ""))
    runner.run(spec, out=out, workers=opts.workers, resume=resume, progress=opts.progress)
    return Run.open(out)


def _analysis(q: Question, specs: list[Spec]) -> registry.Analysis:
    names = {s.analysis for s in specs}
    if len(names) != 1 or None in names:
        raise UserError(f"question {q.name!r}: its specs must name one analysis "
                        f"(they name {sorted(map(str, names))})")
    return registry.get(names.pop())


def answer(name: str, opts: Options, log=None) -> Path:
    """Run the specs of question ``name`` and write its report; return the Markdown file."""
    log = log or (lambda m: print(m, file=sys.stderr))
    q = question(name)
    specs = [load_spec(s, opts) for s in q.specs]
    analysis = _analysis(q, specs)
    analysis.check([Run(opts.runs / s.name, {"spec": s.resolved()}) for s in specs])  # first
    runs = [run_spec(s, opts, log) for s in q.specs]
    ctx = Context(out=opts.reports / name, title=q.title, question=q.question,
                  regenerate=f"briscasim research {name}", quick=opts.quick, root=ROOT,
                  note=q.note)
    return analysis.analyse(runs, ctx)


def redraw(name: str, opts: Options) -> dict[str, Path]:
    """Draw the charts of question ``name`` again from the CSV tables of its report, playing
    nothing; ``{chart: PNG path}``."""
    import pandas as pd

    from ..experiments.style import save_all, style
    q = question(name)
    analysis = _analysis(q, [load_spec(s, opts) for s in q.specs])
    out = opts.reports / name
    tables = {p.stem: pd.read_csv(p) for p in sorted(out.glob("*.csv"))}
    if not tables:
        raise UserError(f"{out}: no CSV tables to draw the charts from "
                        f"(write the report first: briscasim research {name})")
    with style():
        try:
            figs = analysis.figures(tables)
        except KeyError as e:
            raise UserError(f"{out}: no table or column {e.args[0]!r}, which the charts need "
                            f"(write the report again: briscasim research {name})") from None
    return save_all(figs, out)

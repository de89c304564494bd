"""Messages that say what happened: numbers that are not finite, a position before the
deal, a pass at the Chiamata call, names given with --all."""
import pytest

from briscasim.game import Deal
from command_line import run


@pytest.fixture
def briscasim(capsys):
    """The command line in this process: ``(exit status, stderr)``."""
    return lambda *args: run(capsys, *args)[::2]


def one_line(result, *words):
    code, err = result
    assert code == 2 and "Traceback" not in err, err
    lines = [x for x in err.strip().splitlines() if not x.startswith("compiling")]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


ANALYZE = ["analyze", "--preset", "brisca-2", "--strategy", "random", "--seed", 1]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "Infinity"])
def test_every_float_option_refuses_numbers_that_are_not_finite(value, briscasim):
    """``analyze --seconds`` and ``play --seconds``: the float options of the commands."""
    import click

    from briscasim.cli.main import COMMANDS, cli
    from briscasim.cli.options import Finite
    floats = {(name, p.opts[0]): p.type for name in COMMANDS
              for p in cli.get_command(None, name).params
              if isinstance(p.type, click.types.FloatParamType)}
    assert {("analyze", "--seconds"), ("play", "--seconds")} <= set(floats)
    assert all(isinstance(t, Finite) for t in floats.values()), floats
    one_line(briscasim(*ANALYZE, "--at", 3, "--seconds", value),
             f"--seconds = {value}: not a finite number")
    one_line(briscasim("play", "--preset", "brisca-2", "--seconds", value),
             f"--seconds = {value}: not a finite number")


def test_seconds_must_be_above_zero(briscasim):
    one_line(briscasim(*ANALYZE, "--at", 3, "--seconds", -1), "--seconds = -1: give a number "
             "above 0")
    one_line(briscasim("play", "--seconds", 0), "--seconds = 0: give a number above 0")


def test_a_position_before_the_deal(briscasim):
    line = one_line(briscasim(*ANALYZE, "--at", -1), "--at -1")
    assert "past the end" not in line and "0 (before the first)" in line
    one_line(briscasim(*ANALYZE, "--at", 10 ** 6), "past the end of the deal")


def _at_the_call():
    """A Chiamata deal at its call: the first seat bids, the others pass."""
    deal = Deal.from_seed("chiamata-5", 2)
    deal.play(next(a for a in deal.legal_codes() if a.startswith("bid:")))
    while deal.phase != "call":
        deal.play("pass")
    return deal


def test_a_pass_at_the_chiamata_call_is_named_a_pass():
    from briscasim.errors import IllegalAction
    deal = _at_the_call()
    with pytest.raises(IllegalAction) as e:
        deal.play("pass")
    assert "keep" not in str(e.value) and "pass is not legal" in str(e.value)
    assert "call phase" in str(e.value) and "call:" in str(e.value)


def test_play_answers_a_pass_at_the_call(monkeypatch):
    from briscasim.cli.play_cmd import Terminal
    deal = _at_the_call()
    said = []
    t = Terminal(False, 10, 1.0, echo=said.append)
    t.seat = deal.turn
    assert t.parse(deal, "pass") is None
    assert said and said[-1].startswith("pass is not legal now: the auction is won, and its "
                                        "winner calls a card; legal: call:"), said


def test_research_names_with_all(briscasim):
    one_line(briscasim("research", "--all", "nosuch"), "unknown research question 'nosuch'")
    line = one_line(briscasim("research", "--all", "three_players"),
                    "--all answers every question; it takes no names")
    assert "name research questions or pass --all" not in line
    one_line(briscasim("research"), "name research questions or pass --all")


SPEC = 'name = "x"\nseed = 1\n{head}seats = [{seats}]\n[[variants]]\npreset = "brisca-2"\n{tail}'
SPEC_FLOATS = {
    "grid": dict(head="deals = 10\n", seats='"random:swap_prob=0.5"',
                 tail='[grid]\n"seats.0.swap_prob" = [{v}]\n'),
    "target": dict(head="", seats='"random"',
                   tail='[target]\nci_half_width = {v}\nmax_deals = 100\n'),
    "rules": dict(head="deals = 10\n", seats='"random"', tail='rules = {{ hand_size = {v} }}\n'),
    "deals": dict(head="deals = {v}\n", seats='"random"', tail=""),
    "chunk": dict(head="deals = 10\nchunk = {v}\n", seats='"random"', tail=""),
    "strategy": dict(head="deals = 10\n", seats='"random:swap_prob={v}"', tail=""),
}
WHERE = {"grid": 'grid."seats.0.swap_prob"[0]', "target": "target.ci_half_width",
         "rules": "hand_size", "deals": "deals", "chunk": "chunk", "strategy": "swap_prob"}


@pytest.mark.parametrize("place", sorted(SPEC_FLOATS))
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_spec_refuses_numbers_that_are_not_finite(place, value, briscasim, tmp_path):
    f = tmp_path / "s.toml"
    parts = SPEC_FLOATS[place]
    f.write_text(SPEC.format(**{k: v.format(v=value) for k, v in parts.items()}))
    line = one_line(briscasim("validate", f), f"{f}: ", WHERE[place])
    assert value in line.lower(), line

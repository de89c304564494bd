"""No traceback for a user's mistake or the machine's limits: one line, exit status 2. Also the
command line's manners: -h everywhere, completion of presets and strategies, no progress bar
in a pipe, a notice while the engine compiles."""
import pytest
from click.shell_completion import ShellComplete

from briscasim.cli.main import COMMANDS, cli
from briscasim.errors import UserError
from briscasim.experiments.spec import load_spec
from briscasim.limits import MAX_CELLS, MAX_DEALS
from briscasim.rules import PRESETS, Rules, RulesError
from command_line import run
from doc_pages import runnable_command_lines

class Result:
    def __init__(self, code, out, err):
        self.returncode, self.stdout, self.stderr = code, out, err


@pytest.fixture
def briscasim(capsys):
    """The command line, in this process (as the console script runs it, without starting
    an interpreter for each call: test_cli_replay checks the console script itself)."""
    return lambda *args: Result(*run(capsys, *args))


def one_line_error(r, *words):
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def test_h_is_help_on_every_command():
    from click.testing import CliRunner
    runner = CliRunner()
    r = runner.invoke(cli, ["-h"], prog_name="briscasim")
    assert r.exit_code == 0 and "Commands" in r.output
    for command in sorted(COMMANDS):
        r = runner.invoke(cli, [command, "-h"], prog_name="briscasim")
        assert r.exit_code == 0 and r.output.startswith(f"Usage: briscasim {command}"), (
            command, r.output)


def test_h_is_help_of_a_command_invoked_on_its_own():
    """-h stays help wherever a command is first invoked (click keeps a command's help option
    once made): on its own, then through the group."""
    from click.testing import CliRunner
    from briscasim.cli.strategies_cmd import strategies
    runner = CliRunner()
    r = runner.invoke(strategies, ["-h"], prog_name="briscasim strategies")
    assert r.exit_code == 0 and r.output.startswith("Usage: briscasim strategies"), r.output
    r = runner.invoke(cli, ["strategies", "-h"], prog_name="briscasim")
    assert r.exit_code == 0 and r.output.startswith("Usage: briscasim strategies"), r.output


def test_huge_numbers_get_limits_not_hangs(tmp_path, briscasim):
    one_line_error(briscasim("simulate", "--deals", 10 ** 23), "deals = 10", f"{MAX_DEALS:,}")
    one_line_error(briscasim("simulate", "--rule", f"match=deals {10 ** 24}"),
                   "match", "at most")
    one_line_error(briscasim("simulate", "--rule", f"max_deals={10 ** 24}"), "max_deals")
    r = briscasim("replay", "--deal", 2 ** 64)
    assert r.returncode == 2 and "--deal" in r.stderr and "Traceback" not in r.stderr
    for key, value in (("deals", 2 ** 63 - 1), ("seed", 2 ** 64)):
        spec = tmp_path / f"{key}.toml"
        text = 'name = "x"\nseed = 1\ndeals = 10\nseats = ["random"]\n[[variants]]\npreset = "brisca-2"\n'
        spec.write_text(text.replace(f"{key} = {1 if key == 'seed' else 10}",
                                     f"{key} = {value}"))
        one_line_error(briscasim("validate", spec), f"{spec}: {key} = {value}")
    spec = tmp_path / "target.toml"
    spec.write_text('name = "x"\nseed = 1\nseats = ["random"]\n[target]\nci_half_width = 0.01\n'
                    f'max_deals = {10 ** 30}\n[[variants]]\npreset = "brisca-2"\n')
    one_line_error(briscasim("validate", spec), "target.max_deals", "limit")


def test_the_python_api_has_the_same_limits():
    from briscasim.simulate import simulate
    rules = Rules.preset("brisca-2")
    with pytest.raises(UserError, match="deals = 100000000000000000000000 is more than"):
        simulate(rules, "random", deals=10 ** 23, seed=1)
    with pytest.raises(RulesError, match="at most"):
        Rules.preset("brisca-2", match="points 1000000000")
    with pytest.raises(RulesError, match="max_deals"):
        Rules.preset("brisca-2", max_deals=10 ** 24)


def test_a_huge_grid_is_refused_up_front_and_a_large_one_expands_fast(tmp_path):
    import time
    spec = tmp_path / "grid.toml"
    head = 'name = "g"\nseed = 1\ndeals = 10\nseats = ["random:swap_prob=0.5"]\n' \
           '[[variants]]\npreset = "brisca-2"\n[grid]\n'
    values = ", ".join(str(i / 1000) for i in range(1000))
    spec.write_text(head + f'"seats.0.swap_prob" = [{values}]\n"rules.max_deals" = '
                    f'[{", ".join(str(i) for i in range(1, 1001))}]\n')
    t = time.perf_counter()
    with pytest.raises(UserError, match=f"1,000,000 cells, more than the limit of {MAX_CELLS:,}"):
        load_spec(spec)
    assert time.perf_counter() - t < 5
    spec.write_text(head + f'"seats.0.swap_prob" = [{values}]\n"rules.max_deals" = [1, 2, 3]\n')
    t = time.perf_counter()
    assert len(load_spec(spec).cells) == 3000
    assert time.perf_counter() - t < 60


def test_bad_replay_files(tmp_path, briscasim):
    typo = tmp_path / "deal.toml"
    typo.write_text('preset = "brisca-2"\ndeck = "Ao"\nactoins = ["Ao"]\n')
    one_line_error(briscasim("replay", "--file", typo), f"{typo}: unknown key 'actoins' (did "
                   "you mean 'actions'?)", "valid keys: actions,")
    binary = tmp_path / "deal.json"
    binary.write_bytes(bytes(range(256)) * 4)
    one_line_error(briscasim("replay", "--file", binary), f"{binary}: not a text file")


@pytest.mark.parametrize("argv, words", [
    (["--preset", "brisca2"], ["unknown preset 'brisca2' (did you mean 'brisca-2'?)"]),
    (["--rule", "swap_timng=after_draw"], ["(did you mean 'swap_timing'?)"]),
    (["--strategy", "gredy"], ["unknown strategy 'gredy' (did you mean 'greedy'?)"]),
    (["--strategy", "ismcts:iteration=5"], ["unknown parameter 'iteration' (did you mean "
                                            "'iterations'?)"]),
    (["--strategy", "greedy+hld"], ["unknown swap policy 'hld' (did you mean 'hold'?)"]),
    (["--strategy", "nosuch"], ["unknown strategy 'nosuch'; valid strategies"]),
    # the start of names, or a part of one, names those it starts or is a part of
    (["--preset", "brisca-3"], ["(did you mean 'brisca-3-remove2', 'brisca-3-faceup' or "
                                "'brisca-3-hidden'?)"]),
    (["--preset", "scoperta"], ["(did you mean 'briscola-2-scoperta'?)"]),
])
def test_a_typo_gets_the_closest_name(argv, words, briscasim):
    one_line_error(briscasim("simulate", "--deals", 10, *argv), *words)


def test_a_typo_in_a_spec_gets_the_closest_name(tmp_path, briscasim):
    spec = tmp_path / "s.toml"
    spec.write_text('name = "s"\nseed = 1\ndeals = 10\nlineup = ["random"]\ndeels = 5\n'
                    '[[variants]]\npreset = "briscola2"\nrules = { hand_sise = 4 }\n')
    one_line_error(briscasim("validate", spec), "deels", "(did you mean 'deals'?)")
    spec.write_text(spec.read_text().replace("deels = 5\n", ""))
    one_line_error(briscasim("validate", spec), "preset", "(did you mean 'briscola-2'?)")
    spec.write_text(spec.read_text().replace("briscola2", "briscola-2"))
    one_line_error(briscasim("validate", spec), "hand_sise", "(did you mean 'hand_size'?)")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_parameters_must_be_finite(value, briscasim):
    one_line_error(briscasim("simulate", "--deals", 10, "--strategy",
                             f"random:swap_prob={value}"),
                   f"swap_prob='{value}' is not a finite number")


def test_completion_of_presets_and_strategies():
    def complete(args, incomplete):
        sc = ShellComplete(cli, {}, "briscasim", "_BRISCASIM_COMPLETE")
        return [c.value for c in sc.get_completions(args, incomplete)]

    assert complete(["simulate", "--preset"], "brisca-4") == [
        p for p in PRESETS if p.startswith("brisca-4")]
    assert "greedy" in complete(["simulate", "--strategy"], "gr")
    assert complete(["replay", "--strategy"], "greedy+ho") == ["greedy+hold"]
    assert "swap_timing=" in complete(["simulate", "--rule"], "swap_t")


def test_no_progress_bar_in_a_pipe(tmp_path, briscasim):
    spec = tmp_path / "s.toml"
    spec.write_text('name = "p"\nseed = 1\ndeals = 2000\nchunk = 500\nseats = ["random"]\n'
                    '[[variants]]\npreset = "brisca-2"\n')
    r = briscasim("run", spec, "-o", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    assert "deals/s" in r.stderr and "|" not in r.stderr and "\r" not in r.stderr


def test_a_compile_prints_one_notice(capfd, monkeypatch):
    """Any compile announces itself on stderr before it starts, once for compiles that
    follow each other closely."""
    import numba
    from numba.core import types

    from briscasim import jit

    @numba.njit
    def fresh(x):
        return x + 1

    @numba.njit
    def twice(x):
        return fresh(x) * 2

    @numba.njit
    def thrice(x):
        return x * 3

    monkeypatch.setattr(jit, "NOTICE_GAP", 0.0)        # whatever compiled before
    before = jit.compile_seconds()
    jit.compiled(fresh, (types.int64,))
    assert fresh(1) == 2 and jit.compile_seconds() > before
    monkeypatch.setattr(jit, "NOTICE_GAP", 60.0)
    assert twice(1) == 4                                # numba's own lazy compile
    assert capfd.readouterr().err.count(jit.NOTICE) == 1
    monkeypatch.setattr(jit, "NOTICE_GAP", 0.0)
    assert thrice(2) == 6
    with jit.quiet_notices():
        assert thrice(2.5) == 7.5
    assert capfd.readouterr().err.count(jit.NOTICE) == 1


def _help_examples():
    from click.testing import CliRunner
    runner = CliRunner()
    for command in sorted(COMMANDS):
        yield from runnable_command_lines(
            runner.invoke(cli, [command, "-h"], prog_name="briscasim").output)


@pytest.mark.parametrize("argv", list(_help_examples()), ids=" ".join)
def test_the_examples_of_the_help_run(argv, briscasim):
    if "--deals" in argv:                   # the same command line, a smaller batch
        argv[argv.index("--deals") + 1] = "1000"
    r = briscasim(*argv)
    assert r.returncode == 0, r.stderr

"""The command line in this process, as the console script runs it, without starting an
interpreter for each call (test_cli_replay checks the console script itself)."""
from briscasim.cli.main import main


def run(capsys, *args):
    """``briscasim ARGS`` here: ``(exit status, stdout, stderr)``."""
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err

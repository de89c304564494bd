"""``python -m briscasim``: the command line, as the ``briscasim`` command."""
from .cli.main import main

main()

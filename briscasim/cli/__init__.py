"""The ``briscasim`` command line."""

HELP_OPTIONS = dict(help_option_names=["-h", "--help"])
"""Context settings of the group and of every command: ``-h`` is help however a command is
invoked (click keeps a command's help option once made, so the group's setting alone did not
reach a command first invoked on its own)."""

"""The ``briscasim`` command line."""

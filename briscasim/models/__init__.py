"""The shipped models of the ``learned`` player, one per preset (``SHA256SUMS`` lists
them with their checksums); see :mod:`briscasim.strategies.learned`."""

"""The project's games' parts of the RL environment: one module per game package, each holding its
:class:`~hive.rl.encoding.Encoding` class as ``ENCODING``, which the package's plug-in names (found by
:func:`~hive.rl.encoding.encoding_for`).
"""

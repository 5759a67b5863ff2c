"""Each kind of game's part of the RL environment: one module per ``kind`` of :class:`~hive.game.GameSpec`, each
holding its :class:`~hive.rl.encoding.Encoding` class as ``ENCODING`` (found by :func:`~hive.rl.encoding.encoding_for`).
"""

"""What a game package builds its parts of the apps on: the browser view's protocol and the RL encoding's.

A game plug-in (:class:`~hive.plugin.GamePlugin`) brings its own view of the browser game and its own RL encoding,
in its own package (``games/<kind>/view.py`` and ``encoding.py`` for the project's games); they are written against
these modules alone, never against an app, and the apps load them through the plug-in:

- :mod:`hive.sdk.view`: the :class:`~hive.sdk.view.View` protocol and its optional capabilities, the JSON a view
  reads and writes, and reading a move request;
- :mod:`hive.sdk.refusals`: the error a view raises for a request it refuses, and how it quotes the request;
- :mod:`hive.sdk.encoding`: the :class:`~hive.sdk.encoding.Encoding` protocol of the RL environment (needs NumPy);
- :mod:`hive.sdk.raster`: pictures as RGB arrays drawn with NumPy alone, for an encoding's ``rgb``.

This package imports none of them: ``import hive.sdk`` loads nothing (NumPy is the ``rl`` extra's).
"""

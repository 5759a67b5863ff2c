"""The events of a game's changes (:mod:`~hive.web.game.events`); the games themselves are :mod:`hive.web.play`'s, their
lines and reviews :mod:`hive.web.analysis`'s."""

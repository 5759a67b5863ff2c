"""Changes carried between the server processes (:mod:`~hive.web.realtime.bus`) and the lobby's sockets
(:mod:`~hive.web.realtime.lobby`); a game's own sockets and their fan-out are :mod:`hive.web.play`'s."""

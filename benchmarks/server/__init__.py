"""Load on the browser game's server: two-browser blitz games played over the JSON API and WebSockets, with
spectators, then every acknowledged move looked for in the stored games.

Run: ``python -m benchmarks.server`` from the project root, with the package installed (or ``src`` on
``PYTHONPATH``: the servers started inherit it). By default 200 online Base+MLP blitz games (400 players) and 50
spectators for 120 s against ``--mode a``:

- ``a``: one ``hive play`` process on a fresh SQLite file;
- ``b``: two ``hive serve`` processes sharing the PostgreSQL database ``--database URL`` (its schema made first by
  ``hive db upgrade``); the two players of a game are on different processes, the spectators on both;
- ``c``: as ``b``, the second process killed with SIGKILL at ``--kill-at`` seconds (by default half the run): its
  clients go over to the other process as a load balancer would send them there;
- ``p``: one ``hive serve`` process on ``--database URL``, as ``b`` with one process: what PostgreSQL costs a move,
  apart from what a second process adds;
- ``relay``: ``c``'s failover against one ``hive play`` process: the second address is a TCP relay to the first
  process, and the relay is what is killed (both addresses reach the same games, as ``hive serve``'s two processes
  would).

Each player and spectator is a browser: its own HTTP client (connections kept alive) and its own socket on the game.
Play starts everywhere at once when every game is created and every socket open. On its turn a player thinks
``--think`` seconds (uniform, 0.2-1.0 by default), then POSTs a random legal move with the ply it has seen. A
finished game is replaced by a new one; a spectator moves on to its table's next game. On a closed socket or a
failed request a client switches to the other address (when there is one), GETs the game and carries on; a move
whose POST failed is looked for in that state before it is sent again.

Figures: acknowledged moves per second over the run (set-up apart), the time from a move's POST being sent to each
watcher of the game (the opponent and the spectators) receiving a state holding it (from the send, because the server
publishes the state before it answers the POST: the watchers often have it before the mover has the answer, and it is
what a player sees, click to the other board), p50 and p99; the POST's round trip; the errors (a status other than 200,
but for a 409 after a failover; a socket closed or a request failed but on the killed process; a state not delivered
within ``--stall`` seconds; a game lost on time) and the lost moves (an acknowledged move not in the record at its ply,
on any live process); sockets, reconnects, retries; the CPU of this process, of each server process (and its children)
and of the whole machine, in % of one core. The run fails (exit status 1) unless both errors and lost moves are 0. A
table, then one JSON line of every figure and parameter.
"""

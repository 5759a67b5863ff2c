"""The server's tests of a game in play: moves, clocks, flags, offers, presence, the page's state and sockets, a
player's own list."""

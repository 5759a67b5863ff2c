"""The server's tests of seeks, challenges, rematch offers and the lobby's socket."""

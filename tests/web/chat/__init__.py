"""The server's tests of the games' and tournaments' chat rooms, blocks and reports."""

"""The server's tests of the AI's shared queue and its tables."""

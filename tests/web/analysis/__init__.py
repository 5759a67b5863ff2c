"""The server's tests of the analysis board's lines and engine reviews."""

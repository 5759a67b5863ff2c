"""The server's tests of accounts, sessions, tokens, the sign-in throttle, names, profiles."""

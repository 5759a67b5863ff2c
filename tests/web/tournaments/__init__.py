"""The server's tests of club tournaments and their invitations."""

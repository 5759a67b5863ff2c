"""Fixtures shared by the tests: the real PostgreSQL and Redis servers of tests/servers.py."""

pytest_plugins = ["tests.servers"]

"""The server's tests of the bot API and hive bot."""

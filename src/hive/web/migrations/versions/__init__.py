"""The migrations, one file a revision, oldest first."""

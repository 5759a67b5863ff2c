"""Where the games are kept: the database, one repository per kind of record."""

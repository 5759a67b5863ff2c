"""The server's tests of the front door and what cuts across the domains: the guard, limits, authorization, hostile
input, the database, several processes, the architecture's contracts."""

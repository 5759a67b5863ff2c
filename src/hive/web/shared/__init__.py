"""What every domain of the server stands on: the database and its time source, the bus between processes, quotas
counted in the database, the refusals, the rules for a request's values, the server's settings and the records as
plain data. Nothing here imports a domain."""

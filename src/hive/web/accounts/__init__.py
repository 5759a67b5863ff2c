"""Players' accounts on a club's server (``hive serve``): names, passwords, sessions, and what an admin may do.
``hive play`` keeps none: one machine's player needs no account, and guests play on any server."""

from .names import check_name, name_key
from .passwords import Passwords, check_password
from .service import Accounts, Signed, SignedIn

__all__ = ["Accounts", "Passwords", "Signed", "SignedIn", "check_name", "check_password", "name_key"]

"""Players' accounts on a club's server (``hive serve``): names, passwords, sessions, API tokens and their scopes,
who is asking, profiles, who is online, and what an admin may do. ``hive play`` keeps none: one machine's player
needs no account, and guests play on any server.

What other domains may use: the accounts' service, who is asking (:class:`Identity`), the account a request acts as
(:class:`Signed`), and, inside another domain's transaction, :func:`lock_account` and the ``accounts`` table its
queries join to for names (never written there)."""

from .identity import COOKIE, Identity, Page
from .names import check_name, name_key
from .passwords import Passwords, check_password
from .repository import StoredAccount, lock_account
from .service import Accounts, Signed, SignedIn
from .tables import accounts

__all__ = [
    "COOKIE",
    "Accounts",
    "Identity",
    "Page",
    "Passwords",
    "Signed",
    "SignedIn",
    "StoredAccount",
    "accounts",
    "check_name",
    "check_password",
    "lock_account",
    "name_key",
]

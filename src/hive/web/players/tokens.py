"""An account's API tokens, by its owner: made (the token shown once: only its SHA-256 is kept), listed without
their secrets, revoked one by one. Only a signed-in session does this (the routes ask for the ``account`` scope, which
no token has), so a token never lists, makes or revokes tokens."""

from __future__ import annotations

import re
import secrets

from ..shared.errors import BadRequest, Conflict, NotFound, shown
from ..shared.i18n import _, _n
from ..shared.values import check_text
from .service import SCOPES, Signed, token_hash
from .token_repository import StoredToken, TokenRepository, token_id

#: The most API tokens an account holds at once (counted in the database under the account's lock).
MAX_TOKENS = 10
#: The longest label a token may have.
LABEL = 40
_ID = re.compile(r"[0-9a-f]{16}")


class Tokens:
    """The accounts' API tokens.

    :param repository: where they are kept.
    """

    def __init__(self, repository: TokenRepository) -> None:
        self.repository = repository

    async def make(self, signed: Signed, scope: object = "bot", label: object = "") -> tuple[str, StoredToken]:
        """A new API token of ``scope`` for the account, labelled ``label``: the token (returned once) and what its
        list shows of it.

        :raises BadRequest: for a scope that is none of :data:`~hive.web.players.service.SCOPES`, or a bad label.
        :raises Conflict: when the account holds :data:`MAX_TOKENS` already.
        """
        if not isinstance(scope, str) or scope not in SCOPES:
            scopes = ", ".join(map(repr, SCOPES))
            raise BadRequest(_("'scope' is one of {scopes}, not {value}.", scopes=scopes, value=shown(scope)))
        text = check_text(label, "'label'", LABEL, empty=True).strip()
        token = "hive_" + secrets.token_urlsafe(32)
        if not await self.repository.add_token(signed.account.id, token_hash(token), scope, text, MAX_TOKENS):
            raise Conflict(
                _n(
                    "An account holds at most {count} API token: revoke it first.",
                    "An account holds at most {count} API tokens: revoke one first.",
                    MAX_TOKENS,
                )
            )
        made = next(t for t in await self.repository.tokens(signed.account.id) if t.id == _public(token))
        return token, made

    async def listed(self, signed: Signed) -> list[StoredToken]:
        """The account's API tokens, newest first, without their secrets."""
        return await self.repository.tokens(signed.account.id)

    async def revoke(self, signed: Signed, public_id: str) -> None:
        """Revoke the account's token ``public_id`` (its listed ``id``).

        :raises NotFound: when the account has no such token (another account's is none of its).
        """
        if not _ID.fullmatch(public_id) or not await self.repository.revoke_token(signed.account.id, public_id):
            raise NotFound(_("You have no API token with this id."))


def _public(token: str) -> str:
    return token_id(token_hash(token))


__all__ = ["LABEL", "MAX_TOKENS", "Tokens"]

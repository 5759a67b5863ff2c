"""Look-alike names: a name's key folds to a fixed point, so that no order of the folds lets a look-alike through;
the upgrade folds the keys stored before."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from hive.web import migrations
from hive.web.players.names import check_name, name_key
from hive.web.shared.errors import BadRequest

#: Pairs of names that must clash: each is one name to a reader.
CLASHES = [
    ("clintskzqf", "cIintskzqf"),  # the issue's: cl→d must not be decided before I→l
    ("clintskzqf", "c1intskzqf"),
    ("clintskzqf", "dintskzqf"),
    ("cIintskzqf", "c1intskzqf"),
    ("modern", "rnodern"),
    ("modern", "modem"),  # rn at the end is m
    ("wolf", "vvolf"),
    ("wolf", "VVolf"),
    ("marlo", "rnarIo"),
    ("marlo", "rnar10"),
    ("dave", "clave"),
    ("dave", "cIave"),
    ("dave", "CLAVE"),
    ("dave", "c1ave"),
    ("dove", "cl0ve"),
    ("dove", "cIOve"),
    ("mr_vvest", "rnr-west"),
    ("bob_x", "B0B-X"),
    ("rnrn", "mm"),
    ("vvvv", "ww"),
    ("cicl", "dd"),
]

#: Pairs that stay apart.
APART = [("clint", "clink"), ("rain", "ram"), ("vivid", "wid"), ("mono", "nono"), ("abc", "abd")]


@pytest.mark.parametrize(("one", "other"), CLASHES)
def test_look_alikes_have_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other), (one, other, name_key(one), name_key(other))


@pytest.mark.parametrize(("one", "other"), APART)
def test_different_names_keep_their_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


LOOKS = st.text(alphabet="cClLiI1o0OrnmvVwWdD-_ab", max_size=24)


@given(LOOKS)
def test_the_key_is_a_fixed_point_of_the_look_alikes(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key


@given(st.text(max_size=24))
def test_the_key_is_a_fixed_point_of_any_text(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key


def test_reserved_names_are_refused_in_every_look() -> None:
    for name in ("Admin", "adm1n", "ADMlN", "rnoderator", "r00t", "B0T"):
        with pytest.raises(BadRequest, match="is reserved"):
            check_name(name)


def test_the_upgrade_folds_the_stored_keys_and_the_first_keeps_a_name(tmp_path: Path) -> None:
    """Accounts made under the old keys (``clint`` and ``cIint`` both let in): the upgrade gives each its new key;
    of two that now clash, the first to sign up keeps the name."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        with engine.begin() as connection:
            migrations.upgrade(connection, "0005")
            for i, (name, old_key) in enumerate([("clint", "dlnt"), ("cIint", "cllnt"), ("Vvan", "wan")]):
                connection.execute(
                    sa.text(
                        "INSERT INTO accounts (id, name, key, password, created, admin, banned, bot)"
                        " VALUES (:id, :name, :key, 'x', :created, false, false, false)"
                    ),
                    {"id": f"a{i}", "name": name, "key": old_key, "created": 1000.0 + i},
                )
        with engine.begin() as connection:
            migrations.upgrade(connection)
            rows = connection.execute(sa.text("SELECT name, key FROM accounts")).all()
            keys: dict[str, str] = {str(name): str(key) for name, key in rows}
    finally:
        engine.dispose()
    assert keys == {"clint": name_key("clint"), "cIint": name_key("cIint") + "#a1", "Vvan": name_key("Vvan")}
    assert name_key("clint") == "dlnt" and name_key("Vvan") == "wan"

"""A tournament as its page shows it: its settings, its players, every round's games with their results, and the
standings with their tie-breaks."""

from __future__ import annotations

from ...sdk.view import JSON
from ...tournament import Tournament
from ..views import view_for
from .repository import StoredTournament


def shown_tournament(
    stored: StoredTournament, tournament: Tournament, invited: list[str], names: dict[str, str]
) -> JSON:
    """The tournament as its page shows it: settings, the players ``invited`` (an invite-only one's, its organiser
    left out) and those playing, every round's games with their results, and the standings with their tie-breaks
    (``names``: each account's name, by id)."""
    rounds = []
    for number, games in enumerate(tournament.paired, start=1):
        rounds.append([
            {
                "board": board,
                "first": names[game.first],
                "second": names[game.second] if game.second is not None else None,
                "result": game.result,
                "forfeit": game.forfeit,
                "game_id": stored.games.get((number, board)),
            }
            for board, game in enumerate(games, start=1)
        ])  # fmt: skip
    standings = [
        {
            "rank": line.rank, "player": names[line.player], "points": line.points, "games": line.games,
            "wins": line.wins, "draws": line.draws, "losses": line.losses, "tiebreaks": line.tiebreaks,
        }
        for line in tournament.standings()
    ]  # fmt: skip
    return {
        "id": stored.id,
        "name": stored.name,
        "organiser": names[stored.organiser],
        "status": stored.status,
        "format": tournament.format,
        "rounds": tournament.total_rounds,
        "game": view_for(stored.kind).new_board(stored.options).game_name,
        "kind": stored.kind,
        "options": stored.options,
        "time_control": stored.time_control,
        "rated": stored.rated,
        "bots": stored.bots,
        "invite_only": stored.invited is not None,
        "invited": [names[p] for p in invited],
        "bye_points": tournament.bye_points,
        "forfeit_after": None if stored.forfeit_after is None else stored.forfeit_after / 60,
        "starts": stored.starts,
        "players": [names[p] for p in tournament.active],
        "withdrawn": [names[p] for p in tournament.withdrawn],
        "paired": rounds,
        "standings": standings,
        "tiebreaks": list(tournament.tiebreaks),
    }


__all__ = ["shown_tournament"]

"""The HiveQueen AI: the project's alpha-beta search with an evaluation and move ordering of its own.

The search runs over steps (movement, productions, ``END``); a step that leaves the same side to move is searched
at the same depth, so a level's depth counts whole turns. To keep a turn's production tree small, the search
considers at most :data:`PRODUCTION_CELLS` cells per producible kind, chosen by a cheap cell score.
"""

from __future__ import annotations

import random

from ..ai.search import Limits, Searcher, SearchPosition
from ..core.position import IN_PROGRESS
from .board import Board, Turn
from .geometry import CELLS, DISTANCE, NEIGHBOURS, RAYS
from .position import END, PRODUCE, PRODUCTION, PROMOTE, Position
from .rules import DRONE, HIGHBORN, NURSE, QUEEN, SOLDIER, UNITS_PER_WORKER, WORKER

__all__ = ["LEVELS", "QueenSearcher", "RandomPlayer", "SearchPlayer", "best_turn"]

#: Material values by kind (the Queen's worth is in the game's end, not here).
VALUE = (0, 0, 320, 110, 120, 110, 100)
#: A side without a Queen (it must promote at once or lose).
NO_QUEEN = 3000
#: Capturing the enemy Queen when the enemy could not promote after it.
QUEEN_CAPTURE = 5000
#: Capturing the enemy Queen when the enemy could promote a Highborn.
QUEEN_CAPTURE_PROMOTABLE = 700
#: Share (in tenths) of the best capture the side to move can make now, and of the opponent's best threat.
OWN_THREAT = 7
ENEMY_THREAT = 3
#: Value per unit of spare capacity (up to 5) and per Highborn that could promote.
SPARE = 10
PROMOTABLE = 60
#: Cells per producible kind the search considers in each production step.
PRODUCTION_CELLS = 2
#: HiveQueen's named levels (the game's own: its turns branch far more than Hive's plies). Depth counts whole
#: turns; a time cap ends the deepening, keeping the deepest completed depth. On positions from real games a
#: 1-turn search takes a few hundredths of a second, 2 turns about 0.1 s (0.5 s at most) and 3 turns a median
#: of about 5 s (over 20 s on a tenth of them), so ``hard`` and ``max`` reach the third turn where it fits their cap.
LEVELS: dict[str, Limits] = {
    "easy": Limits(depth=1),
    "medium": Limits(depth=2),
    "hard": Limits(depth=3, time=2.0),
    "max": Limits(depth=4, time=8.0),
}


def _best_capture(p: Position, colour: int) -> int:
    """The value of the best capture ``colour`` could make if it were to move now."""
    board = p.board
    best = 0
    enemy = 1 - colour
    promotable = p.count[DRONE | enemy << 3] > 0 and p.count[HIGHBORN | enemy << 3] > 0
    for cell in range(CELLS):
        code = board[cell]
        if not code or code >> 3 != colour:
            continue
        kind = code & 7
        if kind == HIGHBORN:
            for d in range(6):
                for n in RAYS[cell * 6 + d]:
                    v = board[n]
                    if v:
                        if v >> 3 == enemy:
                            best = max(best, _victim(v & 7, promotable))
                        break
        elif kind == SOLDIER:
            for d in range(6):
                for n in RAYS[cell * 6 + d]:
                    v = board[n]
                    if v == 0:
                        break
                    if v >> 3 == enemy:
                        best = max(best, _victim(v & 7, promotable))
                        break
    return best


def _victim(kind: int, promotable: bool) -> int:
    if kind == QUEEN:
        return QUEEN_CAPTURE_PROMOTABLE if promotable else QUEEN_CAPTURE
    return VALUE[kind]


def evaluate(p: Position) -> int:
    """Score ``p`` for the side to move: positive is good for it."""
    if p.phase == PRODUCTION:
        # mid-turn: the opponent moves next, so score the position as if the turn had ended
        return _static(p, 1 - (p.ply & 1), p.ply & 1)
    return _static(p, p.ply & 1, p.ply & 1)


def _static(p: Position, to_move: int, me: int) -> int:
    count = p.count
    score = 0
    for colour in range(2):
        own = colour << 3
        side = 0
        for kind in (HIGHBORN, DRONE, NURSE, WORKER, SOLDIER):
            side += VALUE[kind] * count[kind | own]
        if count[QUEEN | own] == 0:
            side -= NO_QUEEN
            if p.can_promote(colour):
                side += NO_QUEEN // 2
        elif count[DRONE | own]:
            side += PROMOTABLE * min(count[HIGHBORN | own], 1)
        spare = UNITS_PER_WORKER * count[WORKER | own] - p.load(colour)
        side += SPARE * max(0, min(spare, 5))
        score += side if colour == to_move else -side
    score += OWN_THREAT * _best_capture(p, to_move) // 10
    score -= ENEMY_THREAT * _best_capture(p, 1 - to_move) // 10
    return score if to_move == me else -score


class _SearchView(Position):
    """A copy of a position whose production steps are narrowed for the search."""

    def generate(self) -> list[int]:
        moves = super().generate()
        if self.phase != PRODUCTION or len(moves) <= 1 + 4 * PRODUCTION_CELLS:
            return moves
        colour = self.ply & 1
        enemy_queen = -1
        enemy = QUEEN | (1 - colour) << 3
        for cell in range(CELLS):
            if self.board[cell] == enemy:
                enemy_queen = cell
        keyed: list[tuple[int, int]] = []
        for step in moves:
            if step == END:
                continue
            keyed.append((self._cell_score(step, colour, enemy_queen), step))
        keyed.sort(reverse=True)
        taken = [0] * 8
        out = [END]
        for _, step in keyed:
            kind = step >> 6 & 7
            if taken[kind] < PRODUCTION_CELLS:
                taken[kind] += 1
                out.append(step)
        return out

    def _cell_score(self, step: int, colour: int, enemy_queen: int) -> int:
        cell = step & 63
        kind = step >> 6 & 7
        attackers = 0
        friends = 0
        for n in NEIGHBOURS[cell]:
            v = self.board[n]
            if v:
                if v >> 3 == colour:
                    friends += 1
                else:
                    attackers += 1
        if kind == SOLDIER:
            near = 10 - DISTANCE[cell * CELLS + enemy_queen] if enemy_queen >= 0 else 0
            return 4 * attackers + 2 * near + friends
        return 2 * friends - 6 * attackers


def search_view(position: Position) -> Position:
    """A copy of ``position`` (with its repetition counts) for the search to work on."""
    view = _SearchView(setup=False)
    position.copy_state_to(view)
    return view


class QueenSearcher(Searcher):
    """The alpha-beta searcher with HiveQueen's evaluation and move ordering."""

    def evaluate(self, p: SearchPosition) -> int:
        assert isinstance(p, Position)
        return evaluate(p)

    def order(self, p: SearchPosition, moves: list[int], tt_move: int, ply: int) -> None:
        assert isinstance(p, Position)
        board = p.board
        colour = p.ply & 1
        killer = self.killers[ply]
        history = self.history
        keys: dict[int, int] = {}
        for move in moves:
            k = history.get(move, 0)
            if move == tt_move:
                k += 1 << 30
            elif move == killer:
                k += 1 << 20
            if move < PRODUCE:
                target = board[move >> 6 & 63]
                if target and target >> 3 != colour:
                    kind = target & 7
                    k += (1 << 24) + (1 << 16 if kind == QUEEN else VALUE[kind] << 4)
                if move & PROMOTE:
                    k += 1 << 25
            elif move == END:
                k -= 1
            else:
                k += 1 << 10
            keys[move] = k
        moves.sort(key=keys.__getitem__, reverse=True)

    def best_turn(self, board: Position, limits: Limits) -> Turn:
        """The best whole turn found within ``limits``: the searched movement, then the productions the
        search preferred after it (searched again where the table has no answer).

        :raises ValueError: when the game is over.
        """
        view = search_view(board)
        if view.status != IN_PROGRESS:
            raise ValueError("The game is over: there is no turn to search.")
        result = self.search(view, limits)
        steps = [result.move]
        ply = view.ply
        view.make(result.move)
        while view.ply == ply and view.status == IN_PROGRESS:
            legal = view.generate()
            step = self.known_move(view.hash)
            if step not in legal:
                step = -1
            if step < 0:
                step = self.search(view, Limits(depth=1)).move
            view.make(step)
            if step != END:
                steps.append(step)
        return Turn.from_steps(steps)


def best_turn(board: Board, level: str = "medium", seed: int | None = None) -> Turn:
    """The AI's turn for ``board`` at a named level (``easy``, ``medium``, ``hard``, ``max``).

    :raises ValueError: for an unknown level or a finished game.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    return QueenSearcher(seed).best_turn(board, LEVELS[level])


class SearchPlayer:
    """The HiveQueen AI with fixed limits, for ``hive match``."""

    def __init__(self, limits: Limits, name: str = "ai", seed: int | None = None) -> None:
        self.name = name
        self.limits = limits
        self.searcher = QueenSearcher(seed)

    def choose(self, board: Board) -> Turn:
        return self.searcher.best_turn(board, self.limits)


class RandomPlayer:
    """A random movement, then random production steps (each legal step, ending included, equally likely)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, board: Board) -> Turn:
        """A legal turn of ``board``.

        :raises ValueError: when the game is over.
        """
        moves = board.generate()
        if not moves or board.phase == PRODUCTION:
            raise ValueError("The game is over: there is no turn to choose.")
        steps = [self.rng.choice(moves)]
        made = 1
        ply = board.ply
        board.make(steps[0])
        while board.ply == ply and board.status == IN_PROGRESS:
            step = self.rng.choice(board.generate())
            board.make(step)
            made += 1
            if step != END:
                steps.append(step)
        for _ in range(made):
            board.unmake()
        return Turn.from_steps(steps)

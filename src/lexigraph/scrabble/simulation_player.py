"""The simulation player's games: self-play with a player that simulates before it chooses, played turn by turn.

The engine's game loop (``native/game_loop.c``) plays the equity and score
players alone; a simulation player chooses each move with
:func:`lexigraph.scrabble.simulation.choose_move` (the engine's play-outs
around Python), so its games are played here, turn by turn, and recorded as
the game loop records them (:func:`lexigraph.engine.interface.turn_record_dtype`,
:func:`~lexigraph.engine.interface.game_record_dtype`).

The rules are self-play's (mirrored pairs: games ``2k`` and ``2k + 1``
shuffle the same bag, A first in the even one; the ends); the bag of pair
``k`` is shuffled by NumPy's PCG64 seeded with ``(seed, k)``, so a game
depends only on ``(seed, i)``. The equity player plays the best move by
equity (:func:`lexigraph.scrabble.movegen.generate`, exchanges included),
the score player its best-scoring play (its whole rack back when it has
none); the simulation player simulates with the seed ``(seed, i, turn)``
folded into 64 bits.

A simulation player with ``endgame`` (:class:`~lexigraph.scrabble.players.SimulationSettings`) searches the last
turns instead of simulating them (:func:`end_of_game_move`): once the bag is empty it plays the exact endgame
solver's best move (:func:`lexigraph.scrabble.endgame.solve_endgame`) when the search finishes within its budget,
and with
``pre_endgame``, one or two tiles in the bag, the pre-endgame solver's best play
(:func:`lexigraph.scrabble.peg.solve_peg`) when it judged every draw within the budget; otherwise it simulates.

Each choice's CPU time can be logged (:func:`log_turn_cpu`): a benchmark's way to say what a player costs a
turn, the choices being made in workers forked from the process that asks.

A run with a simulation player hands its workers a :class:`TurnByTurn` job:
a key to its game and players in this process (a Game's alphabet does not
pickle), which workers forked from it find.
"""

from __future__ import annotations

import os
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.interface import (
    BLANK_FLAG, GAME_RECORD_SIZE, TURN_EXCHANGE, TURN_PASS, TURN_PLAY, TURN_RECORD_SIZE, game_record_dtype, leave_key,
    turn_record_dtype,
)
from .endgame import solve_endgame
from .game import Game, GameError
from .leaves import LeaveTable
from .movegen import generate
from .moves import Move
from .peg import EXACT_BAG, solve_peg
from .players import Player, SimulationSettings
from .position import Position
from .simulation import choose_move
from .tiles import parse_rack, rack_text

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines

__all__ = ["ENDGAME_TABLE_MB", "TurnByTurn", "end_of_game_move", "log_turn_cpu", "play_simulated_games",
           "read_turn_cpu"]

#: Turns without a play that end a game.
ZERO_TURNS_TO_END = 6
#: The endgame solver's transposition table for a player's turn, in megabytes: a short search fills little of it,
#: and a larger one costs its clearing every turn.
ENDGAME_TABLE_MB = 4

#: Where each choice's CPU time goes (None: not logged): see :func:`log_turn_cpu`.
_CPU_LOG: str | None = None


def play_simulated_games(engines: "Engines", game: Game, players: Sequence[Player], seed: int, first: int,
                         count: int) -> "tuple[np.ndarray, np.ndarray]":
    """Games ``first .. first + count - 1`` of the run ``seed`` between ``players`` (A, B), one of them (or
    both) a simulation player, played turn by turn (see the module docstring): the game loop's records."""
    import numpy as np  # deferred: start-up

    turns: list[bytes] = []
    games: list[bytes] = []
    for index in range(first, first + count):
        t, g = _Game(engines, game, players, seed, index).play()
        turns.append(t)
        games.append(g)
    return (np.frombuffer(b"".join(turns), turn_record_dtype()),
            np.frombuffer(b"".join(games), game_record_dtype()))


#: The games and players of the runs with a simulation player under way, by key: a worker forked from this
#: process finds them here.
_RUNS: dict[int, tuple[Game, tuple[Player, Player]]] = {}


@dataclass(frozen=True)
class TurnByTurn:
    """A run with a simulation player, as its batches name it: a key to its game and players in this process
    (and in the workers forked from it), and its seed. Made by :meth:`register`, dropped by :meth:`release`."""

    key: int
    seed: int

    @classmethod
    def register(cls, game: Game, players: tuple[Player, Player], seed: int) -> "TurnByTurn":
        """The run's job, its game and players kept here until :meth:`release`."""
        job = cls(id(players), seed)
        _RUNS[job.key] = (game, players)
        return job

    def release(self) -> None:
        _RUNS.pop(self.key, None)

    def __call__(self, engines: "Engines", first: int, count: int) -> "tuple[np.ndarray, np.ndarray]":
        """Games ``first .. first + count - 1`` of the run on ``engines``."""
        found = _RUNS.get(self.key)
        if found is None:
            raise GameError("a simulation player's games run in this process or in workers forked from it")
        game, players = found
        return play_simulated_games(engines, game, players, self.seed, first, count)


def _turn_seed(seed: int, index: int, turn: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + turn * 0x94D049BB133111EB) % (1 << 64)


def log_turn_cpu(prefix: str | None) -> None:
    """Log each choice of the games played from now on in this process and in the workers forked from it after
    this call: a line ``PLAYER<TAB>BAG<TAB>CPU_SECONDS`` (the bag's tiles before the turn, the choosing process's
    CPU time) appended to ``PREFIX.PID`` (one file per process). None stops the logging. Read the lines back with
    :func:`read_turn_cpu`."""
    global _CPU_LOG
    _CPU_LOG = prefix


def read_turn_cpu(prefix: str) -> list[tuple[str, int, float]]:
    """The choices logged under ``prefix`` (:func:`log_turn_cpu`) by every process: (player, bag, CPU seconds)."""
    folder, stem = os.path.split(os.path.abspath(prefix))
    out: list[tuple[str, int, float]] = []
    for name in sorted(os.listdir(folder)):
        if name.startswith(stem + ".") and name[len(stem) + 1:].isdigit():
            with open(os.path.join(folder, name), encoding="utf-8") as lines:
                for line in lines:
                    who, bag, seconds = line.rstrip("\n").split("\t")
                    out.append((who, int(bag), float(seconds)))
    return out


def _log_choice(player: Player, bag: int, seconds: float) -> None:
    if _CPU_LOG is not None:
        with open(f"{_CPU_LOG}.{os.getpid()}", "a", encoding="utf-8") as log:
            log.write(f"{player.name}\t{bag}\t{seconds:.6f}\n")


def end_of_game_move(engines: "Engines", pos: Position, settings: SimulationSettings, bag: int) -> tuple[bool, Move | None]:
    """The search's choice at the end of the game (see the module docstring), as ``(found, move)``: ``found``
    False when the search does not choose here (the bag holds more, or the budget ran out before the search
    finished), and ``move`` the move (None: pass). ``pos``: the side to move's rack first and the other's
    (with the bag empty, exactly the unseen tiles; with tiles in the bag it is not looked at)."""
    if not settings.endgame:
        return False, None
    if bag == 0:
        # only a finished search: cut short, its best is that of a few plies without leaves, on real endgames (7
        # tiles a side, seconds to solve) no better a guide than the simulation's play-outs
        solution = solve_endgame(engines, pos, time_limit=settings.endgame_seconds, table_megabytes=ENDGAME_TABLE_MB)
        return (solution.complete, solution.best if solution.complete else None)
    if settings.pre_endgame and bag <= EXACT_BAG and bag < pos.game.rack_size:
        hidden = pos.copy()
        hidden.racks = [pos.racks[0], ""]
        peg = solve_peg(engines, hidden, time_limit=settings.endgame_seconds)
        return (peg.exact and bool(peg.plays), peg.best.move if peg.plays else None)
    return False, None


def _choose(engines: "Engines", player: Player, pos: Position, seed: int, bag: int) -> Move | None:
    started = time.process_time()
    move = _choice(engines, player, pos, seed, bag)
    _log_choice(player, bag, time.process_time() - started)
    return move


def _choice(engines: "Engines", player: Player, pos: Position, seed: int, bag: int) -> Move | None:
    game = pos.game
    table = player.leaves if player.leaves is not None else LeaveTable({}, engines.store.alphabet)
    if player.simulating is not None:
        s = player.simulating
        searched, move = end_of_game_move(engines, pos, s, bag)
        if searched:
            return move
        return choose_move(engines, pos, leaves=table, seed=seed, candidates=s.candidates, iterations=s.iterations,
                           plies=s.plies, workers=1, objective=s.objective, time_limit=s.time_limit)
    if player.by_equity:
        found = generate(engines, pos, top=1, exchanges=True, leaves=table, sort="equity", count_all=False)
        return found[0] if len(found) else None
    found = generate(engines, pos, top=1, exchanges=False, sort="score", count_all=False)
    if len(found):
        return found[0]
    if bag >= game.rack_size:  # no play: the whole rack back
        return Move("exchange", 0, "", notation="-" + pos.racks[0], exchanged=pos.racks[0], equity=0.0)
    return None


class _Game:
    """One game, turn by turn: the board, both racks (tile codes), the scores and the bag."""

    def __init__(self, engines: "Engines", game: Game, players: Sequence[Player], seed: int, index: int) -> None:
        import numpy as np  # deferred: start-up

        self.engines, self.game, self.players, self.seed, self.index = engines, game, players, seed, index
        self.rng = np.random.default_rng([seed & 0xFFFFFFFF, seed >> 32, index >> 1])
        tiles = [t for t, n in enumerate(game.counts_by_code()) for _ in range(n)]
        self.bag = [tiles[i] for i in self.rng.permutation(len(tiles))]
        self.board = [0] * (game.size * game.size)
        self.blanks = [False] * (game.size * game.size)
        self.racks: list[list[int]] = [[], []]
        self.scores = [0, 0]
        self.first = index & 1
        self.draw(self.first)
        self.draw(1 - self.first)

    def draw(self, p: int) -> None:
        while len(self.racks[p]) < self.game.rack_size and self.bag:
            self.racks[p].append(self.bag.pop())

    def rack_points(self, codes: list[int]) -> int:
        points = self.game.points_by_code()
        return sum(points[c] for c in codes if c)

    def play(self) -> tuple[bytes, bytes]:
        """The game to its end: its turn records and its game record."""
        p, zeros, ending, turn = self.first, 0, 1, 0
        out = bytearray()
        while zeros < ZERO_TURNS_TO_END:
            rec, zero = self.turn(p, zeros, turn)
            zeros = zeros + 1 if zero else 0
            out += rec
            turn += 1
            if not self.racks[p] and not self.bag:
                ending = 0
                break
            p = 1 - p
        return bytes(out), self.game_record(len(out) // TURN_RECORD_SIZE, ending, p)

    def turn(self, p: int, zeros: int, turn: int) -> tuple[bytearray, bool]:
        """Player ``p``'s turn: its record, and whether it was a zero turn."""
        game = self.game
        rack = sorted(self.racks[p])
        pos = Position(game, list(self.board), list(self.blanks),
                       [rack_text(game, rack), rack_text(game, self.racks[1 - p])],
                       [self.scores[p], self.scores[1 - p]], zeros)
        bag_before = len(self.bag)
        move = _choose(self.engines, self.players[p], pos, _turn_seed(self.seed, self.index, turn), bag_before)
        rec = bytearray(TURN_RECORD_SIZE)
        rec[1] = p
        rec[2] = min(len(rack), 16)
        rec[40:40 + rec[2]] = bytes(rack[:16])
        kept = list(rack)
        if move is not None and move.kind == "play":
            self.make_play(p, move, kept, rec)
        elif move is not None and move.kind == "exchange":
            self.make_exchange(p, move, kept, rec)
        else:
            rec[0] = TURN_PASS
        equity = move.equity if move is not None and move.equity is not None else 0.0
        struct.pack_into("<HH", rec, 8, bag_before, len(self.bag))
        struct.pack_into("<i", rec, 16, self.scores[p])
        struct.pack_into("<d", rec, 24, equity)
        key = leave_key(bytes(sorted(kept))) if 0 < len(kept) <= 10 else 0
        struct.pack_into("<Q", rec, 32, key)
        return rec, move is None or move.kind != "play"

    def make_play(self, p: int, move: Move, kept: list[int], rec: bytearray) -> None:
        """The play's tiles on the board (``kept`` loses them), its main word's squares recorded, the rack
        refilled."""
        size = self.game.size
        rec[0] = TURN_PLAY
        for t in move.tiles:
            code = self.game.alphabet.code(t.tile)
            assert code is not None  # the move was generated in the game's alphabet
            sq = t.row * size + t.col
            self.board[sq], self.blanks[sq] = code, t.blank
            kept.remove(0 if t.blank else code)
        r, c = move.row, move.col
        squares = bytearray()
        placed = {(t.row, t.col): t for t in move.tiles}
        while r < size and c < size and self.board[r * size + c]:
            new = placed.get((r, c))
            squares.append(0 if new is None else self.board[r * size + c] | (BLANK_FLAG if new.blank else 0))
            r, c = (r, c + 1) if move.across else (r + 1, c)
        length = len(squares)
        rec[3:7] = bytes([min(length, 32), move.row, move.col, 1 if move.across else 0])
        rec[56:56 + min(length, 32)] = bytes(squares[:32])
        struct.pack_into("<i", rec, 12, move.score)
        self.scores[p] += move.score
        self.racks[p] = kept
        self.draw(p)

    def make_exchange(self, p: int, move: Move, kept: list[int], rec: bytearray) -> None:
        """The exchanged tiles off the rack (``kept`` loses them), the rack refilled, then each put back into the
        bag at a uniform place."""
        rec[0] = TURN_EXCHANGE
        back = sorted(parse_rack(self.game, move.exchanged))
        for code in back:
            kept.remove(code)
        self.racks[p] = kept
        self.draw(p)
        for code in back:
            self.bag.append(code)
            at = int(self.rng.integers(len(self.bag)))
            self.bag[-1], self.bag[at] = self.bag[at], code
        rec[3] = len(back)
        rec[56:56 + len(back)] = bytes(back)

    def game_record(self, turns: int, ending: int, last: int) -> bytes:
        """The game record: the final scores with the end's rack points, who went out, the racks left."""
        adjust = [0, 0]
        if ending == 0:
            adjust[last] = 2 * self.rack_points(self.racks[1 - last])
        else:
            adjust = [-self.rack_points(self.racks[0]), -self.rack_points(self.racks[1])]
        record = bytearray(GAME_RECORD_SIZE)
        struct.pack_into("<q4iHBBB", record, 0, self.index, self.scores[0] + adjust[0], self.scores[1] + adjust[1],
                         adjust[0], adjust[1], turns, self.first, ending, last if ending == 0 else 0)
        record[32:64] = b"\xff" * 32
        for q in range(2):
            left = sorted(self.racks[q])[:16]
            record[32 + 16 * q:32 + 16 * q + len(left)] = bytes(left)
        return bytes(record)

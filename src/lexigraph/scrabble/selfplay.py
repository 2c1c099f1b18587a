"""Self-play: two players play whole games from a seeded bag, the game loop in the engine (C), batches from here.

A player ranks plays by **equity** with a leave table (:class:`Player`
``("equity", leaves)``) or by **score** alone. Games come in mirrored pairs:
games ``2k`` and ``2k + 1`` draw from the same bag order with the seats
swapped, which cancels most of the luck of the draw. Game ``i`` of a run
depends only on the seed and ``i`` (``native/game_loop.h`` says how), so a run
split over any number of processes or machines gives the same games.

:func:`autoplay` plays a run in batches on a local process pool (all cores
by default) or on a Dask cluster (``cluster="tcp://host:8786"``; ``pip
install 'lexigraph[cluster]'``), and returns the :class:`Totals` and, on
request, each game's GCG text (:func:`game_gcg`).

This module is self-play's public face; its parts live apart, one concept
each: the players and a run as the engines take it
(:mod:`lexigraph.scrabble.players`), runs, their batches, totals and GCG
(:mod:`lexigraph.scrabble.runs`), where batches run and the lexicons workers
open (:mod:`lexigraph.scrabble.workers`), and the simulation player's games
(:mod:`lexigraph.scrabble.simulation_player`).

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.open()
>>> run = autoplay(lex, Game.preset("scrabble"), [Player.score("a"), Player.score("b")], games=2, seed=5,
...                workers=1, keep_games=True)
>>> run.totals.games, run.totals.wins + run.totals.losses + run.totals.draws
(2, 2)
>>> run.gcg(0).splitlines()[1]
'#player1 a a'
"""

from __future__ import annotations

from .players import Player, RunSpec, SimulationSettings, run_spec, selfplay_request
from .runs import BATCH_GAMES, MAX_GAMES, Run, Totals, autoplay, batches, check_gcg_folder, game_gcg, totals
from .workers import LexiconRef, opened_lexicon, run_batch, run_batches

__all__ = ["BATCH_GAMES", "MAX_GAMES", "LexiconRef", "Player", "Run", "RunSpec", "SimulationSettings", "Totals",
           "autoplay", "batches", "check_gcg_folder", "game_gcg", "opened_lexicon", "run_batch", "run_batches",
           "run_spec", "selfplay_request", "totals"]

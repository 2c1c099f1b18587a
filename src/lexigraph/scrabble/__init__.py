"""Scrabble-family games: games as data, tiles, positions (CGP), moves, move generation, scoring, GCG records."""

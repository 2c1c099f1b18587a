"""Positions (scrabble/position.py) and racks (scrabble/tiles.py): CGP and text boards read and written back,
racks against the bag, and the board's words against an independent reading of the squares."""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack, rack_text


def test_bad_input():
    game = Game.preset("scrabble")
    with pytest.raises(GameError):
        parse_rack(game, "ABCDEFGH")
    with pytest.raises(GameError):
        parse_rack(game, "QQ")
    with pytest.raises(GameError):
        parse_rack(game, "A1")
    with pytest.raises(GameError):
        parse_rack(game, "???")
    for bad in ["", "15/15", "x y z w", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/16 A/ 0/0 0",
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ x/0 0", "1#13/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0"]:
        with pytest.raises(GameError):
            Position.from_cgp(bad, game)
    with pytest.raises(GameError):
        Position.from_text("...\n...", game)

def test_cgp_round_trip_and_plain_board():
    game = Game.preset("scrabble")
    cgp = "15/15/15/15/15/15/15/5QUIz6/15/15/15/15/15/15/15 AB?/CDE 40/10 2 lex TWL06; tmr 10000/9000;"
    p = Position.from_cgp(cgp, game)
    assert p.to_cgp() == cgp
    assert Position.from_text(p.board_text(), game).to_cgp().split()[0] == cgp.split()[0]
    es = Game.preset("scrabble").with_alphabet(lexigraph.Alphabet.preset("spanish"))
    p2 = Position.from_cgp("15/15/15/15/15/15/15/5[CH]O[CH]O6/15/15/15/15/15/15/15 [LL]A?/ 0/0 0", es)
    assert p2.tile_at(7, 5) == "CH" and p2.to_cgp().startswith("15/15/15/15/15/15/15/5[CH]O[CH]O6")


def board_words(rows: list[str]) -> set[tuple[int, int, bool, str]]:
    """(row, column, across, word) of every run of two or more letters, read off the rows as text."""
    out = set()
    n = len(rows)
    for r in range(n):
        for c in range(n):
            for across in (True, False):
                def at(k: int) -> str:
                    rr, cc = (r, c + k) if across else (r + k, c)
                    return rows[rr][cc] if 0 <= rr < n and 0 <= cc < n else "."
                if at(-1) != "." or at(0) == ".":
                    continue
                k = 0
                while at(k) != ".":
                    k += 1
                if k >= 2:
                    out.add((r, c, across, "".join(at(i) for i in range(k)).lower()))
    return out


@settings(max_examples=60)
@given(st.integers(0, 10**6), st.floats(0, 0.6))
def test_words_on_the_board_are_the_runs_of_letters(seed, density):
    game = Game.preset("scrabble").resized(7)
    rng = random.Random(seed)
    rows = ["".join(rng.choice("ABCDE") if rng.random() < density else "." for _ in range(7)) for _ in range(7)]
    pos = Position.from_text("\n".join(rows), game)
    got = {(r, c, a, game.alphabet.decode(bytes(codes))) for r, c, a, codes in pos.words_on_board()}
    assert got == board_words(rows)
    assert Position.from_text(pos.board_text(), game).codes == pos.codes
    for r in range(7):
        for c in range(7):
            assert pos.tile_at(r, c) == (None if rows[r][c] == "." else rows[r][c])


@given(st.lists(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ?"), max_size=7))
def test_racks_are_parsed_against_the_bag(tiles):
    game = Game.preset("scrabble")
    bag = {label.upper(): n for label, (n, _) in game.tiles.items()} | {"?": game.blanks}
    rack = "".join(tiles)
    counts = {t: tiles.count(t) for t in set(tiles)}
    if any(n > bag[t] for t, n in counts.items()):
        with pytest.raises(GameError):
            parse_rack(game, rack)
        return
    codes = parse_rack(game, rack)
    assert sorted(codes) == sorted(0 if t == "?" else game.alphabet.code(t.lower()) for t in tiles)
    assert sorted(rack_text(game, codes)) == sorted(rack)


# -- hostile boards: generated and mutated, in a child with a memory cap --------------------------------

_BOARD_SEEDS = [
    "15/15/15/15/15/15/15/5QUIz6/15/15/15/15/15/15/15 AEINRST/ 44/0 0 lex TWL06;",
    "15/15/15/15/15/15/15/3CAt9/15/15/15/15/15/15/15 AB?/CD 12/7 2",
    "/".join(["15"] * 15) + " ?/ 0/0 0 bdn super; var x;",
    "/".join(["21"] * 21) + " AEIOU/ 0/0 0 bdn SuperScrabble;",
    "\n".join(["." * 15] * 7 + ["...CAT........."] + ["." * 15] * 7),
    "/".join(["." * 15] * 7 + ["....QI........."] + ["." * 15] * 7),
]
_BOARD_CHARS = "ABCQZaz?.[]/ 0123456789\n;-¹⁵١٥１５"


NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=4, deadline=None, phases=NO_SHRINK)  # a child per example: no slow shrinking
@given(data=st.data())
def test_mutated_boards_give_a_position_or_a_lexicon_error(data, capped, mutated):
    from lexigraph.scrabble.movegen import board_phonies, generate
    from lexigraph.scrabble.position import read_position

    lex = lexigraph.load(["cat", "qi", "quiz", "za", "aa", "ab", "ba"])
    inputs = [data.draw(mutated(_BOARD_SEEDS, _BOARD_CHARS)) for _ in range(25)]

    def check(text: str) -> None:
        game = Game.preset("scrabble")
        pos = Position.from_cgp(text, None) if " " in text.strip() and "\n" not in text.strip() else read_position(
            text, game)
        assert Position.from_cgp(pos.to_cgp(), pos.game).to_cgp() == pos.to_cgp()
        pos.board_text()
        pos.overdrawn()
        board_phonies(lex, pos)
        generate(lex, pos, top=2)

    capped(check, inputs)

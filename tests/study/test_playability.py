"""Playability: the words counted against the games' own records (each a word of the lexicon, one per play,
spelled as the GCG spells the play), the same counts whatever the workers and on both engines, the table file
round trip and its refusals, Spearman's correlation against its textbook formula, and why's use of a table."""

from __future__ import annotations

import gzip
import random
import re
from collections import Counter

import pytest

import lexigraph
from lexigraph.commands import Context
from lexigraph.commands.judge import WHY
from lexigraph.engine.interface import TURN_PLAY
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import load_leaves
from lexigraph.scrabble.playability import count_plays
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.study.playability import (PlayabilityError, PlayabilityTable, parse_table, read_table, spearman,
                                         write_table)


def players(lex):
    game = Game.preset("scrabble")
    leaves = load_leaves(game.leaves, lex.alphabet)
    return game, [Player.equity(leaves, "a"), Player.equity(leaves, "b")]


def test_counts_are_the_plays_of_the_games(open_lexicon, engine_kind):
    lex = open_lexicon()
    game, pair = players(lex)
    counted = 4 if engine_kind == "c" else 2  # the Python twin's games are slow: two, still one per worker below
    counts = count_plays(lex, game, pair, games=counted, seed=11, workers=1)
    run = autoplay(lex, game, pair, games=2 * counted, seed=11, workers=1, keep_games=True)
    # two players alike: game 2k + 1 (the same bag, the seats swapped) is game 2k again, and is not counted
    def moves(k):
        return [line.split(": ", 1)[1] for line in run.gcg(k).splitlines() if line.startswith(">")]

    assert moves(0) == moves(1) and moves(2) == moves(3)
    even = [k for k in range(2 * counted) if k % 2 == 0]
    assert sum(counts.values()) == sum(int((run.game_turns(k)["kind"] == TURN_PLAY).sum()) for k in even)
    assert all(lex.check(w) for w in counts)
    # each play as GCG writes it ('.' for a square played through) spells a counted word of its length
    gcg_words: Counter[str] = Counter()
    for k in even:
        for line in run.gcg(k).splitlines():
            m = re.match(r">\S+: \S+ (\d+[A-O]|[A-O]\d+) (\S+) \+", line)
            if m:
                gcg_words[m.group(2).lower()] += 1
    pattern_counts: Counter[str] = Counter()
    for shown, n in gcg_words.items():
        rx = re.compile(shown.replace(".", "[a-z]") + r"\Z")
        fitting = [w for w in counts if rx.match(w)]
        assert fitting, shown
        pattern_counts[shown] += n
    assert sum(pattern_counts.values()) == sum(counts.values())
    assert count_plays(lex, game, pair, games=counted, seed=11, workers=2) == counts  # whatever the workers


def test_a_table_round_trips_and_ranks(tmp_path):
    table = PlayabilityTable("MINE", 100, 40, 3, "equity equity", {"qi": 9, "za": 9, "ox": 4, "xu": 1})
    assert [table.rank(w) for w in ("qi", "za", "ox", "xu", "cat")] == [1, 1, 3, 4, 5]
    for name in ("t.tsv", "t.tsv.gz"):
        write_table(tmp_path / name, table)
        assert read_table(tmp_path / name) == table
    assert gzip.decompress((tmp_path / "t.tsv.gz").read_bytes()).decode() == table.text()


@pytest.mark.parametrize("text", [
    "", "hello\n", "# lexigraph playability 1\n# lexicon X\nqi\t3\n",
    "# lexigraph playability 1\n# lexicon X\n# words 3\n# games 2\n# seed 1\nqi\tthree\n",
    "# lexigraph playability 1\n# lexicon X\n# words 3\n# games 2\n# seed 1\nqi\t3\nqi\t4\n",
])
def test_bad_tables_are_one_error(text):
    with pytest.raises(PlayabilityError):
        parse_table(text)


def test_bad_table_files(tmp_path):
    (tmp_path / "x.tsv.gz").write_bytes(b"not gzip")
    with pytest.raises(PlayabilityError):
        read_table(tmp_path / "x.tsv.gz")
    with pytest.raises(PlayabilityError):
        read_table(tmp_path / "missing.tsv")


def test_spearman_against_the_textbook_formula():
    rng = random.Random(4)
    for n in (3, 10, 50):
        words = [f"w{i}" for i in range(n)]
        a = dict(zip(words, rng.sample(range(1, 10 * n), n)))
        b = dict(zip(words, rng.sample(range(1, 10 * n), n)))
        rank_a = {w: r for r, w in enumerate(sorted(words, key=lambda w: -a[w]), 1)}
        rank_b = {w: r for r, w in enumerate(sorted(words, key=lambda w: -b[w]), 1)}
        d2 = sum((rank_a[w] - rank_b[w]) ** 2 for w in words)
        assert spearman(a, b) == pytest.approx(1 - 6 * d2 / (n * (n * n - 1)))
    assert spearman({"a": 1, "b": 2}, {"a": 2, "b": 1}) == pytest.approx(-1)
    with pytest.raises(PlayabilityError):
        spearman({"a": 1}, {})


def test_why_reads_the_users_table(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from lexigraph.study import playability

    monkeypatch.setattr(playability, "_TABLES", {})
    lex = lexigraph.open(["cat", "act", "dog"], alphabet="english")
    name = lexigraph.compiler.registry.name_of(lex)
    write_table(playability.user_table_path(name), PlayabilityTable(name, 3, 10, 1, "", {"cat": 5, "dog": 2}))
    ctx = Context(lexicon_spec=None, opener=lambda spec: lex)
    doc = WHY.run(ctx, {"words": ["dog", "act"]})
    assert doc["results"][0]["playability"] == {"rank": 2, "plays": 2, "of": 2, "games": 10,
                                                "source": "lexigraph self-play, 10 games, seed 1"}
    assert doc["results"][1]["playability"]["rank"] == 3 and doc["results"][1]["playability"]["plays"] == 0
    other = lexigraph.open(["cat", "act", "dog", "god"], alphabet="english")  # another size: the table is not its
    assert playability.playability_of(name, len(other), "cat") is None

"""Word Judge and "why a word": ``judge`` (VALID only when every word is a word, and no other hint) and ``why``
(a word's probability rank, hooks, anagrams, playability and definitions; docs/study.md).

>>> from lexigraph.commands import Context
>>> JUDGE.run(Context(), {"words": ["quixotic", "zyzzyva"]})["verdict"]
'VALID'
>>> JUDGE.run(Context(), {"words": ["quixotic", "qxz"]})
{'command': 'judge', 'lexicon': 'ENABLE', 'verdict': 'NOT VALID', 'results': [{'verdict': 'NOT VALID'}], 'count': 1}
>>> r = WHY.run(Context(), {"words": ["retains"]})["results"][0]
>>> r["alphagram"], r["front"], r["back"], r["anagrams"][:3]
('aeinrst', '', '', ['anestri', 'antsier', 'nastier'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..compiler.registry import name_of
from ..errors import QueryError
from ..lexicon import Lexicon
from ..study.definitions import definitions_of
from ..study.judge import MAX_JUDGED, verdict
from ..study.playability import playability_of
from .command import Command, Context, Document, Param


def _name(lex: Lexicon) -> str:
    return str(lex.info.get("name", ""))


def _words(p: Mapping[str, Any], command: str) -> list[str]:
    words = [str(w) for w in p.get("words") or []]
    if not words:
        raise QueryError(f"{command}: give at least one word")
    if len(words) > MAX_JUDGED:
        raise QueryError(f"{command}: at most {MAX_JUDGED} words at once, not {len(words)}")
    return words


def _run_judge(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    said = verdict(lex.check_many(_words(p, "judge")).tolist())
    # Only the verdict: a judge that said which word failed would be a hint (tournaments use it so).
    return {"command": "judge", "lexicon": _name(lex), "verdict": said, "results": [{"verdict": said}], "count": 1}


JUDGE = Command(
    name="judge",
    summary="Word Judge: VALID if every word given is a word, else NOT VALID (and no hint which)",
    params=(Param("words", "the words of the play", positional=True, many=True, required=True, stdin=True,
                  metavar="WORD"),),
    run=_run_judge,
    text=lambda doc: [doc["verdict"]],
    examples=("lexigraph judge cat dog", "lexigraph judge -L twl06.txt qi za"),
    found=lambda doc: doc.get("verdict") == "VALID",
)


def why_word(lex: Lexicon, word: str, deadline: float | None = None) -> dict[str, Any]:
    """Why ``word`` is worth knowing: its probability rank among the words of its length, its hooks, its
    anagrams, how often lexigraph's self-play plays it, its definitions (where a dictionary is installed)."""
    if not word or lex.encode(word) is None:
        raise QueryError(f"why: {word!r} is not spelled in the lexicon's tiles")
    hooks = lex.hooks(word, deadline=deadline)
    try:
        prob = lex.probability(word, deadline=deadline)
        rank, alphagram = prob.rank, prob.alphagram
    except QueryError:  # no tile set for this alphabet: no probability rank
        rank, alphagram = None, "".join(sorted(lex.store.alphabet.split(hooks.word) or ()))
    spelled = hooks.word
    valid = lex.check(spelled)
    anagrams = [w for w in lex.anagram(spelled, mode="exact", deadline=deadline) if w != spelled]
    return {
        "word": spelled, "valid": valid, "length": len(lex.store.alphabet.split(spelled) or ()),
        "alphagram": alphagram, "probability_rank": rank, "front": "".join(hooks.front),
        "back": "".join(hooks.back), "anagrams": anagrams,
        # A non-word gets neither: why explains words, it does not guess at what a string might be.
        "playability": playability_of(name_of(lex), len(lex), spelled) if valid else None,
        "definitions": definitions_of(spelled) if valid else [],
    }


def _run_why(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    results = [why_word(lex, w, ctx.deadline) for w in _words(p, "why")]
    return {"command": "why", "lexicon": _name(lex), "results": results, "count": len(results)}


def _text_why(doc: Document) -> Iterable[str]:
    for r in doc["results"]:
        if not r["valid"]:
            yield f"{r['word']}: not a word"
            continue
        rank = "no probability rank" if r["probability_rank"] is None else \
            f"probability rank {r['probability_rank']:,} of the {r['length']}s"
        yield f"{r['word']}\t{r['alphagram'].upper()}\t{rank}"
        yield f"  hooks: {r['front'] or '-'} ·{r['word'].upper()}· {r['back'] or '-'}"
        yield f"  anagrams: {' '.join(r['anagrams']) or '-'}"
        play = r["playability"]
        yield "  playability: " + ("no table for this lexicon" if play is None else
                                   f"rank {play['rank']:,} of {play['of']:,} words played ({play['plays']:,} "
                                   f"plays; {play['source']})")
        for d in r["definitions"]:
            lemma = f" ({d['lemma']})" if d.get("lemma") and d["lemma"] != r["word"] else ""
            yield f"  {d['part_of_speech']}{lemma}: {d['text']}"


WHY = Command(
    name="why",
    summary="why a word: probability rank, hooks, anagrams, self-play playability, definitions",
    params=(Param("words", "words to explain", positional=True, many=True, required=True, stdin=True,
                  metavar="WORD"),),
    run=_run_why,
    text=_text_why,
    examples=("lexigraph why retains", "lexigraph why -L twl06.txt qi"),
    found=lambda doc: any(r["valid"] for r in doc.get("results", [])),
)

COMMANDS = [JUDGE, WHY]

"""``quiz`` (a quiz in the terminal, line by line, kept in the study store so that it is taken up again) and
``cardbox`` (the cardbox's counts, the questions due, import and export of plain and Zyzzyva lists).

The conversation of ``quiz`` (each question, each verdict) goes to standard error, so that standard output
holds the summary alone: as text, or the document with ``--json`` (docs/schema/quiz.json). An empty line (or
``:n``) ends the question and goes on, ``:q`` or the end of the input (Ctrl-D) stops and keeps the quiz;
``--resume`` takes up the last one.

>>> import os, tempfile
>>> from lexigraph.commands import Context
>>> store = os.path.join(tempfile.mkdtemp(), "study.sqlite")
>>> doc = CARDBOX.run(Context(), {"action": "stats", "store": store})
>>> doc["total"], doc["due_now"]
(0, 0)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TextIO

from ..compiler.registry import name_of
from ..errors import QueryError
from ..lexicon import Lexicon
from ..study.cardbox import CardBox, default_path
from ..study.exchange import export_rows, export_text, import_document
from ..study.lists import FORMATS, read_list
from ..study.quiz import MAX_QUESTIONS, ORDERS, QUIZ_TYPES, Quiz
from ..study.sitting import (DEFAULT_QUESTIONS, DEFAULT_USER, answer_document, cardbox_document, next_document,
                             quiz_request, start_quiz, summary_document)
from ..support.files import read_limited, write_atomic
from ..support.text import quote
from .command import MAX_SEED, MAX_SECONDS, Command, Context, Document, Param, always_found

#: The largest list file read (a whole lexicon's words fit).
MAX_LIST_BYTES = 64 << 20

_STORE = Param("store", "the study file (default: $XDG_DATA_HOME/lexigraph/study.sqlite, shared with the server)",
               metavar="FILE", completer="file")
_USER = Param("user", f"whose cardbox (default {DEFAULT_USER!r})", default=DEFAULT_USER)
_TYPE = Param("type", "the quiz type", choices=QUIZ_TYPES, default="anagram")


def _box(p: Mapping[str, Any]) -> CardBox:
    return CardBox(str(p.get("store") or default_path()))


def _list_words(path: str) -> tuple[list[str], list[str]]:
    """A plain or Zyzzyva list file's words and questions."""
    data = read_limited(path, limit=MAX_LIST_BYTES, what="a word list", error=QueryError)
    found = read_list(data.decode("utf-8", errors="replace"))
    if not found.words and not found.questions:
        raise QueryError(f"{quote(path)} holds no word")
    return found.words, found.questions


# -- quiz ------------------------------------------------------------------------------------------------------

def _quiz_fields(p: Mapping[str, Any]) -> dict[str, Any]:
    fields = {k: p.get(k) for k in ("type", "search", "order", "limit", "time_limit", "seed", "user")}
    fields["words"] = list(p["words"]) if p.get("words") else None
    fields["due"] = bool(p.get("due"))
    if p.get("list_file"):
        if fields["words"]:
            raise QueryError("give --words or --list, not both")
        words, questions = _list_words(str(p["list_file"]))
        # A question/answer list names its questions; a plain list gives words to make them from.
        if questions:
            fields["questions"] = questions
        else:
            fields["words"] = words
    return {k: v for k, v in fields.items() if v is not None and v is not False}


def _say(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()


def _show_question(out: TextIO, quiz: Quiz, now: float) -> None:
    state = quiz.state(now)
    q = state["question"]
    if q is None:
        return
    left = "" if state["seconds_left"] is None else f"  ({state['seconds_left']:.0f} s left)"
    _say(out, f"[{q['index'] + 1}/{state['total']}] {q['prompt']}: {q['answers']} to find{left}")


def _show_result(out: TextIO, result: dict[str, Any] | None) -> None:
    if result is None:
        return
    answers = " ".join(result["answers"]) or "(none)"
    if result["correct"]:
        said = f"correct: {answers}"
    else:
        said = f"answers: {answers}" + (f"; missed: {' '.join(result['missed'])}" if result["missed"] else "") + \
            (f"; wrong: {' '.join(result['wrong'])}" if result["wrong"] else "")
    _say(out, f"  {said}; next due {result['card']['due']}")


def take_quiz(box: CardBox, quiz: Quiz, lines: Iterable[str], out: TextIO, clock: Any = time.time) -> None:
    """The conversation: each line an answer; empty or ``:n`` the next question; ``:q`` stops (the quiz kept)."""
    _show_question(out, quiz, clock())
    for line in lines:
        text = line.strip()
        if text == ":q":
            break
        if text in ("", ":n"):
            doc = next_document(box, quiz, now=clock())
        else:
            doc = answer_document(box, quiz, text, now=clock())
            found = doc["quiz"]["question"]
            progress = "" if found is None or doc["result"] is not None else \
                f" ({len(found['found'])}/{found['answers']})"
            _say(out, f"  {doc['verdict']}: {doc['word']}{progress}")
        _show_result(out, doc["result"])
        if quiz.finished:
            break
        if doc["result"] is not None:
            _show_question(out, quiz, clock())
    if not quiz.finished:
        _say(out, f"stopped: lexigraph quiz --resume {quiz.id} takes it up again")


def _list_opener(ctx: Context) -> Callable[[str | Iterable[str]], Lexicon]:
    """How a quiz's search opens an ``in NAME`` list: as the context opens a lexicon (a file or a name)."""
    def open_list(source: str | Iterable[str]) -> Lexicon:
        if not isinstance(source, str):
            raise QueryError("a list is named by a file or a registered name")
        return ctx.open(source)

    return open_list


def _run_quiz(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    lexicon = name_of(lex)
    with _box(p) as box:
        now = time.time()
        if p.get("resume"):
            key = str(p["resume"])
            quiz = box.latest_quiz(str(p.get("user") or DEFAULT_USER), lexicon) if key == "last" else box.quiz(key)
            if quiz is None:
                raise QueryError("no quiz to resume" if key == "last" else f"no quiz {quote(key)} in {box.path}")
            if quiz.lexicon != lexicon:
                raise QueryError(f"quiz {quiz.id} was made on {quiz.lexicon}: give --lexicon {quiz.lexicon}")
            if quiz.ended and not p.get("no_input"):  # ended early (the page's End quiz): closed for good
                raise QueryError(f"quiz {quiz.id} was ended: start another (--no-input shows its summary)")
        else:
            quiz = start_quiz(lex.store, lex.engine, box, lexicon, quiz_request(_quiz_fields(p)), now=now,
                              open_list=_list_opener(ctx), deadline=ctx.deadline)
        if not p.get("no_input"):
            take_quiz(box, quiz, sys.stdin, sys.stderr)
        return summary_document(lex.store, box, quiz, now=time.time())


def _text_quiz(doc: Document) -> Iterator[str]:
    yield f"quiz {doc['id']}: {doc['right']} right, {doc['wrong']} missed of {doc['answered']} answered " \
          f"({doc['total']} questions{'' if doc['finished'] else ', not finished'})"
    for m in doc["missed"]:
        yield f"  {m['front'] or '-'} ·{m['word'].upper()}· {m['back'] or '-'}"
    box = doc["cardbox"]
    yield f"cardbox: {box['due_now']} due now of {box['total']}" + \
        (f"; next due {box['next_due']}" if box["next_due"] else "")


QUIZ = Command(
    name="quiz",
    summary="a quiz in the terminal, line by line: anagrams, sub-anagrams, hooks or patterns of a search or a list, "
            "graded into the cardbox (docs/study.md)",
    params=(
        _TYPE,
        Param("search", "the questions' words: a search (docs/search.md), e.g. 'length 7 and probability 1-500'"),
        Param("words", "the questions' words", positional=True, many=True, metavar="WORD"),
        Param("list_file", "the questions' words: a plain list or Zyzzyva's Anagram Question/Answer list",
              flags=("--list",), metavar="FILE", completer="file"),
        Param("due", "the cardbox's questions due now", kind="bool", default=False),
        Param("order", "question order (default: probability for a search, else as given)", choices=ORDERS),
        Param("limit", f"at most this many questions (default {DEFAULT_QUESTIONS})", kind="int", minimum=1,
              maximum=MAX_QUESTIONS),
        Param("time_limit", "seconds for the whole quiz", kind="float", minimum=1, maximum=MAX_SECONDS),
        Param("seed", "the shuffle's seed (--order random)", kind="int", minimum=0, maximum=MAX_SEED),
        Param("resume", "take up a quiz again: its id, or 'last'", metavar="ID"),
        Param("no_input", "answer nothing: make (or show) the quiz and print its summary", kind="bool",
              default=False),
        _USER,
        _STORE,
    ),
    run=_run_quiz,
    text=_text_quiz,
    writes_files=True,  # the study store
    found=always_found,
    examples=(
        "lexigraph quiz --search 'length 7 and probability 1-500' --limit 20",
        "lexigraph quiz --type hooks care cart --no-input",
        "lexigraph quiz --due",
        "lexigraph quiz --resume last",
    ),
)


# -- cardbox ---------------------------------------------------------------------------------------------------

def _stats(ctx: Context, p: Mapping[str, Any], box: CardBox, lexicon: str) -> Document:
    return cardbox_document(box, str(p.get("user") or DEFAULT_USER), lexicon, now=time.time())


def _due(ctx: Context, p: Mapping[str, Any], box: CardBox, lexicon: str) -> Document:
    user = str(p.get("user") or DEFAULT_USER)
    kind = p.get("type")  # none given: every type
    cards = box.due(user, lexicon, kind, limit=int(p.get("limit") or 100), now=time.time())
    rows = [{"type": c.type, "prompt": c.prompt, "due": c.to_dict()["due"], "state": c.state, "reviews": c.reviews}
            for c in cards]
    return {"command": "cardbox", "action": "due", "user": user, "lexicon": lexicon, "store": box.path,
            "results": rows, "count": len(rows)}


def _import(ctx: Context, p: Mapping[str, Any], box: CardBox, lexicon: str) -> Document:
    if not p.get("file"):
        raise QueryError("cardbox import: give the list FILE (a plain list, or Zyzzyva's Anagram Question/Answer)")
    data = read_limited(str(p["file"]), limit=MAX_LIST_BYTES, what="a word list", error=QueryError)
    return import_document(ctx.lexicon().store, box, str(p.get("user") or DEFAULT_USER), lexicon,
                           str(p.get("type") or "anagram"), data.decode("utf-8", errors="replace"), now=time.time(),
                           deadline=ctx.deadline)


def _export(ctx: Context, p: Mapping[str, Any], box: CardBox, lexicon: str) -> Document:
    if not p.get("file"):
        raise QueryError("cardbox export: give the FILE to write ('-': standard output)")
    lex = ctx.lexicon()
    kind = str(p.get("type") or "anagram")
    user = str(p.get("user") or DEFAULT_USER)
    rows = export_rows(lex.store, lex.engine, box, user, lexicon, kind, deadline=ctx.deadline)
    fmt = str(p.get("format") or "plain")
    text = export_text(rows, fmt)
    dest = str(p["file"])
    if dest == "-":
        sys.stdout.write(text)
    else:
        write_atomic(dest, text.encode("utf-8"))
    return {"command": "cardbox", "action": "export", "user": user, "lexicon": lexicon, "store": box.path,
            "file": dest, "format": fmt,
            "results": [{"type": kind, "prompt": q, "answers": a} for q, a in rows], "count": len(rows)}


_ACTIONS = {"stats": _stats, "due": _due, "import": _import, "export": _export}


def _run_cardbox(ctx: Context, p: Mapping[str, Any]) -> Document:
    action = p.get("action")
    if action not in _ACTIONS:
        raise QueryError(f"{ctx.spell('action')} must be stats, due, import or export")
    if p.get("file") and action in ("stats", "due"):
        raise QueryError(f"cardbox {action} takes no FILE")
    with _box(p) as box:
        return _ACTIONS[action](ctx, p, box, name_of(ctx.lexicon()))


def _text_cardbox(doc: Document) -> Iterator[str]:
    action = doc["action"]
    if action == "stats":
        yield f"{doc['user']} on {doc['lexicon']}: {doc['due_now']} due now of {doc['total']} cards" + \
            (f"; next due {doc['next_due']}" if doc["next_due"] else "")
        for r in doc["results"]:
            yield f"  {r['type']:<10} {r['total']:>6} cards {r['due_now']:>6} due  new {r['new']} learning " \
                  f"{r['learning']} review {r['review']} relearning {r['relearning']}"
    elif action == "due":
        for r in doc["results"]:
            yield f"{r['type']}\t{r['prompt']}\t{r['due']}\t{r['state']}"
    elif action == "import":
        r = doc["results"][0]
        yield f"added {r['added']} of {r['questions']} {r['type']} questions to {doc['user']}'s cardbox"
    elif doc["file"] != "-":
        yield f"wrote {doc['count']} questions to {doc['file']} ({doc['format']})"


CARDBOX = Command(
    name="cardbox",
    summary="the cardbox: counts due now (stats), the questions due (due), import and export of plain and "
            "Zyzzyva lists",
    params=(
        Param("action", "stats, due, import FILE or export FILE", positional=True, required=True,
              choices=tuple(_ACTIONS), metavar="stats|due|import|export"),
        Param("file", "import: the list to read; export: the file to write ('-': standard output)", positional=True,
              metavar="FILE", completer="file"),
        Param("type", "the quiz type (due: default every type; import, export: default anagram)", choices=QUIZ_TYPES),
        Param("format", "export: plain (one word a line) or zyzzyva (Anagram Question/Answer)", choices=FORMATS,
              default="plain"),
        Param("limit", "due: at most this many questions", kind="int", default=100, minimum=1, maximum=1_000_000),
        _USER,
        _STORE,
    ),
    run=_run_cardbox,
    text=_text_cardbox,
    writes_files=True,
    found=always_found,
    examples=("lexigraph cardbox stats", "lexigraph cardbox due --json", "lexigraph cardbox import sevens.txt",
              "lexigraph cardbox export missed.txt --format zyzzyva"),
)

COMMANDS = [QUIZ, CARDBOX]

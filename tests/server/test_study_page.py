"""The Study tab, Word Judge and the "why a word" panel in a real headless Chromium (Debian's), driven by Playwright.

Every answer the tests type, and every answer they expect the page to show, comes from the word list itself (the
lexicon's words, grouped here by their sorted letters or extended here by a letter), never from the page or from the
query the server runs. Each test runs at phone width (375 px) and at desktop width. Screenshots go to
``build/screenshots/`` (``$LEXIGRAPH_SCREENSHOTS``). Skips with the reason when Playwright or Chromium is missing.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from functools import cache
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")

import json  # noqa: E402

import lexigraph  # noqa: E402

from helpers.browser import SHOTS, labels_astray, opened_page, overflow, skip_without_chromium  # noqa: E402

skip_without_chromium()

WIDTHS = {"phone": (375, 740), "desktop": (1100, 820)}
SEARCH = "length 7 and probability 1-500"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@cache
def word_list() -> frozenset[str]:
    """The built-in lexicon's words: the list the oracles below work from."""
    return frozenset(lexigraph.open())


@cache
def by_letters() -> dict[str, list[str]]:
    """Every word of the list under its sorted letters (its alphagram), alphabetically."""
    groups: dict[str, list[str]] = defaultdict(list)
    for w in sorted(word_list()):
        groups["".join(sorted(w))].append(w)
    return groups


def hooks_of(word: str) -> tuple[str, str]:
    """The letters that make a word of the list before and after ``word``."""
    words = word_list()
    return ("".join(c for c in LETTERS if c + word in words), "".join(c for c in LETTERS if word + c in words))


def shot(pg, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture(params=list(WIDTHS))
def sized(request, page):
    """The page at phone width, then at desktop width: (page, name of the width)."""
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[request.param])))
    yield page, request.param
    page.set_viewport_size({"width": 1100, "height": 820})


@pytest.fixture(params=["server", "page"])
def quiz_maker(request, page):
    """Who makes the quiz: the server (its /api/quiz routes and cardbox), or the page itself from the server's
    commands, as it does when the server answers 501 for the study routes (no study store): both held to one oracle."""
    if request.param == "page":
        def not_served(route):
            route.fulfill(status=501, content_type="application/json",
                          body='{"error": {"type": "NotImplemented", "message": "no study store"}}')
        page.route(re.compile(r".*/api/(quiz|cardbox)([/?].*)?$"), not_served)
    return request.param


def get_json(server: str, path: str) -> tuple[int, dict]:
    try:
        with urlopen(server + path) as r:
            return r.status, json.load(r)
    except Exception as e:  # an HTTPError carries the status and the JSON error
        return e.code, json.load(e)


def prompt(pg) -> str:
    return pg.get_attribute("#study-question", "data-prompt")


def type_answer(pg, word: str) -> None:
    pg.keyboard.type(word)
    pg.keyboard.press("Enter")


def wait_marks(pg, n: int) -> list[tuple[str, str]]:
    """The marks of the question asked, once there are ``n``: (verdict, word), the latest first."""
    pg.wait_for_function(f"document.querySelectorAll('#study-typed li').length === {n}")
    return [(v, t.split()[1].lower()) for v, t in pg.eval_on_selector_all(
        "#study-typed li", "els => els.map(e => [e.dataset.verdict, e.textContent])")]


def wait_question(pg, index: int) -> None:
    pg.wait_for_function(f"document.querySelector('#study-progress').textContent.startsWith('Question {index + 1} of')")


def focus_back_to(pg, where: str) -> None:
    """The why panel closed, and the focus back where ``where`` (a script's condition) says: the panel's close event
    comes after the dialog is shut, so the test waits for both."""
    pg.wait_for_function("!document.querySelector('#why').open")
    try:
        pg.wait_for_function(where, timeout=5000)
    except sync_api.TimeoutError:
        raise AssertionError(f"the focus is on {pg.evaluate('document.activeElement.outerHTML')[:120]}") from None


def start_by_keyboard(pg, search: str, count: int) -> None:
    """The Study tab reached with the arrow keys from the Search tab; the quiz set and started with the keyboard."""
    pg.focus("#tab-search")
    for _ in range(pg.eval_on_selector_all("nav [role=tab]", "els => els.length")):   # wherever the tab sits
        if pg.evaluate("document.activeElement.id") == "tab-study":
            break
        pg.keyboard.press("ArrowRight")
    assert pg.evaluate("document.activeElement.id") == "tab-study" and pg.is_visible("#view-study")
    pg.focus("#study-count")
    pg.keyboard.press("Control+a")
    pg.keyboard.type(str(count))
    pg.focus("#study-source")
    pg.keyboard.press("Control+a")
    pg.keyboard.type(search)
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#study-quiz:not([hidden])", timeout=30000)


def test_a_20_question_anagram_quiz_by_keyboard(sized, quiz_maker, server):
    """Twenty alphagrams of the search, in probability order; every third question answered in full (right), every
    third with a word that is no answer first (wrong, then every answer: the question is missed), every third with
    its first word only and the answers shown (Escape) before going on. Each mark as typed, each question's answers,
    the summary's counts, its missed words and their hooks, and the cardbox's counts are the oracle's."""
    pg, width = sized
    lex = lexigraph.open()
    ranked = lex.search(SEARCH, sort="probability")
    expected_prompts = list(dict.fromkeys("".join(sorted(w)) for w in ranked))[:20]
    start_by_keyboard(pg, SEARCH, 20)
    assert overflow(pg) <= 0, f"the quiz is wider than the screen at {width}"
    right, missed, found_total, all_total = 0, [], 0, 0
    for i in range(20):
        wait_question(pg, i)
        alphagram = prompt(pg).lower()
        assert alphagram == expected_prompts[i]
        answers = by_letters()[alphagram]
        assert pg.inner_text("#study-need").startswith(f"{len(answers)} word")
        assert pg.evaluate("document.activeElement.id") == "study-answer"   # the focus stays in the box
        all_total += len(answers)
        how = i % 3
        if how == 1:
            stranger = next(w for w in sorted(by_letters()[expected_prompts[i - 1]]) if w not in answers)
            type_answer(pg, stranger)
            assert wait_marks(pg, 1) == [("wrong", stranger)]
            type_answer(pg, "qqqqqqq")
            assert wait_marks(pg, 2)[0] == ("wrong", "qqqqqqq")
        if how in (0, 1):
            for k, w in enumerate(answers[:-1]):
                type_answer(pg, w)
                marks = wait_marks(pg, k + 1 + 2 * (how == 1))
                assert marks[0] == ("right", w)
            if answers[:-1]:   # the same word again is no second answer
                type_answer(pg, answers[0])
                assert wait_marks(pg, len(answers) + 2 * (how == 1))[0] == ("already", answers[0])
            type_answer(pg, answers[-1])   # the last answer ends the question: the next is asked
            right += how == 0
            found_total += len(answers)
        else:   # the first word only (none when there is one), then the answers shown
            typed = answers[:1] if len(answers) > 1 else []
            for w in typed:
                type_answer(pg, w)
                assert wait_marks(pg, 1) == [("right", w)]
            pg.keyboard.press("Escape")
            pg.wait_for_function("!document.querySelector('#study-last').hidden && "
                                 f"document.querySelector('#study-last-title').textContent.startsWith('{alphagram.upper()}:')")
            shown = pg.eval_on_selector_all("#study-last-words button", "els => els.map(e => [e.dataset.word, e.parentNode.classList.contains('missed')])")
            assert sorted(shown) == [[w, w not in typed] for w in answers]
            missed += [w for w in answers if w not in typed]
            found_total += len(typed)
            if i == 2:
                shot(pg, f"study-quiz-{width}-{quiz_maker}")
                assert labels_astray(pg, "#study-quiz") == []
            pg.keyboard.press("Enter")   # an empty box: on to the next question
    pg.wait_for_selector("#study-summary:not([hidden])")
    pg.wait_for_function("document.querySelector('#study-due').textContent !== ''")
    assert pg.inner_text("#study-result") == (
        f"{right} of 20 questions right, {20 - right} missed; {found_total} of {all_total} words found.")
    words = pg.eval_on_selector_all("#study-missed button", "els => els.map(e => [e.dataset.word, "
                                    "e.firstChild.textContent, e.lastChild.textContent])")
    assert sorted(words) == sorted([w, *hooks_of(w)] for w in missed)
    status, cardbox = get_json(server, "/api/cardbox?lexicon=enable")
    due = pg.inner_text("#study-due")
    if quiz_maker == "server":
        assert status == 200 and cardbox["total"] >= 20
        assert due.startswith(f"Cardbox: {cardbox['due_now']} due now of {cardbox['total']} cards")
    else:   # the page says the quiz is not remembered
        assert due == "This server keeps no cardbox: nothing of this quiz is remembered."
    assert overflow(pg) <= 0 and labels_astray(pg, "#view-study") == []
    shot(pg, f"study-summary-{width}-{quiz_maker}")
    # A missed word opens why it is a word; closing the panel gives the focus back to it.
    pg.focus("#study-missed button >> nth=0")
    pg.keyboard.press("Enter")
    first = pg.get_attribute("#study-missed button >> nth=0", "data-word")
    pg.wait_for_selector(f"#why[data-ready='{first}']")
    assert pg.inner_text("#why-hooks") == "{} ·{}· {}".format(hooks_of(first)[0] or "–", first.upper(), hooks_of(first)[1] or "–")
    pg.keyboard.press("Escape")
    focus_back_to(pg, f"document.activeElement.dataset.word === '{first}'")


def test_skip_and_timed(page):
    """Shift+Enter skips a question (missed, every answer shown); Escape then Enter at once shows the answers and
    goes on; a timed quiz shows its clock counting down."""
    lex = lexigraph.open()
    page.click("#tab-study")
    page.select_option("#study-time", "60")
    start_by_keyboard(page, "length 2 and probability 1-3", 3)
    first = prompt(page).lower()
    assert re.fullmatch(r"[01]:\d\d", page.inner_text("#study-clock"))
    page.keyboard.press("Shift+Enter")
    wait_question(page, 1)
    assert page.inner_text("#study-last-title").startswith(f"{first.upper()}: 0 of {len(by_letters()[first])} found")
    assert first in {"".join(sorted(w)) for w in lex.search("length 2 and probability 1-3")}
    page.click("#study-last-words button >> nth=0")   # why an answer shown is a word; closed, back to the box
    page.wait_for_selector("#why[data-ready]")
    page.keyboard.press("Escape")
    focus_back_to(page, "document.activeElement.id === 'study-answer'")
    second = prompt(page).lower()
    page.keyboard.press("Escape")   # the answers, then on at once: the keys taken in the order pressed
    page.keyboard.press("Enter")
    wait_question(page, 2)
    assert page.inner_text("#study-last-title").startswith(f"{second.upper()}: 0 of")
    page.click("#study-end")
    page.wait_for_selector("#study-summary:not([hidden])")
    assert page.inner_text("#study-result").startswith("0 of 3 questions right, 2 missed (1 not reached)")
    assert page.evaluate("document.activeElement.id") == "study-summary-title"


def test_word_judge(sized):
    """#judge fills the screen; a play's words are VALID only when every one is in the word list; the verdict names
    no word, and clears for the next play."""
    pg, width = sized
    words = word_list()
    good = ["quixotic", "zyzzyva", "cat"]
    bad = "qxzj"
    assert all(w in words for w in good) and bad not in words
    pg.goto(pg.url.split("#")[0] + "#judge")
    pg.wait_for_selector("#view-judge:not([hidden])")
    pg.evaluate("document.getElementById('view-judge').dataset.clearAfter = '400'")
    assert pg.evaluate("document.activeElement.id") == "judge-input"
    assert not pg.is_visible("header") and not pg.is_visible("#view-search")
    pg.keyboard.type(", ".join(good))
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#judge-verdict.valid")
    assert pg.inner_text("#judge-verdict") == "VALID"
    assert overflow(pg) <= 0
    shot(pg, f"judge-{width}")
    pg.wait_for_function("document.querySelector('#judge-verdict').textContent === ''")   # cleared for the next play
    pg.keyboard.type(f"{good[0]} {bad} {good[1]}")
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#judge-verdict.invalid")
    text = pg.inner_text("#view-judge")
    assert "NOT VALID" in text and bad not in text.lower() and good[0] not in text.lower()   # no hint, no list
    pg.wait_for_function("document.querySelector('#judge-verdict').textContent === ''")
    pg.keyboard.type(" ".join(["at"] * 65))   # more than a play: the server's limit, said, and no verdict
    pg.keyboard.press("Enter")
    pg.wait_for_function("document.querySelector('#judge-verdict').textContent.includes('at most 64 words')")
    assert pg.get_attribute("#judge-verdict", "class") == "judge-verdict"
    pg.wait_for_function("document.querySelector('#judge-verdict').textContent === ''")
    pg.click("#judge-leave")
    assert pg.is_visible("#view-study") and pg.evaluate("location.hash") == "#study"


def test_why_a_word_from_the_search_results(sized, server):
    """A word of the search's results chosen with the arrows and Enter: the panel's hooks and anagrams are the word
    list's, its probability rank the library's; Escape closes it and gives the focus back to the list."""
    pg, width = sized
    lex = lexigraph.open()
    pg.fill("#search-input", "??mo??t")
    pg.wait_for_function("document.querySelector('#search-status').textContent.includes('word')")
    pg.focus("#search-results")
    pg.keyboard.press("ArrowDown")
    pg.keyboard.press("ArrowDown")
    pg.keyboard.press("Enter")
    word = lex.match("??mo??t")[1]
    pg.wait_for_selector(f"#why[data-ready='{word}']")
    front, back = hooks_of(word)
    assert pg.inner_text("#why-word") == word.upper()
    assert pg.inner_text("#why-hooks") == f"{front or '–'} ·{word.upper()}· {back or '–'}"
    others = [w.upper() for w in by_letters()["".join(sorted(word))] if w != word]
    assert pg.inner_text("#why-anagrams") == (" ".join(others) or "none")
    rank = lex.probability(word).rank
    assert pg.inner_text("#why-probability").startswith(f"#{rank:,} among the words of {len(word)} tiles")
    assert pg.inner_text("#why-valid") == "a word of enable"
    status, doc = get_json(server, f"/api/why?words={word}")   # definitions where the server has a dictionary
    play = doc["results"][0]["playability"]   # the self-play table's rank where the lexicon has one
    assert pg.inner_text("#why-playability") == (
        "no self-play table for this lexicon" if play is None else
        f"#{play['rank']:,} of the {play['of']:,} words played ({play['plays']:,} plays in {play['games']:,} games; "
        f"{play['source']})")
    defs = doc["results"][0]["definitions"]
    lines = pg.inner_text("#why-definition").splitlines()
    if defs:
        assert lines[0].startswith(defs[0]["part_of_speech"]) and lines[0].endswith(defs[0]["text"])
        assert lines[-1] == "— " + ", ".join(dict.fromkeys(d["source"] for d in defs))
    else:
        assert lines == ["none installed"]
    assert overflow(pg) <= 0
    shot(pg, f"why-{width}")
    pg.keyboard.press("Escape")
    focus_back_to(pg, "document.activeElement.id === 'search-results'")


def test_a_study_search_in_probability_order(page):
    """The study search's words in the order asked: by probability (each word's rank among the words of its length,
    the likeliest first), as the library's search orders them, and alphabetically again."""
    lex = lexigraph.open()
    expr = "length 7 and subanagram aeinrstl"
    page.select_option("#search-mode", "search")
    page.fill("#search-input", expr)
    page.wait_for_function("document.querySelector('#search-status').textContent.includes('word')")
    alpha = [w for w in lex.search(expr) if w][:100]
    assert alpha == sorted(alpha)
    shown = lambda: page.eval_on_selector_all(  # noqa: E731
        "#search-results li", "els => els.map(e => [...e.childNodes].find(n => n.nodeType === 3).textContent)")
    assert shown() == alpha
    page.select_option("#search-sort", "probability")
    by_rank = lex.search(expr, sort="probability")[:100]
    assert by_rank != alpha
    page.wait_for_function(f"document.querySelector('#search-results li') && "
                           f"document.querySelector('#search-results li').textContent.includes('{by_rank[0]}')")
    assert shown() == by_rank
    ranks = [lex.probability(w).rank for w in by_rank]
    assert ranks == sorted(ranks)


def test_errors_and_time_up(page, quiz_maker):
    """A search the server refuses is said, and no quiz starts; a timed quiz ends when its time is up, with the
    questions not reached counted."""
    page.click("#tab-study")
    page.fill("#study-source", "length 7 and")
    page.click("#study-start")
    page.wait_for_selector("#study-status.error")
    assert "expected a condition" in page.inner_text("#study-status") and not page.is_visible("#study-quiz")
    page.eval_on_selector("#study-time", "s => s.add(new Option('2 seconds', '2'))")
    page.select_option("#study-time", "2")
    start_by_keyboard(page, "length 7 and probability 1-50", 5)
    assert page.inner_text("#study-clock") in ("0:02", "0:01")
    page.wait_for_selector("#study-summary:not([hidden])", timeout=20000)
    assert page.inner_text("#study-result").startswith("0 of 5 questions right, 0 missed (5 not reached)")


@pytest.fixture()
def clocked_server():
    """A server of its own whose study store's clock the test moves on: (the app, its URL)."""
    from lexigraph.server import create_app
    from lexigraph.server.background import serve_in_thread

    app = create_app()
    with serve_in_thread(app) as url:
        yield app, url


def test_a_quiz_of_what_is_due(browser_context, clocked_server):
    """Three questions missed go into the cardbox, none due at once (FSRS brings a lapse back in minutes); three
    days on, the cardbox's choice says three are due, and a quiz of what is due asks exactly those three; answered
    in full from the word list, none is due any more."""
    app, url = clocked_server
    opened = opened_page(browser_context, url)
    pg = next(opened)
    pg.click("#tab-study")
    start_by_keyboard(pg, "length 7 and probability 1-50", 3)
    asked = []
    for i in range(3):
        wait_question(pg, i)
        asked.append(prompt(pg).lower())
        pg.keyboard.press("Shift+Enter")
    pg.wait_for_selector("#study-summary:not([hidden])")
    pg.wait_for_function("document.querySelector('#study-due').textContent.startsWith('Cardbox: 0 due now of 3 cards')")
    app.state.study.clock = lambda: time.time() + 3 * 86400   # three days on, for the store alone
    pg.focus("#study-new")
    pg.keyboard.press("Enter")
    assert pg.evaluate("document.activeElement.id") == "study-type"
    pg.select_option("#study-from", "due")
    pg.wait_for_function("document.querySelector('#study-from option[value=due]').textContent === 'the cardbox: 3 due now'")
    assert not pg.is_visible("#study-source")
    pg.focus("#study-start")
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#study-quiz:not([hidden])")
    again = []
    for i in range(3):
        wait_question(pg, i)
        alphagram = prompt(pg).lower()
        again.append(alphagram)
        for w in by_letters()[alphagram]:
            type_answer(pg, w)
    pg.wait_for_selector("#study-summary:not([hidden])")
    assert sorted(again) == sorted(asked)
    assert pg.inner_text("#study-result").startswith("3 of 3 questions right, 0 missed")
    pg.wait_for_function("document.querySelector('#study-due').textContent.startsWith('Cardbox: 0 due now of 3 cards')")
    next(opened, None)   # the page's own checks: nothing asked of another host, no script error


def oracle_answers(kind: str, question: str) -> list[str]:
    """A question's answers, from the word list alone: a Counter for racks, a regex for patterns, one letter added
    for hooks."""
    words = word_list()
    if kind == "anagram":
        return sorted(by_letters().get("".join(sorted(question)), []))
    if kind == "subanagram":
        rack = Counter(question)
        return sorted(w for w in words if len(w) >= 2 and not Counter(w) - rack)
    if kind == "hooks":
        front, back = hooks_of(question)
        return sorted([c + question for c in front] + [question + c for c in back])
    regex = re.compile(question.replace("?", ".") + r"\Z")
    return sorted(w for w in words if regex.match(w))


@pytest.mark.parametrize("kind, questions", [
    ("anagram", ["aeinrst", "eorsttu"]), ("subanagram", ["aeinrst", "qiz"]),
    ("hooks", ["care", "quixotic"]), ("pattern", ["c?t", "??mo??t"]),
])
def test_each_kind_of_quiz_asks_the_oracles_answers(page, quiz_maker, kind, questions):
    """Questions as given, of each kind: the answers a question shows when it ends are the word list's, whether the
    server or the page made the quiz; a question whose answers are all typed is right."""
    page.click("#tab-study")
    page.select_option("#study-type", kind)
    page.select_option("#study-from", "questions")
    page.select_option("#study-order", "given")
    start_by_keyboard(page, ", ".join(questions), len(questions))
    as_asked = [("".join(sorted(q)) if kind in ("anagram", "subanagram") else q) for q in questions]   # racks sorted
    wait_question(page, 0)
    assert prompt(page).lower() == as_asked[0]
    page.keyboard.press("Escape")
    page.wait_for_selector("#study-last:not([hidden])")
    shown = page.eval_on_selector_all("#study-last-words button", "els => els.map(e => e.dataset.word)")
    assert sorted(shown) == oracle_answers(kind, questions[0])
    page.keyboard.press("Enter")
    wait_question(page, 1)
    assert prompt(page).lower() == as_asked[1]
    expected = oracle_answers(kind, questions[1])
    assert page.inner_text("#study-need").startswith(f"{len(expected)} word")
    for w in expected:
        type_answer(page, w)
    if not expected:   # a question with no answer: nothing to type, Enter ends it (right) and Enter goes on
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('#study-need').textContent === 'Right: every word.'")
        page.keyboard.press("Enter")
    page.wait_for_selector("#study-summary:not([hidden])")
    assert page.inner_text("#study-result").startswith("1 of 2 questions right, 1 missed")


def why_validator():
    """docs/schema/why.json, with the schemas it refers to."""
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    schemas = Path(__file__).resolve().parents[2] / "docs" / "schema"
    loaded = [json.loads(p.read_text()) for p in schemas.glob("*.json")]
    registry = referencing.Registry().with_resources((s["$id"], referencing.Resource.from_contents(s)) for s in loaded)
    return jsonschema.Draft202012Validator(json.loads((schemas / "why.json").read_text()), registry=registry)


def test_why_shows_playability_and_definitions(page, server):
    """The panel's playability and definition rows, from a `why` document that has them (the server's own answer
    with a self-play table's rank and five definitions added, held to docs/schema/why.json): the rank as the table
    gives it, the first four definitions, how many more, and their dictionary."""
    status, doc = get_json(server, "/api/why?words=retains")
    assert status == 200
    doc["results"][0]["playability"] = {"rank": 1234, "plays": 56, "of": 40000, "games": 10000, "source": "ENABLE self-play"}
    doc["results"][0]["definitions"] = [{"part_of_speech": "verb", "text": f"sense {i}", "source": "WordNet"} for i in range(5)]
    why_validator().validate(doc)
    page.route(re.compile(r".*/api/why$"), lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(doc)))
    page.fill("#search-input", "retains")
    page.wait_for_function("document.querySelectorAll('#search-results li').length === 1")
    page.click("#search-results li")
    page.wait_for_selector("#why[data-ready='retains']")
    assert page.inner_text("#why-playability") == "#1,234 of the 40,000 words played (56 plays in 10,000 games; ENABLE self-play)"
    assert page.inner_text("#why-definition").splitlines() == [
        "verb: sense 0", "verb: sense 1", "verb: sense 2", "verb: sense 3", "(1 more)", "— WordNet"]


def test_a_reload_takes_the_quiz_up(page, server):
    """The address names the server's quiz: a reload takes it up at the question it stood at, with its score; once
    it is over, a reload shows its summary; a quiz ended before its last question is not named any more; an address
    naming no quiz the server keeps says so."""
    reload = lambda: (page.reload(), page.wait_for_selector("body[data-ready='1']", state="attached"))  # noqa: E731
    start_by_keyboard(page, "length 7 and probability 1-50", 3)
    for w in by_letters()[prompt(page).lower()]:
        type_answer(page, w)
    wait_question(page, 1)
    page.keyboard.press("Shift+Enter")
    wait_question(page, 2)
    third = prompt(page).lower()
    assert re.search(r"[?&]quiz=[^&#]+", page.url) and page.url.endswith("#study")
    reload()
    wait_question(page, 2)
    assert prompt(page).lower() == third and page.inner_text("#study-score") == "1 right, 1 missed"
    assert page.evaluate("document.activeElement.id") == "study-answer"
    page.keyboard.press("Shift+Enter")
    page.wait_for_selector("#study-summary:not([hidden])")
    reload()
    page.wait_for_selector("#study-summary:not([hidden])")
    assert page.inner_text("#study-result").startswith("1 of 3 questions right, 2 missed;")
    page.click("#study-new")
    start_by_keyboard(page, "length 7 and probability 1-50", 3)
    key = re.search(r"[?&]quiz=([^&#]+)", page.url).group(1)
    page.click("#study-end")
    page.wait_for_selector("#study-summary:not([hidden])")
    assert "quiz=" not in page.url
    ended = json.load(urlopen(f"{server}/api/quiz/{key}"))   # End quiz closed it on the server
    assert ended["ended"] and ended["finished"] and ended["question"] is None and ended["position"] == 0
    reload()
    assert page.is_visible("#study-setup") and not page.is_visible("#study-quiz") and not page.is_visible("#study-summary")
    page.goto(server + "/?quiz=nosuchquiz#study")
    page.wait_for_selector("body[data-ready='1']", state="attached")
    page.wait_for_selector("#study-status.error")
    assert "nosuchquiz" in page.inner_text("#study-status") and "quiz=" not in page.url


@pytest.mark.parametrize("kind, word, question", [
    ("anagram", "retains", "aeinrst"), ("subanagram", "stare", "aerst"), ("hooks", "care", "care"),
    ("pattern", "quixotic", "q??x?t?c"),
])
def test_a_quiz_of_words(page, quiz_maker, kind, word, question):
    """Words give their questions (an alphagram, a rack's alphagram, the word, the word with its vowels as ?), the
    same from the server and from the page, and the answers are the word list's."""
    page.click("#tab-study")
    page.select_option("#study-type", kind)
    page.select_option("#study-from", "words")
    page.select_option("#study-order", "given")
    start_by_keyboard(page, word, 1)
    assert prompt(page).lower() == question
    page.keyboard.press("Escape")
    page.wait_for_selector("#study-last:not([hidden])")
    shown = page.eval_on_selector_all("#study-last-words button", "els => els.map(e => e.dataset.word)")
    assert sorted(shown) == oracle_answers(kind, question)


def test_an_answer_the_server_was_too_busy_for_is_sent_again(page):
    """A 503 with Retry-After (the study store busy) is no lost answer: the page sends it again after the wait, and
    the mark comes; a server busy past the retries is said."""
    busy = {"left": 1}

    def answer_route(route):
        if busy["left"] > 0:
            busy["left"] -= 1
            route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="application/json",
                          body='{"error": {"type": "ResourceBusy", "message": "the study store is busy"}}')
        else:
            route.continue_()

    page.route(re.compile(r".*/api/quiz/[^/]+/answer$"), answer_route)
    start_by_keyboard(page, "length 7 and probability 1-50", 2)
    first = by_letters()[prompt(page).lower()][0]
    type_answer(page, first)
    assert wait_marks(page, 1) == [("right", first)] and busy["left"] == 0
    busy["left"] = 5
    type_answer(page, "qqqqqqq")
    page.wait_for_selector("#study-status.error")
    assert "the study store is busy" in page.inner_text("#study-status")


def zyzzyva_of(questions: list[str]) -> str:
    """Zyzzyva's Anagram Question/Answer list of alphagrams, from the word list alone."""
    return "".join(f"Q: {q.upper()}\n" + "".join(f"A: {w.upper()}\n" for w in by_letters()[q]) for q in questions)


def test_cardbox_lists_import_and_export_per_player(sized, server):
    """The player's name is kept in the browser and sent with every study request: a list pasted and a Zyzzyva file
    chosen go into that player's cardbox alone (the server's counts say so, and another player's stay empty); the
    export downloads every question with the word list's answers; a reload keeps the player."""
    pg, width = sized
    ann, bob = f"Ann {width}", f"Bob {width}"
    pg.click("#tab-study")
    pg.fill("#study-user", ann)
    pg.press("#study-user", "Tab")
    assert pg.evaluate("localStorage.getItem('lexigraph.study.user')") == ann
    pg.wait_for_selector("#study-lists:not([hidden])")
    pg.click("#cards-toggle")
    pg.fill("#cards-list", "retains\nnastier\ncare\nq@x\n")
    pg.click("#cards-import")
    pg.wait_for_function("document.querySelector('#cards-status').textContent.startsWith('Added')")
    said = pg.inner_text("#cards-status")
    assert said.startswith(f"Added 2 of 2 anagram questions to {ann}'s cardbox") and "1 lines left out" in said, said
    pg.set_input_files("#cards-file", files=[{"name": "zyz.txt", "mimeType": "text/plain",
                                              "buffer": zyzzyva_of(["dgo"]).encode()}])
    pg.wait_for_function("document.querySelector('#cards-status').textContent.startsWith('zyz.txt: 3 lines read')")
    pg.click("#cards-import")
    pg.wait_for_function("document.querySelector('#cards-status').textContent.startsWith('Added 1 of 1')")
    status, counts = get_json(server, "/api/cardbox?" + urlencode({"user": ann}))
    assert status == 200 and counts["total"] == 3 and counts["due_now"] == 3
    assert get_json(server, "/api/cardbox?" + urlencode({"user": bob}))[1]["total"] == 0
    pg.wait_for_function("document.querySelector('#study-from option[value=due]').textContent === 'the cardbox: 3 due now'")
    assert overflow(pg) <= 0 and labels_astray(pg, "#view-study") == []
    shot(pg, f"study-lists-{width}")
    pg.select_option("#cards-format", "zyzzyva")
    with pg.expect_download() as download:
        pg.click("#cards-export")
    saved = Path(download.value.path()).read_text()
    assert saved == zyzzyva_of(["aeinrst", "acer", "dgo"])
    assert download.value.suggested_filename == "cardbox-ENABLE-anagram-zyzzyva.txt"
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']", state="attached")
    pg.click("#tab-study")
    assert pg.input_value("#study-user") == ann
    pg.wait_for_function("document.querySelector('#study-from option[value=due]').textContent === 'the cardbox: 3 due now'")
    pg.fill("#study-user", bob)   # another player on the same server: an empty cardbox of their own
    pg.press("#study-user", "Tab")
    pg.wait_for_function("document.querySelector('#study-from option[value=due]').textContent === 'the cardbox: 0 due now'")
    start_by_keyboard(pg, "length 7 and probability 1-50", 2)
    wait_question(pg, 0)
    pg.keyboard.press("Shift+Enter")   # the first question skipped (missed), then the quiz ended
    wait_question(pg, 1)
    pg.click("#study-end")
    pg.wait_for_selector("#study-summary:not([hidden])")
    pg.wait_for_function("document.querySelector('#study-due').textContent.includes('of 1 card')")
    assert get_json(server, "/api/cardbox?" + urlencode({"user": ann}))[1]["total"] == 3
    assert get_json(server, "/api/cardbox?" + urlencode({"user": bob}))[1]["total"] == 1   # Bob's own card
    pg.fill("#study-user", "")
    pg.press("#study-user", "Tab")
    assert pg.evaluate("localStorage.getItem('lexigraph.study.user')") is None

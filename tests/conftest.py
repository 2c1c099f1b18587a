"""Shared fixtures: generated lexicons, the real lists in ../shared/data when present, and the two engines.

``engine_kind`` runs a test once per engine (``"c"``, ``"python"``); the C case
skips, saying why, when the C engine is not available. ``open_lexicon`` opens
a source (a path, words, or a lexicon file's bytes) on the engine of the case.
A test that compares the C engine with its Python twin takes the ``"c"`` case
only (``@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)``) and
opens the twin with ``open_python``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import lexigraph
from lexigraph.crossword.grid import BLOCK, Grid
from lexigraph.engine import compiled
from lexigraph.engine.fileformat import open_bytes

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LEXIGRAPH_SHARED_DATA", ROOT.parent / "shared" / "data"))

# The registry of named lexicons (lexigraph lexicons): a file of the test run's own, never the user's; a test that
# registers lexicons points LEXIGRAPH_LEXICONS at a file of its own (the `registry_file` fixture).
os.environ["LEXIGRAPH_LEXICONS"] = str(Path(tempfile.mkdtemp(prefix="lexigraph-registry-")) / "lexicons.toml")

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("default")


def shared_file(name: str) -> Path:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not present (real word lists live in ../shared/data)")
    return path


@pytest.fixture(scope="session")
def twl_words() -> list[str]:
    return shared_file("twl06.txt").read_text().split()


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]) -> Path:
    """The file ``name``, made by ``make(path)`` once per test run: the test workers (pytest-xdist) share it, the
    first that needs it making it while the others wait on a lock. Use it for files tests only read."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") and sys.platform != "win32":
        base = base.parent  # the run's folder, shared by its workers (each has its own below it)
    folder = base / "made-once"
    folder.mkdir(exist_ok=True)
    path = folder / name
    with open(folder / f"{name}.lock", "w") as lock:
        if sys.platform != "win32":  # (without fcntl each test worker makes its own)
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            make(path)  # lexigraph.build writes atomically: a path that exists is whole
    return path


@pytest.fixture(scope="session")
def twl(tmp_path_factory, twl_words) -> lexigraph.Lexicon:
    source = shared_file("twl06.txt")
    return lexigraph.open(made_once(tmp_path_factory, "twl06.lex", lambda path: lexigraph.build(source, path)))


@pytest.fixture(scope="session")
def enable() -> lexigraph.Lexicon:
    return lexigraph.open()


@pytest.fixture(scope="session")
def shared():
    """A function: the path of a file in ../shared/data, or skip the test."""
    return shared_file


def _shell_commands(example: str) -> list[list[str]]:
    """The simple commands of a shell line, split at |, &&, ;, and with redirections dropped."""
    import shlex

    lexer = shlex.shlex(example, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    out: list[list[str]] = []
    current: list[str] = []
    skip = False
    for token in lexer:
        if skip:
            skip = False
            continue
        if token in ("|", "&&", ";", "||"):
            out.append(current)
            current = []
        elif token in (">", ">>", "<", "2>"):
            skip = True
        else:
            current.append(token)
    out.append(current)
    return [c for c in out if c]


def _example_argvs(cmd: object, skip_substitutions: bool = False) -> list[list[str]]:
    argvs = []
    for example in getattr(cmd, "examples"):
        if skip_substitutions and "$(" in example:
            continue
        argvs += [argv[1:] for argv in _shell_commands(example) if argv[0] == "lexigraph"]
    return argvs


@pytest.fixture(scope="session")
def example_argvs():
    """``example_argvs(cmd)``: the arguments of each ``lexigraph`` command line in a command's examples
    (shell pipes and redirections aside; ``skip_substitutions`` leaves out lines with ``$(...)``)."""
    return _example_argvs


#: A game record: a phony withdrawn, an exchange, a pass, a challenge bonus and the end-of-game points.
GCG = """#character-encoding UTF-8
#player1 alice Alice A
#player2 bob Bob B
#lexicon ENABLE
>alice: AEINRST 8D RETAINS +66 66
>bob: ABQUIZA H4 QUIZ. +50 50
>bob: ABQUIZA -- -50 0
>alice: OOPSXYZ 9E SOX +39 105
>bob: AABQUZA -ABQ +0 0
>alice: OOPSXYY - +0 105
>bob: AAUZAAB (challenge) +5 5
>alice: (AB) +8 113
"""


@pytest.fixture(scope="session")
def gcg_text() -> str:
    """A GCG game record (:data:`GCG`)."""
    return GCG


# -- anagrams: a brute-force oracle -------------------------------------------------------------------


def anagram_oracle(words, rack, blanks, mode, through="", min_length=2, max_length=None, more=False):
    """Brute force over the whole list, one Counter per word."""
    rc, tc = Counter(rack), Counter(through)
    size = len(rack) + blanks + len(through)
    if more:
        mode = "super"
    out = []
    for w in words:
        n = len(w)
        if n < min_length or (max_length is not None and n > max_length):
            continue
        if through and n <= len(through):
            continue
        wc = Counter(w)
        if any(wc[t] < k for t, k in tc.items()):
            continue
        rest = wc - tc
        if mode == "super":
            ok = n >= size and not (rc - rest)
        else:
            ok = sum((rest - rc).values()) <= blanks and (n == size if mode == "exact" else n <= size)
        if ok:
            out.append(w)
    return sorted(out)


@pytest.fixture(scope="session", name="anagram_oracle")
def anagram_oracle_fixture():
    """``anagram_oracle(words, rack, blanks, mode, through="", min_length=2, max_length=None, more=False)``."""
    return anagram_oracle


@pytest.fixture
def registry_file(tmp_path, monkeypatch):
    """The path of an empty registry of named lexicons of the test's own (``LEXIGRAPH_LEXICONS`` points at it)."""
    path = tmp_path / "registry" / "lexicons.toml"
    monkeypatch.setenv("LEXIGRAPH_LEXICONS", str(path))
    return path


#: A server request's time limit in the tests when the test sets none (the product's default is 10 s).
TEST_REQUEST_SECONDS = 60.0


@pytest.fixture(scope="session", autouse=True)
def servers_wait_for_their_heavy_lane() -> Iterator[None]:
    """Servers made by the tests without a time limit of their own allow a request 60 s, not 10.

    The tests run two at a time on 2 cores (pytest-xdist). A heavy lane's processes start with its first command,
    spawned 10 steps below the test's CPU priority in the batch class; while the other test worker holds the CPU
    their start alone can pass 10 s, and the first heavy request of a test would be a 503 from the time limit
    instead of its answer. Tests of the time limit give their own (``Limits(timeout=...)``) and keep it.
    """
    try:
        from lexigraph.server.lanes import Limits
    except ImportError:  # the server's modules need nothing optional, but a test run without them needs no limit
        yield
        return
    names = [f.name for f in dataclasses.fields(Limits) if f.init]
    defaults = Limits.__init__.__defaults__
    assert defaults is not None and len(defaults) == len(names), "Limits: every field has a default"
    patched = list(defaults)
    patched[names.index("timeout")] = TEST_REQUEST_SECONDS
    Limits.__init__.__defaults__ = tuple(patched)
    try:
        yield
    finally:
        Limits.__init__.__defaults__ = defaults


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, so compiled word lists never leak between tests."""
    monkeypatch.delenv("LEXIGRAPH_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


# -- the two engines ------------------------------------------------------------------------------

ENGINE_KINDS = ["c", "python"]


def open_on(kind: str, source: object = None, **options: object) -> lexigraph.Lexicon:
    """``source`` (a path, words, or a lexicon file's bytes) opened on the engine ``kind``."""
    pure = kind == "python"
    if isinstance(source, (bytes, bytearray)):
        lex = lexigraph.Lexicon(open_bytes(bytes(source)), pure_python=pure)
    else:
        lex = lexigraph.open(source, pure_python=pure, **options)
    assert lex.engine.kind == kind, (lex.engine.kind, kind)
    return lex


@pytest.fixture(scope="session", params=ENGINE_KINDS)
def engine_kind(request: pytest.FixtureRequest) -> str:
    """``"c"`` or ``"python"``: the engine a test runs on (the C case skips when the engine is not available)."""
    kind: str = request.param
    if kind == "c" and not compiled.available():
        reason = ("LEXIGRAPH_PURE_PYTHON is set" if lexigraph.buildinfo.pure_python()
                  else "lexigraph._native is not built")
        pytest.skip(f"the C engine is not available: {reason}")
    return kind


@pytest.fixture(scope="session")
def open_lexicon(engine_kind: str):
    """``open_lexicon(source=None, **options)``: a lexicon on the engine of the case (see :func:`open_on`)."""

    def open_(source: object = None, **options: object) -> lexigraph.Lexicon:
        return open_on(engine_kind, source, **options)

    return open_


@pytest.fixture(scope="session")
def open_python():
    """``open_python(source=None, **options)``: a lexicon on the Python engine, the twin a C case is held to."""

    def open_(source: object = None, **options: object) -> lexigraph.Lexicon:
        return open_on("python", source, **options)

    return open_


@pytest.fixture(scope="session")
def enable_on(engine_kind: str) -> lexigraph.Lexicon:
    """The built-in ENABLE on the engine of the case."""
    return open_on(engine_kind)


# -- crossword fills: an independent model of the grid (runs of open cells, found without the Grid class) --


def runs(cells: list[list[str | None]]) -> list[list[tuple[int, int]]]:
    """Every maximal across or down run of >= 2 open cells (unnumbered, any order)."""
    h, w = len(cells), len(cells[0])
    out = []
    for r in range(h):
        line = [(r, c) for c in range(w)]
        out += _runs_of(line, cells)
    for c in range(w):
        line = [(r, c) for r in range(h)]
        out += _runs_of(line, cells)
    return out


def _runs_of(line, cells):
    out, cur = [], []
    for r, c in line:
        if cells[r][c] != BLOCK:
            cur.append((r, c))
        else:
            if len(cur) >= 2:
                out.append(cur)
            cur = []
    if len(cur) >= 2:
        out.append(cur)
    return out


def named_runs(cells: list[list[str | None]]) -> list[tuple[str, list[tuple[int, int]]]]:
    """Every run with its name (1A, 2D, ...), numbered as constructors number them, found from the cells alone."""
    h, w = len(cells), len(cells[0])
    starts: dict[tuple[int, int], int] = {}
    out = []
    for run in runs(cells):
        starts.setdefault(run[0], 0)
    number = 0
    numbers = {}
    for r in range(h):
        for c in range(w):
            if (r, c) in starts:
                number += 1
                numbers[(r, c)] = number
    for run in runs(cells):
        across = len(run) > 1 and run[0][0] == run[1][0]
        out.append((f"{numbers[run[0]]}{'A' if across else 'D'}", run))
    return out


def _floor(name: str, length: int, min_priority: int, min_by_length, min_by_slot) -> int:
    if min_by_slot and name in min_by_slot:
        return min_by_slot[name]
    if min_by_length and length in min_by_length:
        return min_by_length[length]
    return min_priority


def _shares_run(a: str, b: str, n: int) -> bool:
    return bool(n) and any(a[i : i + n] in b for i in range(len(a) - n + 1))


def verify(lex, before: Grid, after: Grid, *, min_priority=0, allow_repeats=False, region=None, min_by_length=None,
           min_by_slot=None, max_shared=0, theme=()) -> list[str]:
    """Problems with a fill, judged from the cells alone (empty list: a valid fill).

    Every entry is in the lexicon at or above its minimum (the slot's, else its length's, else ``min_priority``;
    entries the grid gave whole, or theme words, take any priority and theme words need not be in the lexicon),
    no word repeats, no two entries share a run of ``max_shared`` tiles (two given entries excepted), every theme
    word is an entry, the fixed letters are kept, and nothing outside ``region`` is written.
    """
    problems = []
    if after.height != before.height or after.width != before.width:
        return ["the grid changed size"]
    for r in range(before.height):
        for c in range(before.width):
            b, a = before.cell(r, c), after.cell(r, c)
            if b is not None and a != b:
                problems.append(f"cell {r},{c} was {b!r}, now {a!r}")
            if b is None and region is not None and (r, c) not in region and a is not None:
                problems.append(f"cell {r},{c} outside the region was filled")
    themes = set(theme)
    entries = []  # (word, given)
    for name, run in named_runs([list(row) for row in after.cells]):
        tiles = [after.cell(r, c) for r, c in run]
        if any(t is None for t in tiles):
            if region is None:
                problems.append(f"run {run} is not filled")
            else:  # a partial run that could be completed must still be completable
                pattern = "".join(t if t is not None else "?" for t in tiles)
                was = "".join(before.cell(r, c) or "?" for r, c in run)
                if not lex.match(pattern, min_priority=0) and lex.match(was, min_priority=0):
                    problems.append(f"partial run {was} -> {pattern} can no longer be completed")
            continue
        word = "".join(tiles)
        was_fixed = all(before.cell(r, c) is not None for r, c in run)
        if was_fixed and region is not None and word not in lex:
            continue  # a region fill leaves the rest of the grid as it is, non-words included
        given = was_fixed or word in themes
        if word not in lex:
            if word not in themes:
                problems.append(f"{word!r} is not in the lexicon")
        elif not given:
            floor = _floor(name, len(run), min_priority, min_by_length, min_by_slot)
            if (lex.priority(word) or 0) < floor:
                problems.append(f"{word!r} at {name} has priority {lex.priority(word)} < {floor}")
        entries.append((word, given))
    seen = [w for w, _ in entries]
    if not allow_repeats and len(seen) != len(set(seen)):
        problems.append(f"repeated words: {sorted(w for w in set(seen) if seen.count(w) > 1)}")
    if max_shared:
        for i, (a, ga) in enumerate(entries):
            for b, gb in entries[i + 1 :]:
                if not (ga and gb) and _shares_run(a, b, max_shared):
                    problems.append(f"{a!r} and {b!r} share a run of {max_shared} tiles")
    for t in themes - set(seen):
        problems.append(f"theme word {t!r} is not in the grid")
    return problems


def brute_force_fills(words: dict[str, int], grid: Grid, *, min_priority=0, allow_repeats=False, min_by_length=None,
                      min_by_slot=None, max_shared=0, theme=(), limit=None) -> list[dict[str, str]]:
    """Every fill (slot name -> word), by exhaustive search over the word list, run by run (small inputs only).

    Theme words may fill any slot of their length (whatever their priority, in the list or not) and count as given.
    """
    cells = [list(row) for row in grid.cells]
    named = named_runs(cells)
    themes = set(theme)
    given_whole = [all(cells[r][c] is not None for r, c in run) for _, run in named]
    pools = [
        {w for w, p in words.items() if len(w) == len(run) and p >= _floor(name, len(run), min_priority, min_by_length, min_by_slot)}
        | {t for t in themes if len(t) == len(run)}
        for name, run in named
    ]
    out: list[dict[str, str]] = []

    def fits(word, run):
        return all(cells[r][c] in (None, ch) for ch, (r, c) in zip(word, run))

    def go(i, chosen):
        if limit is not None and len(out) >= limit:
            return
        if i == len(named):
            if themes <= {w for w, _ in chosen}:
                out.append({name: w for (name, _), (w, _) in zip(named, chosen)})
            return
        name, run = named[i]
        if given_whole[i]:
            word = "".join(cells[r][c] for r, c in run)
            options = [word] if word in words or word in themes else []
        else:
            options = sorted(w for w in pools[i] if fits(w, run))
        for w in options:
            given = given_whole[i] or w in themes
            if not allow_repeats and any(w == x for x, _ in chosen):
                continue
            if max_shared and any(not (given and g) and _shares_run(w, x, max_shared) for x, g in chosen):
                continue
            saved = [cells[r][c] for r, c in run]
            for ch, (r, c) in zip(w, run):
                cells[r][c] = ch
            go(i + 1, chosen + [(w, given)])
            for v, (r, c) in zip(saved, run):
                cells[r][c] = v

    go(0, [])
    return out


def brute_force_exists(words: dict[str, int], grid: Grid, **rules) -> bool:
    """Whether any fill exists under the rules (see :func:`brute_force_fills`)."""
    return bool(brute_force_fills(words, grid, limit=1, **rules))


def brute_force_counts(words: dict[str, int], grid: Grid, *, min_priority=0, allow_repeats=False, min_by_length=None,
                       min_by_slot=None, max_shared=0) -> dict[str, int] | None:
    """Each slot's candidates at the arc-consistency fixpoint (None: a slot is left without any), found naively:
    candidates fit the cells' letter sets, each cell's set is what every slot through it still allows, and a slot
    left with one word takes it (and, with ``max_shared``, its runs) from the other slots."""
    cells = [list(row) for row in grid.cells]
    named = named_runs(cells)
    given = [all(cells[r][c] is not None for r, c in run) for _, run in named]
    cand = []
    for (name, run), g in zip(named, given):
        floor = 0 if g else _floor(name, len(run), min_priority, min_by_length, min_by_slot)
        cand.append({w for w, p in words.items() if len(w) == len(run) and p >= floor
                     and all(cells[r][c] in (None, ch) for ch, (r, c) in zip(w, run))})
    through: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, (_, run) in enumerate(named):
        for k, cell in enumerate(run):
            through.setdefault(cell, []).append((i, k))
    changed = True
    while changed:
        changed = False
        if any(not c for c in cand):
            return None
        for cell, refs in through.items():
            letters = set.intersection(*({w[k] for w in cand[i]} for i, k in refs))
            for i, k in refs:
                kept = {w for w in cand[i] if w[k] in letters}
                if kept != cand[i]:
                    cand[i], changed = kept, True
        for i, c in enumerate(cand):
            if len(c) != 1:
                continue
            (w,) = c
            for j in range(len(cand)):
                if j == i:
                    continue
                kept = cand[j]
                if not allow_repeats:
                    kept = kept - {w}
                if max_shared and not (given[i] and given[j]):
                    kept = {x for x in kept if not _shares_run(w, x, max_shared)}
                if kept != cand[j]:
                    cand[j], changed = kept, True
    return {name: len(c) for (name, _), c in zip(named, cand)}


@pytest.fixture(scope="session")
def fill_oracle():
    """``fill_oracle.runs``, ``.named_runs``, ``.verify`` (a fill's problems, from the cells alone),
    ``.brute_force_fills``, ``.brute_force_exists`` and ``.brute_force_counts`` (arc consistency, naively)."""
    import types

    return types.SimpleNamespace(runs=runs, named_runs=named_runs, verify=verify, brute_force_fills=brute_force_fills,
                                 brute_force_exists=brute_force_exists, brute_force_counts=brute_force_counts)


# -- hostile inputs: generated and mutated, run in a child with a memory cap --------------------------


def run_capped(check, inputs, *, memory: int = 1 << 30, timeout: float = 120.0) -> list[str]:
    """``check(x)`` for each input in a forked child whose address space may grow by ``memory`` bytes at
    most (``RLIMIT_AS``); the outcome of each: ``"ok"``, ``"error"`` (a LexiconError) or what else it raised.

    The child is killed past ``timeout`` seconds (the test then fails): bad input must be answered in
    bounded time and memory, never with a traceback.
    """
    import multiprocessing
    import resource
    import traceback

    from lexigraph.errors import LexiconError

    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    def work() -> None:
        with open("/proc/self/statm") as f:
            in_use = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (in_use + memory, in_use + memory))
        out = []
        for x in inputs:
            try:
                check(x)
                out.append("ok")
            except LexiconError:
                out.append("error")
            except BaseException as e:  # noqa: BLE001 - each is a finding
                out.append(f"{type(e).__name__}: {str(e)[:200]}\n{traceback.format_exc()[-1500:]}")
        send.send(out)

    proc = ctx.Process(target=work)
    proc.start()
    try:
        if not receive.poll(timeout):
            pytest.fail(f"the child ran past {timeout} s on these inputs: {[str(x)[:80] for x in inputs]}")
        outcomes: list[str] = receive.recv()
    except EOFError:
        pytest.fail(f"the child died (exit {proc.exitcode}) on these inputs: {[str(x)[:80] for x in inputs]}")
    finally:
        proc.kill()
        proc.join()
    return outcomes


@pytest.fixture(scope="session")
def capped():
    """:func:`run_capped`; asserts that every outcome is a result or a LexiconError, naming the input if not."""

    def run(check, inputs, **limits):
        outcomes = run_capped(check, inputs, **limits)
        bad = [(x, o) for x, o in zip(inputs, outcomes) if o not in ("ok", "error")]
        assert not bad, f"{len(bad)} input(s) raised something else than a LexiconError; first: {bad[0][0]!r}\n{bad[0][1]}"
        return outcomes

    return run


def mutated(seeds, alphabet: str, *, binary: bool = False):
    """A strategy: one of ``seeds`` (valid inputs), edited 0-4 times (characters inserted, deleted, replaced,
    a stretch repeated, another seed spliced in); ``binary``: seeds and edits are bytes."""
    from hypothesis import strategies as st

    piece = st.binary(min_size=1, max_size=8) if binary else st.text(alphabet, min_size=1, max_size=8)

    @st.composite
    def build(draw):
        text = draw(st.sampled_from(seeds))
        for _ in range(draw(st.integers(0, 4))):
            op = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "splice"]))
            i = draw(st.integers(0, len(text)))
            if op == "insert":
                text = text[:i] + draw(piece) + text[i:]
            elif op == "delete":
                text = text[:i] + text[draw(st.integers(i, len(text))):]
            elif op == "replace":
                text = text[:i] + draw(piece)[:3] + text[i + 1:]
            elif op == "repeat":
                j = draw(st.integers(i, min(len(text), i + 20)))
                text = text[:i] + text[i:j] * draw(st.integers(2, 60)) + text[j:]
            else:
                other = draw(st.sampled_from(seeds))
                text = text[:i] + other[draw(st.integers(0, len(other))):]
        return text

    return build()


@pytest.fixture(scope="session", name="mutated")
def mutated_fixture():
    return mutated


# -- peer programs (wolges): binaries and files their setup scripts build ---------------------------------

#: Where the peers' setup scripts (../shared/peers/*/setup.sh) build programs and data.
PEERS_CACHE = Path(os.environ.get("LEXIGRAPH_PEERS", Path.home() / ".cache" / "lexigraph-peers"))


def peer_file(relative: str) -> Path:
    path = PEERS_CACHE / relative
    if not path.exists():
        pytest.skip(f"{path} is not present (../shared/peers/wolges/setup.sh builds it; LEXIGRAPH_PEERS moves it)")
    return path


@pytest.fixture(scope="session")
def peer():
    """A function: the path of a file the peers' setup built (``wolges/target/release/movegen-bench``,
    ``data/TWL06.kwg``), or skip the test."""
    return peer_file

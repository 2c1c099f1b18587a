"""Move generation: every legal play on a board for a rack, scored, over the lexicon's word graph.

The generator is Appel and Jacobson's (1988): for each line of the board,
cross-check sets say which tiles may go on each empty square (the word
formed across the line must be in the lexicon), anchors are the empty
squares next to a tile (the start square on an empty board), and each play
is grown from an anchor: a left part from the rack (on squares that touch
nothing) or the board tiles already left of the anchor, then extended
right through the word graph, square by square. The compiled twin in
``lexigraph._native`` (``generate_moves``) runs the same algorithm over the same arc records
(reading them through ``arc.h``), with one left-part enumeration shared by
every anchor of both directions; ``LEXIGRAPH_PURE_PYTHON=1`` or
``pure_python=True`` selects this module's. The tests hold both to the
same plays and scores and to a brute-force oracle.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> lex = lexigraph.load(["cat", "cats", "at", "as", "ta", "act", "scat"])
>>> pos = Position(Game.preset("scrabble"))
>>> best = generate(lex, pos, "CATS")[:3]
>>> [(m.notation, m.score, m.leave) for m in best]
[('8E CATS', 12, ''), ('8E SCAT', 12, ''), ('8F CATS', 12, '')]
>>> m = score_play(lex, pos.with_play(best[0]), "F8 (A)T", rack="T")
>>> m.words, m.score
(('at',), 2)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..buildinfo import c_module
from .game import Game, GameError, column_letter, parse_square
from .position import Position, parse_rack, rack_text, split_tiles, tile_text

if TYPE_CHECKING:  # pragma: no cover
    from ..lexicon import Lexicon

_c: Any = c_module("_native")

BLANK_FLAG = 0x80
REC_SIZE = 40


class IllegalPlay(GameError):
    """A play that breaks a rule; ``reason`` names the rule, ``words`` lists words not in the lexicon."""

    def __init__(self, message: str, reason: str, words: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.words = tuple(words)


@dataclass(frozen=True)
class Placed:
    """A tile put on the board by a play."""

    row: int
    col: int
    tile: str  # the label, lower case
    blank: bool


@dataclass(frozen=True)
class Move:
    """A play (or an exchange or a pass) with its score and leave.

    ``notation`` is ``8H WORD`` (across from row 8 column H) or ``H8 WORD``
    (down), upper case tiles, lower case blanks, board tiles played through
    in parentheses; an exchange is ``-ABC`` and a pass ``-``.
    """

    kind: str  # "play", "exchange" or "pass"
    score: int
    leave: str
    row: int = 0
    col: int = 0
    across: bool = True
    tiles: tuple[Placed, ...] = ()
    word: str = ""
    words: tuple[str, ...] = ()
    notation: str = ""
    exchanged: str = ""

    @property
    def position(self) -> str:
        return self.notation.split(" ")[0] if self.kind == "play" else ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "notation": self.notation, "score": self.score, "leave": self.leave}
        if self.kind == "play":
            d.update(
                word=self.word,
                position=self.position,
                row=self.row + 1,
                col=column_letter(self.col),
                direction="across" if self.across else "down",
                words=list(self.words),
                tiles=[{"row": t.row + 1, "col": column_letter(t.col), "tile": t.tile, "blank": t.blank}
                       for t in self.tiles],
            )
        elif self.kind == "exchange":
            d["exchanged"] = self.exchanged
        return d


class MoveList(list[Move]):
    """The moves :func:`generate` returns, with ``total``: the number of distinct plays before ``top``."""

    total: int = 0


# ---------------------------------------------------------------------------
# The word graph, as arc records


def _graph(lex: "Lexicon") -> tuple[memoryview, int]:
    """(the raw arc records, for C; the root list's index)."""
    return lex.graph.buffer, int(lex.graph.root)


def _kids(lex: "Lexicon") -> bytes:
    """For each arc index, the tiles (bit t) of the arc list that starts there: the C generator's
    dead-end test. Built once per lexicon with NumPy."""

    def build() -> bytes:
        import numpy as np

        r = lex.graph.records
        if not len(r):
            return b""
        tiles = (r & np.uint64(0xFF)).astype(np.uint64)
        bits = np.where(tiles < 64, np.left_shift(np.uint64(1), np.minimum(tiles, np.uint64(63))), np.uint64(0))
        last = ((r >> np.uint64(9)) & np.uint64(1)).astype(bool)
        # OR of the bits from each index to the end of its list: a reversed segmented scan.
        seg = np.concatenate(([0], np.cumsum(last[:-1])))  # list number of each arc
        out = bits.copy()
        rev = out[::-1].copy()
        seg_rev = seg[::-1]
        for k in range(1, 256):
            shifted = np.zeros_like(rev)
            shifted[k:] = rev[:-k]
            same = np.zeros(len(rev), bool)
            same[k:] = seg_rev[k:] == seg_rev[:-k]
            if not same.any():
                break
            rev = rev | np.where(same, shifted, np.uint64(0))
        return rev[::-1].astype("<u8").tobytes()

    return lex.store.cached(("moves", "kids"), build)


class _Arcs:
    """Arc lists of a graph as Python tuples (tile, accepts, target), read on first use."""

    def __init__(self, records: Any, root: int) -> None:
        self.records = records
        self.n = len(records)
        self.root = root
        self.lists: dict[int, tuple[tuple[int, bool, int], ...]] = {}
        self.index: dict[int, dict[int, tuple[bool, int]]] = {}

    def arcs(self, node: int) -> tuple[tuple[int, bool, int], ...]:
        got = self.lists.get(node)
        if got is not None:
            return got
        out = []
        i = node
        if node:
            while True:
                if i >= self.n:
                    raise GameError("the word graph points outside itself")
                r = int(self.records[i])
                out.append((r & 0xFF, bool(r & 0x100), r >> 32))
                if r & 0x200:
                    break
                i += 1
        got = tuple(out)
        self.lists[node] = got
        self.index[node] = {t: (a, tg) for t, a, tg in got}
        return got

    def step(self, node: int, tile: int) -> tuple[bool, int] | None:
        idx = self.index.get(node)
        if idx is None:
            self.arcs(node)
            idx = self.index[node]
        return idx.get(tile)

    def walk(self, codes: Iterable[int]) -> tuple[bool, int] | None:
        """(accepts, next node) after the whole sequence; None if it leaves the graph."""
        node, acc = self.root, False
        for c in codes:
            got = self.step(node, c)
            if got is None:
                return None
            acc, node = got
        return acc, node


def _arcs_of(lex: "Lexicon") -> _Arcs:
    graph = lex.graph
    return lex.store.cached(("moves", "arcs"), lambda: _Arcs(graph.records.tolist(), int(graph.root)))


# ---------------------------------------------------------------------------
# The generator (pure Python twin of native/movegen.c)


def _transpose(v: Sequence[int], n: int) -> list[int]:
    return [v[c * n + r] for r in range(n) for c in range(n)]


def generate_raw(
    arcs: _Arcs,
    n: int,
    cells: Sequence[int],
    blanks: Sequence[int],
    lm: Sequence[int],
    wm: Sequence[int],
    points: Sequence[int],
    rack: Sequence[int],
    start: int,
    rack_size: int,
    bingo: int,
) -> list[tuple[int, int, int, int, bytes]]:
    """Every play as (score, row, col, across, squares): ``squares`` holds a byte per square of the
    main word, 0 for a board tile, else the tile code (| 0x80 for a blank). One-tile plays once."""
    out: list[tuple[int, int, int, int, bytes]] = []
    n_tiles = len(points) - 1
    all_mask = ((1 << (n_tiles + 1)) - 1) & ~1
    board_empty = not any(cells)
    sq_pts_full = [0 if (not c or b) else points[c] for c, b in zip(cells, blanks)]
    root = arcs.root
    for across in (True, False):
        if across:
            C, P, LM, WM, st = list(cells), sq_pts_full, lm, wm, start
        else:
            C, P, LM, WM = (_transpose(v, n) for v in (cells, sq_pts_full, lm, wm))
            st = (start % n) * n + start // n
        N = n * n
        mask = [all_mask] * N
        csum = [0] * N
        hasx = [False] * N
        anchor = [False] * N
        for i in range(N):
            if C[i]:
                continue
            r, c = divmod(i, n)
            up = r
            while up > 0 and C[(up - 1) * n + c]:
                up -= 1
            dn = r
            while dn + 1 < n and C[(dn + 1) * n + c]:
                dn += 1
            left = c > 0 and C[i - 1]
            right = c + 1 < n and C[i + 1]
            if up < r or dn > r:
                hasx[i] = True
                anchor[i] = True
                s = 0
                for k in range(up, dn + 1):
                    if k != r:
                        s += P[k * n + c]
                csum[i] = s
                m = 0
                got = arcs.walk(C[k * n + c] for k in range(up, r))
                if got is not None:
                    for t, acc, tgt in arcs.arcs(got[1]):
                        if dn == r:
                            ok = acc
                        else:
                            node, ok = tgt, False
                            for k in range(r + 1, dn + 1):
                                st2 = arcs.step(node, C[k * n + c])
                                if st2 is None:
                                    ok = False
                                    break
                                ok, node = st2
                        if ok:
                            m |= 1 << t
                mask[i] = m
            if left or right:
                anchor[i] = True
        if board_empty:
            anchor[st] = True
        rk = list(rack)
        word: list[int] = []

        def record(row: int, start_c: int, end_c: int, score: int, placed: int, last_sq: int) -> None:
            if not across and placed == 1 and hasx[last_sq]:
                return
            if across:
                out.append((score, row, start_c, 1, bytes(word)))
            else:
                out.append((score, start_c, row, 0, bytes(word)))

        def extend(node: int, c: int, row: int, a: int, start_c: int, acc: bool, placed: int,
                   msum: int, wmul: int, xtot: int, last_sq: int) -> None:
            base = row * n
            if c < n and C[base + c]:
                got = arcs.step(node, C[base + c])
                if got is None:
                    return
                word.append(0)
                extend(got[1], c + 1, row, a, start_c, got[0], placed, msum + P[base + c], wmul, xtot, last_sq)
                word.pop()
                return
            if acc and placed and c > a and c - start_c >= 2:
                score = msum * wmul + xtot + (bingo if placed == rack_size else 0)
                record(row, start_c, c, score, placed, last_sq)
            if c >= n or not node:
                return
            i = base + c
            m = mask[i]
            for t, t_acc, tgt in arcs.arcs(node):
                if not (m >> t) & 1:
                    continue
                for blank in (False, True):
                    if blank:
                        if not rk[0]:
                            continue
                        rk[0] -= 1
                        p = 0
                    else:
                        if not rk[t]:
                            continue
                        rk[t] -= 1
                        p = points[t]
                    lmv, wmv = LM[i], WM[i]
                    x = xtot + ((csum[i] + p * lmv) * wmv if hasx[i] else 0)
                    word.append(t | BLANK_FLAG if blank else t)
                    extend(tgt, c + 1, row, a, start_c, t_acc, placed + 1, msum + p * lmv, wmul * wmv, x, i)
                    word.pop()
                    if blank:
                        rk[0] += 1
                    else:
                        rk[t] += 1

        def left_part(node: int, limit: int, row: int, a: int, lp: list[tuple[int, int]]) -> None:
            base = row * n
            k = len(lp)
            msum, wmul = 0, 1
            for j, (t, p) in enumerate(lp):
                sq = base + a - k + j
                msum += p * LM[sq]
                wmul *= WM[sq]
            extend(node, a, row, a, a - k, False, k, msum, wmul, 0, -1)
            if limit <= 0 or not node:
                return
            for t, _acc, tgt in arcs.arcs(node):
                for blank in (False, True):
                    if blank:
                        if not rk[0]:
                            continue
                        rk[0] -= 1
                    else:
                        if not rk[t]:
                            continue
                        rk[t] -= 1
                    lp.append((t, 0 if blank else points[t]))
                    word.append(t | BLANK_FLAG if blank else t)
                    left_part(tgt, limit - 1, row, a, lp)
                    word.pop()
                    lp.pop()
                    if blank:
                        rk[0] += 1
                    else:
                        rk[t] += 1

        for row in range(n):
            base = row * n
            for a in range(n):
                if not anchor[base + a]:
                    continue
                if a > 0 and C[base + a - 1]:
                    k = a - 1
                    while k > 0 and C[base + k - 1]:
                        k -= 1
                    got = arcs.walk(C[base + j] for j in range(k, a))
                    if got is None:
                        continue
                    word.extend([0] * (a - k))
                    extend(got[1], a, row, a, k, got[0], 0, sum(P[base + j] for j in range(k, a)), 1, 0, -1)
                    del word[:]
                else:
                    limit = 0
                    k = a - 1
                    while k >= 0 and not C[base + k] and not anchor[base + k]:
                        limit += 1
                        k -= 1
                    left_part(root, min(limit, rack_size - 1, sum(rk) - 1), row, a, [])
    return out


_REC_DTYPE: Any = None


def _rec_dtype() -> Any:
    global _REC_DTYPE
    if _REC_DTYPE is None:
        import numpy as np

        _REC_DTYPE = np.dtype([("score", "<i4"), ("row", "u1"), ("col", "u1"), ("across", "u1"), ("len", "u1"),
                               ("sq", "u1", (REC_SIZE - 8,))])
    return _REC_DTYPE


def _decode_records(buf: bytes, indices: Iterable[int]) -> list[tuple[int, int, int, int, bytes]]:
    out = []
    for k in indices:
        rec = buf[k * REC_SIZE : (k + 1) * REC_SIZE]
        score = int.from_bytes(rec[0:4], "little", signed=True)
        out.append((score, rec[4], rec[5], rec[6], bytes(rec[8 : 8 + rec[7]])))
    return out


def _use_c(pure_python: bool, n_tiles: int, points: Sequence[int]) -> bool:
    return _c is not None and not pure_python and n_tiles < 64 and max(points, default=0) < 256


# ---------------------------------------------------------------------------
# Public API


_ALIGNED: dict[Any, tuple[Game, Game]] = {}


def _aligned(lex: "Lexicon", position: Position) -> Position:
    """The position re-coded in the lexicon's alphabet (labels kept)."""
    if position.game.alphabet.labels == lex.alphabet.labels:
        return position
    key = (id(position.game), lex.alphabet.labels)
    pair = _ALIGNED.get(key)
    if pair is None or pair[0] is not position.game:
        if len(_ALIGNED) > 64:
            _ALIGNED.clear()
        pair = _ALIGNED[key] = (position.game, position.game.with_alphabet(lex.alphabet))
    game = pair[1]
    p = Position(game, racks=list(position.racks), scores=list(position.scores), zero_turns=position.zero_turns,
                 options=dict(position.options))
    for i, c in enumerate(position.codes):
        if c:
            label = position.game.alphabet.label(c)
            code = lex.alphabet.code(label)
            if code is None:
                raise GameError(f"the board holds {label.upper()!r}, which the lexicon's alphabet lacks")
            p.codes[i] = code
            p.blanks[i] = position.blanks[i]
    return p


def _is_word(lex: "Lexicon", codes: Sequence[int]) -> bool:
    """Whether the tile sequence is a word of the lexicon (an exact lookup by codes)."""
    return lex.id_of_codes(bytes(codes)) >= 0


def board_phonies(lex: "Lexicon", position: Position) -> list[str]:
    """Words on the board that are not in the lexicon (a position may hold phonies)."""
    alpha = position.game.alphabet
    bad = []
    pos = _aligned(lex, position)
    for _r, _c, _a, codes in pos.words_on_board():
        if not _is_word(lex, codes):
            bad.append(alpha.decode(bytes(codes)))
    return sorted(set(bad))


class _Prepared:
    """What one call needs besides the board: the game's squares and points as bytes, the graph."""

    __slots__ = ("game", "lm", "wm", "points", "points_b", "start", "n_codes", "c_ok")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.lm = bytes(game.letter_mult)
        self.wm = bytes(game.word_mult)
        self.points = game.points_by_code()
        self.points_b = bytes(min(p, 255) for p in self.points)
        self.start = game.start[0] * game.size + game.start[1]
        self.n_codes = len(game.alphabet) + 1
        self.c_ok = _use_c(False, self.n_codes - 1, self.points)


_PREPARED: dict[int, _Prepared] = {}


def _prepared(game: Game) -> _Prepared:
    p = _PREPARED.get(id(game))
    if p is None or p.game is not game:
        if len(_PREPARED) > 64:
            _PREPARED.clear()
        p = _PREPARED[id(game)] = _Prepared(game)
    return p


def _run(lex: "Lexicon", pos: Position, rack_codes: list[int], pure_python: bool) -> tuple[bytes, int] | list[
        tuple[int, int, int, int, bytes]]:
    """The C buffer (bytes, count), or the Python twin's list."""
    game = pos.game
    prep = _prepared(game)
    counts = [0] * prep.n_codes
    for c in rack_codes:
        counts[c] += 1
    if prep.c_ok and not pure_python:
        assert _c is not None
        records, root = _graph(lex)
        buf, count = _c.generate_moves(records, _kids(lex), root, game.size, bytes(pos.codes), bytes(pos.blanks),
                                       prep.lm, prep.wm, prep.points_b, bytes(counts), prep.start, game.rack_size,
                                       game.bingo_bonus)
        return bytes(buf), int(count)
    return generate_raw(_arcs_of(lex), game.size, pos.codes, [1 if b else 0 for b in pos.blanks], game.letter_mult,
                        game.word_mult, prep.points, counts, prep.start, game.rack_size, game.bingo_bonus)


def count_placements(lex: "Lexicon", position: Position, rack: str | None = None, *, pure_python: bool = False) -> int:
    """The number of distinct plays (placements) for ``rack``: the generator's work without building moves."""
    pos = _aligned(lex, position)
    codes = parse_rack(pos.game, pos.racks[0] if rack is None else rack)
    if not codes:
        return 0
    got = _run(lex, pos, codes, pure_python)
    return got[1] if isinstance(got, tuple) else len(got)


def generate_placements(
    lex: "Lexicon", position: Position, rack: str | None = None, *, pure_python: bool = False
) -> list[tuple[int, int, int, int, bytes]]:
    """The raw plays (see :func:`generate_raw`), unsorted."""
    pos = _aligned(lex, position)
    codes = parse_rack(pos.game, pos.racks[0] if rack is None else rack)
    if not codes:
        return []
    got = _run(lex, pos, codes, pure_python)
    if isinstance(got, tuple):
        return _decode_records(got[0], range(got[1]))
    return got


def _move_of_raw(pos: Position, rack_codes: list[int], raw: tuple[int, int, int, int, bytes]) -> Move:
    score, row, col, across, squares = raw
    game = pos.game
    n = game.size
    alpha = game.alphabet
    placed: list[Placed] = []
    left = Counter(rack_codes)
    parts: list[str] = []
    word_codes: list[int] = []
    through: list[str] = []
    for k, b in enumerate(squares):
        r, c = (row, col + k) if across else (row + k, col)
        if b == 0:
            code = pos.codes[r * n + c]
            word_codes.append(code)
            through.append(tile_text(game, code, pos.blanks[r * n + c]))
            continue
        if through:
            parts.append("(" + "".join(through) + ")")
            through = []
        code, blank = b & 0x7F, bool(b & BLANK_FLAG)
        word_codes.append(code)
        placed.append(Placed(r, c, alpha.label(code), blank))
        parts.append(tile_text(game, code, blank))
        left[0 if blank else code] -= 1
    if through:
        parts.append("(" + "".join(through) + ")")
    words = [alpha.decode(bytes(word_codes))]
    for t in placed:
        cw = _perpendicular(pos, t.row, t.col, alpha.code(t.tile) or 0, bool(across))
        if cw is not None:
            words.append(alpha.decode(bytes(cw)))
    leave = rack_text(game, list(left.elements()))
    notation = f"{game.square_name(row, col, bool(across))} {''.join(parts)}"
    return Move("play", score, leave, row, col, bool(across), tuple(placed), words[0], tuple(words), notation)


def _perpendicular(pos: Position, row: int, col: int, code: int, across: bool) -> list[int] | None:
    """The cross-word through a new tile at (row, col) for a play in direction ``across``, or None."""
    n = pos.size
    dr, dc = (1, 0) if across else (0, 1)
    r, c = row, col
    while 0 <= r - dr and 0 <= c - dc and pos.codes[(r - dr) * n + c - dc]:
        r, c = r - dr, c - dc
    out = []
    while r < n and c < n and (pos.codes[r * n + c] or (r, c) == (row, col)):
        out.append(code if (r, c) == (row, col) else pos.codes[r * n + c])
        r, c = r + dr, c + dc
    return out if len(out) >= 2 else None


def generate(
    lex: "Lexicon",
    position: Position,
    rack: str | None = None,
    *,
    top: int | None = None,
    exchanges: bool = False,
    passes: bool = False,
    pure_python: bool = False,
) -> MoveList:
    """Every legal play for ``rack`` (default: the rack of the player on turn), best score first.

    Ties: across plays before down ones, then by square (row, then
    column), then by the tiles placed. ``exchanges`` adds every distinct
    exchange (when the bag, the unseen tiles less the opponent's rack,
    holds at least a rack's worth of tiles), ``passes`` the pass.
    """
    pos = _aligned(lex, position)
    rack_s = pos.racks[0] if rack is None else rack
    rack_codes = parse_rack(pos.game, rack_s)
    got = _run(lex, pos, rack_codes, pure_python) if rack_codes else []
    if isinstance(got, tuple):
        import numpy as np

        buf, count = got
        recs = np.frombuffer(buf, dtype=_rec_dtype(), count=count)
        scores = recs["score"]
        if top is not None and top < count:
            cutoff = np.partition(scores, count - top)[count - top] if top > 0 else np.iinfo(np.int32).max
            idx = np.flatnonzero(scores >= cutoff)
        else:
            idx = np.arange(count)
        sub = recs[idx]
        keys = [sub["sq"][:, j] for j in range(REC_SIZE - 9, -1, -1)]
        keys += [sub["len"], sub["col"], sub["row"], 1 - sub["across"].astype(np.int16), -sub["score"]]
        order = idx[np.lexsort(keys)]
        if top is not None:
            order = order[:top]
        raw = _decode_records(buf, order.tolist())
        total = count
    else:
        total = len(got)
        raw = sorted(got, key=_order_key)
        if top is not None:
            raw = raw[:top]
    moves = [_move_of_raw(pos, rack_codes, m) for m in raw]
    extra: list[Move] = []
    unseen = len(pos.unseen(rack_s)) if exchanges else 0
    if exchanges and rack_codes and unseen - _other_rack_size(pos, unseen) >= pos.game.rack_size:
        seen = set()
        for k in range(1, len(rack_codes) + 1):
            for combo in combinations(sorted(rack_codes), k):
                if combo in seen:
                    continue
                seen.add(combo)
                left = Counter(rack_codes)
                left.subtract(combo)
                extra.append(Move("exchange", 0, rack_text(pos.game, list(left.elements())),
                                  notation="-" + rack_text(pos.game, list(combo)),
                                  exchanged=rack_text(pos.game, list(combo))))
    if passes:
        extra.append(Move("pass", 0, rack_text(pos.game, rack_codes), notation="-"))
    out = MoveList(moves + extra)
    out.total = total
    return out


def _order_key(raw: tuple[int, int, int, int, bytes]) -> tuple[int, int, int, int, int, bytes]:
    score, row, col, across, squares = raw
    return (-score, 1 - across, row, col, len(squares), squares)


def _other_rack_size(pos: Position, unseen: int) -> int:
    """The opponent's rack size: as the position gives it, else a full rack if the unseen tiles allow."""
    try:
        known = parse_rack(pos.game, pos.racks[1])
    except GameError:
        known = []
    return len(known) if known else min(pos.game.rack_size, unseen)


# ---------------------------------------------------------------------------
# Scoring a given play, with the reason when it is illegal


def parse_play(position: Position, play: str) -> list[tuple[int, int, int, bool]]:
    """``"8H QU(I)Z"`` or ``"8H QU.Z"`` -> new tiles [(row, col, code, blank)]. Board tiles may be
    written in parentheses, as ``.``, or as themselves."""
    game = position.game
    n = game.size
    parts = play.strip().split()
    if len(parts) != 2:
        raise IllegalPlay(f"bad play {play!r}: expected POSITION WORD such as '8H QUIZ'", "malformed")
    sq = parse_square(parts[0], n)
    if sq is None:
        raise IllegalPlay(f"bad play {play!r}: {parts[0]!r} is not a square of the board", "malformed")
    row, col, across = sq
    text = parts[1]
    tokens: list[tuple[int, bool, bool]] = []  # (code, blank, through)
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
            i += 1
            continue
        if ch == ")":
            depth -= 1
            i += 1
            continue
        if ch == ".":
            tokens.append((0, False, True))
            i += 1
            continue
        if ch == "[":
            j = text.find("]", i)
            if j < 0:
                raise IllegalPlay(f"bad play {play!r}: unclosed '['", "malformed")
            tok = text[i : j + 1]
            i = j + 1
        else:
            tok = ch
            i += 1
        code, blank = split_tiles(game, tok, what="play")[0]
        tokens.append((code, blank, depth > 0))
    # regroup letters into multi-letter tiles when the alphabet has them
    if any(len(lab) > 1 for lab in game.alphabet.labels) and "[" not in text and "(" not in text:
        regrouped = split_tiles(game, text.replace(".", "?"), what="play", allow_blank=True)
        tokens = [(c, b, c == 0) for c, b in regrouped]
    placed = []
    for k, (code, blank, through) in enumerate(tokens):
        r, c = (row, col + k) if across else (row + k, col)
        if r >= n or c >= n:
            raise IllegalPlay(f"the play {play!r} runs off the board", "off board")
        on = position.codes[r * n + c]
        if on:
            if code and code != on:
                raise IllegalPlay(
                    f"{game.square_name(r, c)} holds {tile_text(game, on, position.blanks[r * n + c])}, "
                    f"not {tile_text(game, code, blank)}", "occupied")
            continue
        if through or code == 0:
            raise IllegalPlay(f"{game.square_name(r, c)} is empty: nothing to play through", "malformed")
        placed.append((r, c, code, blank))
    return placed


def score_placements(
    lex: "Lexicon", position: Position, placed: Sequence[tuple[int, int, int, bool]], rack: str | None = None
) -> Move:
    """Check and score tiles put on the board (independently of the generator).

    Raises :class:`IllegalPlay` with the reason: ``no tiles``, ``occupied``,
    ``not in line``, ``gap``, ``not connected``, ``first move off the
    centre``, ``not on rack``, ``too short`` or ``not in lexicon``.
    """
    pos = position
    game = pos.game
    n = game.size
    alpha = game.alphabet
    if not placed:
        raise IllegalPlay("a play puts at least one tile on the board", "no tiles")
    squares = {(r, c) for r, c, _, _ in placed}
    if len(squares) != len(placed):
        raise IllegalPlay("two tiles on one square", "occupied")
    for r, c, _, _ in placed:
        if not (0 <= r < n and 0 <= c < n):
            raise IllegalPlay("a tile lies off the board", "off board")
        if pos.codes[r * n + c]:
            raise IllegalPlay(f"{game.square_name(r, c)} is already occupied", "occupied")
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlay("the tiles are not in one row or column", "not in line")
    if len(placed) == 1:
        r, c = next(iter(squares))
        h = (c > 0 and pos.codes[r * n + c - 1]) or (c + 1 < n and pos.codes[r * n + c + 1])
        across = bool(h) or not ((r > 0 and pos.codes[(r - 1) * n + c]) or (r + 1 < n and pos.codes[(r + 1) * n + c]))
    else:
        across = len(rows) == 1
    new = {(r, c): (code, blank) for r, c, code, blank in placed}

    def at(r: int, c: int) -> tuple[int, bool] | None:
        if (r, c) in new:
            return new[(r, c)]
        code = pos.codes[r * n + c]
        return (code, pos.blanks[r * n + c]) if code else None

    if across:
        line = next(iter(rows))
        lo, hi = min(cols), max(cols)
        for c in range(lo, hi + 1):
            if at(line, c) is None:
                raise IllegalPlay(f"there is a gap at {game.square_name(line, c)}", "gap")
        while lo > 0 and at(line, lo - 1):
            lo -= 1
        while hi + 1 < n and at(line, hi + 1):
            hi += 1
        main_sq = [(line, c) for c in range(lo, hi + 1)]
    else:
        line = next(iter(cols))
        lo, hi = min(rows), max(rows)
        for r in range(lo, hi + 1):
            if at(r, line) is None:
                raise IllegalPlay(f"there is a gap at {game.square_name(r, line, False)}", "gap")
        while lo > 0 and at(lo - 1, line):
            lo -= 1
        while hi + 1 < n and at(hi + 1, line):
            hi += 1
        main_sq = [(r, line) for r in range(lo, hi + 1)]
    if pos.is_empty():
        if game.start not in squares:
            raise IllegalPlay(f"the first play must cover the start square {game.square_name(*game.start)}",
                              "first move off the centre")
    else:
        touches = len(main_sq) > len(placed)
        for r, c in squares:
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and pos.codes[rr * n + cc]:
                    touches = True
        if not touches:
            raise IllegalPlay("the play touches no tile on the board", "not connected")
    rack_s = pos.racks[0] if rack is None else rack
    if rack_s.strip() in ("", "-"):  # no rack known: the tiles played are the rack
        rack_s = rack_text(game, [0 if b else c for _, _, c, b in placed])
        try:
            rack_codes = parse_rack(game, rack_s)
        except GameError as e:
            raise IllegalPlay(str(e), "not on rack") from None
    else:
        rack_codes = parse_rack(game, rack_s)
    left = Counter(rack_codes)
    for _, _, code, blank in placed:
        key = 0 if blank else code
        if left[key] <= 0:
            raise IllegalPlay(f"{'a blank' if blank else tile_text(game, code, False)} is not on the rack {rack_s!r}",
                              "not on rack")
        left[key] -= 1
    points = game.points_by_code()
    lmult, wmult = game.letter_mult, game.word_mult

    def word_score(sqs: list[tuple[int, int]]) -> tuple[list[int], int]:
        total, mult, codes = 0, 1, []
        for r, c in sqs:
            t = at(r, c)
            assert t is not None
            code, blank = t
            codes.append(code)
            p = 0 if blank else points[code]
            if (r, c) in new:
                p *= lmult[r * n + c]
                mult *= wmult[r * n + c]
            total += p
        return codes, total * mult

    words: list[list[int]] = []
    score = 0
    if len(main_sq) >= 2:
        codes, s = word_score(main_sq)
        words.append(codes)
        score += s
    for r, c in sorted(squares):
        if across:
            lo2 = r
            while lo2 > 0 and at(lo2 - 1, c):
                lo2 -= 1
            hi2 = r
            while hi2 + 1 < n and at(hi2 + 1, c):
                hi2 += 1
            sqs = [(k, c) for k in range(lo2, hi2 + 1)]
        else:
            lo2 = c
            while lo2 > 0 and at(r, lo2 - 1):
                lo2 -= 1
            hi2 = c
            while hi2 + 1 < n and at(r, hi2 + 1):
                hi2 += 1
            sqs = [(r, k) for k in range(lo2, hi2 + 1)]
        if len(sqs) >= 2:
            codes, s = word_score(sqs)
            words.append(codes)
            score += s
    if not words:
        raise IllegalPlay("a play must form a word of at least two tiles", "too short")
    texts = [alpha.decode(bytes(w)) for w in words]
    # By tile codes, not text: two L tiles do not spell the Spanish LL tile.
    bad = [t for w, t in zip(words, texts) if not _is_word(lex, w)]
    if bad:
        raise IllegalPlay(f"not in the lexicon: {', '.join(w.upper() for w in bad)}", "not in lexicon", bad)
    if len(placed) == game.rack_size:
        score += game.bingo_bonus
    row, col = main_sq[0]
    squares_b = bytes(
        0 if (r, c) not in new else (new[(r, c)][0] | (BLANK_FLAG if new[(r, c)][1] else 0)) for r, c in main_sq
    )
    if len(main_sq) < 2:  # a lone tile whose word runs the other way
        across = not across
        r0, c0 = next(iter(squares))
        sqs = []
        if across:
            lo2 = c0
            while lo2 > 0 and at(r0, lo2 - 1):
                lo2 -= 1
            row, col = r0, lo2
            k = lo2
            while k < n and at(r0, k):
                sqs.append((r0, k))
                k += 1
        else:
            lo2 = r0
            while lo2 > 0 and at(lo2 - 1, c0):
                lo2 -= 1
            row, col = lo2, c0
            k = lo2
            while k < n and at(k, c0):
                sqs.append((k, c0))
                k += 1
        squares_b = bytes(
            0 if (r, c) not in new else (new[(r, c)][0] | (BLANK_FLAG if new[(r, c)][1] else 0)) for r, c in sqs
        )
    return _move_of_raw(pos, rack_codes, (score, row, col, 1 if across else 0, squares_b))


def score_play(lex: "Lexicon", position: Position, play: str, rack: str | None = None) -> Move:
    """Check and score a play written ``8H WORD`` (see :func:`parse_play`); :class:`IllegalPlay` if illegal."""
    pos = _aligned(lex, position)
    placed = parse_play(pos, play)
    return score_placements(lex, pos, placed, rack)


def apply_move(position: Position, move: Move) -> Position:
    """A copy of ``position`` with the move's tiles on the board (racks and scores unchanged)."""
    p = position.copy()
    alpha = p.game.alphabet
    for t in move.tiles:
        code = alpha.code(t.tile)
        if code is None:
            raise GameError(f"tile {t.tile!r} is not in the game's alphabet")
        p.place(t.row, t.col, code, t.blank)
    return p

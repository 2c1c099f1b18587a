"""The routes of crossword grid files: a file read into a grid document, a grid document written as a file.

| route | what |
|---|---|
| ``POST /api/grid/read`` | ``{"format", "name", "text" or "data"}``: a text grid, an ipuz (``text``) or a ``.puz`` (``data``, Base64) read; the grid document (:mod:`lexigraph.crossword.formats.document`: title, height, width, rows, clues) and the format read |
| ``POST /api/grid/write`` | a grid document and ``{"format", "name"}``: the file (``.puz``, ``.ipuz`` or text) to download, with its content type and file name |

The format is ``format`` (``text``, ``ipuz``, ``puz``), else the one ``name``'s extension says. Bodies are
bounded by the server's ``max_body``; every failure is a JSON error (400 for a bad file or field). The work is
short and bounded (a grid of at most 255 cells a side) and runs in the query lane, never on the event loop.
"""

from __future__ import annotations

import base64
import binascii
import re
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..crossword.formats import FORMATS, Format, acrosslite, grid_bytes, guess_format, ipuz, text
from ..crossword.formats.document import FIELDS, from_document, to_document
from ..crossword.grid import Grid
from ..support.jsontypes import JSONObject
from .answers import ApiError, dump
from .httpio import arrival, check_query, read_body
from .lanes import Server

__all__ = ["CONTENT_TYPES", "GRID_ROUTES", "read_grid_file", "write_grid_file"]

#: What each format is sent as.
CONTENT_TYPES = {"puz": "application/x-crossword", "ipuz": "application/json", "text": "text/plain; charset=utf-8"}
EXTENSIONS = {"puz": ".puz", "ipuz": ".ipuz", "text": ".txt"}
READ_FIELDS = ("format", "name", "text", "data")
WRITE_FIELDS = (*FIELDS, "format", "name")


async def body_of(request: Request, allowed: tuple[str, ...]) -> tuple[Server, dict[str, object]]:
    """The server and the request's JSON body, bounded; 400 for a field the route does not take."""
    server: Server = request.app.state.server
    check_query(request, server.limits.max_query)
    body: dict[str, object] = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, "QueryError", f"unknown field {unknown[0]!r} (this route takes: {', '.join(allowed)})")
    return server, body


def format_of(body: dict[str, object]) -> Format:
    """The format the body names, else the one its file name says."""
    fmt = body.get("format")
    name = body.get("name")
    if name is not None and not isinstance(name, str):
        raise ApiError(400, "QueryError", "field 'name': a file name")
    if fmt is None:
        return guess_format(name or "")
    if fmt == "text" or fmt == "ipuz" or fmt == "puz":
        return fmt
    raise ApiError(400, "QueryError", f"field 'format': one of {', '.join(FORMATS)}")


def read_grid_file(body: dict[str, object]) -> JSONObject:
    """A file's grid document: ``text`` for text and ipuz, ``data`` (Base64) for any of them."""
    fmt = format_of(body)
    content, data = body.get("text"), body.get("data")
    if (content is None) == (data is None):
        raise ApiError(400, "QueryError", "give the file as 'text' or as 'data' (Base64), one of them")
    if data is not None:
        if not isinstance(data, str):
            raise ApiError(400, "QueryError", "field 'data': the file's bytes in Base64")
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise ApiError(400, "QueryError", "field 'data' is not Base64") from None
        if fmt == "puz":
            return {"format": fmt, **to_document(acrosslite.parse(raw))}
        try:
            content = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ApiError(400, "QueryError", "the file is not UTF-8 text") from None
    if not isinstance(content, str):
        raise ApiError(400, "QueryError", "field 'text': the file's text")
    if fmt == "puz":
        raise ApiError(400, "QueryError", "a .puz file is binary: send it as 'data' (Base64)")
    grid = ipuz.parse(content) if fmt == "ipuz" else text.parse(content)
    return {"format": fmt, **to_document(grid)}


def file_name(name: object, fmt: Format) -> str:
    """The downloaded file's name: ``name``'s safe characters (or ``grid``) and the format's extension."""
    stem = re.sub(r"\.(puz|ipuz|txt)$", "", name if isinstance(name, str) else "", flags=re.IGNORECASE)
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-.")[:80]
    return (stem or "grid") + EXTENSIONS[fmt]


def write_grid_file(body: dict[str, object]) -> tuple[bytes, Format, str]:
    """The file of a grid document: its bytes, format and name."""
    fmt = format_of(body)
    grid: Grid = from_document({k: body[k] for k in FIELDS if k in body})
    return grid_bytes(grid, fmt), fmt, file_name(body.get("name"), fmt)


async def read_grid(request: Request) -> Response:
    """``POST /api/grid/read``: a text, ipuz or ``.puz`` file's grid document."""
    server, body = await body_of(request, READ_FIELDS)
    doc = await server.run(lambda deadline: read_grid_file(body), what="POST /api/grid/read", arrived=arrival(request))
    return Response(dump(doc), media_type="application/json")


async def write_grid(request: Request) -> Response:
    """``POST /api/grid/write``: the grid as a file to download."""
    server, body = await body_of(request, WRITE_FIELDS)
    data, fmt, name = await server.run(lambda deadline: write_grid_file(body), what="POST /api/grid/write",
                                       arrived=arrival(request))
    return Response(data, media_type=CONTENT_TYPES[fmt], headers={"content-disposition": f'attachment; filename="{name}"'})


#: The grid files' routes, in the order the app lists them (before ``/api/{name}``).
GRID_ROUTES = [
    Route("/api/grid/read", read_grid, methods=["POST"]),
    Route("/api/grid/write", write_grid, methods=["POST"]),
]

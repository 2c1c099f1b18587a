"""The OpenAPI 3.1 description of the API, made from the same command registry as the routes.

>>> from lexigraph.commands import Command, Param
>>> cmd = Command("check", "Check words.", (Param("words", "words", many=True, required=True),),
...               run=lambda ctx, p: {}, text=lambda d: [])
>>> spec = openapi([cmd], ["enable"], 1000)
>>> spec["openapi"], sorted(spec["paths"]["/api/check"])
('3.1.0', ['get', 'post'])
>>> [p["name"] for p in spec["paths"]["/api/check"]["get"]["parameters"]]
['words', 'lexicon']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..buildinfo import __version__
from ..commands import Command
from ..commands import Param
from ..scrabble.game import PRESETS as GAME_PRESETS
from .params import http_params, json_schema

_ERROR = {"$ref": "#/components/schemas/Error"}


def _responses(ok: dict[str, Any], *extra: int) -> dict[str, Any]:
    out: dict[str, Any] = {"200": {"description": "the answer", "content": {"application/json": {"schema": ok}}}}
    texts = {400: "bad input", 404: "no such command or lexicon", 413: "request body too large",
             414: "query string too long", 503: "busy or over the time limit"}
    texts[409] = "a move of this game is being made, or the game changed meanwhile (another server on its file)"
    texts[500] = "the server's own file is damaged (a lexicon, a game in the games file)"
    for code in (400, *extra, 503):
        out[str(code)] = {"description": texts[code], "content": {"application/json": {"schema": _ERROR}}}
    return out


def openapi(
    commands: Sequence[Command],
    lexicons: Sequence[str],
    max_results: int,
    params_of: Callable[[Command], Sequence[Param]] | None = None,
) -> dict[str, Any]:
    """The description: one GET and one POST per command, ``/words``, ``/api/lexicons``."""
    lex_schema = {"type": "string", "enum": list(lexicons), "default": lexicons[0] if lexicons else None}
    lex_param = {"name": "lexicon", "in": "query", "required": False, "schema": lex_schema,
                 "description": "which of the server's lexicons answers (default: the first)"}
    paths: dict[str, Any] = {}
    for cmd in commands:
        ps = params_of(cmd) if params_of is not None else http_params(cmd.params)
        query = [
            {"name": p.name, "in": "query", "required": p.required, "description": p.help,
             "schema": json_schema(p), **({"style": "form", "explode": True} if p.many else {})}
            for p in ps
        ]
        body_props: dict[str, Any] = {p.name: {**json_schema(p), "description": p.help} for p in ps}
        if cmd.uses_lexicon:
            query.append(lex_param)
            body_props["lexicon"] = {**lex_schema, "description": lex_param["description"]}
        body = {"type": "object", "properties": body_props, "additionalProperties": False,
                "required": [p.name for p in ps if p.required]}
        doc = {"$ref": "#/components/schemas/Document"}
        desc = cmd.summary + ("\n\nCommand line: " + "; ".join(f"`{e}`" for e in cmd.examples) if cmd.examples else "")
        paths[f"/api/{cmd.name}"] = {
            "get": {"operationId": f"{cmd.name}_get", "summary": cmd.summary, "description": desc,
                    "tags": ["commands"], "parameters": query, "responses": _responses(doc, 404, 414)},
            "post": {"operationId": f"{cmd.name}_post", "summary": cmd.summary, "description": desc,
                     "tags": ["commands"],
                     "requestBody": {"required": False, "content": {"application/json": {"schema": body}}},
                     "responses": _responses(doc, 404, 413)},
        }
    paths["/words"] = {"get": {
        "operationId": "datamuse_words", "tags": ["datamuse"],
        "summary": "Datamuse-compatible spelling search: words matching a pattern, best first.",
        "parameters": [
            {"name": "sp", "in": "query", "required": True, "schema": {"type": "string"},
             "description": "pattern: '?' one letter, '*' any run of letters"},
            {"name": "max", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 1, "maximum": max_results, "default": 100}},
            lex_param,
        ],
        "responses": _responses({"type": "array", "items": {
            "type": "object", "properties": {"word": {"type": "string"}, "score": {"type": "integer"}},
            "required": ["word", "score"]}}, 404, 414),
    }}
    paths["/api/lexicons"] = {"get": {
        "operationId": "lexicons", "tags": ["server"], "summary": "The lexicons this server answers from.",
        "responses": {"200": {"description": "names, files, word counts, swap generation",
                              "content": {"application/json": {"schema": {"type": "object"}}}}},
    }}
    paths.update(_game_paths(lex_schema))
    paths.update(_grid_paths())
    return {
        "openapi": "3.1.0",
        "info": {"title": "lexigraph", "version": __version__,
                 "description": "Word-game and crossword queries over memory-mapped lexicons. Every command "
                                "answers the same document as `lexigraph <command> --json` (docs/json.md)."},
        "paths": paths,
        "components": {"schemas": {
            "Document": {"type": "object", "properties": {
                "command": {"type": "string"}, "lexicon": {"type": "string"},
                "results": {"type": "array", "items": {"type": "object"}},
                "count": {"type": "integer"}, "total": {"type": "integer"},
                "truncated": {"type": "boolean", "description": f"results cut to the server's limit ({max_results})"},
            }, "additionalProperties": True},
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "required": ["type", "message"],
                "properties": {"type": {"type": "string"}, "message": {"type": "string"}}}}},
            "Game": {"type": "object", "description": "a game as the person sees it (docs/server.md, Play)",
                     "required": ["id", "board", "rack", "scores", "bag", "unseen", "turn", "turns", "over"],
                     "additionalProperties": True},
        }},
    }


def _game_paths(lex_schema: dict[str, Any]) -> dict[str, Any]:
    """The games against lexigraph (:mod:`lexigraph.server.games`)."""
    game = {"$ref": "#/components/schemas/Game"}
    game_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"},
               "description": "the id a new game answered"}
    new_body = {"type": "object", "additionalProperties": False, "properties": {
        "opponent": {"type": "string", "enum": ["score", "equity", "simulation"], "default": "equity"},
        "first": {"type": "string", "enum": ["you", "lexigraph"], "default": "you"},
        "seed": {"type": "integer", "minimum": 0, "description": "the bag's seed (default: a random one)"},
        "game": {"type": "string", "enum": list(GAME_PRESETS), "default": "scrabble"},
        "lexicon": {**lex_schema, "description": "which of the server's lexicons judges the game"}}}
    move_body = {"type": "object", "additionalProperties": False, "required": ["move"], "properties": {
        "move": {"type": "string", "description": "'8D WORD' across, 'D8 WORD' down, '-' a pass, '-ABC' an exchange"}}}

    def json_body(schema: dict[str, Any]) -> dict[str, Any]:
        return {"required": True, "content": {"application/json": {"schema": schema}}}

    created = _responses(game, 404, 413, 500)
    created["201"] = created.pop("200")
    return {
        "/api/games": {"post": {"operationId": "game_new", "tags": ["games"], "summary": "A new game against "
                                "lexigraph (the engine moves first when asked to).", "requestBody": json_body(new_body),
                                "responses": created}},
        "/api/games/{id}": {"get": {"operationId": "game_get", "tags": ["games"], "parameters": [game_id],
                                    "summary": "The game as the person sees it.", "responses": _responses(game, 404, 500)}},
        "/api/games/{id}/play": {"post": {
            "operationId": "game_play", "tags": ["games"], "parameters": [game_id], "requestBody": json_body(move_body),
            "summary": "The person's move, checked; its analysis (rank, equity, the best five) and the engine's reply.",
            "responses": _responses(game, 404, 409, 413, 500)}},
        "/api/games/{id}/gcg": {"get": {
            "operationId": "game_gcg", "tags": ["games"], "parameters": [game_id], "summary": "The game record (GCG).",
            "responses": {"200": {"description": "GCG text", "content": {"text/plain": {"schema": {"type": "string"}}}},
                          "404": {"description": "no such game",
                                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                          "500": {"description": "the game's rows in the games file are damaged",
                                  "content": {"application/json": {"schema": _ERROR}}}}}},
    }


def _grid_paths() -> dict[str, Any]:
    """Crossword grid files read and written (:mod:`lexigraph.server.grid_routes`)."""
    fmt = {"type": "string", "enum": ["text", "ipuz", "puz"],
           "description": "the file's format (default: the one the name's extension says, else text)"}
    name = {"type": "string", "description": "the file's name (its extension may say the format)"}
    grid_fields: dict[str, Any] = {
        "title": {"type": "string"}, "height": {"type": "integer"}, "width": {"type": "integer"},
        "rows": {"type": "array", "items": {"type": "string"},
                 "description": "a text row per grid row: '.' empty, '#' block, a letter, '[CH]' a multi-letter tile"},
        "clues": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "a clue per slot name ('1A', '12D')"}}
    grid = {"type": "object", "required": ["rows"], "properties": grid_fields}
    read_body = {"type": "object", "additionalProperties": False, "properties": {
        "format": fmt, "name": name, "text": {"type": "string", "description": "a text or ipuz file's text"},
        "data": {"type": "string", "contentEncoding": "base64", "description": "the file's bytes (a .puz: these)"}}}
    write_body = {"type": "object", "additionalProperties": False, "required": ["rows"],
                  "properties": {**grid_fields, "format": fmt, "name": name}}
    files = {t: {"schema": {"type": "string", "format": "binary"}}
             for t in ("application/x-crossword", "application/json", "text/plain")}
    write_answers = _responses({}, 413)
    write_answers["200"] = {"description": "the file, to download (Content-Disposition names it)", "content": files}
    return {
        "/api/grid/read": {"post": {
            "operationId": "grid_read", "tags": ["grids"], "summary": "A crossword grid file (text, ipuz, .puz) "
            "read: its rows, title and clues.", "requestBody": {"required": True, "content": {
                "application/json": {"schema": read_body}}}, "responses": _responses(grid, 413)}},
        "/api/grid/write": {"post": {
            "operationId": "grid_write", "tags": ["grids"], "summary": "A crossword grid (rows, title, clues) "
            "written as a .puz, .ipuz or text file.", "requestBody": {"required": True, "content": {
                "application/json": {"schema": write_body}}}, "responses": write_answers}},
    }

import json, os
D = "docs/schema"
BASE = "https://lexigraph.invalid/schema/"
def w(name, schema):
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE + name + ".json", **schema}
    with open(f"{D}/{name}.json", "w") as f:
        json.dump(schema, f, indent=2); f.write("\n")
INT = {"type": "integer", "minimum": 0}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
WORD = {"type": "string", "description": "lower case: the lexicon's tile labels joined"}
def obj(props, required=None, extra=False):
    o = {"type": "object", "properties": props, "required": list(props) if required is None else required}
    if not extra: o["additionalProperties"] = False
    return o
w("envelope", {
    "title": "Every lexigraph document",
    "description": "The fields every command's document has; see docs/json.md.",
    "type": "object",
    "properties": {
        "command": STR, "lexicon": STR,
        "results": {"type": "array", "items": {"type": "object"}},
        "count": INT, "total": INT,
        "warnings": {"type": "array", "items": STR},
    },
    "required": ["command", "results", "count"],
})
w("error", {"title": "An error", "type": "object",
            "properties": {"error": obj({"type": STR, "message": STR})}, "required": ["error"],
            "additionalProperties": False})
LENGTH_ROW = obj({"length": {"type": "integer", "minimum": 1}, "word_count": INT})
REPORT = {"type": "object", "description": "what normalisation did (docs/json.md#build-report)",
          "properties": {"lines": INT, "kept": INT, "duplicates": INT,
                         "skipped": {"type": "object", "additionalProperties": INT},
                         "changed": {"type": "object", "additionalProperties": INT},
                         "case": STR,
                         "per_length": {"type": "object", "additionalProperties": INT}},
          "required": ["kept", "skipped"]}
ALPHA = obj({"name": {"type": ["string", "null"]}, "tiles": {"type": "array", "items": STR}})
def cmd(name, title, props, results, required=()):
    w(name, {"title": title,
             "allOf": [{"$ref": "envelope.json"}],
             "type": "object",
             "properties": {"command": {"const": name}, "lexicon": STR, "count": INT, "total": INT,
                            "warnings": {"type": "array", "items": STR},
                            "results": {"type": "array", "items": results}, **props},
             "required": ["command", "results", "count", *required],
             "additionalProperties": False})
cmd("check", "check: is each word in the lexicon", {"invalid": INT},
    obj({"word": WORD, "valid": BOOL}), ["lexicon", "invalid"])
cmd("words", "words: the words, alphabetically", {"prefix": STR, "length": INT},
    obj({"word": WORD}), ["lexicon", "prefix"])
cmd("children", "children: tiles that may follow each prefix", {},
    obj({"prefix": WORD, "is_word": BOOL, "tiles": {"type": "array", "items": STR}}), ["lexicon"])
cmd("info", "info: a lexicon's metadata", {
    "name": {"type": ["string", "null"]}, "path": STR, "source": {"type": ["string", "null"]},
    "source_format": {"type": ["string", "null"]}, "built": {"type": ["string", "null"]},
    "lexigraph": {"type": ["string", "null"]}, "word_count": INT,
    "min_length": {"type": ["integer", "null"]}, "max_length": {"type": ["integer", "null"]},
    "alphabet": ALPHA, "has_priorities": BOOL, "score_max": {"type": ["integer", "null"]},
    "score_scale": {"type": ["integer", "null"]},
    "extensions": {"type": "object", "additionalProperties": BOOL}, "build": REPORT},
    LENGTH_ROW, ["lexicon", "name", "path", "word_count", "alphabet", "extensions"])
cmd("stats", "stats: words per length of a source, and what clean-up did", {
    "source": STR, "word_count": INT, "build": REPORT}, LENGTH_ROW, ["lexicon", "source", "word_count"])
cmd("anagram", "anagram: words from racks", {
    "mode": {"enum": ["sub", "exact", "super", "table"]}, "show_blanks": BOOL,
    "added": {"type": "array", "items": STR}},
    {"oneOf": [obj({"rack": STR, "word": WORD, "tiles": {"type": "array", "items": STR},
                    "blanks": {"type": "array", "items": INT}, "display": STR}),
               obj({"rack": STR, "added": {"type": ["string", "null"]}, "word": WORD})]},
    ["lexicon", "mode"])
cmd("match", "match: words matching crossword patterns", {
    "min_priority": INT, "count_only": BOOL, "scores": BOOL},
    obj({"pattern": STR, "word": WORD, "priority": INT}), ["lexicon"])
cmd("cross", "cross: tiles that fit where two entries cross", {
    "pattern_a": STR, "pos_a": INT, "pattern_b": STR, "pos_b": INT,
    "words_a": {"type": "array", "items": obj({"word": WORD})}, "total_a": INT,
    "words_b": {"type": "array", "items": obj({"word": WORD})}, "total_b": INT},
    obj({"tile": STR, "count_a": INT, "count_b": INT}),
    ["lexicon", "pattern_a", "pos_a", "pattern_b", "pos_b", "words_a", "words_b", "total_a", "total_b"])
cmd("build", "build: a lexicon file written", {
    "path": STR, "bytes": {"type": ["integer", "null"]}, "seconds": {"type": "number"}, "word_count": INT,
    "build": REPORT, "quiet": BOOL, "rejects": {"type": ["string", "null"]}},
    LENGTH_ROW, ["path", "word_count", "build"])
cmd("export", "export: a lexicon written in another format", {
    "path": STR, "format": {"enum": ["text", "scored", "daw", "dawg32"]}, "bytes": INT, "word_count": INT},
    obj({}), ["lexicon", "path", "format", "bytes", "word_count"])
SIDE = obj({"name": STR, "source": STR, "word_count": INT, "alphabet": ALPHA, "build": REPORT},
           required=["name", "source", "word_count", "alphabet"])
cmd("diff", "diff: two word sources compared", {
    "a": SIDE, "b": SIDE,
    "lengths": {"type": "array", "items": obj({"length": INT, "a": INT, "b": INT, "difference": {"type": "integer"}})},
    "only_a": INT, "only_b": INT, "both": INT, "same": BOOL, "listing": {"enum": ["a", "b", None]}},
    obj({"word": WORD, "side": {"enum": ["a", "b"]}}),
    ["a", "b", "lengths", "only_a", "only_b", "both", "same"])

"""Crosswords: grids (text, ipuz, ``.puz``), autofill and slot suggestions (``docs/autofill.md``)."""

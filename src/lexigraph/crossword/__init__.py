"""Crosswords (``docs/autofill.md``): the grid (:mod:`.grid`), its files (:mod:`.formats`: plain text, ipuz,
``.puz``), autofill and slot suggestions (:mod:`.fill`)."""

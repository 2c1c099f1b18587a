"""The build stage: word sources read and normalised into tiles, compiled into the lexicon file (``docs/format.md``)."""

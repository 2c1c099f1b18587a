"""Queries over an open lexicon's engines: patterns, crossings, anagrams, listings, batches, diffs."""

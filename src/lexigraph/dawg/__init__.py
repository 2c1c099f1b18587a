"""Directed acyclic word graphs as data: the floor both the build (``compiler/``) and other programs' formats
(``formats/``) stand on.

* :mod:`.trie`: a sorted word list as a trie, built level by level with NumPy;
* :mod:`.minimize`: the trie's nodes grouped by their right languages, the minimal graph (a DAWG);
* :mod:`.expand`: a foreign graph (a ``dawg32`` table, a ``.daw`` file, a KWG) walked back into its words,
  within bounds of depth and memory.

The lexicon file's own arc records are laid out by :mod:`lexigraph.compiler.graph_builder`.
"""

from .expand import MAX_EXPANDED_ARCS, expand_words
from .minimize import MinimalGraph, minimize
from .trie import Trie, build_trie

__all__ = ["MAX_EXPANDED_ARCS", "MinimalGraph", "Trie", "build_trie", "expand_words", "minimize"]

"""Word-list formats other programs use, read and written: Hasbro ``.daw``, the TWL06 table, wolges's KWG and KLV.

(The classic TWL06 module's interface, which answers from a lexicon, is :mod:`lexigraph.twl`.)"""

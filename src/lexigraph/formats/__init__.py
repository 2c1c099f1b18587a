"""Word-list formats other programs use, read and written: Hasbro ``.daw``, the TWL06 table, the TWL06 module."""

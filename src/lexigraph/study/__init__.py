"""Word study: hooks, draw probability and the search language, over NumPy columns of the buckets."""

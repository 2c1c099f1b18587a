"""Only the optional C extension lives here; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        # optional: without a compiler the build goes on and lexigraph runs its pure-Python paths.
        Extension("lexigraph._speedups", ["src/lexigraph/_speedups.c"], depends=["src/lexigraph/arc.h"], optional=True),
    ]
)

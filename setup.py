"""Only the optional C extensions live here; everything else is in pyproject.toml."""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class optional_build_ext(build_ext):
    """Build the C extensions when a compiler works; otherwise say so loudly and go on.

    Every C module is ``optional=True`` (setuptools goes on without it); this
    subclass makes the failure visible instead of a line lost in the log.
    """

    def run(self):
        try:
            super().run()
        except Exception as e:  # no compiler at all (distutils raises before any extension)
            self._warn("the C extensions", e)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:
            self._warn(ext.name, e)
            if not getattr(ext, "optional", False):
                raise

    @staticmethod
    def _warn(what, error):
        bar = "*" * 72
        sys.stderr.write(
            f"\n{bar}\nWARNING: could not compile {what} ({type(error).__name__}: {error}).\n"
            "lexigraph will work, answering every query in pure Python and NumPy (slower).\n"
            "Install a C compiler and Python's headers (e.g. apt-get install build-essential python3-dev)\n"
            "and reinstall for the fast paths; `lexigraph --version` says which are in use.\n"
            f"{bar}\n\n"
        )


setup(
    cmdclass={"build_ext": optional_build_ext},
    ext_modules=[
        # optional: without a compiler the build goes on and lexigraph runs its pure-Python paths.
        Extension("lexigraph._speedups", ["src/lexigraph/native/_speedups.c"], depends=["src/lexigraph/native/arc.h"], optional=True),
        Extension("lexigraph._movegen", ["src/lexigraph/native/_movegen.c"], depends=["src/lexigraph/native/arc.h"], optional=True),
        Extension("lexigraph._fill", ["src/lexigraph/native/_fill.c"], optional=True),
        Extension("lexigraph._build", ["src/lexigraph/native/_build.c"], depends=["src/lexigraph/native/arc.h"], optional=True),
    ],
)

"""Only the optional C extension lives here; everything else is in pyproject.toml."""

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class optional_build_ext(build_ext):
    """Build the C extension when a compiler works; otherwise say so loudly and go on.

    The C module is ``optional=True`` (setuptools goes on without it); this
    subclass makes the failure visible instead of a line lost in the log.
    """

    def run(self):
        try:
            super().run()
        except Exception as e:  # no compiler at all (distutils raises before any extension)
            self._warn("the C extension", e)

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
            "and reinstall for the fast paths; `lexigraph --version` says whether they are in use.\n"
            f"{bar}\n\n"
        )


# One module, lexigraph._native, from every C file of src/lexigraph/native (module.c says what each does).
# Paths relative to this file, as setuptools wants them.
NATIVE = Path("src/lexigraph/native")

setup(
    cmdclass={"build_ext": optional_build_ext},
    ext_modules=[
        # optional: without a compiler the build goes on and lexigraph runs its pure-Python paths.
        Extension(
            "lexigraph._native",
            sources=sorted(str(p) for p in NATIVE.glob("*.c")),
            depends=sorted(str(p) for p in NATIVE.glob("*.h")),
            optional=True,
        ),
    ],
)

"""Build script: the metadata lives in setup.cfg; this file only declares the optional C core.

The extension ``foursquare.solver._core`` (foursquare/solver/_core.c) is built where a C
compiler is present; ``optional=True`` lets the install succeed without one, and the
solver then runs its pure-Python twin (foursquare/solver/core.py).

Where a wheel is made for others (cibuildwheel sets ``CIBUILDWHEEL=1``), or where
``FOURSQUARE_REQUIRE_CORE=1`` is set, a failed compile is an error instead: a release
wheel never ships without its core (as MarkupSafe does with ``CIBUILDWHEEL``).
"""

import os

from setuptools import Extension, setup

REQUIRE_CORE = os.environ.get("CIBUILDWHEEL") == "1" or os.environ.get("FOURSQUARE_REQUIRE_CORE") == "1"

setup(
    ext_modules=[
        Extension(
            "foursquare.solver._core",
            sources=["foursquare/solver/_core.c"],
            optional=not REQUIRE_CORE,
            # MSVC (Windows wheels) takes its own flags: /O2 is its default for a release build,
            # and it does not contract a*b+c into one fused multiply-add unless told to.
            # GCC and Clang do where the target has the instruction (arm64 wheels):
            # -ffp-contract=off keeps every product and sum rounded as CPython rounds
            # them, so the bots' compiled search gives the Python twin's floats bit for bit.
            extra_compile_args=[] if os.name == "nt" else ["-O2", "-Wall", "-Wextra", "-ffp-contract=off"],
        )
    ]
)

"""Build script: the metadata lives in setup.cfg; this file only declares the optional C core.

The extension ``foursquare.solver._core`` (foursquare/solver/_core.c) is built where a C
compiler is present; ``optional=True`` lets the install succeed without one, and the
solver then runs its pure-Python twin (foursquare/solver/core.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "foursquare.solver._core",
            sources=["foursquare/solver/_core.c"],
            optional=True,
            extra_compile_args=["-O2", "-Wall", "-Wextra"],
        )
    ]
)

"""Gymnasium is optional: importing foursquare never imports it (nor NumPy), and
foursquare.gym without it says how to install it.  Real processes: a fresh interpreter each."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_importing_the_package_imports_neither_gymnasium_nor_numpy():
    done = _run(
        "import sys, foursquare, foursquare.bots, foursquare.solver, foursquare.formats.transcript, foursquare.app.session\n"
        "from foursquare.cli import main\n"
        "print(sorted(m for m in ('gymnasium', 'numpy') if m in sys.modules))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


def test_foursquare_gym_without_gymnasium_says_how_to_install_it():
    # sys.modules[name] = None makes ``import name`` fail as if it were not installed
    done = _run(
        "import sys\n"
        "sys.modules['gymnasium'] = None\n"
        "from foursquare.errors import FoursquareError\n"
        "try:\n"
        "    import foursquare.gym\n"
        "except ImportError as error:\n"
        "    print(isinstance(error, FoursquareError), error)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True foursquare.gym needs Gymnasium: pip install 'foursquare-solitaire[gym]' (or pip install gymnasium)\n"

"""The version matrix: the tests on every Python and every Click and PyYAML that
setup.cfg declares, and the install without a C compiler (``pip install nox``, or the
``dev`` extra; ``nox -l`` lists the sessions).

- ``tests-3.11``, ``tests-3.12``, ``tests-3.13``, ``tests-3.14``: the tests on each
  Python, with the newest Click and PyYAML; a Python that is not installed is skipped
  with a message (on CI give ``--error-on-missing-interpreters``). pyenv's Pythons are
  found too.  Python 3.14 is not installed on the project's machines: ``tests-3.14``
  runs on GitHub only (.github/workflows/ci.yml), and .ci/run leaves it out.
- ``lowest``: Click and PyYAML at setup.cfg's floors (constraints/lowest.txt, pip's
  constraints), on the lowest Python; with ``test_declared_versions.py`` it fails when
  the code uses a Click or PyYAML name that the floor lacks.
- ``newest``: the newest Click and PyYAML, on the lowest Python.
- ``pure-python``: installed where no C compiler works (``CC=false``):
  ``foursquare --version`` must say the search core is pure Python.
- ``click(8.2.1)`` ...: the Click releases between the floor and the newest whose
  changes touch a CLI (not run by default: ``nox -s "click(8.3.1)"``).

Each session installs the package (not editable) from a copy of the sources, so that
sessions never build into the source folder (see :func:`_install`).

Arguments after ``--`` go to pytest, in place of its default run (README's ``-q``):
``nox -s lowest -- -q -n 2 -m "not slow and not subprocess"`` runs the in-process
tests on two cores (what .ci/run runs in the cells other than its own full run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import nox

ROOT = Path(__file__).parent
#: The Pythons of setup.cfg's classifiers (python_requires = >=3.11), lowest first
#: (3.14: on GitHub only, it cannot run on the project's machines).
PYTHONS = ["3.11", "3.12", "3.13", "3.14"]
LOWEST_PYTHON = PYTHONS[0]

nox.options.error_on_missing_interpreters = False  # skipped with a message; CI asks for errors


def _works(command: str) -> bool:
    """Whether ``command --version`` runs (a pyenv shim of a version not selected does not)."""
    try:
        return subprocess.run([command, "--version"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _pyenv_root() -> Path:
    if os.environ.get("PYENV_ROOT"):
        return Path(os.environ["PYENV_ROOT"])
    if shutil.which("pyenv"):
        found = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip()
        if found:
            return Path(found)
    return Path.home() / ".pyenv"


def _find_pyenv_pythons() -> None:
    """Put the bin folder of pyenv's newest X.Y on PATH, first, for each Python of
    :data:`PYTHONS` that PATH does not already run (pyenv's shims run only the selected one)."""
    versions = _pyenv_root() / "versions"
    for version in PYTHONS:
        if _works(f"python{version}"):
            continue
        folders = [p for p in versions.glob(f"{version}.*/bin") if p.parent.name.replace(".", "").isdigit()]
        folders.sort(key=lambda p: [int(part) for part in p.parent.name.split(".")])
        if folders:
            os.environ["PATH"] = os.pathsep.join([str(folders[-1]), os.environ.get("PATH", "")])


_find_pyenv_pythons()


def _install(session: nox.Session, *pip_args: str, env: dict[str, str] | None = None) -> None:
    """Install the package with the test extra, not editable, from a copy of the sources
    without any build (no compiled core, no build/ folder): a session never writes into
    the source folder, where .venv's editable build and other sessions live.  The tests
    then import the package installed; PYTHONSAFEPATH keeps the source folder off
    sys.path, for the tests' own subprocesses (``python -m foursquare``) too."""
    source = Path(session.create_tmp()) / "source"
    session.env.pop("TMPDIR", None)  # tests' temporary files where the caller's go: the checkout may be private (mode 700)
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_COPIED))
    session.install(*pip_args, f"{source}[test]", env=env)
    session.env["PYTHONSAFEPATH"] = "1"
    session.run("python", "-c", _SHOW_VERSIONS)
    session.run("foursquare", "--version")


#: What a session's copy of the sources leaves out: version control, environments, builds, caches.
_NOT_COPIED = (".git", ".venv", ".nox", ".hypothesis", ".*_cache", "build", "dist", "*.egg-info", "*.so", "*.pyd", "__pycache__")
_SHOW_VERSIONS = (
    "import platform, foursquare, yaml; from importlib.metadata import version as v; "
    "print('Python', platform.python_version(), '- click', v('click'), '- PyYAML', v('PyYAML'), "
    "'(libyaml)' if yaml.__with_libyaml__ else '(pure Python)', '- foursquare from', foursquare.__path__[0])"
)


def _pytest(session: nox.Session) -> None:
    """pytest with the arguments after ``--`` (else README's ``-q``)."""
    session.run("python", "-m", "pytest", *(session.posargs or ["-q"]))


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The tests on each Python, with the newest Click and PyYAML."""
    _install(session)
    _pytest(session)


@nox.session(python=LOWEST_PYTHON)
def lowest(session: nox.Session) -> None:
    """The tests with Click and PyYAML at the floors setup.cfg declares (constraints/lowest.txt)."""
    _install(session, "-c", str(ROOT / "constraints" / "lowest.txt"))
    _pytest(session)


@nox.session(python=LOWEST_PYTHON)
def newest(session: nox.Session) -> None:
    """The tests with the newest Click and PyYAML."""
    _install(session, "--upgrade", "--upgrade-strategy", "eager")
    _pytest(session)


@nox.session(name="pure-python", python=LOWEST_PYTHON)
def pure_python(session: nox.Session) -> None:
    """Installed where no C compiler works (``CC=false``): the install succeeds, and
    ``foursquare --version`` says the search core is pure Python."""
    _install(session, env={"CC": "false", "CXX": "false"})
    version = session.run("foursquare", "--version", silent=True) or ""
    if "search core: pure Python" not in str(version):
        session.error(f"foursquare --version should say the search core is pure Python:\n{version}")
    _pytest(session)


#: The last release of each Click between the floor and the newest (8.2 changed the
#: test runner's streams and flag defaults, 8.3 flag defaults again, 8.3.2 the runner's close).
CLICK_RELEASES = ["8.1.8", "8.2.1", "8.3.1", "8.3.3"]


@nox.session(python=LOWEST_PYTHON, default=False)
@nox.parametrize("click", CLICK_RELEASES, ids=CLICK_RELEASES)
def click(session: nox.Session, click: str) -> None:
    """The tests with one Click release between the floor and the newest."""
    _install(session, f"click=={click}")
    _pytest(session)

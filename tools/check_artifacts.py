"""Check the file lists of the built sdist and wheel against the source tree.

    python tools/check_artifacts.py --source SOURCE_DIR dist/foursquare-X.tar.gz dist/foursquare-X-*.whl

The wheel must hold every module of the package (every ``foursquare/**/*.py`` of the
source), the JSON Schemas, ``py.typed``, the core's ``.pyi`` and the compiled core
itself (``--no-core`` for a wheel made without one), the licence and the
``foursquare`` script; and nothing else: no tests, no C source, no caches, no build
leftovers.  The sdist must hold what builds and tests the package: the package, the
build files, the tests, the docs, the examples and the data the tests read (every
file of the source tree under those folders); and nothing else (no version control,
no CI, no benchmarks, no builds or caches).  It prints each artifact's size and file
count and exits 1 with the list of what is missing or should not be there.
.ci/release runs it (the gate ``release`` of .ci/run).
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import tarfile
import zipfile
from pathlib import Path

#: Files a wheel must hold beyond the package's modules (patterns; the dist-info's name varies).
WHEEL_NEEDS = [
    "foursquare/py.typed",
    "foursquare/formats/schemas/rules.json",
    "foursquare/formats/schemas/state.json",
    "foursquare/formats/schemas/transcript.json",
    "foursquare/solver/_core.pyi",
    "foursquare[_-]solitaire-*.dist-info/METADATA",
    "foursquare[_-]solitaire-*.dist-info/WHEEL",
    "foursquare[_-]solitaire-*.dist-info/RECORD",
    "foursquare[_-]solitaire-*.dist-info/entry_points.txt",
    "foursquare[_-]solitaire-*.dist-info/licenses/LICENSE",
]
WHEEL_CORE = ["foursquare/solver/_core.*.so", "foursquare/solver/_core.*.pyd", "foursquare/solver/_core.so"]
#: Files a wheel may hold: the package's modules and data, its dist-info, and a library auditwheel vendored.
WHEEL_ALLOWED = ["foursquare/*.py", "foursquare/*.pyi", "foursquare/py.typed", "foursquare/formats/schemas/*.json",
                 *WHEEL_CORE, "foursquare[_-]solitaire-*.dist-info/*", "foursquare.libs/*"]

#: The folders of the source tree the sdist holds whole (what builds and tests the package).
SDIST_TREES = ["foursquare", "tests", "docs", "examples", "tools", "constraints"]
SDIST_NEEDS = ["PKG-INFO", "setup.py", "setup.cfg", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE",
               "CHANGELOG.md", "CONTRIBUTING.md", "noxfile.py", ".pre-commit-hooks.yaml",
               "data/README.md", "data/score-table.csv.gz", "foursquare/solver/_core.c", "foursquare/solver/_core.pyi"]
SDIST_EXTRA_ALLOWED = ["setup.cfg", "foursquare[_-]solitaire.egg-info/*"]
#: Never in either artifact.
NEVER = ["*/__pycache__/*", "__pycache__/*", "*.pyc", "*.pyo", ".git/*", ".github/*", ".ci/*", "benchmarks/*", ".venv/*",
         "build/*", "dist/*", ".nox/*", ".hypothesis/*", "*/.hypothesis/*", ".*_cache/*", "*/.pytest_cache/*",
         "docs/_build/*", "*.orig", "*.rej", "*~", ".DS_Store", "data/score-table-sweep.csv.gz"]


def matches(name: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def source_files(source: Path, trees: list[str]) -> set[str]:
    """The files of ``source`` under ``trees``, as paths relative to it, leaving out what is never shipped."""
    found = set()
    for tree in trees:
        for path in (source / tree).rglob("*"):
            name = path.relative_to(source).as_posix()
            if path.is_file() and not matches(name, NEVER) and not matches(path.name, ["*.so", "*.pyd", "*.pyc"]):
                found.add(name)
    return found


def check_wheel(wheel: Path, source: Path, core: bool) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        names = {name for name in archive.namelist() if not name.endswith("/")}
    problems = [f"missing: {pattern}" for pattern in WHEEL_NEEDS if not any(fnmatch.fnmatchcase(n, pattern) for n in names)]
    modules = {name for name in source_files(source, ["foursquare"]) if name.endswith(".py")}
    problems += [f"missing: {name}" for name in sorted(modules - names)]
    if core and not matches_any(names, WHEEL_CORE):
        problems.append("missing: the compiled core (foursquare/solver/_core.*.so or .pyd)")
    problems += [f"should not be there: {name}" for name in sorted(names) if matches(name, NEVER) or not matches(name, WHEEL_ALLOWED)]
    report(wheel, names)
    return problems


def matches_any(names: set[str], patterns: list[str]) -> bool:
    return any(matches(name, patterns) for name in names)


def check_sdist(sdist: Path, source: Path) -> list[str]:
    with tarfile.open(sdist) as archive:
        members = [member.name for member in archive.getmembers() if member.isfile()]
    top = sdist.name.removesuffix(".tar.gz") + "/"
    problems = [f"not under {top}: {name}" for name in members if not name.startswith(top)]
    names = {name.removeprefix(top) for name in members}
    wanted = source_files(source, SDIST_TREES) | set(SDIST_NEEDS)
    problems += [f"missing: {name}" for name in sorted(wanted - names)]
    unwanted = {name for name in names - wanted if not matches(name, SDIST_EXTRA_ALLOWED)}
    unwanted |= {name for name in names if matches(name, NEVER)}
    problems += [f"should not be there: {name}" for name in sorted(unwanted)]
    report(sdist, names)
    return problems


def report(artifact: Path, names: set[str]) -> None:
    folders: dict[str, int] = {}
    for name in names:
        folder = name.split("/")[0] if "/" in name else "."
        folders[folder] = folders.get(folder, 0) + 1
    summary = ", ".join(f"{folder}/ {count}" for folder, count in sorted(folders.items()))
    print(f"{artifact.name}: {artifact.stat().st_size / 1024:.0f} KiB, {len(names)} files ({summary})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check the file lists of the sdist and the wheel.")
    parser.add_argument("--source", type=Path, required=True, help="the source tree the artifacts were built from")
    parser.add_argument("--no-core", action="store_true", help="the wheel was made without the compiled core")
    parser.add_argument("artifacts", nargs="+", type=Path, help="an sdist (.tar.gz) or a wheel (.whl)")
    args = parser.parse_args(argv)
    failed = False
    for artifact in args.artifacts:
        if artifact.name.endswith(".whl"):
            problems = check_wheel(artifact, args.source, core=not args.no_core)
        elif artifact.name.endswith(".tar.gz"):
            problems = check_sdist(artifact, args.source)
        else:
            problems = ["neither an sdist (.tar.gz) nor a wheel (.whl)"]
        for problem in problems:
            print(f"{artifact.name}: {problem}", file=sys.stderr)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

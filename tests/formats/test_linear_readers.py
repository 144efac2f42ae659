"""Every reader of lines and words takes time linear in its input (issue 16, item 5):
each test times an input 10 times longer than another and checks the ratio (well
under the 100 of quadratic work), never an absolute time.  Also: the prompt's
word splitting reads words as a shell does (the grammar of :func:`shlex.split`)
and refuses what a shell would expand."""

from __future__ import annotations

import gc
import random
import shlex
import time
from collections.abc import Callable

import pytest
from helpers import invoke

from foursquare.errors import FoursquareError, ParseError
from foursquare.formats.loading import read_deck
from foursquare.formats.movescript import file_words, parse_entry, play_script
from foursquare.formats.yaml import iter_pieces, read_documents

#: Linear work gives about 10 (a little more: a longer input fits less well in the
#: caches); quadratic about 100.  The sizes are large enough for the caches not to rule.
MAX_RATIO = 30


def seconds(work: Callable[[], object]) -> float:
    """The shortest of five runs of ``work`` in this thread's CPU time (what other
    processes on a loaded machine do never counts), the garbage collector off (its pauses
    are noise here; a FoursquareError ends a run as usual; a run over a second is
    not repeated)."""
    best = float("inf")
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(5):
            start = time.thread_time()
            try:
                work()
            except FoursquareError:
                pass
            best = min(best, time.thread_time() - start)
            if best > 1:
                break
    finally:
        if collecting:
            gc.enable()
    return best


def assert_linear(make: Callable[[int], Callable[[], object]], n: int) -> None:
    """``make(n)`` builds the work for an input of size ``n``; its time at ``10 n``
    must be under :data:`MAX_RATIO` times its time at ``n``.  A shared machine can
    slow one measurement down: the pair is measured up to three times, and linear
    work passes on any of them (quadratic work fails every one, by a factor of 3)."""
    ratios = []
    for _ in range(3):
        short, long = seconds(make(n)), seconds(make(10 * n))
        if long < MAX_RATIO * max(short, 1e-3):
            return
        ratios.append((short, long))
    raise AssertionError(ratios)


LINES: dict[str, Callable[[int], str]] = {
    "unclosed quote": lambda n: 'save "' + "x" * n,
    "unclosed single quote": lambda n: "save '" + "x y" * (n // 3),
    "many quotes": lambda n: "save " + '"a"' * (n // 3),
    "many empty quotes": lambda n: "save x" + "''" * (n // 2),
    "many backslashes": lambda n: "save " + "\\ " * (n // 2),
    "backslashes in quotes": lambda n: 'save "' + '\\"' * (n // 2) + '"',
    "long word": lambda n: "save " + "x" * n,
    "many words": lambda n: "save " + "ab " * (n // 3),
    "comment": lambda n: "save x #" + "'" * n,
}


@pytest.mark.slow  # a time ratio: measured in the slow run, never in the fast one
@pytest.mark.parametrize("kind", list(LINES))
def test_file_words_is_linear(kind: str) -> None:
    assert_linear(lambda n: lambda: file_words(LINES[kind](n)), 50_000)


@pytest.mark.slow  # a time ratio: measured in the slow run, never in the fast one
@pytest.mark.parametrize(
    "make",
    [
        lambda n: "d" * n + "4",  # a long bad move
        lambda n: "7H " * (n // 3) + "d4",
        lambda n: "save " + "\\x" * (n // 2),
    ],
    ids=["bad move", "many words", "save"],
)
def test_move_script_lines_are_linear(make: Callable[[int], str]) -> None:
    # work done in C (str.split, any(isdigit)) is fast: a larger input, beyond the caches
    assert_linear(lambda n: lambda: parse_entry(make(n)), 200_000)
    assert_linear(lambda n: lambda: play_script(make(n), "m.moves", deal=1), 200_000)


@pytest.mark.slow  # a time ratio: measured in the slow run, never in the fast one
def test_other_readers_are_linear() -> None:
    assert_linear(lambda n: lambda: read_deck("AS " * (n // 3), "d.txt"), 600_000)  # (at 200,000 the short one fits in the caches: ratios of 40)
    assert_linear(lambda n: lambda: read_deck("# " + "'" * n, "d.txt"), 200_000)
    assert_linear(lambda n: lambda: list(iter_pieces(("a: 1\n---\n" * (n // 10),))), 50_000)
    assert_linear(lambda n: lambda: list(iter_pieces(("a: " + "x" * n,))), 200_000)
    assert_linear(lambda n: lambda: read_documents('moves: ["' + "x" * n + '"]\n', "t.yaml"), 50_000)


@pytest.mark.slow  # a time ratio: measured in the slow run, never in the fast one
@pytest.mark.parametrize("interactive", [True, False])
@pytest.mark.parametrize("kind", ["unclosed quote", "many backslashes", "many quotes"])
def test_the_prompt_reads_a_long_line_in_linear_time(kind: str, interactive: bool) -> None:
    """End to end: ``play`` reads the line from stdin and splits it (at the prompt, or as a script)."""
    flag = ["--interactive"] if interactive else []

    def make(n: int) -> Callable[[], object]:
        line = LINES[kind](n)
        return lambda: invoke(["play", "--deal", "1", *flag], input=line + "\nquit\n")

    assert_linear(make, 50_000)
    result = make(1000)()
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- the grammar


def test_words_are_cut_as_shlex_cuts_them() -> None:
    rng = random.Random(16)
    alphabet = "ab \t\\\"'#~x"
    for _ in range(50_000):
        text = "save " + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        cut = text.strip()  # file_words reads the line without its surrounding white space
        try:
            expected: list[str] | None = shlex.split(cut)
        except ValueError:
            expected = None
        if "#" in text or "~" in text or (expected is not None and "" in expected):
            continue  # comments, the home folder and empty names have their own rules
        try:
            got: list[str] | None = file_words(text)
        except ParseError:
            got = None
        assert got == expected, text


@pytest.mark.parametrize(
    "line, words",
    [
        ('save "my game.yaml"', ["save", "my game.yaml"]),
        ("save 'a\"b'", ["save", 'a"b']),
        ('save "a\\"b\\\\c\\d"', ["save", 'a"b\\c\\d']),
        ("save a\\ b", ["save", "a b"]),
        ("save 'x*y$z'", ["save", "x*y$z"]),
        ('save "x*y?[z]"', ["save", "x*y?[z]"]),
        ("save \\*.yaml \\$x", ["save", "*.yaml", "$x"]),
        ("save a#b", ["save", "a#b"]),
        ("save a #b", ["save", "a"]),
    ],
)
def test_what_a_name_holds(line: str, words: list[str]) -> None:
    assert file_words(line) == words


@pytest.mark.parametrize(
    "line, says",
    [
        ("save *.yaml", "wildcard"),
        ("save game?.yaml", "wildcard"),
        ("save [ab].yaml", "wildcard"),
        ("save $HOME/x.yaml", "variable"),
        ('save "$HOME/x.yaml"', "variable"),
        ("save ${HOME}/x.yaml", "variable"),
        ("save `pwd`/x.yaml", "command"),
        ("save x\\", "backslash ends the line"),
        ('save "x', "quote is not closed"),
    ],
)
def test_what_a_shell_would_expand_is_refused(line: str, says: str) -> None:
    with pytest.raises(ParseError, match=says):
        file_words(line)


@pytest.mark.parametrize("interactive", [True, False])
@pytest.mark.parametrize("line", ["save *.yaml", "save $HOME/x.yaml", "state ~/$USER.yaml"])
def test_the_prompt_writes_no_file_for_a_name_it_would_misread(tmp_path, monkeypatch, line, interactive) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    flag = ["--interactive"] if interactive else []
    result = invoke(["play", "--deal", "1", *flag], input=f"d4\n{line}\nquit\n")
    assert list(tmp_path.rglob("*")) == []
    assert "file names here expand only a leading ~ (your home folder)" in result.stderr
    assert result.exit_code == (0 if interactive else 1)

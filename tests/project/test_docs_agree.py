"""The docs say what the program does (issue 42, item 12: the kind "docs that disagree
with the program"): every command line the README and the docs show names options
that its command has; the defaults the guides state are the program's; the prompt's
commands are listed wherever the docs and the help list them; and the statements the
reader found wrong stay right."""

from __future__ import annotations

import re
import shlex

import click
import pytest
from helpers import ROOT

from foursquare.bots import DEFAULT as DEFAULT_BOT
from foursquare.cli import main
from foursquare.formats.commands import COMMAND_NAMES

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def _command(name: str) -> click.Command:
    command = main.get_command(click.Context(main), name)
    assert command is not None, name
    return command


def _flags(command: click.Command) -> set[str]:
    params = list(command.params)
    if isinstance(command, click.Group):
        params += [param for sub in command.commands.values() for param in sub.params]
    flags = {"--help", "-h"}
    for param in params:
        if isinstance(param, click.Option):
            flags.update(param.opts + param.secondary_opts)
    return flags


def _option(command: click.Command, flag: str) -> click.Option:
    """The command's option that ``flag`` names (by its flag: the parameter's name may change)."""
    found = [param for param in command.params if isinstance(param, click.Option) and flag in param.opts]
    assert len(found) == 1, flag
    return found[0]


def _command_lines(text: str):
    """Every foursquare command line of a page: in its code blocks, one a line, and in
    its inline code spans."""
    blocks = text.split("```")
    for block in blocks[1::2]:
        for line in block.splitlines():
            line = re.sub(r"^\s*(\$ )?", "", line)
            if line.startswith("foursquare "):
                yield line
    for prose in blocks[0::2]:
        yield from re.findall(r"`(foursquare [^`]+)`", prose)


def _words(line: str) -> list[str]:
    line = line.split("  #")[0]
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    for stop in ("<", ">", "|", "&&", ">>", "2>&1", "&"):
        if stop in words:
            words = words[: words.index(stop)]
    return words


def _lines():
    for page in PAGES:
        for line in _command_lines(page.read_text(encoding="utf-8")):
            yield pytest.param(line, id=f"{page.relative_to(ROOT)}: {line[:60]}")


COMMANDS = set(main.list_commands(click.Context(main)))


@pytest.mark.parametrize("line", list(_lines()))
def test_every_command_line_shown_names_options_its_command_has(line):
    words = _words(line)[1:]
    if not words or words[0] not in COMMANDS:
        assert not words or words[0].startswith("-") or words[0] in {"COMMAND", "..."}, line
        unknown = {word.split("=")[0] for word in words if word.startswith("-")} - _flags(main)
        assert not unknown, f"{line}: no such option of foursquare: {sorted(unknown)}"
        return
    command = _command(words[0])
    unknown = {
        word.split("=")[0] for word in words[1:] if re.fullmatch(r"--?[a-zA-Z][\w-]*(=.*)?", word)
    } - _flags(command)
    assert not unknown, f"{line}: foursquare {words[0]} has no {sorted(unknown)}"
    if words[0] == "replay" and "svg" in words:
        assert "--final" in words, f"{line}: replay --format svg needs --final"


def test_the_default_bot_the_guides_name_is_the_programs():
    assert DEFAULT_BOT == "expert"
    assert _option(_command("hint"), "--bot").default == DEFAULT_BOT
    assert list(_option(_command("simulate"), "--bot").default) == [DEFAULT_BOT]
    hints = (DOCS / "guide" / "hints.md").read_text(encoding="utf-8")
    assert f"The default bot,\n`{DEFAULT_BOT}`" in hints or f"default bot, `{DEFAULT_BOT}`" in hints
    assert f"`{DEFAULT_BOT}` (default)" in hints and f"`{DEFAULT_BOT}` by default" in hints
    assert f"the default bot, `{DEFAULT_BOT}`" in (DOCS / "guide" / "solver.md").read_text(encoding="utf-8")
    assert f"default: {DEFAULT_BOT}" in (_option(_command("analyze"), "--bot").help or "")


def test_the_defaults_the_guides_state_are_the_programs():
    hint = _command("hint")
    hints = (DOCS / "guide" / "hints.md").read_text(encoding="utf-8")
    assert _option(hint, "--budget").default == 1.0 and "(1 s by default)" in hints
    assert _option(hint, "--seed").default == 0 and "(0 by default)" in hints
    solver = (DOCS / "guide" / "solver.md").read_text(encoding="utf-8")
    analyze_help = _option(_command("analyze"), "--max-nodes").help or ""
    solve_help = _option(_command("solve"), "--max-nodes").help or ""
    assert "default 2000000" in analyze_help and "(2,000,000 by default" in solver
    assert "default 4000000" in solve_help and "(4,000,000\n  positions by default)" in solver


def test_the_prompts_commands_are_all_listed_by_play_help_and_the_guide():
    # play --help once left out reveal and help
    text = _command("play").help or ""
    listed = re.search(r"commands \(([^)]*)\)", text)
    assert listed is not None
    assert [name.strip() for name in listed.group(1).split(",")] == list(COMMAND_NAMES)
    playing = (DOCS / "guide" / "playing.md").read_text(encoding="utf-8")
    section = playing.split("## Commands at the prompt", 1)[1].split("\n## ", 1)[0]
    for name in COMMAND_NAMES:
        assert re.search(rf"^`{name}[` ]", section, re.M) or f"`{name}`, " in section or f", `{name}`" in section, name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    besides = re.search(r"Besides a move: (.*?)\.\n", readme)
    assert besides is not None
    assert [word.strip("` ").split()[0] for word in besides.group(1).split(",")] == list(COMMAND_NAMES)


def test_the_rules_in_brief_name_both_losses():
    for page in (ROOT / "README.md", DOCS / "index.md", DOCS / "guide" / "playing.md"):
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert "more than 4 top cards are face down" in text, page
        assert "the stock runs out" in text, page


def test_colour_is_said_of_the_grid_only():
    # at a terminal only the grid's cards have colour, not every card shown
    text = " ".join((DOCS / "guide" / "playing.md").read_text(encoding="utf-8").split())
    assert "At a terminal cards have colour" not in text
    assert "the grid's cards have colour" in text


def test_the_empty_data_folder_paragraph_says_what_play_does():
    text = " ".join((DOCS / "guide" / "history.md").read_text(encoding="utf-8").split())
    assert "`play` prints the message on stderr and plays the game anyway" in text
    assert "The game is not recorded in the history" in text


def test_what_the_empty_data_folder_paragraph_says_is_what_play_does(tmp_path, monkeypatch):
    from helpers import invoke

    monkeypatch.setenv("FOURSQUARE_HOME", "")
    done = invoke(["play", "--deal", "1", "--interactive", "--ascii"], input="d4\nquit\n")
    assert done.exit_code == 0 and "FOURSQUARE_HOME is set but empty" in done.stderr
    assert "not recorded" in done.stderr
    assert invoke(["stats"]).exit_code == 1

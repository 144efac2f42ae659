"""``python -m foursquare``, and the ``foursquare`` command (setup.cfg's console script)."""

import sys


def run() -> None:
    """Start the ``foursquare`` command line (:mod:`foursquare.cli`).

    Its modules (Click among them) are imported here, inside the guard: a Ctrl-C
    while they load ends as one inside a command does (FORMATS.md: "Interrupted."
    on stderr, status 130, no traceback).
    """
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)  # foursquare.cli.common.EXIT_INTERRUPTED, not imported: it loads Click
    main(prog_name="foursquare")


if __name__ == "__main__":
    run()

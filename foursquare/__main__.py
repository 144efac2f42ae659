"""``python -m foursquare``, and the ``foursquare`` command (setup.cfg's console script)."""

import signal
import sys
from types import FrameType


def run() -> None:
    """Start the ``foursquare`` command line (:mod:`foursquare.cli`).

    Its modules (Click among them) are imported here, inside the guard: a Ctrl-C
    while they load ends as one inside a command does (FORMATS.md: "Interrupted."
    on stderr, status 130, no traceback).  One Ctrl-C is enough: the ones after it
    are ignored, so that the clean-up it starts (a summary, a recording, stopping
    the workers) runs to its end, and no second ``KeyboardInterrupt`` meets Click's
    own handler ("Aborted!", status 1).
    """
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # (not when started ignoring it: `cmd &`)
        signal.signal(signal.SIGINT, _interrupt_once)
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)  # foursquare.cli.signals.EXIT_INTERRUPTED, not imported: it loads Click
    main(prog_name="foursquare")


def _interrupt_once(signum: int, frame: FrameType | None) -> None:
    """SIGINT's handler: a ``KeyboardInterrupt`` the first time, the later ones ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


if __name__ == "__main__":
    run()

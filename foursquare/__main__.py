"""``python -m foursquare``, and the ``foursquare`` command (setup.cfg's console script)."""

import signal  # first: the Ctrl-C guard below starts as soon as this module loads
import sys
from os.path import basename
from types import FrameType

#: Loaded to run the command (``python -m foursquare``, the console script), not imported
#: by a program: only then does this module put in its handler as it loads.
_COMMAND = __name__ == "__main__" or basename(sys.argv[0]) in ("foursquare", "foursquare.exe")

#: Where the run is: ``starting`` (this module loading, the console script calling
#: :func:`run`: a Ctrl-C is held, acted on when :func:`run` starts), ``guarded``
#: (a Ctrl-C raises ``KeyboardInterrupt``) or ``ended`` (the command has its exit
#: status: a Ctrl-C is ignored, the status stands).
_phase = "starting" if _COMMAND else "guarded"
#: A Ctrl-C came while starting.
_held: list[int] = []


def _interrupt_once(signum: int, frame: FrameType | None) -> None:
    """SIGINT's handler: a ``KeyboardInterrupt`` the first time (held while the
    command starts, ignored once it has ended), the later ones ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _phase == "guarded":
        raise KeyboardInterrupt
    if _phase == "starting":
        _held.append(signum)


if _COMMAND and signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # (not when started ignoring it: `cmd &`)
    signal.signal(signal.SIGINT, _interrupt_once)


def run() -> None:
    """Start the ``foursquare`` command line (:mod:`foursquare.cli`).

    Ctrl-C is guarded from the moment this module loads to the end: its modules
    (Click among them) are imported inside the guard, and a Ctrl-C at any moment
    ends as one inside a command does (FORMATS.md: "Interrupted." on stderr, status
    130, no traceback); one that comes after the command has ended is ignored (its
    exit status stands).  One Ctrl-C is enough: the ones after it are ignored, so
    that the clean-up it starts (a summary, a recording, stopping the workers) runs
    to its end, and no second ``KeyboardInterrupt`` meets Click's own handler
    ("Aborted!", status 1).
    """
    global _phase
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # (run() called by a program)
        signal.signal(signal.SIGINT, _interrupt_once)
    try:
        _phase = "guarded"
        if _held:
            raise KeyboardInterrupt
        from .cli import main
        from .cli.boundary import out_of_memory_text
    except KeyboardInterrupt:
        _phase = "ended"
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)  # foursquare.cli.signals.EXIT_INTERRUPTED, not imported: it loads Click
    ran_out = False
    try:
        main(prog_name="foursquare")
    except (MemoryError, SystemError):  # outside a command's boundary (which says it for its own command)
        ran_out = True
    finally:
        _phase = "ended"
        if _COMMAND and signal.getsignal(signal.SIGINT) is _interrupt_once:  # (Python would put the default back while it exits)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    if ran_out:
        sys.stderr.write(out_of_memory_text({}) + "\n")
        sys.exit(1)


if __name__ == "__main__":
    run()

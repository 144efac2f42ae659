"""Writing files: the one way every file the command line writes is created,
replaced and held (the recording of ``play --record``, ``save``/``state FILE`` at
the prompt, the ``--output`` CSV of ``solve --deals`` and ``simulate``).

It lives in cli/ because only the command line writes files (the library returns
text), and it imports no Click, so that :mod:`foursquare.cli.session` uses it too.

What is guaranteed (README.md, "Playing"):

- **Never half a file.**  New text goes to a temporary file beside the real
  target (symbolic links followed), is flushed to the disk (``fsync``) and
  renamed over the target.  A write that fails (the disk full, a quota, an I/O
  error, a read-only file system, a size limit) leaves the old text whole and
  no temporary file behind; the error says so in words (:func:`os_error_words`).
- **No window when a file is created.**  A new file's name is claimed with
  ``O_CREAT | O_EXCL``: of two commands started together, one creates it, the
  other finds it there (and then its lock, or its content, refuses it).
- **One writer.**  A writer holds an exclusive ``flock`` on the file for as long
  as it writes it (a recording: the whole session).  A second writer is refused
  (:data:`IN_USE`) before it has done anything.
- **Read-only files are refused**, as editors warn: a regular file whose mode has
  no write bit for its owner (``chmod a-w`` / ``0444``), even for root, for whom
  ``os.access`` says every file is writable.

Why the lock is on the file itself, renewed at each rename, rather than a lock
file beside it or a rewrite in place: a rewrite in place (truncate, write) leaves
half a file when the disk fills or the process is killed, which the rename
avoids; a lock file would be left beside every recording (and after a kill).
The rename gives the path a new inode, so the lock is taken on the temporary file
*before* it is renamed: the path always names an inode this writer holds locked.
A process that opened the path just before a rename and locks the old inode after
it sees that the path names another inode now (``fstat`` against ``stat``) and
tries again on the new one, which is locked.  ``flock`` locks are advisory: they
keep foursquare commands apart, not other programs; where ``fcntl`` is missing
(Windows) no lock is taken.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

#: The words for a file held by another writer.
IN_USE = "in use: another foursquare command is writing it (one writer at a time); wait for it to end, or write another file"

#: The words for a file whose mode forbids writing.
READ_ONLY = "the file is read-only (its mode has no write bit); make it writable (chmod u+w) or write another file"

#: Plain words added to the system's text for the failures of a write.
_GLOSS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file is over the size limit for one file",
    errno.EIO: "the disk, or the connection to it, failed",
    errno.EROFS: "the disk is mounted read-only",
}


def os_error_words(exc: OSError) -> str:
    """The reason of an OS error in words, never ``[Errno 28] ...``.

    >>> os_error_words(OSError(errno.ENOSPC, "No space left on device"))
    'No space left on device (the disk is full)'
    >>> os_error_words(OSError(errno.EACCES, None))
    'Permission denied'
    """
    number = exc.errno
    text = exc.strerror
    if not text and isinstance(number, int):
        text = os.strerror(number)
    if not text:
        text = str(exc.args[0]) if exc.args else type(exc).__name__
    gloss = _GLOSS.get(number) if isinstance(number, int) else None
    if gloss and isinstance(number, int) and text == os.strerror(number):
        text = f"{text} ({gloss})"
    return text


def is_read_only(mode: int) -> bool:
    """Whether a file's mode says it is not to be written: no write bit for its owner."""
    return not mode & stat.S_IWUSR


def writable_target(path: str) -> str:
    """The real file that writing ``path`` means: symbolic links followed.

    :returns: the resolved path (it may not exist yet).
    :raises OSError: naming ``path`` when it exists and is not a regular file
        (a directory, a device, a FIFO, a socket), when it is read-only by its
        mode (:data:`READ_ONLY`), when it ends with ``/`` (a folder's name) or
        holds a NUL character, and when it is the game history's database
        (:data:`HISTORY_ITSELF`).
    """
    if "\0" in path:
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character", path)
    real = os.path.realpath(path)
    try:
        # the path itself first: /dev/stdout on a pipe resolves to a name that is no file
        # ("/proc/.../fd/pipe:[...]"), while the system follows the link to the pipe
        info = os.stat(path) if os.path.lexists(path) else os.stat(real)
    except FileNotFoundError:
        if path.endswith(("/", os.sep)):
            raise IsADirectoryError(errno.EISDIR, "names a folder (it ends with /); give a file name", path) from None
        return real
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file", path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a device, a pipe or a socket); give a file name", path)
    if is_read_only(info.st_mode):
        raise PermissionError(errno.EACCES, READ_ONLY, path)
    if _is_the_history(path):
        raise OSError(errno.EINVAL, HISTORY_ITSELF, path)
    return real


#: Why :func:`writable_target` refuses the game history's own file.
HISTORY_ITSELF = "is the history of games itself (see 'foursquare history'): writing it would lose them; give another name"


def _is_the_history(path: str) -> bool:
    """Whether ``path`` is the game history's database (:func:`~foursquare.cli.datafolder.history_path`),
    which no command writes as a file; False when the data folder is not set right."""
    from .datafolder import DataFolderError, history_path

    try:
        history = history_path()
    except DataFolderError:
        return False
    return os.path.isfile(history) and same_file(path, history)


def is_standard_output(path: str) -> bool:
    """Whether writing ``path`` means writing where standard output already goes:
    the file of descriptor 1 itself, by device and inode (``/dev/stdout``,
    ``/proc/self/fd/1``, or ``F`` while stdout is redirected to ``F``), so that what
    is written to both would mix.  ``-`` is not asked about here (it names stdout by
    name); a path that does not exist yet is not stdout; a character device that is
    not a terminal (``/dev/null``) does not count, as nothing written there mixes."""
    if path == "-" or "\0" in path:
        return False
    try:
        out = os.fstat(1)
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    if not os.path.samestat(out, info):
        return False
    return not stat.S_ISCHR(info.st_mode) or os.isatty(1)


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (links followed; a file not there yet by its path)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b) if "\0" not in a + b else False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _lock(fd: int, path: str) -> None:
    """Take the exclusive lock on ``fd`` without waiting; :data:`IN_USE` when another holds it."""
    if fcntl is None:  # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise BlockingIOError(errno.EWOULDBLOCK, IN_USE, path) from None
    except OSError as exc:
        if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
            return  # a file system without locks: write without one
        raise OSError(exc.errno, exc.strerror, path) from None


class LockedFile:
    """A regular file held for writing: open, locked, and rewritten whole.

    Made by :func:`claim`.  :attr:`created` says whether this writer created it
    (an empty file); :meth:`size` is what it holds now; :meth:`rewrite` replaces
    its text atomically and keeps the lock; :meth:`release` lets it go.
    """

    def __init__(self, path: str, real: str, fd: int, created: bool) -> None:
        self.path, self.real, self.fd, self.created = path, real, fd, created
        self.mode = stat.S_IMODE(os.fstat(fd).st_mode)
        self.written = False

    def size(self) -> int:
        """How many bytes the file holds now."""
        return os.fstat(self.fd).st_size

    def rewrite(self, text: str, *, sync: bool = True) -> None:
        """Replace the file's text: a temporary file beside it, locked, written, synced
        and renamed over it.  On any failure the file keeps its old text, the
        temporary file is removed and the lock is still held.

        :raises OSError: naming :attr:`path` (never the temporary file).
        """
        folder = os.path.dirname(self.real)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".foursquare-", suffix=".tmp", dir=folder)
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, "no such folder to write the file in", self.path) from None
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, self.path) from None
        try:
            os.fchmod(fd, self.mode)
            _lock(fd, self.path)
            data = text.encode("utf-8")
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if sync:
                os.fsync(fd)
            os.replace(tmp, self.real)
        except BaseException as exc:
            os.close(fd)
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if isinstance(exc, OSError) and exc.filename != self.path:
                raise OSError(exc.errno, exc.strerror, self.path) from None
            raise
        os.close(self.fd)  # the old inode's lock: the path names the new one, locked
        self.fd = fd
        self.written = True

    def release(self, *, remove_if_new: bool = False) -> None:
        """Let the file go (its lock with it); ``remove_if_new``: remove it when this
        writer created it and never wrote it (a command refused after the claim)."""
        if self.fd < 0:
            return
        if remove_if_new and self.created and not self.written:
            try:
                if os.path.samestat(os.fstat(self.fd), os.stat(self.real)) and self.size() == 0:
                    os.unlink(self.real)
            except OSError:
                pass
        os.close(self.fd)
        self.fd = -1

    def stream(self) -> IO[str]:
        """The file emptied and open for writing text from the start (a CSV written row by
        row); closing the stream releases the lock."""
        os.ftruncate(self.fd, 0)
        fd, self.fd = self.fd, -1
        return os.fdopen(fd, "w", newline="", encoding="utf-8")


def claim(path: str) -> LockedFile:
    """Open ``path`` (links followed) for writing and lock it, creating it (empty)
    when it is not there, with no window between the test and the creation.

    :raises OSError: naming ``path``: not a regular file or read-only
        (:func:`writable_target`), its folder missing, or another writer holds
        it (:class:`BlockingIOError`, :data:`IN_USE`).
    """
    real = writable_target(path)
    for _ in range(100):
        created = True
        try:
            fd = os.open(real, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except FileExistsError:
            created = False
            try:
                fd = os.open(real, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
            except FileNotFoundError:
                continue  # removed in between: create it
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, path) from None
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, "no such folder to write the file in", path) from None
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, path) from None
        try:
            if created:
                os.fchmod(fd, 0o666 & ~_umask())
            _lock(fd, path)
            if os.path.samestat(os.fstat(fd), os.stat(real)):
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode):
                    raise OSError(errno.EINVAL, "not a regular file (a device, a pipe or a socket); give a file name", path)
                return LockedFile(path, real, fd, created)
        except FileNotFoundError:
            pass  # renamed away after the lock: try the new file
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the path names another file now (a writer renamed over it): try that one
    raise BlockingIOError(errno.EWOULDBLOCK, IN_USE, path)


def write_atomically(path: str, text: str, *, sync: bool = True, unless_full: str | None = None) -> None:
    """Write ``text`` to ``path`` whole (:meth:`LockedFile.rewrite`), holding its lock
    for the write: always either the old or the new text.

    A new file gets the mode the umask allows (``0o666 & ~umask``); an existing
    file keeps its mode.  A new file that could not be written is removed.

    :param sync: :func:`os.fsync` the data before the rename.
    :param unless_full: refuse, with these words, a file that holds something
        (checked under the lock, so that two writers cannot both find it empty).
    :raises OSError: naming ``path`` (never the temporary file) when the file
        cannot be written, is held by another writer, is read-only, or is not a
        regular file; :class:`FileExistsError` for ``unless_full``.
    """
    held = claim(path)
    try:
        if unless_full is not None and held.size() > 0:
            raise FileExistsError(errno.EEXIST, unless_full, path)
        held.rewrite(text, sync=sync)
    finally:
        held.release(remove_if_new=True)


def refuse_output_over_input(output_option: str, output: str | None, inputs: dict[str, str | None]) -> None:
    """A usage error (status 2) when the file a command is to write is one of the files it
    reads (the same path, or the same file by another path: links followed), checked before
    anything is written: ``play --deck D --record D``, ``simulate --rules R --output R``.

    :param output_option: the option (or argument) naming the file written, ``--record``.
    :param output: its value (``None`` or ``-``: no file written, nothing to check).
    :param inputs: each input option (``--deck``) and its value (``None``, ``-``, a
        name that is no file, such as a rules preset, or a device or pipe: not checked).
    :raises click.UsageError: naming both options."""
    import click

    if output is None or output == "-" or "\0" in output:
        return
    for option, path in inputs.items():
        if path is None or path == "-" or "\0" in path or not os.path.isfile(path):
            continue  # no file, or a device or pipe: nothing there to overwrite
        if same_file(output, path):
            from ..errors import quote

            raise click.UsageError(
                f"{output_option} {quote(output)} is the file given as {option} {quote(path)}: writing it would"
                " overwrite that input; give another name"
            )


def stdin_file() -> str | None:
    """The name of the file standard input reads (``/dev/fd/0``), for
    :func:`refuse_output_over_input`; ``None`` when stdin is no open file descriptor
    (closed, or a stream in place of one, as a test runner gives)."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None
    name = f"/dev/fd/{fd}"
    return name if os.path.exists(name) else None

"""Writing files: the one way every file the command line writes is created,
replaced and held (the recording of ``play --record``, ``save``/``state FILE`` at
the prompt, the ``--output`` CSV of ``solve --deals`` and ``simulate``).  The
libraries below return text; a program writes it to files here.

The guarantees are the docs' (docs/guide/playing.md, "What the files written are
guaranteed"); how they are kept:

- **Never half a file.**  New text goes to a temporary file beside the target
  (:func:`tempfile.mkstemp`, named ``.foursquare-XXXX.tmp``), is synced to the disk
  and renamed over it (:func:`os.replace`); a new file is given its name by a hard
  link (:func:`os.link`), which never goes over a file another command created
  meanwhile.  A failed write leaves the old text and removes its temporary file;
  a kill may leave one behind, named as ours.  A folder that refuses new files
  refuses the write (the file stays as it was).
- **Never over an input** (:func:`files_read`, :func:`refuse_output_over_input`),
  by device and inode.
- **One writer.**  A writer holds an exclusive ``flock`` on the file while it writes
  it, taken on the temporary file *before* its rename, so that the path always names
  an inode it holds; a claim that locked an inode renamed away meanwhile tries again.
  Where ``fcntl`` is missing (Windows) no lock is taken.
- **Read-only files are refused** by their mode (``chmod a-w``), even for root.
- **A target that is not a regular file** (``/dev/null``, a FIFO, ``/dev/stderr``) is
  written straight, with no temporary file and no lock: once, with the last text given
  (:meth:`LockedFile.release`), so that a FIFO's reader gets one whole text.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

from ..errors import AgreementError, HistoryStoreError, quote, shown_name

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
    number = exc.errno if isinstance(exc.errno, int) else None
    text = exc.strerror or (os.strerror(number) if number else None) or (str(exc.args[0]) if exc.args else type(exc).__name__)
    return f"{text} ({_GLOSS[number]})" if number in _GLOSS and text == os.strerror(number) else text


def is_read_only(mode: int) -> bool:
    """Whether a file's mode says it is not to be written: no write bit for its owner."""
    return not mode & stat.S_IWUSR


def writable_target(path: str) -> str:
    """The real file that writing ``path`` means: symbolic links followed.

    :returns: the resolved path (it may not exist yet); ``path`` made absolute, links
        kept, when it names something that is not a regular file (a device, a FIFO:
        written straight).
    :raises OSError: naming ``path`` when it is a directory, when it is read-only by its
        mode (:data:`READ_ONLY`), when it ends with ``/`` (a folder's name) or
        holds a NUL character, when it is the game history's database
        (it would lose them), and when it is a file the command reads
        (:func:`files_read`: ``--deck``, ``--rules``, the move script on stdin),
        by device and inode, whatever its name, even with ``force``.
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
        return os.path.abspath(path)  # /dev/null, a FIFO, /dev/stderr: written straight (nothing there to keep whole)
    if is_read_only(info.st_mode):
        raise PermissionError(errno.EACCES, READ_ONLY, path)
    from .datafolder import history_path

    try:
        history = os.path.samestat(info, os.stat(history_path()))
    except (HistoryStoreError, OSError):  # no data folder set right, or no history there
        history = False
    if history:
        raise OSError(
            errno.EINVAL, "is the history of games itself (see 'foursquare history'): writing it would lose them; give another name", path
        )
    for what, device, inode in _READ:
        if (info.st_dev, info.st_ino) == (device, inode):
            raise OSError(errno.EINVAL, f"is {what}: writing it would overwrite that input; give another name", path)
    return real


#: The files the running command reads (:func:`files_read`), which it never writes:
#: what each is, in words, and its identity (device, inode).
_READ: list[tuple[str, int, int]] = []


@contextlib.contextmanager
def files_read(inputs: Mapping[str, str | None], stdin: str | None = None) -> Iterator[None]:
    """While the block runs, :func:`writable_target` (so every writer: ``--record``,
    ``save``/``state FILE`` at the prompt, with ``!`` too) refuses the files given:
    by device and inode, so under any name, through any link.

    :param inputs: each input option (``--deck``) and its value; ``None``, a name that
        names no regular file (a preset, a device, a pipe) are not files to keep.
    :param stdin: the words for what standard input holds (``the move script read from
        stdin``): kept when stdin is a regular file (``< moves.txt``); ``None``: not kept.
    """
    kept: list[tuple[str, int, int]] = []
    files: list[tuple[str, str | int]] = [
        (f"the file given as {option} {shown_name(path)}", path) for option, path in inputs.items() if path and path != "-"
    ] + ([] if stdin is None else [(stdin, 0)])  # standard input, by its descriptor
    for what, file in files:
        with contextlib.suppress(OSError, ValueError):
            info = os.stat(file)
            if stat.S_ISREG(info.st_mode):
                kept.append((what, info.st_dev, info.st_ino))
    _READ.extend(kept)
    try:
        yield
    finally:
        for item in kept:
            _READ.remove(item)


def is_standard_stream(path: str, fd: int) -> bool:
    """Whether ``path`` is the file open as descriptor ``fd`` (0: stdin, 1: stdout), by
    device and inode: ``/dev/stdout``, ``/dev/fd/0``, ``/proc/self/fd/1``, or ``F`` while
    the stream is redirected to or from ``F``, so that what is written to both would
    mix, or a command whose stdin holds something else (``play``'s moves) would read it
    for an option too.  ``-`` is not asked about here (it names the stream by name); a
    path that does not exist yet is not the stream; a character device that is not a
    terminal (``/dev/null``) does not count: nothing written there mixes, and it reads
    empty every time, whoever reads it."""
    if path == "-" or "\0" in path:
        return False
    try:
        opened = os.fstat(fd)
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    return os.path.samestat(opened, info) and (not stat.S_ISCHR(info.st_mode) or os.isatty(fd))


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (links followed; a file not there yet by its path)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b) if "\0" not in a + b else False


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


#: The words for a new file that another command created between the claim and the first write.
CREATED_MEANWHILE = "the file exists and is not empty: another command created it meanwhile; write another file"


class LockedFile:
    """A regular file held for writing: open, locked, and rewritten whole.

    Made by :func:`claim`.  A new
    file is :attr:`pending` (its name not taken yet) until its first :meth:`rewrite`
    gives it its whole text, so that it appears whole or not at all.  :meth:`size` is
    what it holds now; :meth:`rewrite` replaces its text atomically and keeps the lock;
    :meth:`release` lets it go.  A target that is not a regular file is :attr:`straight`:
    it holds nothing, and :meth:`release` writes it the last text given, if any.
    """

    def __init__(self, path: str, real: str, fd: int, *, pending: bool = False, straight: bool = False) -> None:
        self.path, self.real, self.fd = path, real, fd
        #: a new file whose name is taken at the first rewrite (no fd until then)
        self.pending = pending
        #: not a regular file (a device, a FIFO): written at the release, straight
        self.straight = straight
        self._last: bytes | None = None
        if fd < 0:  # a new file: the mode the umask allows
            umask = os.umask(0)
            os.umask(umask)
        self.mode = 0o666 & ~umask if fd < 0 else stat.S_IMODE(os.fstat(fd).st_mode)

    def size(self) -> int:
        """How many bytes the file holds now (0 for a new file not written yet, or one written straight)."""
        return 0 if self.fd < 0 else os.fstat(self.fd).st_size

    def rewrite(self, text: str | Iterable[bytes]) -> None:
        """Replace the file's text with ``text`` (in UTF-8), or with chunks of bytes read
        one at a time (memory that does not grow with the text): a temporary file beside
        it, locked, written, synced and renamed over it (a new file: linked to its name,
        which appears only now, whole).  On any failure, an exception raised by the
        chunks included, the file keeps its old text, the temporary file is removed and
        the lock is still held.

        :raises OSError: naming :attr:`path` (never the temporary file), with
            words saying so when its folder refuses the temporary file;
            :class:`FileExistsError` (:data:`CREATED_MEANWHILE`) or :class:`BlockingIOError`
            (:data:`IN_USE`) when another command created the new file first.
        """
        chunks = [text.encode("utf-8")] if isinstance(text, str) else text
        if self.straight:
            self._last = b"".join(chunks)
            return
        fd, tmp = _temporary(self.real, self.path)
        try:
            os.fchmod(fd, self.mode)
            _lock(fd, self.path)
            for chunk in chunks:  # (unbuffered: nothing left to flush over an error from ``chunks``)
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view) :]
            os.fsync(fd)
            if self.pending:
                _publish(tmp, self.real, self.path)
            else:
                os.replace(tmp, self.real)
        except BaseException as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError) and exc.filename != self.path:
                raise OSError(exc.errno, exc.strerror, self.path) from None
            raise
        if self.fd >= 0:
            os.close(self.fd)  # the old inode's lock: the path names the new one, locked
        self.fd, self.pending = fd, False

    def release(self) -> None:
        """Let the file go (its lock with it).

        :raises OSError: naming :attr:`path`, when a target written straight cannot be written.
        """
        if self._last is not None:
            text, self._last = self._last, None
            try:
                with open(self.path, "wb") as target:
                    target.write(text)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, self.path) from None
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def stream(self, keep: int = 0) -> IO[str]:
        """The file cut to its first ``keep`` bytes (emptied by default) and open for writing
        text at its end (a CSV written row by row); the lock goes with the stream (closing
        it releases the lock)."""
        if self.straight:
            return open(self.path, "w", newline="", encoding="utf-8")
        os.ftruncate(self.fd, keep)
        os.lseek(self.fd, 0, os.SEEK_END)
        fd, self.fd = self.fd, -1
        return os.fdopen(fd, "w", newline="", encoding="utf-8")


def _not_created(exc: FileNotFoundError, real: str, path: str) -> FileNotFoundError:
    """The error of a file that could not be made (``ENOENT``), naming ``path``, with
    the real reason: its folder is missing, or it is there and takes no new files
    (``/proc``), in the system's words."""
    folder = os.path.dirname(real) or "."
    if os.path.isdir(folder):
        return FileNotFoundError(errno.ENOENT, f"the folder {folder} takes no new files (the system says: {os_error_words(exc)})", path)
    return FileNotFoundError(errno.ENOENT, "no such folder to write the file in", path)


def _temporary(real: str, path: str) -> tuple[int, str]:
    """A new temporary file beside ``real``: its descriptor and name.

    :raises OSError: naming ``path``, saying so when the folder refuses it."""
    try:
        return tempfile.mkstemp(prefix=".foursquare-", suffix=".tmp", dir=os.path.dirname(real))
    except FileNotFoundError as exc:
        raise _not_created(exc, real, path) from None
    except PermissionError as exc:
        raise PermissionError(
            exc.errno, f"{os_error_words(exc)}: its folder refuses new files, so the file was left as it was", path
        ) from None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None


def _publish(tmp: str, real: str, path: str) -> None:
    """Give the written temporary file ``tmp`` the new name ``real``, never over a file
    there: a hard link (atomic, refused when the name exists), then the temporary
    name removed.  On a file system without hard links, the name is created empty and
    the file renamed over it at once.

    :raises FileExistsError: :data:`CREATED_MEANWHILE`; :raises BlockingIOError:
        :data:`IN_USE` when the command that created it still writes it."""
    try:
        try:
            os.link(tmp, real)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS):
                raise  # (FileExistsError among them)
            os.close(os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # the name taken first,
            os.replace(tmp, real)  # then the file renamed over it at once
            return
    except FileExistsError:
        try:
            with open(real, "rb") as probe:
                _lock(probe.fileno(), path)  # BlockingIOError (IN_USE) while the other command holds it
        except BlockingIOError:
            raise
        except OSError:
            pass  # gone, unreadable, or not held: created and let go
        raise FileExistsError(errno.EEXIST, CREATED_MEANWHILE, path) from None
    os.unlink(tmp)


def claim(path: str, *, whole: bool = False) -> LockedFile:
    """Open ``path`` (links followed) for writing and lock it, creating it (empty)
    when it is not there, with no window between the test and the creation.

    :param whole: a file not there yet is not created now but claimed
        :attr:`~LockedFile.pending`: its name is taken, atomically, by its first
        rewrite, with its whole text, so that a kill never leaves it empty (a
        recording, ``save FILE``); without it, the caller gets a descriptor at once
        (a CSV written row by row).
    :raises OSError: naming ``path``: a directory or read-only
        (:func:`writable_target`), its folder missing or refusing new files (with
        ``whole``: saying so), or another writer holds
        it (:class:`BlockingIOError`, :data:`IN_USE`).
    """
    real = writable_target(path)
    if os.path.exists(path) and not os.path.isfile(path):
        return LockedFile(path, path, -1, straight=True)  # /dev/null, a FIFO: no lock, no temporary file
    if whole:  # refused at once, not at its first rewrite, when its folder refuses new files
        fd, tmp = _temporary(real, path)
        os.close(fd)
        os.unlink(tmp)
    for _ in range(100):
        try:  # (a new file: created empty now, with the mode the umask allows, unless ``whole``)
            fd = os.open(real, os.O_RDWR | (0 if whole else os.O_CREAT), 0o666)
        except FileNotFoundError as exc:
            if whole:  # not there: a new file (its folder is there: the probe above)
                return LockedFile(path, real, -1, pending=True)
            raise _not_created(exc, real, path) from None
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, path) from None
        try:
            _lock(fd, path)
            if os.path.samestat(os.fstat(fd), os.stat(real)):
                return LockedFile(path, real, fd)
        except FileNotFoundError:
            pass  # renamed away after the lock: try the new file
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the path names another file now (a writer renamed over it): try that one
    raise BlockingIOError(errno.EWOULDBLOCK, IN_USE, path)


def write_atomically(path: str, text: str, *, unless_full: str | None = None) -> None:
    """Write ``text`` to ``path`` whole (:meth:`LockedFile.rewrite`), holding its lock
    for the write: always either the old or the new text.

    A new file gets the mode the umask allows (``0o666 & ~umask``); an existing
    file keeps its mode.  A new file appears only written whole; one that another
    command created between the claim and the write is claimed again, as an old file.

    :param unless_full: refuse, with these words, a file that holds something
        (checked under the lock, so that two writers cannot both find it empty).
    :raises OSError: naming ``path`` (never the temporary file) when the file
        cannot be written, is held by another writer, is read-only, or is not a
        regular file; :class:`FileExistsError` for ``unless_full``.
    """
    for last in (False, True):
        held = claim(path, whole=True)
        try:
            if unless_full is not None and held.size() > 0:
                raise FileExistsError(errno.EEXIST, unless_full, path)
            held.rewrite(text)
            return
        except FileExistsError as exc:
            if last or exc.strerror != CREATED_MEANWHILE:
                raise
        finally:
            held.release()


def refuse_output_over_input(output_option: str, output: str | None, inputs: dict[str, str | None]) -> None:
    """Refuse the file a command is to write when it is one of the files it reads (the
    same path, or the same file by another path: links followed), checked before
    anything is written: ``play --deck D --record D``, ``simulate --rules R --output R``.

    :param output_option: what names the file written, in the caller's words (the
        command line's option, ``--record``).
    :param output: its value (``None`` or ``-``: no file written, nothing to check).
    :param inputs: each input, in the caller's words (``--deck``), and its value
        (``None``, ``-``, a name that is no file, such as a rules preset, or a device
        or pipe: not checked).
    :raises AgreementError: naming both (a usage error at the command line, status 2)."""
    for option, path in inputs.items():  # (no file, or a device or pipe: nothing there to overwrite)
        if output not in (None, "-") and path not in (None, "-") and os.path.isfile(path) and same_file(output, path):
            # (``stdin``: the file read as standard input, whose name says nothing)
            given = "the file read as standard input" if option == "stdin" else f"the file given as {option} {quote(path)}"
            raise AgreementError(f"{output_option} {quote(output)} is {given}: writing it would overwrite that input; give another name")


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

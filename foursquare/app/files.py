"""Writing files: the one way every file the command line writes is created,
replaced and held (the recording of ``play --record``, ``save``/``state FILE`` at
the prompt, the ``--output`` CSV of ``solve --deals`` and ``simulate``).

It lives in the application layer, beside the prompt's session
(:mod:`foursquare.app.session`) that writes recordings too: the libraries below
return text; a program writes it to files here.

What is guaranteed (docs/guide/playing.md, "What the files written are guaranteed"):

- **Never half a file.**  New text goes to a temporary file beside the real
  target (symbolic links followed), is flushed to the disk (``fsync``) and
  renamed over the target.  A write that fails (the disk full, a quota, an I/O
  error, a read-only file system, a size limit) leaves the old text whole and
  no temporary file behind; the error says so in words (:func:`os_error_words`).
  Temporary files are named ``.foursquare-PID-XXXX.tmp``; those that a writer
  killed before its rename left are removed by the next writer in the folder
  (:func:`sweep_leftovers`), never anyone else's.  A file in a folder that refuses
  new names (``chattr +i``) is rewritten in place, its new text first written
  after the old, so that a full disk still leaves the old text whole (said on stderr).
- **No window when a file is created.**  A new file's name is claimed with
  ``O_CREAT | O_EXCL`` (a CSV) or, for a file written whole (a recording, ``save``:
  ``claim(whole=True)``), by a hard link of its written temporary file, so that it
  appears whole or not at all, even after ``kill -9``: of two commands started
  together, one creates it, the other finds it there (and then its lock, or its
  content, refuses it).
- **Never over an input.**  No file written is one the command reads
  (:func:`files_read`: ``play``'s ``--deck``, ``--rules``, the move script on stdin),
  by device and inode, even with ``--force`` or ``save!``.
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

import contextlib
import errno
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, NamedTuple

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

from ..errors import AgreementError

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
        holds a NUL character, when it is the game history's database
        (:data:`HISTORY_ITSELF`), and when it is a file the command reads
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
        raise OSError(errno.EINVAL, "not a regular file (a device, a pipe or a socket); give a file name", path)
    if is_read_only(info.st_mode):
        raise PermissionError(errno.EACCES, READ_ONLY, path)
    if _is_the_history(path):
        raise OSError(errno.EINVAL, HISTORY_ITSELF, path)
    for read in _READ:
        if (info.st_dev, info.st_ino) == (read.device, read.inode):
            raise OSError(errno.EINVAL, f"is {read.what}: writing it would overwrite that input; give another name", path)
    return real


class _Input(NamedTuple):
    """A file the running command reads: what it is, in words, and its identity."""

    what: str
    device: int
    inode: int


#: The files the running command reads (:func:`files_read`), which it never writes.
_READ: list[_Input] = []


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
    kept: list[_Input] = []
    named = [(f"the file given as {option} {_shown(path)}", path) for option, path in inputs.items() if path and path != "-"]
    for what, path in named:
        with contextlib.suppress(OSError, ValueError):
            info = os.stat(path)
            if stat.S_ISREG(info.st_mode):
                kept.append(_Input(what, info.st_dev, info.st_ino))
    if stdin is not None:
        with contextlib.suppress(OSError, ValueError):
            info = os.fstat(0)
            if stat.S_ISREG(info.st_mode):
                kept.append(_Input(stdin, info.st_dev, info.st_ino))
    _READ.extend(kept)
    try:
        yield
    finally:
        for item in kept:
            _READ.remove(item)


def _shown(path: str) -> str:
    from ..errors import shown_name

    return shown_name(path)


#: Why :func:`writable_target` refuses the game history's own file.
HISTORY_ITSELF = "is the history of games itself (see 'foursquare history'): writing it would lose them; give another name"


def _is_the_history(path: str) -> bool:
    """Whether ``path`` is the game history's database (:func:`~foursquare.app.datafolder.history_path`),
    which no command writes as a file; False when the data folder is not set right."""
    from ..errors import HistoryStoreError
    from .datafolder import history_path

    try:
        history = history_path()
    except HistoryStoreError:
        return False
    return os.path.isfile(history) and same_file(path, history)


def is_standard_output(path: str) -> bool:
    """Whether writing ``path`` means writing where standard output already goes:
    the file of descriptor 1 itself, by device and inode (``/dev/stdout``,
    ``/proc/self/fd/1``, or ``F`` while stdout is redirected to ``F``), so that what
    is written to both would mix.  ``-`` is not asked about here (it names stdout by
    name); a path that does not exist yet is not stdout; a character device that is
    not a terminal (``/dev/null``) does not count, as nothing written there mixes."""
    return _is_descriptor(path, 1)


def is_standard_input(path: str) -> bool:
    """Whether reading ``path`` means reading standard input itself: the file of
    descriptor 0, by device and inode (``/dev/stdin``, ``/dev/fd/0``,
    ``/proc/self/fd/0``, or ``F`` while stdin is redirected from ``F``), so that a
    command whose stdin holds something else (``play``'s moves) would read it for an
    option too.  ``-`` is not asked about here (it names stdin by name); a character
    device that is not a terminal (``/dev/null``) does not count: it reads empty
    every time, whoever reads it."""
    return _is_descriptor(path, 0)


def _is_descriptor(path: str, fd: int) -> bool:
    """Whether ``path`` is the file open as descriptor ``fd`` (by device and inode),
    a character device that is not a terminal excepted (``/dev/null``)."""
    if path == "-" or "\0" in path:
        return False
    try:
        opened = os.fstat(fd)
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    if not os.path.samestat(opened, info):
        return False
    return not stat.S_ISCHR(info.st_mode) or os.isatty(fd)


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


#: Our temporary files: ``.foursquare-PID-XXXXXXXX.tmp`` beside the file written, PID
#: the writer's process id, so that a later run can tell one left by a writer that was
#: killed (:func:`sweep_leftovers`) from one being written.
_OUR_TEMPORARY = re.compile(r"\.foursquare-([1-9][0-9]{0,9})-[A-Za-z0-9_]+\.tmp\Z")

#: The bytes read or copied at a time when a file is rewritten.
_BLOCK = 1 << 16

#: The errors of a folder that refuses a new name (its mode, ``chattr +i``, a sticky folder).
_FOLDER_REFUSES = (errno.EACCES, errno.EPERM)

#: The words for a new file that another command created between the claim and the first write.
CREATED_MEANWHILE = "the file exists and is not empty: another command created it meanwhile; write another file"


def _cloexec() -> int:
    return getattr(os, "O_CLOEXEC", 0)


def _new_temporary(folder: str, path: str) -> tuple[int, str]:
    """A new temporary file of ours in ``folder`` (named with our pid: :data:`_OUR_TEMPORARY`).

    :raises OSError: naming ``path``, with the system's number (a folder that refuses: EACCES, EPERM)."""
    try:
        return tempfile.mkstemp(prefix=f".foursquare-{os.getpid()}-", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise FileNotFoundError(errno.ENOENT, "no such folder to write the file in", path) from None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None


def _write_all(fd: int, data: bytes, at: int | None = None) -> None:
    """Write all of ``data`` to ``fd``: where it stands, or at offset ``at``."""
    view = memoryview(data)
    while view:
        done = os.write(fd, view) if at is None else os.pwrite(fd, view, at)
        view = view[done:]
        if at is not None:
            at += done


def _tell(line: str) -> None:
    """One line on stderr (a closed or broken stderr loses it quietly)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(line, file=sys.stderr, flush=True)


def _process_gone(pid: int) -> bool:
    """Whether no process ``pid`` runs (one of another user, or this one, runs)."""
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # EPERM: it runs, as another user
        return False
    return False


def sweep_leftovers(folder: str) -> list[str]:
    """Remove from ``folder`` the temporary files that writers of ours left when they were
    killed (``kill -9``, a crash, a power cut) between creating one and renaming it.

    Only a file proved ours and abandoned goes: its name is ours with a process id
    (:data:`_OUR_TEMPORARY`; the older names without one are never touched), that
    process is gone, it is a regular file (not followed if a link) owned by this user,
    and no one holds its lock (a writer locks it before writing it).  Anyone else's
    file, and a file being written, stays; a failure to look or remove is ignored.

    :returns: the paths removed.
    """
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except (OSError, ValueError):
        return removed
    for name in names:
        found = _OUR_TEMPORARY.match(name)
        if found is not None and _process_gone(int(found.group(1))):
            path = os.path.join(folder, name)
            if _remove_abandoned(path):
                removed.append(path)
    return removed


def _remove_abandoned(path: str) -> bool:
    """Remove ``path`` if it is a regular file of this user that no one holds locked."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK | _cloexec())
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            return False
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: it is being written
        if not os.path.samestat(info, os.lstat(path)):
            return False
        os.unlink(path)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


class LockedFile:
    """A regular file held for writing: open, locked, and rewritten whole.

    Made by :func:`claim`.  :attr:`created` says whether this writer creates it; a new
    file is :attr:`pending` (its name not taken yet) until its first :meth:`rewrite`
    gives it its whole text, so that it appears whole or not at all.  :meth:`size` is
    what it holds now; :meth:`rewrite` replaces its text atomically and keeps the lock;
    :meth:`release` lets it go.
    """

    def __init__(self, path: str, real: str, fd: int, created: bool, *, pending: bool = False) -> None:
        self.path, self.real, self.fd, self.created = path, real, fd, created
        #: a new file whose name is taken at the first rewrite (no fd until then)
        self.pending = pending
        self.mode = 0o666 & ~_umask() if pending else stat.S_IMODE(os.fstat(fd).st_mode)
        self.written = False
        #: the rewrite in place (a folder that refuses new names) was told on stderr
        self.told_in_place = False

    def size(self) -> int:
        """How many bytes the file holds now (0 for a new file not written yet)."""
        return 0 if self.pending else os.fstat(self.fd).st_size

    def rewrite(self, text: str, *, sync: bool = True) -> None:
        """Replace the file's text: :meth:`rewrite_chunks` of ``text`` in UTF-8.

        :raises OSError: as :meth:`rewrite_chunks`.
        """
        self.rewrite_chunks([text.encode("utf-8")], sync=sync)

    def rewrite_chunks(self, chunks: Iterable[bytes], *, sync: bool = True) -> None:
        """Replace the file's text with ``chunks``, read one at a time (a table of any
        length rewritten in memory that does not grow with it): a temporary file beside
        it, locked, written, synced and renamed over it (a new file: linked to its name,
        which appears only now, whole).  On any failure, an exception raised by
        ``chunks`` included, the file keeps its old text, the temporary file is removed
        and the lock is still held.  When the folder refuses the temporary file or the
        rename (its mode, ``chattr +i``) but the file itself can be written, it is
        rewritten in place instead (:meth:`_rewrite_in_place`, said once on stderr).

        :param chunks: the new text, in bytes; when it reads the file itself, it is
            to read no further than :meth:`size` gave before the call (the rewrite in
            place writes after the old text first).
        :raises OSError: naming :attr:`path` (never the temporary file);
            :class:`FileExistsError` (:data:`CREATED_MEANWHILE`) or :class:`BlockingIOError`
            (:data:`IN_USE`) when another command created the new file first.
        """
        try:
            fd, tmp = _new_temporary(os.path.dirname(self.real), self.path)
        except OSError as exc:
            if self.pending or exc.errno not in _FOLDER_REFUSES:
                raise
            self._rewrite_in_place(chunks, sync, exc)
            return
        try:
            os.fchmod(fd, self.mode)
            _lock(fd, self.path)
            for chunk in chunks:
                _write_all(fd, chunk)
            if sync:
                os.fsync(fd)
            refused = self._put(tmp)
        except BaseException as exc:
            _drop(fd, tmp)
            if isinstance(exc, OSError) and exc.filename != self.path:
                raise OSError(exc.errno, exc.strerror, self.path) from None
            raise
        if refused is not None:
            try:
                os.lseek(fd, 0, os.SEEK_SET)
                with os.fdopen(os.dup(fd), "rb") as written:  # (its text, read back a block at a time)
                    self._rewrite_in_place(iter(lambda: written.read(_BLOCK), b""), sync, refused)
            finally:
                _drop(fd, tmp)
            return
        if self.fd >= 0:
            os.close(self.fd)  # the old inode's lock: the path names the new one, locked
        self.fd, self.pending, self.written = fd, False, True

    def _put(self, tmp: str) -> OSError | None:
        """Give the written temporary file the file's name: linked to a new name (never
        over a file another command created meanwhile), renamed over an old one.

        :returns: the error of a folder that refuses the rename (then nothing changed)."""
        if self.pending:
            _publish(tmp, self.real, self.path)
            return None
        try:
            os.replace(tmp, self.real)
        except PermissionError as exc:
            return exc
        return None

    def _rewrite_in_place(self, chunks: Iterable[bytes], sync: bool, refused: OSError) -> None:
        """Rewrite the file through its own descriptor, for a folder that refuses new
        names: the new text first written after the old (so a full disk, a quota or a
        size limit fails there, and the file is cut back to its old text, whole), then
        copied to the start a block at a time, and the file cut to its length.  Only a
        kill or a failure of the disk in the last step can leave it mixed.  Said once
        on stderr.

        :raises OSError: naming :attr:`path`."""
        old = end = self.size()
        try:
            for chunk in chunks:
                _write_all(self.fd, chunk, end)
                end += len(chunk)
            if sync:
                os.fsync(self.fd)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, old)
            if isinstance(exc, OSError):
                raise OSError(exc.errno, exc.strerror, self.path) from None
            raise
        try:
            for start in range(0, end - old, _BLOCK):  # (forward: the copy never overtakes what it reads)
                _write_all(self.fd, os.pread(self.fd, min(_BLOCK, end - old - start), old + start), start)
            os.ftruncate(self.fd, end - old)
            if sync:
                os.fsync(self.fd)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, self.path) from None
        self.written = True
        if not self.told_in_place:
            self.told_in_place = True
            _tell(
                f"{_shown(self.path)}: its folder refuses new files ({os_error_words(refused)}),"
                " so the file was rewritten in place rather than replaced whole"
            )

    def release(self, *, remove_if_new: bool = False) -> None:
        """Let the file go (its lock with it); ``remove_if_new``: remove it when this
        writer created it and never wrote it (a command refused after the claim)."""
        self.pending = False
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
        row; a new file is created now); closing the stream releases the lock."""
        if self.pending:
            self.fd, self.pending = _create(self.real, self.path), False
        os.ftruncate(self.fd, 0)
        fd, self.fd = self.fd, -1
        return os.fdopen(fd, "w", newline="", encoding="utf-8")


def _drop(fd: int, tmp: str) -> None:
    """Close and remove a temporary file."""
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _publish(tmp: str, real: str, path: str) -> None:
    """Give the written temporary file ``tmp`` the new name ``real``, never over a file
    there: a hard link (atomic, refused when the name exists), then the temporary
    name removed.  On a file system without hard links, the name is created empty and
    the file renamed over it at once.

    :raises FileExistsError: :data:`CREATED_MEANWHILE`; :raises BlockingIOError:
        :data:`IN_USE` when the command that created it still writes it."""
    try:
        os.link(tmp, real)
    except FileExistsError:
        _created_meanwhile(real, path)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS):
            raise
        os.close(_create(real, path))
        os.replace(tmp, real)
        return
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _created_meanwhile(real: str, path: str) -> None:
    """Raise the refusal of a new file that another command created meanwhile:
    :data:`IN_USE` while that command holds it, else :data:`CREATED_MEANWHILE`."""
    try:
        probe = os.open(real, os.O_RDONLY | _cloexec())
    except OSError:
        probe = -1
    if probe >= 0:
        try:
            _lock(probe, path)  # BlockingIOError (IN_USE) while the other command holds it
        except BlockingIOError:
            raise
        except OSError:
            pass
        finally:
            os.close(probe)
    raise FileExistsError(errno.EEXIST, CREATED_MEANWHILE, path)


def _create(real: str, path: str) -> int:
    """Create ``real`` (empty, the umask's mode) and lock it: its descriptor.

    :raises FileExistsError: :data:`CREATED_MEANWHILE` (or :data:`IN_USE`) when it is there."""
    try:
        fd = os.open(real, os.O_RDWR | os.O_CREAT | os.O_EXCL | _cloexec(), 0o666)
    except FileExistsError:
        _created_meanwhile(real, path)
        raise  # not reached
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        _lock(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def claim(path: str, *, whole: bool = False) -> LockedFile:
    """Open ``path`` (links followed) for writing and lock it, creating it (empty)
    when it is not there, with no window between the test and the creation.
    Temporary files that killed writers of ours left in its folder are removed first
    (:func:`sweep_leftovers`).

    :param whole: a file not there yet is not created now but claimed
        :attr:`~LockedFile.pending`: its name is taken, atomically, by its first
        rewrite, with its whole text, so that a kill never leaves it empty (a
        recording, ``save FILE``); without it, the caller gets a descriptor at once
        (a CSV written row by row).
    :raises OSError: naming ``path``: not a regular file or read-only
        (:func:`writable_target`), its folder missing, or another writer holds
        it (:class:`BlockingIOError`, :data:`IN_USE`).
    """
    real = writable_target(path)
    sweep_leftovers(os.path.dirname(real))
    for _ in range(100):
        opened = _open(real, path, create=not whole)
        if opened is None:  # not there
            if whole:
                return _pending(path, real)
            continue  # removed in between: create it
        fd, created = opened
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


def _open(real: str, path: str, *, create: bool) -> tuple[int, bool] | None:
    """The file's descriptor, read and write, and whether it was created now (with
    ``create``: atomically, ``O_EXCL``); ``None`` when it is not there.

    :raises OSError: naming ``path`` (its folder missing, permission denied...)."""
    if create:
        try:
            return os.open(real, os.O_RDWR | os.O_CREAT | os.O_EXCL | _cloexec(), 0o666), True
        except FileExistsError:
            pass
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, "no such folder to write the file in", path) from None
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, path) from None
    try:
        return os.open(real, os.O_RDWR | _cloexec()), False
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None


def _pending(path: str, real: str) -> LockedFile:
    """A new file claimed :attr:`~LockedFile.pending` (its folder must be there)."""
    if not os.path.isdir(os.path.dirname(real)):
        raise FileNotFoundError(errno.ENOENT, "no such folder to write the file in", path)
    return LockedFile(path, real, -1, True, pending=True)


def write_atomically(path: str, text: str, *, sync: bool = True, unless_full: str | None = None) -> None:
    """Write ``text`` to ``path`` whole (:meth:`LockedFile.rewrite`), holding its lock
    for the write: always either the old or the new text.

    A new file gets the mode the umask allows (``0o666 & ~umask``); an existing
    file keeps its mode.  A new file appears only written whole; one that another
    command created between the claim and the write is claimed again, as an old file.

    :param sync: :func:`os.fsync` the data before the rename.
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
            held.rewrite(text, sync=sync)
            return
        except FileExistsError as exc:
            if last or not held.created or exc.strerror != CREATED_MEANWHILE:
                raise
        finally:
            held.release(remove_if_new=True)


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
    if output is None or output == "-" or "\0" in output:
        return
    for option, path in inputs.items():
        if path is None or path == "-" or "\0" in path or not os.path.isfile(path):
            continue  # no file, or a device or pipe: nothing there to overwrite
        if same_file(output, path):
            raise AgreementError.over_input(output_option, output, option, path)


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

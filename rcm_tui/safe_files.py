"""Creating, replacing and appending to files without following a symlink someone planted.

Every file rcm-tui writes — session files, the index, exports, the config from `config init`,
the log — goes through here. A symlink at the target is never followed: a replacement renames
a new file over the link itself (the link goes, its target is untouched), a new file is
created with O_EXCL, an append opens with O_NOFOLLOW. Modes are set on the open descriptor,
never through a path that could be swapped for a link in between.

Layout of a replacement in progress: `.<name>.tmp-<pid>-<rand>` beside the target (the session
store recognises and cleans up leftovers of that shape).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


class SymlinkRefused(OSError):
    """The target is a symbolic link; nothing was written."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.ELOOP, "is a symbolic link (not followed)", str(path))

    def __str__(self) -> str:
        return f"{self.filename} is a symbolic link; rcm-tui does not write through links"


def temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")


def write_all(fd: int, payload: bytes) -> None:
    # os.write may write less than asked (a signal, a pipe-sized chunk): loop until all is out.
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view) :]


def write_atomically(path: Path, payload: bytes, *, durable: bool = True) -> os.stat_result:
    """Temp file in the same folder, fsync, rename over the target, fsync the folder.

    A crash at any point leaves either the old file or the new one, plus at most a temp
    file. A symlink at `path` is replaced by the file, never written through.
    """
    temp = temp_name(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temp, flags, PRIVATE_FILE)
    try:
        try:
            write_all(fd, payload)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        fsync_folder(path.parent)
    return os.stat(path, follow_symlinks=False)


def write_new(path: Path, payload: bytes) -> None:
    """Create `path`; refuse if anything (a file, a symlink, a dangling symlink) is there."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(path, flags, PRIVATE_FILE)
    try:
        try:
            write_all(fd, payload)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)  # no half-written file is left behind (a full disk, say)
        raise


def write_file(path: Path, payload: bytes, *, overwrite: bool) -> None:
    """A private file the user asked for: replaced atomically, or created only if absent."""
    if overwrite:
        write_atomically(path, payload)
    else:
        write_new(path, payload)


def open_for_append(path: Path) -> int:
    """A descriptor appending to a private regular file; a symlink or a FIFO is refused."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, PRIVATE_FILE)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SymlinkRefused(path) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if stat.S_IMODE(st.st_mode) != PRIVATE_FILE:
            os.fchmod(fd, PRIVATE_FILE)  # a file left by an older version may be wider
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def private_folder(path: Path) -> None:
    """Create the folder (0700); tighten one that is wider, when we may.

    Only group and other bits are removed, so a folder the user made read-only stays
    read-only (and stays usable for reading); a folder that cannot be changed (a read-only
    file system, someone else's) is used as it is. A symlinked folder is not changed through.
    """
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    try:
        mode = stat.S_IMODE(os.fstat(fd).st_mode)
        if mode & 0o077:
            with contextlib.suppress(OSError):
                os.fchmod(fd, mode & ~0o077)
    finally:
        os.close(fd)


def fsync_folder(folder: Path) -> None:
    # Makes a rename durable; some filesystems cannot fsync a folder.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

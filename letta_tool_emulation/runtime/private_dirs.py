"""Directories and files the launcher creates, reached so that no one else can redirect it.

Paths are walked one component at a time through directory descriptors. A symbolic link on
the way is followed only when it belongs to root or to this user (so it was not planted by
someone else); every directory on the way must belong to one of them and must not be
writable by other users unless it is sticky, like /tmp. What the launcher then changes is
opened with O_NOFOLLOW and checked first, and chown and chmod act on the descriptor, never on
a path. Nothing here ever makes a mode looser.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_MAX_LINKS = 40


class UnsafePath(RuntimeError):
    """A path the launcher will not use; the message says why and what to do."""


def user_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"uid {uid}"


def _trusted_owner(uid: int) -> bool:
    return uid in (0, os.geteuid())


def _writable_by_others(st: os.stat_result) -> bool:
    if st.st_mode & stat.S_ISVTX:
        return False  # sticky: others may add entries but not replace ours
    if st.st_mode & stat.S_IWOTH:
        return True
    return bool(st.st_mode & stat.S_IWGRP) and st.st_gid not in (0, os.getegid())


def open_dir(path: Path | str, *, create: bool = False, mode: int = 0o700, owners: tuple[int, ...] = ()) -> int:
    """A descriptor for the directory ``path``, creating missing components with ``mode``.

    Raises UnsafePath when a component is a link or directory that someone other than root
    or this user could have placed or could swap. ``owners`` are further users the last
    directory itself may belong to.
    """
    todo = list(Path(os.path.abspath(path)).parts[1:])
    fd = os.open("/", _DIR_FLAGS)
    here = Path("/")
    links = 0
    try:
        while todo:
            name = todo.pop(0)
            if name in ("", "."):
                continue
            if name == "..":  # only from a link's target, resolved like the kernel does
                fd = _swap(fd, os.open("..", _DIR_FLAGS, dir_fd=fd))
                here = here.parent
                _check_dir(os.fstat(fd), here, ())
                continue
            target = here / name
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                if not create:
                    raise UnsafePath(f"{target} does not exist") from None
                with contextlib.suppress(FileExistsError):  # made meanwhile: checked below like any other
                    os.mkdir(name, mode, dir_fd=fd)  # mkdir never follows a link at its own name
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                if not _trusted_owner(st.st_uid):
                    raise UnsafePath(
                        f"{target} is a symbolic link that belongs to {user_name(st.st_uid)}; the server does not "
                        "follow links other users could have planted. Remove it, or choose a path of your own."
                    )
                links += 1
                if links > _MAX_LINKS:
                    raise UnsafePath(f"too many symbolic links under {target}")
                link = os.readlink(name, dir_fd=fd)
                if link.startswith("/"):
                    fd = _swap(fd, os.open("/", _DIR_FLAGS))
                    here = Path("/")
                todo = list(Path(link).parts[1 if link.startswith("/") else 0 :]) + todo
                continue
            if not stat.S_ISDIR(st.st_mode):
                raise UnsafePath(f"{target} is not a directory")
            child = os.open(name, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            fd = _swap(fd, child)
            here = target
            _check_dir(os.fstat(fd), here, owners if not todo else ())
        return fd
    except OSError as exc:
        os.close(fd)
        if exc.errno == errno.ELOOP:  # became a link between the check and the open
            raise UnsafePath(f"{path} was replaced by a symbolic link while the server opened it") from exc
        if isinstance(exc, PermissionError | FileNotFoundError | NotADirectoryError | FileExistsError):
            raise UnsafePath(f"cannot open {path}: {exc.strerror} ({here})") from exc
        raise
    except BaseException:
        os.close(fd)
        raise


def _swap(old: int, new: int) -> int:
    os.close(old)
    return new


def _check_dir(st: os.stat_result, where: Path, owners: tuple[int, ...]) -> None:
    if not _trusted_owner(st.st_uid) and st.st_uid not in owners:
        raise UnsafePath(
            f"{where} belongs to {user_name(st.st_uid)}, who could replace what the server keeps there. "
            "Use a directory that belongs to you (or to root)."
        )
    if _writable_by_others(st):
        raise UnsafePath(
            f"{where} can be written by other users (mode {stat.S_IMODE(st.st_mode):04o}), who could replace what "
            "the server keeps there. Use a directory only you can write to."
        )


def tighten(fd: int, mode: int) -> None:
    """Take away what ``mode`` does not allow; never add anything."""
    current = stat.S_IMODE(os.fstat(fd).st_mode)
    if current & ~mode:
        os.fchmod(fd, current & mode)


def open_file(dir_fd: int, name: str, flags: int, mode: int = 0o600) -> int:
    """Open ``name`` in the directory ``dir_fd``: never through a link, only a regular file of
    this user (or root) with one name, made private when it is ours."""
    try:
        fd = os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dir_fd)
    except OSError as exc:
        # A link gives ELOOP, or EACCES in a sticky directory (fs.protected_* settings).
        with contextlib.suppress(OSError):
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise UnsafePath(
                    f"{name} is a symbolic link (it belongs to {user_name(st.st_uid)}); the server does not write "
                    "through links. Remove it."
                ) from exc
            if not _trusted_owner(st.st_uid):
                raise UnsafePath(f"{name} belongs to {user_name(st.st_uid)}; remove it") from exc
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
            raise UnsafePath(f"{name} is not a plain file (a link to something else?); remove it")
        if not _trusted_owner(st.st_uid):
            raise UnsafePath(f"{name} belongs to {user_name(st.st_uid)}; remove it")
        if stat.S_IMODE(st.st_mode) & ~mode:
            os.fchmod(fd, stat.S_IMODE(st.st_mode) & mode)
        return fd
    except BaseException:
        os.close(fd)
        raise


def write_file(dir_fd: int, name: str, text: str, owner: tuple[int, int] | None = None) -> None:
    """Replace ``name`` atomically with ``text`` (mode 0600), owned by ``owner`` when given."""
    tmp = f".{name}.new"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp, dir_fd=dir_fd)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    try:
        os.write(fd, text.encode())
        if owner is not None:
            os.fchown(fd, *owner)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)

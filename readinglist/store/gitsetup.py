"""``readinglist git-setup``: let git merge the store's files with readinglist's merge driver.

Two things, both idempotent:

* ``<store>/.gitattributes`` gets ``papers/*.toml merge=readinglist`` and
  ``lists/*.toml merge=readinglist`` (committed, so every clone has them; lines already there,
  and any others, are kept);
* the clone's git config (``.git/config``, which git never shares) gets ``merge.readinglist.name``
  and ``merge.readinglist.driver``: ``<python> -m readinglist merge-file %O %A %B %P --marker-size %L``
  (git's placeholders: the base, ours, where the merge is written; theirs; the file's path in
  the repository; the conflict marker size). Each clone runs it once; without it git merges
  these files line by line, as before.

The driver itself is :func:`~.gitmerge.merge_file`. This module runs ``git`` (``git config``,
``git rev-parse``) only when :func:`setup` is called.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import StoreError

DRIVER = "readinglist"
ATTRIBUTES = (f"papers/*.toml merge={DRIVER}", f"lists/*.toml merge={DRIVER}")
_HEADER = "# readinglist: merge paper files field by field and lists entry by entry (readinglist git-setup)\n"
NAME = "readinglist: papers field by field, curated lists entry by entry"


def driver_command(python: str | None = None) -> str:
    """The ``merge.readinglist.driver`` value: this Python running readinglist, so that git
    finds the driver whatever its PATH (run git-setup again after moving the installation)."""
    return f"{shlex.quote(python or sys.executable)} -m readinglist merge-file %O %A %B %P --marker-size %L"


@dataclass(frozen=True)
class SetupReport:
    repository: Path
    attributes: Path
    changed: tuple[str, ...] = ()  # what was written; empty when everything was set up already


def _git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise StoreError("git is not installed (or not on PATH); readinglist git-setup needs it") from None
    if check and done.returncode != 0:
        raise StoreError(f"{root}: git {' '.join(args[:2])} failed: {done.stderr.strip() or done.returncode}")
    return done


def setup(root: str | os.PathLike, *, python: str | None = None) -> SetupReport:
    """Set up the merge driver for the store at ``root`` (inside a git work tree)."""
    from .atomic import write_atomic

    root = Path(root)
    found = _git(root, "rev-parse", "--show-toplevel", check=False)
    if found.returncode != 0:
        raise StoreError(f"{root}: not in a git repository; run `git init` (or clone the store) first")
    changed = []
    attributes = root / ".gitattributes"
    if os.path.islink(attributes):
        raise StoreError(f"{attributes} is a symbolic link; readinglist writes only files of its own")
    try:
        text = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"{attributes}: cannot read it: {exc}") from None
    have = {" ".join(line.split()) for line in text.splitlines()}
    missing = [line for line in ATTRIBUTES if line not in have]
    if missing:
        new = text + ("\n" if text and not text.endswith("\n") else "")
        if _HEADER.strip() not in have:
            new += _HEADER
        new += "".join(line + "\n" for line in missing)
        try:
            write_atomic(attributes, new, inside=root)
        except OSError as exc:
            raise StoreError(f"{attributes}: cannot write: {exc.strerror or exc}") from None
        changed.append(f"{attributes}: {', '.join(missing)}")
    for name, value in (("name", NAME), ("driver", driver_command(python))):
        current = _git(root, "config", "--get", f"merge.{DRIVER}.{name}", check=False).stdout.rstrip("\n")
        if current != value:
            _git(root, "config", f"merge.{DRIVER}.{name}", value)
            changed.append(f"git config merge.{DRIVER}.{name}")
    return SetupReport(Path(found.stdout.strip()), attributes, tuple(changed))

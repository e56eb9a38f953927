"""Proof that printkit wrote a file in an output folder, which ``manifest.json`` alone is not.

Anyone who can write in the output folder can write a manifest, so what it lists is proof of
nothing by itself. printkit removes a file only with a proof it made itself, under the user's key
(:func:`printkit.cache.secret`, in ``$XDG_STATE_HOME/printkit/cache-key``):

* each file a build puts in place is listed with :class:`Written`: its device, inode, size and
  ``mtime_ns`` as it was put in place, and an HMAC of those with its path and sha256. A file goes
  only while all of them are still what the record says (:func:`proven`); a file listed without
  one (an older printkit's manifest, another user's, a forged one) is never removed.
* a build id is a random half and an HMAC of it (:func:`new_build_id`): a temporary
  ``.NAME.ID.tmp`` is removed only when its id verifies (:func:`signed`), as none a forger makes
  does, even one named in the manifest's ``unfinished``.

Without a key (none can be read or made) ids are plain random ones and no record is made: then
nothing of an earlier build is ever removed, which is the safe side. Replacing a file at one of
this build's own output paths still asks only that the manifest list it with the hash it holds
(:meth:`printkit.outputs.Staging.check_replaceable`), so folders made by an older printkit, or
copied elsewhere, keep building.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat as stat_module
from dataclasses import dataclass
from pathlib import Path

from printkit.cache import secret

_HALF = 8  # hex digits of each half of a build id: 16 in all, as the manifest's "unfinished" takes


@dataclass(frozen=True)
class Written:
    """A file as printkit put it in place, with its proof (``mac``, hex)."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    mac: str


def _mac(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def new_build_id() -> str:
    """A build id whose second half proves it printkit's: 32 random bits and 32 of their HMAC."""
    random_half = secrets.token_hex(_HALF // 2)
    key = secret()
    if key is None:
        return secrets.token_hex(_HALF)
    return random_half + _mac(key, f"build {random_half}")[:_HALF]


def signed(build_id: str) -> bool:
    """Whether ``build_id`` is one :func:`new_build_id` made with this user's key."""
    key = secret()
    if key is None or len(build_id) != 2 * _HALF:
        return False
    random_half, proof = build_id[:_HALF], build_id[_HALF:]
    return hmac.compare_digest(_mac(key, f"build {random_half}")[:_HALF], proof)


def _record_text(relative: str, sha256: str, stat: os.stat_result) -> str:
    return json.dumps(["file", relative, sha256, stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns])


def record(relative: str, sha256: str, path: Path) -> Written | None:
    """The record of the file printkit just wrote at ``path`` (``relative`` in the output folder,
    holding ``sha256``); None when it is not a regular file there or there is no key."""
    key = secret()
    try:
        stat = os.lstat(path)
    except OSError:
        return None
    if key is None or not _regular(stat):
        return None
    return Written(stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns,
                   _mac(key, _record_text(relative, sha256, stat)))


def proven(relative: str, sha256: str, written: Written | None, path: Path) -> bool:
    """Whether the file at ``path`` is still the one printkit wrote as ``written`` records: same
    device, inode, size and modification time, the record made with this user's key for this
    path and sha256. (The caller checks the bytes still have that sha256.)"""
    key = secret()
    if written is None or key is None:
        return False
    try:
        stat = os.lstat(path)
    except OSError:
        return False
    same = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns) == (
        written.device, written.inode, written.size, written.mtime_ns)
    return same and _regular(stat) and hmac.compare_digest(_mac(key, _record_text(relative, sha256, stat)), written.mac)


def _regular(stat: os.stat_result) -> bool:
    return stat_module.S_ISREG(stat.st_mode)

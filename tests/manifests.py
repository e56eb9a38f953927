"""Manifests compared across output folders: without the records of how each file was put in
place (printkit.ownership), which name that folder's inodes and times."""

from __future__ import annotations

import json


def without_records(data: bytes) -> bytes:
    """``manifest.json``'s bytes with every ``written`` record left out."""
    manifest = json.loads(data)
    for item in manifest.get("files", []):
        item.pop("written", None)
    return json.dumps(manifest, sort_keys=True).encode()

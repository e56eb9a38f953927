"""Manifests compared across output folders: without the records of how each file was put in
place (printkit.ownership), which name that folder's inodes and times, nor the fingerprints of
the deck inputs each file was made from (printkit.pipeline.replay.deck_inputs), which name the
spec folder's files by their inodes and times (another output folder in it among them), nor the
digest of the spec's folder."""

from __future__ import annotations

import json


def without_records(data: bytes) -> bytes:
    """``manifest.json``'s bytes with every ``written`` record, ``inputs`` fingerprint and
    ``spec_folder`` left out."""
    manifest = json.loads(data)
    for item in manifest.get("files", []):
        item.pop("written", None)
        item.pop("inputs", None)
        item.pop("spec_folder", None)
    return json.dumps(manifest, sort_keys=True).encode()

"""PNG's file structure, shared by what reads PNGs (:mod:`printkit.images`) and what writes them
(:mod:`printkit.render.png`): the signature and a chunk's framing (length, type, data, CRC)."""

from __future__ import annotations

import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind: bytes, body: bytes) -> bytes:
    """One chunk: ``body``'s length, ``kind`` (four letters), ``body`` and the CRC of the two."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

"""A JPEG's structure read without decoding it: whether its markers prove it whole.

Checking a picture by decoding it (even at an eighth of its size) costs milliseconds a picture;
reading its markers costs a small fraction of that. :func:`whole_jpeg_size` reads every segment
and finds where each scan's coded data ends (a C-speed search for the next marker), and answers
only for the plain case: one 8-bit Huffman frame (baseline, extended or progressive) of 1, 3 or 4
components whose tables are all defined and valid, every scan's parameters as libjpeg requires,
nothing unknown or stray between segments, and the end marker as the file's last bytes. Anything
else (a truncated file, garbage between segments, data after the end, arithmetic coding, 12 bits)
gets None, and the picture is decoded as before: what a decode refuses is still refused with the
decode's own message.

One thing a decode lets pass is refused here: a sequential scan (or a progressive DC scan) with
fewer bytes than its blocks need at least (each block takes a Huffman code for its DC difference
and one for its end of block, so two bits at the least; a DC-only scan, one bit). libjpeg fills
what is missing with grey and warns; printing that is never what a designer meant.
"""

from __future__ import annotations

import re

from printkit.errors import ImageError, JpegNotPlain

_SOF = {0xC0: False, 0xC1: False, 0xC2: True}  # Huffman frames printkit reads: marker -> progressive
_DHT, _DQT, _DRI, _SOS, _EOI, _COM = 0xC4, 0xDB, 0xDD, 0xDA, 0xD9, 0xFE
# The end of a scan's coded data: 0xFF followed by anything but a stuffed zero or a restart marker.
_SCAN_END = re.compile(rb"\xff[^\x00\xd0-\xd7]")
_MARKER = re.compile(rb"\xff+")  # a marker's 0xFF and the fill bytes before it
_MAX_SEGMENTS = 4096  # a plain JPEG has a few dozen; more are left to the decode, read in C


def whole_jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of the JPEG ``data`` when its structure proves it whole and plain (see the
    module's docstring); None when a decode must decide. ImageError when a scan is cut short."""
    try:
        return _read(memoryview(data))
    except ImageError:
        raise
    except (JpegNotPlain, IndexError, ValueError):  # ValueError: a slice past the end, read as a number
        return None


def _read(view: memoryview) -> tuple[int, int]:
    end = len(view)
    if view[:3] != b"\xff\xd8\xff":
        raise JpegNotPlain
    pos = 2
    frame = None  # (progressive, width, height, {component id: (h, v, quant table)}, [ids in order])
    dc, ac, quant = set(), set(), set()
    scans = 0
    scanned: list[int] = []  # the components the scans have read, in order
    for _ in range(_MAX_SEGMENTS):
        fill = _MARKER.match(view, pos)
        if fill is None:
            raise JpegNotPlain  # stray bytes where a marker belongs (libjpeg skips them, and warns)
        pos = fill.end()
        marker = view[pos]
        pos += 1
        if marker == _EOI:
            if frame is None or not scans or pos != end:
                raise JpegNotPlain  # no picture, or something after its end (another frame, a trailer)
            if not frame[0] and sorted(scanned) != sorted(frame[3]):
                raise JpegNotPlain  # a sequential picture reads each component in exactly one scan
            return frame[1], frame[2]
        length = int.from_bytes(view[pos:pos + 2], "big")
        segment = view[pos + 2:pos + length]
        if length < 2 or pos + length > end:
            raise JpegNotPlain
        pos += length
        if marker in _SOF:
            if frame is not None:
                raise JpegNotPlain
            frame = _frame(segment, _SOF[marker])
        elif marker == _DHT:
            _tables(segment, dc, ac)
        elif marker == _DQT:
            _quant(segment, quant)
        elif marker == _DRI:
            if length != 4:
                raise JpegNotPlain
        elif marker == _SOS:
            if frame is None:
                raise JpegNotPlain
            blocks, bits = _scan(segment, frame, dc, ac, quant, scanned)
            found = _SCAN_END.search(view, pos)
            if found is None:
                raise JpegNotPlain  # no end: truncated
            coded = found.start() - pos
            if coded * 8 < blocks * bits:
                raise ImageError(f"cannot be read: the JPEG's image data is cut short ({coded} bytes "
                                 f"where its {frame[1]}x{frame[2]} pixels need at least "
                                 f"{-(-blocks * bits // 8)}); export it again")
            pos = found.start()
            scans += 1
        elif not (0xE0 <= marker <= 0xEF or marker == _COM):  # application data and comments: skipped
            raise JpegNotPlain
    raise JpegNotPlain


def _frame(segment: memoryview, progressive: bool):
    precision, count = segment[0], segment[5]
    height, width = int.from_bytes(segment[1:3], "big"), int.from_bytes(segment[3:5], "big")
    if precision != 8 or not (width and height) or count not in (1, 3, 4) or len(segment) != 6 + 3 * count:
        raise JpegNotPlain
    components = {}
    for at in range(6, 6 + 3 * count, 3):
        ident, sampling, table = segment[at], segment[at + 1], segment[at + 2]
        h, v = sampling >> 4, sampling & 15
        if ident in components or not (1 <= h <= 4 and 1 <= v <= 4) or table > 3:
            raise JpegNotPlain
        components[ident] = (h, v, table)
    return progressive, width, height, components


def _tables(segment: memoryview, dc: set, ac: set) -> None:
    """Huffman tables, each valid as libjpeg requires (its codes fit their lengths; a DC table's
    symbols at most 15)."""
    at = 0
    while at < len(segment):
        kind, number = segment[at] >> 4, segment[at] & 15
        counts = segment[at + 1:at + 17]
        total = sum(counts)
        symbols = segment[at + 17:at + 17 + total]
        if kind > 1 or number > 3 or len(counts) != 16 or not 0 < total <= 256 or len(symbols) != total:
            raise JpegNotPlain
        code = 0
        for size, count in enumerate(counts, 1):
            code += count
            if code >= 1 << size and count:
                raise JpegNotPlain
            code <<= 1
        if kind == 0 and max(symbols, default=0) > 15:
            raise JpegNotPlain
        (dc if kind == 0 else ac).add(number)
        at += 17 + total


def _quant(segment: memoryview, quant: set) -> None:
    at = 0
    while at < len(segment):
        precision, number = segment[at] >> 4, segment[at] & 15
        size = 64 * (precision + 1)
        if precision > 1 or number > 3 or at + 1 + size > len(segment):
            raise JpegNotPlain
        quant.add(number)
        at += 1 + size


def _scan(segment: memoryview, frame, dc: set, ac: set, quant: set, scanned: list[int]) -> tuple[int, int]:
    """Check a scan's header against the frame, the tables defined and the components earlier
    scans read (``scanned``, extended with this scan's); the number of blocks its coded data
    holds, and the fewest bits each of them takes (0: no bound)."""
    progressive, width, height, components = frame
    count = segment[0]
    if not 1 <= count <= 4 or len(segment) != 4 + 2 * count:
        raise JpegNotPlain
    start, stop, approx = segment[1 + 2 * count], segment[2 + 2 * count], segment[3 + 2 * count]
    high, low = approx >> 4, approx & 15
    chosen = []
    for at in range(1, 1 + 2 * count, 2):
        ident, tables = segment[at], segment[at + 1]
        if ident not in components or ident in chosen or components[ident][2] not in quant:
            raise JpegNotPlain
        if not progressive and ident in scanned:
            raise JpegNotPlain  # read twice: a decode refuses the second scan
        chosen.append(ident)
        dc_table, ac_table = tables >> 4, tables & 15
        needs_dc = start == 0 and high == 0  # a refinement of DC reads raw bits
        needs_ac = stop > 0
        if (needs_dc and dc_table not in dc) or (needs_ac and ac_table not in ac):
            raise JpegNotPlain
    if progressive:
        if start == 0 and stop != 0 or start > stop or stop > 63 or (start > 0 and count != 1):
            raise JpegNotPlain
        if (high and low != high - 1) or low > 13:
            raise JpegNotPlain
        bits = 1 if start == 0 else 0
    else:
        if (start, stop, approx) != (0, 63, 0):
            raise JpegNotPlain
        bits = 2
    scanned.extend(chosen)
    h_max = max(h for h, _, _ in components.values())
    v_max = max(v for _, v, _ in components.values())
    if count == 1:  # one component: its own blocks, no MCU padding
        h, v, _ = components[chosen[0]]
        blocks = -(-(-(-width * h // h_max)) // 8) * -(-(-(-height * v // v_max)) // 8)
    else:
        per_mcu = sum(components[c][0] * components[c][1] for c in chosen)
        if per_mcu > 10:  # libjpeg's limit of blocks in an MCU
            raise JpegNotPlain
        blocks = -(-width // (8 * h_max)) * -(-height // (8 * v_max)) * per_mcu
    return blocks, bits

"""JPEGs proven whole by their markers (printkit.jpeg), and decoded only when they are not: the
verdicts stay those of the decode, or are stricter."""

import io
import random

import pytest
from PIL import Image as PILImage

from printkit import images
from printkit.images import ImageError, check_picture
from printkit.jpeg import whole_jpeg_size


def _art(size=(240, 180), seed=3):
    """A smooth gradient with noise (as art compresses), the same for the same seed."""
    rng = random.Random(seed)
    img = PILImage.linear_gradient("L").resize(size).convert("RGB")
    noise = PILImage.effect_noise(size, 30).convert("RGB")
    img = PILImage.blend(img, noise, 0.3)
    for _ in range(8):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        img.paste(tuple(rng.randrange(256) for _ in range(3)), (x, y, x + 30, y + 20))
    return img


def _jpeg(img, **options) -> bytes:
    buffer = io.BytesIO()
    img.save(buffer, "JPEG", quality=90, **options)
    return buffer.getvalue()


KINDS = {
    "baseline": lambda: _jpeg(_art()),
    "4:4:4": lambda: _jpeg(_art(), subsampling=0),
    "progressive": lambda: _jpeg(_art(), progressive=True),
    "grey": lambda: _jpeg(_art().convert("L")),
    "CMYK": lambda: _jpeg(_art().convert("CMYK")),
    "progressive CMYK": lambda: _jpeg(_art().convert("CMYK"), progressive=True),
    "restart markers": lambda: _jpeg(_art(), restart_marker_rows=1),
    "optimized tables": lambda: _jpeg(_art(), optimize=True),
}


def _decode_verdict(data: bytes):
    """What the decode at an eighth of the size (the check before the markers were read) says:
    the size, or the message of its error."""
    try:
        with PILImage.open(io.BytesIO(data)) as img:
            size = img.size
            img.draft(img.mode, ((img.width + 7) // 8, (img.height + 7) // 8))
            img.load()
            return size
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        return f"cannot be read: {exc}"


def _verdict(data: bytes):
    try:
        return check_picture(data)
    except ImageError as exc:
        return str(exc)


def _scan_start(data: bytes) -> int:
    at = data.index(b"\xff\xda")
    return at + 2 + int.from_bytes(data[at + 2:at + 4], "big")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_whole_jpeg_is_proven_by_its_markers_without_a_decode(kind, monkeypatch):
    data = KINDS[kind]()
    assert whole_jpeg_size(data) == (240, 180)

    def no_decode(*args, **kwargs):
        raise AssertionError("decoded")

    monkeypatch.setattr(PILImage, "open", no_decode)
    assert check_picture(data) == (240, 180)


@pytest.mark.parametrize("kind", ["baseline", "progressive", "CMYK"])
def test_a_damaged_jpeg_is_decoded_and_refused_as_before(kind):
    data = KINDS[kind]()
    scan = _scan_start(data)
    garbage = bytearray(data)
    middle = (scan + len(data)) // 2
    garbage[middle:middle + 200] = random.Random(1).randbytes(100) + b"\xff\x2e" + random.Random(2).randbytes(98)
    damaged = {
        "truncated": data[:len(data) // 2],
        "without its end marker": data[:-2],
        "truncated in its header": data[:scan - 20],
        "garbage (with a marker that does not exist) in its scan": bytes(garbage),
    }
    for name, bad in damaged.items():
        assert whole_jpeg_size(bad) is None, name
        before = _decode_verdict(bad)
        assert isinstance(before, str), name  # the decode refused it
        assert _verdict(bad) == before, name


def test_a_jpeg_with_data_after_its_end_is_decoded():
    data = KINDS["baseline"]()
    for trailer in (b"\0\0\0\0", b"SEFH trailer", data):  # padding, a phone's trailer, a second frame
        assert whole_jpeg_size(data + trailer) is None
        assert _verdict(data + trailer) == _decode_verdict(data + trailer) == (240, 180)


def test_a_scan_cut_short_before_its_end_marker_is_refused():
    data = KINDS["baseline"]()
    short = data[:_scan_start(data) + 40] + b"\xff\xd9"  # what an interrupted copy "repaired" holds
    assert _decode_verdict(short) == (240, 180)  # libjpeg fills the rest with grey, and warns
    with pytest.raises(ImageError, match=r"image data is cut short \(40 bytes where its 240x180 pixels"):
        check_picture(short)


def test_no_damage_passes_that_the_decode_refused():
    """Bytes changed, inserted, deleted, cut off: whatever the decode refused is still refused."""
    rng = random.Random(11)
    sources = [KINDS[kind]() for kind in ("baseline", "progressive", "CMYK", "restart markers")]
    refused = 0
    for round in range(400):
        data = bytearray(sources[round % len(sources)])
        at = rng.randrange(2, len(data))
        change = round // len(sources) % 5
        if change == 0:
            data[at] = rng.randrange(256)
        elif change == 1:
            data[at:at + 2] = bytes([0xFF, rng.randrange(256)])
        elif change == 2:
            data[at:at] = rng.randbytes(rng.randrange(1, 12))
        elif change == 3:
            del data[at:at + rng.randrange(1, 600)]
        else:
            del data[at:]
        before = _decode_verdict(bytes(data))
        if isinstance(before, str):
            refused += 1
            assert isinstance(_verdict(bytes(data)), str), (round, before)
    assert refused > 50


def test_a_checked_jpegs_size_comes_from_its_frame(tmp_path):
    path = tmp_path / "art.jpg"
    path.write_bytes(_jpeg(_art((321, 123)), progressive=True))
    picture = images.checked_picture(path)
    assert (picture.width, picture.height) == (321, 123) and not picture.png


def test_a_jpeg_of_thousands_of_segments_is_left_to_the_decode():
    data = KINDS["baseline"]()
    comments = b"\xff\xfe\x00\x03x" * 5000  # a plain JPEG has a few dozen segments
    assert whole_jpeg_size(data[:2] + comments + data[2:]) is None
    assert check_picture(data[:2] + comments + data[2:]) == (240, 180)
    assert whole_jpeg_size(data[:2] + comments[:5 * 100] + data[2:]) == (240, 180)
    fill = data[:2] + b"\xff" * 100_000 + data[2:]  # fill bytes before a marker are allowed
    assert whole_jpeg_size(fill) == _decode_verdict(fill) == (240, 180)


def test_a_sequential_jpeg_reading_a_component_twice_or_never_is_decoded():
    data = KINDS["baseline"]()
    at = data.index(b"\xff\xda")
    header = data[at:_scan_start(data)]
    coded = random.Random(5).randbytes(len(data) - 2 - _scan_start(data)).replace(b"\xff", b"\x00")
    twice = data[:-2] + header + coded + b"\xff\xd9"  # a second scan of the same components
    assert whole_jpeg_size(twice) is None
    assert isinstance(_decode_verdict(twice), str)  # the decode refuses the second scan
    assert _verdict(twice) == _decode_verdict(twice)
    grey_header = bytearray(header)
    grey_header[4] = 1  # a scan of the first component alone, in a picture of three
    grey_header[2:4] = (len(grey_header) - 2 - 4).to_bytes(2, "big")
    del grey_header[7:11]
    never = data[:at] + bytes(grey_header) + data[_scan_start(data):]
    assert whole_jpeg_size(never) is None  # what the decode makes of the rest, it decides

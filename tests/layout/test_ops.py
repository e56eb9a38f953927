"""A laid-out face: equal ops are equal faces, whose hash, digest and files are worked out once."""

from __future__ import annotations

import pickle
from pathlib import Path

from printkit.layout.ops import Face, Rect, Text

FONT = Path("/fonts/A.ttf")


def _face(text: str = "Ember Drake", font: Path = FONT) -> Face:
    return Face((Rect(0, 0, 63, 88, fill="#fbf8f1"), Text(4, 8, text, font, 4)), ("a warning",))


def test_equal_ops_make_equal_faces_with_one_digest():
    one, two = _face(), _face()
    assert one == two and hash(one) == hash(two) and one.digest == two.digest
    assert _face("Ash Wisp") != one and _face("Ash Wisp").digest != one.digest
    assert one.files == {str(FONT)}


def test_faces_drawing_with_the_same_files_share_one_set_of_them():
    assert _face("Ember Drake").files is _face("Ash Wisp").files
    assert _face(font=Path("/fonts/B.ttf")).files == {"/fonts/B.ttf"}


def test_a_face_sent_to_another_process_works_out_its_hash_there():
    face = _face()
    hash(face), face.digest, face.files
    state = face.__getstate__()
    assert state == (face.ops, face.warnings)  # a str hash is not the same in another process
    copy = pickle.loads(pickle.dumps(face))
    assert (copy._hash, copy._digest, copy._files) == (None, None, None)  # to be worked out where it lands
    assert copy == face and hash(copy) == hash(face) and copy.digest == face.digest


def test_a_bundled_font_is_known_by_its_name_not_by_where_printkit_lies(monkeypatch):
    from printkit import fonts
    from printkit.layout import ops

    here = _face(font=fonts.KOREAN).digest
    monkeypatch.setattr(ops, "_bundled_fonts", lambda: ("/elsewhere/printkit/fonts/",) * 2)
    assert _face(font=Path("/elsewhere/printkit/fonts") / fonts.KOREAN.name).digest == here
    assert _face(font=Path("/elsewhere/printkit/fonts/Other.ttf")).digest != here


def test_a_decks_own_file_is_known_by_its_bytes_and_name_not_its_folder(tmp_path):
    for folder, data in (("a", b"one"), ("b", b"one"), ("c", b"two")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "Font.ttf").write_bytes(data)
        (tmp_path / folder / "Font.ttf.ttf").write_bytes(data + b"!")  # a name that begins with the other
    def face(folder: str) -> Face:
        return Face((Text(4, 8, "x", tmp_path / folder / "Font.ttf", 4), Text(4, 8, "x", tmp_path / folder / "Font.ttf.ttf", 4)))

    assert face("a").digest == face("b").digest  # the same bytes in two folders
    assert face("a").digest != face("c").digest  # other bytes
    # A file that cannot be read is known by its path.
    assert _face(font=Path("/a/deck/Gone.ttf")).digest != _face(font=Path("/b/deck/Gone.ttf")).digest

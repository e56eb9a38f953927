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
    assert copy == face and hash(copy) == hash(face) and copy.digest == face.digest

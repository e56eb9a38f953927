import os
from pathlib import Path

import pytest

from printkit.safe_read import UnsafeFileError, read_limited


def test_reads_the_whole_file_up_to_the_limit(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"x" * 1000)
    assert read_limited(path, 1000) == b"x" * 1000
    with pytest.raises(UnsafeFileError, match="1000 bytes; the limit is 999"):
        read_limited(path, 999)
    (tmp_path / "empty").write_bytes(b"")
    assert read_limited(tmp_path / "empty", 10) == b""


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs /proc")
def test_a_file_longer_than_its_stat_size_is_read_to_the_end_or_refused():
    # /proc files report size 0 and still have contents.
    assert os.stat("/proc/self/status").st_size == 0
    assert b"Name:" in read_limited(Path("/proc/self/status"), 1_000_000)
    with pytest.raises(UnsafeFileError, match="larger than the limit of 10 bytes"):
        read_limited(Path("/proc/self/status"), 10)


def test_folders_and_fifos_are_refused(tmp_path):
    with pytest.raises(UnsafeFileError, match="folder"):
        read_limited(tmp_path, 10)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeFileError, match="not a regular file"):
        read_limited(fifo, 10)

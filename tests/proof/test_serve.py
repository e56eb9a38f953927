"""The proof server serves the output folder's own files to this machine, and nothing else."""

from __future__ import annotations

import http.client
import os
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from printkit.serve import serving


@pytest.fixture
def served(tmp_path):
    out = tmp_path / "out"
    (out / "deck" / "proof").mkdir(parents=True)
    (out / "deck" / "proof.html").write_text("<p>proof</p>", encoding="utf-8")
    (out / "deck" / "proof" / "001.png").write_bytes(b"\x89PNG fake")
    (out / "manifest.json").write_text("{}", encoding="utf-8")
    (out / ".printkit-cache" / "5d").mkdir(parents=True)
    (out / ".printkit-cache" / "5d" / "entry").write_bytes(b"cache")
    (out / "deck" / ".sheets.pdf.1234.tmp").write_bytes(b"half")
    secret = tmp_path / "secret.txt"
    secret.write_text("outside", encoding="utf-8")
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "key.txt").write_text("outside too", encoding="utf-8")
    os.symlink(secret, out / "link.txt")
    os.symlink(tmp_path / "secrets", out / "linked-folder")
    os.symlink(out / "deck" / "proof.html", out / "inside-link.html")
    os.symlink(out / ".printkit-cache" / "5d" / "entry", out / "cache-link")  # inside, but the cache
    os.mkfifo(out / "pipe.html")  # a reader that opened it would wait forever
    lines: list[str] = []
    with serving(out, log=lines.append) as base:
        port = int(base.rstrip("/").rsplit(":", 1)[1])
        yield port, lines


def get(port: int, path: str, host: str | None = None) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), body


def test_the_proof_and_its_pictures_are_served_with_safe_headers(served):
    port, _ = served
    status, headers, body = get(port, "/deck/proof.html")
    assert status == 200 and body == b"<p>proof</p>"
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert get(port, "/deck/proof/001.png")[0] == 200
    for host in ("localhost", "[::1]"):
        assert get(port, "/deck/proof.html", host=f"{host}:{port}")[0] == 200
    assert get(port, "/inside-link.html")[0] == 200  # a link that stays inside is fine


@pytest.mark.parametrize("path", ["/link.txt", "/linked-folder/key.txt", "/manifest.json",
                                  "/.printkit-cache/5d/entry", "/deck/.sheets.pdf.1234.tmp", "/", "/deck/",
                                  "/deck/proof", "/../secret.txt", "/%2e%2e/secret.txt", "/deck/..%2f..%2fsecret.txt",
                                  "/deck\\..\\..\\secret.txt", "/%00", "/deck/%ff", "/nothing.html",
                                  "/cache-link", "/pipe.html", "/manifest.json.", "/deck/proof.html%20"])
def test_nothing_outside_the_output_files_is_served(served, path):
    port, _ = served
    status, _, body = get(port, path)
    assert status == 404, (path, status)
    assert b"outside" not in body and b"cache" not in body and b"{}" not in body


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1", "localhost:1", ""])
def test_another_host_is_refused(served, host):
    port, lines = served
    status, _, body = get(port, "/deck/proof.html", host=host)
    assert status == 421 and b"proof" not in body
    assert any("refused a request for host" in line for line in lines)


def test_three_hundred_connections_at_once_all_get_their_page(served):
    port, _ = served
    start = threading.Barrier(300, timeout=30)

    def one(_):
        start.wait()
        return get(port, "/deck/proof.html")[0]

    with ThreadPoolExecutor(max_workers=300) as pool:
        statuses = list(pool.map(one, range(300)))
    assert statuses == [200] * 300


def test_a_broken_request_or_a_client_that_hangs_up_is_one_line_not_a_traceback(served, capfd):
    port, lines = served
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(b"NONSENSE\r\n\r\n")
        raw.recv(1000)
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(b"GET /deck/proof.html HTTP/1.0\r\n")  # and hangs up before its headers end
    assert get(port, "/deck/proof.html")[0] == 200  # still serving
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert all("\n" not in line for line in lines)

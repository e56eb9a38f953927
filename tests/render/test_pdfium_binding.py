"""printkit's own ctypes binding of PDFium (printkit.render.pdfium) declares each function it calls
as pypdfium2's generated bindings do, and loads the very library they load: a pypdfium2 release
that moves its library or changes a prototype fails here, not in a user's build."""

from __future__ import annotations

import ctypes
import subprocess
import sys
from pathlib import Path

import pypdfium2_raw

from printkit.render import pdfium

REPO = Path(__file__).resolve().parents[2]


def _kind(ctype) -> object:
    """What a ctypes type is at the C call: any pointer is a pointer; else the type's own size and
    code (c_ulong and the bindings' FPDF_DWORD are one type)."""
    if ctype is None:
        return None
    if ctype is ctypes.c_char_p or ctype is ctypes.c_void_p or issubclass(ctype, ctypes._Pointer):
        return "pointer"
    return (ctypes.sizeof(ctype), getattr(ctype, "_type_", None))


def test_prototypes_are_the_bindings():
    for name, (result, arguments) in pdfium.PROTOTYPES.items():
        theirs = getattr(pypdfium2_raw, name)
        assert _kind(result) == _kind(theirs.restype), name
        assert [_kind(a) for a in arguments] == [_kind(a) for a in theirs.argtypes], name


def test_constants_and_config_are_the_bindings():
    assert pdfium.FPDFBitmap_BGR == pypdfium2_raw.FPDFBitmap_BGR
    assert pdfium.FPDF_REVERSE_BYTE_ORDER == pypdfium2_raw.FPDF_REVERSE_BYTE_ORDER
    ours, theirs = pdfium.FPDF_LIBRARY_CONFIG, pypdfium2_raw.FPDF_LIBRARY_CONFIG
    assert ctypes.sizeof(ours) == ctypes.sizeof(theirs)
    assert [(f[0], getattr(ours, f[0]).offset) for f in ours._fields_] == \
           [(f[0], getattr(theirs, f[0]).offset) for f in theirs._fields_]


def test_the_library_is_the_one_the_bindings_load():
    path = pdfium.library_path()
    assert path is not None
    assert Path(path).resolve() == Path(pypdfium2_raw.bindings._libs["pdfium"]._name).resolve()
    assert not isinstance(pdfium.library(), type(sys))  # bound here, not the bindings module


def test_a_proof_build_does_not_import_the_generated_bindings(tmp_path):
    run = ("import sys; from printkit.cli import main\n"
           "try: main(sys.argv[1:])\nexcept SystemExit: pass\n"
           "print('BINDINGS', 'pypdfium2_raw.bindings' in sys.modules, 'printkit.render.pdfium' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", run, "build", "calc", "--variant", "expert", "--no-rulebooks",
                           "--jobs", "1", "--no-cache", "--out", str(tmp_path / "out")],
                          cwd=REPO, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=300)
    assert (tmp_path / "out" / "calc" / "expert" / "proof" / "faces-1.png").is_file(), proc.stderr
    assert "BINDINGS False True" in proc.stdout

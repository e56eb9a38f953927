"""The few PDFium functions printkit calls, bound with ctypes from the library pypdfium2 ships.

pypdfium2's generated bindings (``pypdfium2_raw``) declare every function of PDFium's API when
imported, some 10-15 ms of every build that rasterises anything (the proof page's thumbnails,
per-card PNGs); printkit calls eleven of them. :func:`library` loads the same shared library
(the file beside ``pypdfium2_raw``'s bindings, where they load it from) and declares only those,
with the C prototypes of PDFium's public headers (``fpdfview.h``); a test compares them with the
bindings' own. Where the library is not found there (another packaging), the bindings are used.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
from functools import lru_cache
from types import SimpleNamespace

# Constants of fpdfview.h.
FPDFBitmap_BGR = 2  # three bytes a pixel
FPDF_REVERSE_BYTE_ORDER = 0x10  # render flag: the bytes in R, G, B order


class FPDF_LIBRARY_CONFIG(ctypes.Structure):
    """fpdfview.h's FPDF_LIBRARY_CONFIG (only ``version`` 2's fields are read)."""

    _fields_ = (
        ("version", ctypes.c_int),
        ("m_pUserFontPaths", ctypes.POINTER(ctypes.POINTER(ctypes.c_char))),
        ("m_pIsolate", ctypes.c_void_p),
        ("m_v8EmbedderSlot", ctypes.c_uint),
        ("m_pPlatform", ctypes.c_void_p),
        ("m_RendererType", ctypes.c_int),
        ("m_FontLibraryType", ctypes.c_int),
        ("m_BrotliEnabled", ctypes.c_int),
        ("m_IsolatePerDocument", ctypes.c_int),
    )


_HANDLE = ctypes.c_void_p  # FPDF_DOCUMENT, FPDF_PAGE, FPDF_BITMAP: pointers printkit only passes back
# name -> (result type, argument types), as fpdfview.h declares them.
PROTOTYPES: dict[str, tuple[object, tuple[object, ...]]] = {
    "FPDF_InitLibraryWithConfig": (None, (ctypes.POINTER(FPDF_LIBRARY_CONFIG),)),
    "FPDF_LoadMemDocument": (_HANDLE, (ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)),
    "FPDF_CloseDocument": (None, (_HANDLE,)),
    "FPDF_GetPageCount": (ctypes.c_int, (_HANDLE,)),
    "FPDF_GetLastError": (ctypes.c_ulong, ()),
    "FPDF_LoadPage": (_HANDLE, (_HANDLE, ctypes.c_int)),
    "FPDF_ClosePage": (None, (_HANDLE,)),
    "FPDF_RenderPageBitmap": (None, (_HANDLE, _HANDLE) + (ctypes.c_int,) * 6),
    "FPDFBitmap_CreateEx": (_HANDLE, (ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_int)),
    "FPDFBitmap_Destroy": (None, (_HANDLE,)),
    "FPDFBitmap_FillRect": (ctypes.c_int, (_HANDLE,) + (ctypes.c_int,) * 4 + (ctypes.c_ulong,)),
}


def library_path() -> str | None:
    """The PDFium library pypdfium2 installed, where its bindings load it from (None: not there)."""
    spec = importlib.util.find_spec("pypdfium2_raw")
    if spec is None or not spec.submodule_search_locations:
        return None
    if sys.platform.startswith(("win32", "cygwin", "msys")):
        name = "pdfium.dll"
    elif sys.platform.startswith(("darwin", "ios")):
        name = "libpdfium.dylib"
    else:
        name = "libpdfium.so"
    path = os.path.join(list(spec.submodule_search_locations)[0], name)
    return path if os.path.isfile(path) else None


@lru_cache(maxsize=1)
def library():
    """PDFium's functions of :data:`PROTOTYPES`, its constants and FPDF_LIBRARY_CONFIG, as
    attributes (the library not yet initialised)."""
    path = library_path()
    if path is None:
        import pypdfium2_raw

        return pypdfium2_raw
    loaded = ctypes.CDLL(path)
    functions = {}
    for name, (result, arguments) in PROTOTYPES.items():
        function = getattr(loaded, name)
        function.restype, function.argtypes = result, arguments
        functions[name] = function
    return SimpleNamespace(**functions, FPDF_LIBRARY_CONFIG=FPDF_LIBRARY_CONFIG, FPDFBitmap_BGR=FPDFBitmap_BGR,
                           FPDF_REVERSE_BYTE_ORDER=FPDF_REVERSE_BYTE_ORDER)

"""Every exception printkit raises is defined in printkit/errors.py and derives from PrintkitError,
so the command line turns each into one line."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import printkit
from printkit import errors


def printkit_modules():
    for info in pkgutil.walk_packages(printkit.__path__, "printkit."):
        if info.name.endswith("__main__"):
            continue
        yield importlib.import_module(info.name)


def test_every_exception_class_lives_in_errors_and_derives_from_printkit_error():
    found = {}
    for module in printkit_modules():
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__.startswith("printkit"):
                found[value] = module.__name__
    assert found, "no exception classes found"
    elsewhere = sorted(f"{cls.__module__}.{cls.__name__}" for cls in found if cls.__module__ != "printkit.errors")
    assert elsewhere == []
    outside = sorted(cls.__name__ for cls in found if not issubclass(cls, errors.PrintkitError))
    assert outside == []

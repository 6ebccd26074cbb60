"""The package's build backend: maturin's, refusing to download a Rust toolchain unasked.

maturin's backend installs Rust (about 1.1 GB, through puccinialin) when cargo is not on PATH,
without saying so. A user without Rust is better served by one line saying what to do, so this
wrapper stops the build there unless they opt in with ``CITESTORE_INSTALL_RUST=1`` (or set
maturin's own ``MATURIN_NO_INSTALL_RUST``). Every hook is maturin's, unchanged.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

import maturin

_HOOKS = (
    "build_wheel",
    "build_sdist",
    "build_editable",
    "get_requires_for_build_wheel",
    "get_requires_for_build_sdist",
    "get_requires_for_build_editable",
    "prepare_metadata_for_build_wheel",
    "prepare_metadata_for_build_editable",
)

NO_RUST = (
    "citestore: building the Python package needs Rust 1.85 or later (cargo on PATH), and "
    "cargo was not found. Install it with "
    "`curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh` and open a new shell, "
    "or install a wheel built on a machine with Rust (`cd python && maturin build`), or set "
    "CITESTORE_INSTALL_RUST=1 to let the build download a toolchain (about 1.1 GB)."
)


def _check_rust() -> None:
    """Stops the build with what to do when cargo is missing and nobody opted in."""
    if shutil.which("cargo"):
        return
    if os.environ.get("CITESTORE_INSTALL_RUST") == "1":
        return
    if os.environ.get("MATURIN_NO_INSTALL_RUST"):
        return  # maturin's own switch: it fails on its own, saying cargo is missing
    raise SystemExit(NO_RUST)


def _wrapped(name: str) -> Any:
    hook = getattr(maturin, name)

    def checked(*args: Any, **kwargs: Any) -> Any:
        _check_rust()
        return hook(*args, **kwargs)

    checked.__name__ = name
    checked.__doc__ = hook.__doc__
    return checked


for _name in _HOOKS:
    if hasattr(maturin, _name):
        globals()[_name] = _wrapped(_name)

"""Installing without Rust: pip stops at once with one message saying what to do, instead of
downloading a toolchain unasked (python/build_backend/citestore_build.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_pip_without_cargo_says_how_to_get_rust_and_downloads_nothing(tmp_path: Path) -> None:
    venv_bin = Path(sys.executable).parent
    # The venv's tools and the system's, without ~/.cargo/bin or any other Rust.
    path = os.pathsep.join([str(venv_bin), "/usr/bin", "/bin"])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARGO", "RUSTUP"))}
    env.update(PATH=path, HOME=str(tmp_path))
    env.pop("CITESTORE_INSTALL_RUST", None)
    env.pop("MATURIN_NO_INSTALL_RUST", None)
    assert not any((Path(d) / "cargo").exists() for d in path.split(os.pathsep))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "-w",
            str(tmp_path / "wheels"),
            str(ROOT / "python"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode != 0
    said = out.stdout + out.stderr
    assert "building the Python package needs Rust 1.85 or later" in said, said
    assert "https://sh.rustup.rs" in said and "CITESTORE_INSTALL_RUST=1" in said
    assert "puccinialin" not in said and not (tmp_path / ".rustup").exists()
    assert not list(tmp_path.glob("wheels/*.whl"))

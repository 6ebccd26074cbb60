"""Shared fixtures: the repository's files, the real CLI binary (to compare with), a fixed
clock, and a scratch store per test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, List

import pytest

import citestore

ROOT = Path(__file__).resolve().parents[2]
NOW = "2026-01-02T03:04:05Z"


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same fixed clock as the CLI tests, so Python and CLI results compare equal."""
    monkeypatch.setenv("CITESTORE_NOW", NOW)


def cli_binary() -> Path:
    """The CLI built by `cargo test`/`cargo build` (CITESTORE_BIN overrides). Missing is a
    failure, never a skip: the Python results are compared with it."""
    path = Path(os.environ.get("CITESTORE_BIN", ROOT / "target" / "debug" / "citestore"))
    if not path.is_file():
        pytest.fail(f"{path}: the citestore binary is missing; run `cargo build` first")
    return path


class Cli:
    """The real binary against one database, with the fixed clock."""

    def __init__(self, db: Path, cwd: Path) -> None:
        self.db = db
        self.cwd = cwd
        self.bin = cli_binary()

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, CITESTORE_NOW=NOW)
        env.pop("CITESTORE_DB", None)
        out = subprocess.run(
            [str(self.bin), "--db", str(self.db), *args],
            cwd=self.cwd,
            env=env,
            capture_output=True,
            text=True,
        )
        if check and out.returncode != 0:
            raise AssertionError(f"citestore {' '.join(args)}: exit {out.returncode}: {out.stderr}")
        return out

    def json(self, *args: str) -> Any:
        return json.loads(self.run(*args).stdout)

    def json_lines(self, *args: str) -> List[Any]:
        return [json.loads(line) for line in self.run(*args).stdout.splitlines() if line]

    def error(self, *args: str) -> str:
        """The one line an exit-2 command prints, without `citestore: `."""
        out = self.run(*args, check=False)
        assert out.returncode == 2, (args, out.returncode, out.stderr)
        lines = out.stderr.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith("citestore: ")
        return lines[0][len("citestore: ") :]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "cli.db", tmp_path)


@pytest.fixture
def store(tmp_path: Path) -> citestore.Store:
    return citestore.Store(tmp_path / "py.db")


@pytest.fixture
def example_docs(tmp_path: Path) -> Path:
    """The bundled citing example's two documents, copied to a scratch folder."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "fixtures" / "cite" / "docs", docs)
    return docs


def example_answer() -> Any:
    return json.loads((ROOT / "fixtures" / "cite" / "answer.json").read_text(encoding="utf-8"))

"""A Python thread reads health() while another runs sweep(): the sweep releases the GIL and
the reader is never blocked by the writer (each call has its own connection; WAL)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Dict

import pytest

import citestore

DOCS = 300


def build(store: citestore.Store, folder: Path) -> None:
    folder.mkdir()
    for n in range(DOCS):
        (folder / f"doc{n:03}.md").write_text(
            f"# Document {n}\n\nThe Growth plan includes {n},000 calls.\n\nOverage is billed monthly.\n",
            encoding="utf-8",
        )
    store.ingest(folder, chunker="paragraph:200")
    for n in range(DOCS):
        ctx = store.context(docs=[f"doc{n:03}.md"])
        label = next(c["label"] for c in ctx.chunks if "Growth" in c["text"])
        store.cite(
            ctx,
            {
                "claims": [
                    {
                        "text": "c",
                        "evidence": [
                            {"chunk_id": label, "quote": f"The Growth plan includes {n},000 calls."}
                        ],
                    }
                ]
            },
        )
    for n in range(DOCS):  # a line inserted above every citation
        path = folder / f"doc{n:03}.md"
        path.write_text("Updated.\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of DOCS cited documents whose files all changed since: the sweep has work."""
    folder = tmp_path_factory.mktemp("threads")
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("CITESTORE_NOW", "2026-01-02T03:04:05Z")
    build(citestore.Store(folder / "cs.db"), folder / "docs")
    monkeypatch.undo()
    return folder / "cs.db"


@pytest.fixture
def store(built: Path, tmp_path: Path) -> citestore.Store:
    """A copy of the built store (its documents' files are shared, and never written)."""
    copy = tmp_path / "cs.db"
    with sqlite3.connect(built) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    return citestore.Store(copy)


def test_health_runs_while_a_sweep_writes(store: citestore.Store) -> None:
    before = store.health()["status"]
    assert before == {"intact": DOCS}
    result: Dict[str, Any] = {}

    def nightly() -> None:
        started = time.monotonic()
        result["summary"] = store.sweep()
        result["seconds"] = time.monotonic() - started

    sweeper = threading.Thread(target=nightly)
    sweeper.start()
    seen = []
    spins = 0
    while sweeper.is_alive():
        health = store.health()  # never "database is locked", never half a sweep
        seen.append(sum(health["status"].values()))
        spins += 1
    sweeper.join()
    summary = result["summary"]
    assert summary["re_extracted"] == DOCS and summary["errors"] == []
    assert summary["status"] == {"moved": DOCS}
    assert len(seen) >= 3, (
        f"only {len(seen)} health() calls during a {result['seconds']:.2f} s sweep"
    )
    assert all(total == DOCS for total in seen)
    assert store.health()["status"] == {"moved": DOCS}


def test_the_gil_is_released_during_a_sweep(store: citestore.Store) -> None:
    done = threading.Event()
    counted = [0]

    def count() -> None:  # pure Python: it only runs while no thread holds the GIL
        while not done.is_set():
            counted[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    at_start = counted[0]
    store.sweep()
    during = counted[0] - at_start
    done.set()
    counter.join()
    assert during > 1000, f"the counter ran {during} times during the sweep"

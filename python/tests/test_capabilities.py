"""Everything the CLI does, from Python: each capability through the installed package, its
result compared with the real binary's `--json` where the CLI has the same command."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from conftest import ROOT, Cli, example_answer

import citestore


def cited_store(store: citestore.Store, example_docs: Path) -> citestore.CiteResult:
    store.ingest(example_docs, chunker="paragraph:150")
    ctx = store.context(docs=["rate-card.md", "plans.md"])
    return store.cite(ctx, example_answer())


def revise_and_sweep(store: citestore.Store, example_docs: Path) -> None:
    for name in ["rate-card.md", "plans.md"]:
        (example_docs / name).write_bytes((ROOT / "fixtures/demo/v2" / name).read_bytes())
    store.sweep()


def test_with_store_closes_it_and_a_closed_store_refuses_calls(tmp_path: Path) -> None:
    with citestore.Store(tmp_path / "a.db") as store:
        assert store.docs() == [] and not store.closed
    assert store.closed
    with pytest.raises(citestore.Error, match="closed"):
        store.health()
    store.close()  # twice is fine
    with pytest.raises(citestore.Error, match="closed"):
        with store:
            pass


def test_init_force_adopts_another_programs_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    with pytest.raises(citestore.DatabaseError, match=r"Store\(path, force=True\)") as refused:
        citestore.Store(db)
    assert "--" not in str(refused.value)
    with pytest.raises(citestore.DatabaseError):
        citestore.Store(db, read_only=True)
    store = citestore.Store(db, force=True)
    assert store.init()["schema_version"] >= 1 and store.docs() == []
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM notes").fetchone() == (0,)


def test_init_force_from_a_store_object(tmp_path: Path, cli: Cli) -> None:
    db = tmp_path / "shared.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    store = citestore.Store(tmp_path / "other.db")
    assert store.init() == {
        "db": str(tmp_path / "other.db"),
        "schema_version": store.init()["schema_version"],
    }
    # The CLI's init --force, compared with Python's on a second foreign file.
    cli.db = db
    from_cli = cli.json("init", "--force", "--json")
    assert from_cli["db"] == str(db) and from_cli["schema_version"] >= 1
    adopted = citestore.Store(db)  # now a citestore database
    assert adopted.init(force=True)["schema_version"] == from_cli["schema_version"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM notes").fetchone() == (0,)


def test_chunks_of_a_revision_with_caller_ids_and_text(store: citestore.Store, cli: Cli) -> None:
    text = "First part.\n\nSecond part, longer.\n\nThird."
    store.ingest_text(
        "a.md",
        text,
        chunks=[{"start": 0, "end": 11, "id": "v-1"}, {"start": 13, "end": 33, "id": "v-2"}],
    )
    store.ingest_text("a.md", text + "\n\nFourth.", chunker="paragraph:20")
    latest = store.chunks("a.md")
    assert latest["revision"] == 2 and latest["chunking"] == "paragraph:20"
    assert all(
        text_of == (text + "\n\nFourth.")[c["start"] : c["end"]]
        for c in latest["chunks"]
        for text_of in [c["text"]]
    )
    first = store.chunks("a.md", revision=1)
    assert first["chunking"] == "caller"
    assert [(c["caller_id"], c["text"]) for c in first["chunks"]] == [
        ("v-1", "First part."),
        ("v-2", "Second part, longer."),
    ]
    cli.db = Path(store.path)
    assert cli.json("chunks", "a.md", "--revision", "1", "--json") == first
    with pytest.raises(citestore.NotFound, match="no revision 3; its revisions are 1 to 2"):
        store.chunks("a.md", revision=3)
    with pytest.raises(citestore.UnknownDocument, match=r"store\.docs\(\)"):
        store.chunks("nope.md")


def test_show_and_citation_give_the_current_text_after_a_sweep(
    store: citestore.Store, cli: Cli, example_docs: Path
) -> None:
    result = cited_store(store, example_docs)
    revise_and_sweep(store, example_docs)
    ids = [ev["citation"] for ev in result.citations]
    cli.db = Path(store.path)
    for cid in ids:
        assert cid is not None
        shown = store.show(cid)
        assert shown == cli.json("show", cid, "--json")
        citation = store.citation(cid)
        assert citation["id"] == cid and citation["status"] == shown["status"]
        assert citation["source"]["start"] == shown["citation"]["start"]
        if citation["status"] == "lost":
            assert citation["current"] is None and citation["current_text"] is None
            continue
        current = citation["current"]
        assert current is not None and current["revision"] == 2
        v2 = (ROOT / "fixtures/demo/v2" / citation["doc_id"]).read_text(encoding="utf-8")
        assert citation["current_text"] == v2[current["start"] : current["end"]]
    with pytest.raises(citestore.NotFound, match="c-000000000000"):
        store.show("c-000000000000")


def test_retire_keeps_citations_out_of_health(
    store: citestore.Store, cli: Cli, example_docs: Path
) -> None:
    cited_store(store, example_docs)
    out = store.retire("plans.md")
    assert out == {"retired": [{"doc_id": "plans.md", "changed": True}]}
    health = store.health()
    assert health["retired"]["documents"] == ["plans.md"] and health["retired"]["citations"] >= 1
    cli.db = Path(store.path)
    assert cli.json("health", "--json") == health


def test_verify_with_a_python_callable_judge_and_calibrate(
    store: citestore.Store, example_docs: Path
) -> None:
    result = cited_store(store, example_docs)
    asked: List[citestore.JudgeRequest] = []

    def judge(request: citestore.JudgeRequest) -> citestore.Judgement:
        asked.append(request)
        # Confident only when the claim shares a number with its premise.
        digits = {w for w in request["claim"].split() if any(ch.isdigit() for ch in w)}
        shared = any(d.strip(".,") in request["premise"] for d in digits)
        return {"relation": "supports", "confidence": 0.9 if shared else 0.4}

    out = store.verify(result.context, judge=judge)
    assert out["judge"].startswith("python:") and asked
    assert all(sorted(r) == ["claim", "premise", "spans"] for r in asked)
    verdicts = [c["verdict"] for c in out["claims"]]
    assert set(verdicts) <= {
        "supported",
        "review",
        "fabricated",
        "uncited",
        "ambiguous",
        "unknown-chunk",
    }
    assert "supported" in verdicts and out["summary"]["judge_calls"] == len(asked)

    # A judge that raises is that claim's error, not a crash of the run.
    def broken(request: citestore.JudgeRequest) -> citestore.Judgement:
        raise RuntimeError("model unavailable")

    failed = store.verify(all=True, judge=broken)
    assert any(
        c["verdict"] == "error" and "model unavailable" in (c["reason"] or "")
        for c in failed["claims"]
    )
    labels = [
        {
            "claim": "Growth costs 500 a month",
            "premise": "Growth: 500 a month",
            "label": "supports",
        },
        {"claim": "Pro costs 9", "premise": "Starter costs 9", "label": "silent"},
    ]
    calibration = store.calibrate(labels, judge=judge)
    assert calibration["examples"] == 2 and calibration["judge_failures"] == 0
    assert [round(r["threshold"], 2) for r in calibration["thresholds"]][0] == 0.5
    with pytest.raises(citestore.BadInput, match="judge="):
        store.verify(all=True, judge="nonsense:spec")
    with pytest.raises(citestore.BadInput, match="exactly one"):
        store.verify()


def test_export_w3c_with_utf16_positions_for_astral_text(store: citestore.Store, cli: Cli) -> None:
    text = "Emoji 🙂 first. The quote after 🚀 the rocket stays put."
    store.ingest_text("e.md", text, chunker="paragraph:500")
    ctx = store.context(docs=["e.md"])
    quote = "the rocket stays put"
    store.cite(
        ctx,
        {
            "claims": [
                {"text": "c", "evidence": [{"chunk_id": ctx.chunks[0]["label"], "quote": quote}]}
            ]
        },
    )
    plain = list(store.export(format="w3c"))
    utf16 = list(store.export(format="w3c", utf16=True))
    assert len(plain) == 1 and plain != utf16
    cli.db = Path(store.path)
    assert utf16 == cli.json_lines("export", "--format", "w3c", "--utf16")
    start = text.index(quote)
    units = len(text[:start].encode("utf-16-le")) // 2
    assert json.dumps(utf16[0]).count(str(units)) >= 1 and units == start + 2
    with pytest.raises(citestore.BadInput, match="format="):
        store.export(format="csv")  # type: ignore[call-overload]


def test_report_writes_the_page_and_since_speaks_python(
    store: citestore.Store, tmp_path: Path, example_docs: Path
) -> None:
    cited_store(store, example_docs)
    revise_and_sweep(store, example_docs)
    out = store.report(tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert out["bytes"] == len(page.encode("utf-8")) and out["changed"] == 4 and "<html" in page
    with pytest.raises(citestore.BadInput, match=r"since=\"yesterday\"") as bad:
        store.report(tmp_path / "r2.html", since="yesterday")
    assert "--since" not in str(bad.value)
    assert not (tmp_path / "r2.html").exists()


def test_migrate_copies_the_store(
    store: citestore.Store, tmp_path: Path, example_docs: Path
) -> None:
    cited_store(store, example_docs)
    out = store.migrate(tmp_path / "copy.db")
    assert out["rows"] > 0 and out["tables"]["citations"] == 4
    copy = citestore.Store(tmp_path / "copy.db", read_only=True)
    assert list(copy.export()) == list(store.export())


def test_a_read_only_file_is_read_by_health_and_export(tmp_path: Path, example_docs: Path) -> None:
    db = tmp_path / "ro.db"
    cited_store(citestore.Store(db), example_docs)
    expected = list(citestore.Store(db).export())
    os.chmod(db, stat.S_IRUSR)
    os.chmod(tmp_path, stat.S_IRUSR | stat.S_IXUSR)
    try:
        store = citestore.Store(db, read_only=True)
        assert store.read_only and "read_only=True" in repr(store)
        assert store.health()["status"] == {"intact": 4}
        assert list(store.export()) == expected
        assert len(store.docs()) == 2 and store.show(expected[0]["id"])["id"] == expected[0]["id"]
        with pytest.raises(citestore.DatabaseError, match="read_only=True"):
            store.ingest_text("x.md", "text")
        with pytest.raises(citestore.DatabaseError, match="read_only=True"):
            store.sweep()
    finally:
        os.chmod(tmp_path, stat.S_IRWXU)
        os.chmod(db, stat.S_IRUSR | stat.S_IWUSR)


def test_read_only_never_creates_a_database(tmp_path: Path) -> None:
    with pytest.raises(citestore.DatabaseError, match=r"citestore\.Store\(path\) creates one"):
        citestore.Store(tmp_path / "missing.db", read_only=True)
    assert not (tmp_path / "missing.db").exists()


def test_errors_name_python_arguments_not_cli_flags(store: citestore.Store) -> None:
    with pytest.raises(citestore.UnknownContext) as unknown:
        store.cite("ctx-nope", {"claims": []})
    assert "store.context(" in str(unknown.value) and "--" not in str(unknown.value)
    with pytest.raises(citestore.BadInput) as since:
        list(store.changes(since="last tuesday"))
    assert "since=" in str(since.value) and "--since" not in str(since.value)


def test_pip_installs_the_citestore_command(tmp_path: Path, example_docs: Path) -> None:
    script = Path(sys.executable).parent / "citestore"
    assert script.is_file(), f"{script}: pip did not install the citestore command"
    db = tmp_path / "cmd.db"
    cited_store(citestore.Store(db), example_docs)
    env = dict(os.environ)
    env.pop("CITESTORE_DB", None)
    health = subprocess.run(
        [str(script), "--db", str(db), "health", "--json"], capture_output=True, text=True, env=env
    )
    assert health.returncode == 0, health.stderr
    assert json.loads(health.stdout) == citestore.Store(db).health()
    bad = subprocess.run(
        [str(script), "--db", str(db), "show", "c-0"], capture_output=True, text=True, env=env
    )
    assert (
        bad.returncode == 2 and bad.stderr.startswith("citestore: ") and bad.stderr.count("\n") == 1
    )
    version = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert version.stdout.strip() == f"citestore {citestore.__version__}"


def test_sharded_sweeps_and_an_extract_command(
    tmp_path: Path, example_docs: Path, cli: Cli
) -> None:
    store = citestore.Store(tmp_path / "s.db")
    cited_store(store, example_docs)
    for name in ["rate-card.md", "plans.md"]:
        (example_docs / name).write_bytes((ROOT / "fixtures/demo/v2" / name).read_bytes())
    halves = [store.sweep(shard=f"{i}/2", run="nightly") for i in (1, 2)]
    assert sorted(h["documents"] for h in halves) == [1, 1]
    # `shard` and `run` are keys only a shard sweep has (SweepSummary, total=False).
    assert all(
        h.get("shard") == f"{i}/2" and h.get("run") == "nightly" for i, h in zip((1, 2), halves)
    )
    cli.db = Path(store.path)
    # (JSON has no tuples: a shard's `latest` pairs are lists there.)
    assert cli.json("health", "--json") == json.loads(json.dumps(store.health()))
    with pytest.raises(citestore.BadInput, match="shard"):
        store.sweep(shard="3/2")
    (tmp_path / "notes.odd").write_text("Upper case me.", encoding="utf-8")
    report = store.ingest(
        tmp_path / "notes.odd",
        extract_cmd="tr a-z A-Z < {}",
        extract_version="1",
        chunker="paragraph:500",
    )
    assert report["documents"][0]["extractor"] == "tr@1"
    assert store.chunks(report["documents"][0]["doc_id"])["chunks"][0]["text"] == "UPPER CASE ME."
    with pytest.raises(citestore.BadInput, match="extract_version"):
        store.ingest(tmp_path / "notes.odd", extract_cmd="cat {}")

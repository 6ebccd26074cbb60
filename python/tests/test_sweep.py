"""The nightly job from Python: an edit, a sweep, what changed, and what the store says."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, Cli, example_answer

import citestore


def cite_example(store: citestore.Store) -> citestore.CiteResult:
    ctx = store.context(docs=["rate-card.md", "plans.md"])
    return store.cite(ctx, example_answer())


def test_a_sweep_after_an_edit_to_the_files(
    store: citestore.Store, cli: Cli, example_docs: Path
) -> None:
    store.ingest(example_docs, chunker="paragraph:150")
    cite_example(store)
    for name in ["rate-card.md", "plans.md"]:
        (example_docs / name).write_bytes((ROOT / "fixtures/demo/v2" / name).read_bytes())
    summary = store.sweep()
    assert summary["re_extracted"] == 2 and summary["errors"] == []
    assert summary["status"] == {"degraded": 1, "lost": 1, "moved": 2}
    by_id = {c["id"]: c["status"] for c in store.export()}
    assert by_id == {
        "c-221cc4b4ae2a": "moved",
        "c-22e7f97c762d": "degraded",
        "c-a29683dbfb0b": "lost",
        "c-5db959fd9b5f": "moved",
    }
    lost = list(store.citations(status="lost"))
    assert [c["id"] for c in lost] == ["c-a29683dbfb0b"] and lost[0]["current"] is None
    assert len(list(store.citations(status=["lost", "degraded"]))) == 2
    changed = list(store.changes())
    assert {c["id"]: c["after"]["status"] for c in changed} == by_id
    health = store.health()
    assert health["status"] == summary["status"]
    assert health["trend"][0]["id"] == summary["sweep"]
    # A second sweep finds nothing to do.
    again = store.sweep()
    assert again["unchanged_documents"] == 2 and again["anchors_written"] == 0
    assert list(store.changes()) == []
    # The CLI reads the store Python wrote, and agrees.
    cli.db = Path(store.path)
    assert cli.json("health", "--json") == store.health()
    assert cli.json_lines("list", "--json") == list(store.citations())
    assert cli.json("docs", "--json")["documents"] == store.docs()
    assert [d["revisions"] for d in store.docs()] == [2, 2]


def test_check_reads_every_page_and_later_sweeps_need_not(
    store: citestore.Store, example_docs: Path
) -> None:
    store.ingest(example_docs)
    assert "full_check_seconds" in store.sweep(), "a store never checked is checked"
    assert "full_check_seconds" not in store.sweep(), "not again the same week"
    checked = store.check()
    assert checked["pages_checked"] is True and checked["db"] == store.path
    assert "full_check_seconds" in store.sweep(full_check=True)
    assert "full_check_seconds" not in store.sweep()


def test_new_text_given_as_a_string_is_swept_without_a_file(
    store: citestore.Store, example_docs: Path
) -> None:
    for name in ["rate-card.md", "plans.md"]:
        store.ingest_text(
            name, (example_docs / name).read_text(encoding="utf-8"), chunker="paragraph:150"
        )
    cite_example(store)
    v2 = (ROOT / "fixtures/demo/v2/rate-card.md").read_text(encoding="utf-8")
    rev = store.ingest_text("rate-card.md", v2)
    assert rev["chunking"] is not None
    assert (rev["outcome"], rev["seq"], rev["chunking"]["spec"]) == ("revised", 2, "paragraph:150")
    summary = store.sweep()
    assert summary["errors"] == [] and summary["extractions"] == 0
    assert summary["reanchored_documents"] == 1
    status = {c["id"]: c["status"] for c in store.export()}
    assert status["c-221cc4b4ae2a"] == "moved" and status["c-a29683dbfb0b"] == "lost"


def test_caller_chunks_for_the_new_text_are_kept(store: citestore.Store) -> None:
    v1 = "Alpha paragraph one.\n\nThe Growth plan costs $0.12 per call.\n"
    store.ingest_text(
        "a.md",
        v1,
        chunks=[{"start": 0, "end": 20, "id": "v1-a"}, {"start": 22, "end": 59, "id": "v1-b"}],
    )
    ctx = store.context(chunks=["v1-b"])
    store.cite(
        ctx,
        {
            "claims": [
                {
                    "text": "c",
                    "evidence": [
                        {"chunk_id": ctx.chunks[0]["label"], "quote": "costs $0.12 per call"}
                    ],
                }
            ]
        },
    )
    v2 = "A new first line.\n\n" + v1
    store.ingest_text(
        "a.md",
        v2,
        chunks=[{"start": 19, "end": 39, "id": "v2-a"}, {"start": 41, "end": 78, "id": "v2-b"}],
    )
    store.sweep(chunker="paragraph:1000")
    [line] = list(store.export())
    assert line["status"] == "moved"
    assert line["current"] is not None
    assert line["current"]["chunk_id"] == "a.md@r2#41-78"
    assert (
        store.context(chunks=["v2-b"]).chunks[0]["text"] == "The Growth plan costs $0.12 per call."
    )


def test_without_new_chunks_the_new_text_is_rechunked(store: citestore.Store) -> None:
    store.ingest_text("a.md", "One.\n\nTwo two.\n", chunks=[{"start": 0, "end": 4}])
    rev = store.ingest_text("a.md", "One.\n\nTwo two three.\n")
    assert rev["chunking"] is not None and rev["chunking"]["spec"] == "paragraph:1500"
    store.ingest_text("a.md", "One.\n\nTwo.\n", chunks=[{"start": 0, "end": 4}])
    rev = store.ingest_text("a.md", "One.\n\nTwo, three.\n", chunker="chars:8:0")
    assert rev["chunking"] is not None and rev["chunking"]["spec"] == "chars:8:0"

"""Every exception type, each carrying the CLI's one-line message for the same problem, and
nothing stored when one is raised."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from conftest import Cli

import citestore


def stored(
    store: citestore.Store,
) -> Tuple[Dict[citestore.Status, int], List[citestore.ExportLine]]:
    return (store.health()["status"], list(store.export()))


def test_the_hierarchy() -> None:
    assert issubclass(citestore.BadInput, citestore.Error) and issubclass(
        citestore.BadInput, ValueError
    )
    assert issubclass(citestore.BadAnswer, citestore.BadInput)
    for cls in (citestore.UnknownContext, citestore.UnknownDocument, citestore.UnknownChunk):
        assert issubclass(cls, citestore.NotFound) and issubclass(cls, LookupError)
    assert issubclass(citestore.DatabaseError, citestore.Error)
    assert issubclass(citestore.SweepIncomplete, citestore.Error)


def test_bad_chunks_raise_bad_input_with_the_clis_message(
    store: citestore.Store, cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "a.txt").write_text("alpha beta gamma delta", encoding="utf-8")
    (tmp_path / "c.jsonl").write_text('{"start": 0, "end": 4}\n{"start": 9, "end": 3}\n')
    line = cli.error("ingest", "a.txt", "--chunks", "c.jsonl")
    assert (
        line
        == "c.jsonl line 2: start 9 is not before end 3; a chunk is [start, end) in chars, start < end"
    )
    with pytest.raises(citestore.BadInput) as err:
        store.ingest_text(
            "a.txt",
            "alpha beta gamma delta",
            chunks=[{"start": 0, "end": 4}, {"start": 9, "end": 3}],
        )
    assert str(err.value) == line.replace("c.jsonl line 2", "chunks[1]")
    cases: List[Tuple[List[Any], str]] = [
        ([{"start": 0, "end": 99}], "chunks[0]: [0, 99) runs past the end of a.txt (22 chars)"),
        (
            [{"start": 0, "end": 4, "id": "v"}, {"start": 5, "end": 9, "id": "v"}],
            'chunk id "v" is given twice',
        ),
        ([{"start": "0", "end": 4}], "chunks[0]: invalid type"),
        (["0-4"], "chunks[0]: a str; give dicts"),
        ([], "no chunks given"),
    ]
    for chunks, want in cases:
        with pytest.raises(citestore.BadInput, match=None) as err:
            store.ingest_text("a.txt", "alpha beta gamma delta", chunks=chunks)
        assert want in str(err.value)
        assert "\n" not in str(err.value)
    with pytest.raises(citestore.UnknownDocument):
        store.context(docs=["a.txt"])


def test_bad_answer_names_the_json_path_and_stores_nothing(
    store: citestore.Store, cli: Cli, example_docs: Path
) -> None:
    store.ingest(example_docs, chunker="paragraph:150")
    ctx = store.context(docs=["rate-card.md"])
    before = stored(store)
    answer = {
        "claims": [{"text": "x", "evidence": [{"chunk_id": ctx.chunks[0]["label"], "quote": 7}]}]
    }
    with pytest.raises(citestore.BadAnswer) as err:
        store.cite(ctx, answer)
    (cli.cwd / "answer.json").write_text(json.dumps(answer))
    cli.db = Path(store.path)
    line = cli.error("cite", "--context", ctx.id, "answer.json")
    assert str(err.value) == line.replace("answer.json:", "answer:", 1)
    assert str(err.value).startswith("answer: claims[0].evidence[0].quote: invalid type")
    with pytest.raises(citestore.BadAnswer, match=r"^answer: \$: "):
        store.cite(ctx, "{not json")
    with pytest.raises(citestore.BadAnswer, match="pass the tool call's input as a dict"):
        store.cite(ctx, {"claims": [object()]})
    assert stored(store) == before


def same_fact_in_python_words(python: str, cli: str, python_words: str) -> None:
    """The Python message states the CLI's fact (the part before the first `;`) and says what
    to do in Python's words, never with a CLI flag or command."""
    assert python.split(";")[0] == cli.split(";")[0], (python, cli)
    assert python_words in python, python
    assert "--" not in python and "`citestore" not in python, python


def test_unknown_ids(store: citestore.Store, cli: Cli, example_docs: Path) -> None:
    store.ingest(example_docs, chunker="paragraph:150")
    cli.db = Path(store.path)
    with pytest.raises(citestore.UnknownContext) as no_context:
        store.cite("ctx-000000000000", {"claims": []})
    (cli.cwd / "empty.json").write_text('{"claims": []}')
    same_fact_in_python_words(
        str(no_context.value),
        cli.error("cite", "--context", "ctx-000000000000", "empty.json"),
        "store.context(docs=[...])",
    )
    with pytest.raises(citestore.UnknownDocument) as no_doc:
        store.context(docs=["nope.md"])
    same_fact_in_python_words(
        str(no_doc.value), cli.error("context", "--doc", "nope.md"), "store.docs() lists them"
    )
    with pytest.raises(citestore.UnknownChunk) as no_chunk:
        store.context(chunks=["vec-404"])
    same_fact_in_python_words(
        str(no_chunk.value), cli.error("context", "--chunk", "vec-404"), "store.chunks(doc_id)"
    )
    with pytest.raises(citestore.UnknownDocument):
        list(store.citations(doc="nope.md"))
    with pytest.raises(citestore.NotFound) as no_sweep:
        list(store.changes())
    same_fact_in_python_words(str(no_sweep.value), cli.error("changes"), "run store.sweep() first")


def test_database_errors(tmp_path: Path, cli: Cli) -> None:
    not_sqlite = tmp_path / "notes.db"
    not_sqlite.write_text("just text, long enough to be read as a header........." * 3)
    with pytest.raises(citestore.DatabaseError) as err:
        citestore.Store(not_sqlite)
    cli.db = not_sqlite
    same_fact_in_python_words(
        str(err.value), cli.error("ingest", str(not_sqlite)), "citestore.Store(...)"
    )
    foreign = tmp_path / "app.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE users (id INTEGER)")
    with pytest.raises(citestore.DatabaseError, match="is not a citestore database"):
        citestore.Store(foreign)


def test_a_sweep_that_misses_a_document_raises_with_its_summary(
    store: citestore.Store, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("alpha beta", encoding="utf-8")
    (docs / "b.txt").write_text("gamma delta", encoding="utf-8")
    store.ingest(docs, chunker="paragraph:100")
    (docs / "a.txt").write_bytes(b"\x00binary now")
    (docs / "b.txt").write_text("gamma delta epsilon", encoding="utf-8")
    with pytest.raises(citestore.SweepIncomplete) as err:
        store.sweep()
    summary = err.value.summary
    assert [e["doc_id"] for e in summary["errors"]] == ["a.txt"]
    assert summary["re_extracted"] == 1  # b.txt was committed
    assert str(err.value).startswith(
        f"sweep {summary['sweep']}: 1 of 2 documents not swept: a.txt: not swept: "
    )
    assert "looks like a binary file" in str(err.value)


def test_other_bad_input() -> None:
    with pytest.raises(citestore.BadInput, match="the quote is empty or has no visible characters"):
        citestore.locate("some text", " \u00ad\u200b ")
    with pytest.raises(citestore.BadInput, match="review <= accept"):
        citestore.locate("some text", "text", accept=80, review=90)
    with pytest.raises(citestore.BadInput) as err:
        citestore.schema("openai-chat")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert str(err.value) == (
        'unknown schema format "openai-chat"; expected one of: anthropic, openai, '
        "openai-responses, ai-sdk"
    )


def test_locate_offsets_are_str_indices_and_surrogates_are_refused() -> None:
    chunk = "Prix 𝔼 — naïve “quote” here"
    hit = citestore.locate(chunk, 'naive "quote"')
    assert hit is not None and chunk[hit["start"] : hit["end"]] == hit["text"] == "naïve “quote”"
    with pytest.raises(UnicodeEncodeError):
        citestore.locate("a\ud800b", "a")


def test_bad_chunker_and_doc_id(store: citestore.Store) -> None:
    with pytest.raises(citestore.BadInput, match=r'chunker spec "pages:3": unknown chunker'):
        store.ingest_text("a", "text", chunker="pages:3")
    with pytest.raises(citestore.BadInput, match="holds the control character U\\+000A"):
        store.ingest_text("a\nb", "text")
    with pytest.raises(citestore.BadInput, match="empty text"):
        store.ingest_text("a", "")


def test_ingest_skips_the_database_in_a_folder_and_refuses_chunks_for_one(
    tmp_path: Path, cli: Cli
) -> None:
    """One use case for both faces: the database (and its companions) in a walked folder is
    skipped, and caller chunks for a folder are refused with the CLI's message."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("alpha beta\n", encoding="utf-8")
    store = citestore.Store(folder / "py.db")
    report = store.ingest(folder)
    assert [d["doc_id"] for d in report["documents"]] == ["a.md"]
    assert {s["reason"] for s in report["skipped"]} == {"the database itself"}
    (tmp_path / "c.jsonl").write_text('{"start": 0, "end": 5}\n', encoding="utf-8")
    line = cli.error("ingest", str(folder), "--chunks", "c.jsonl")
    with pytest.raises(citestore.BadInput) as err:
        store.ingest(folder, chunks=[{"start": 0, "end": 5}])
    assert line == "--chunks needs exactly one file to ingest, not a folder or several paths"
    assert str(err.value) == line.replace("--chunks", "chunks=")

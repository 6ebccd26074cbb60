"""The bundled rate-card example end to end in Python: the same context, verdicts, spans and
citation ids as the CLI, and the same results whether the text comes from files or strings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Literal, Optional

import pytest
from conftest import ROOT, Cli, example_answer

import citestore

VERDICTS = [
    "exact",
    "fuzzy",
    "review",
    "fabricated",
    "repaired",
    "ambiguous",
    None,
    "unknown-chunk",
]


def verdicts(result: citestore.CiteResult) -> List[Optional[str]]:
    return [c["evidence"][0]["verdict"] if c["evidence"] else None for c in result.claims]


def test_the_example_cites_as_the_cli_does(
    store: citestore.Store, cli: Cli, example_docs: Path
) -> None:
    report = store.ingest(example_docs, chunker="paragraph:150")
    assert [d["doc_id"] for d in report["documents"]] == ["plans.md", "rate-card.md"]
    ctx = store.context(docs=["rate-card.md", "plans.md"])

    cli.run("ingest", "docs", "--chunker", "paragraph:150")
    cli_ctx = cli.json("context", "--doc", "rate-card.md", "--doc", "plans.md", "--json")
    assert ctx.id == cli_ctx["context"] == "ctx-504cd163e2ad"
    assert ctx.to_dict() == cli_ctx

    result = store.cite(ctx, example_answer())
    assert verdicts(result) == VERDICTS
    assert result.claims[6]["uncited"] is True
    cli_result = cli.json(
        "cite", "--context", ctx.id, str(ROOT / "fixtures/cite/answer.json"), "--json"
    )
    assert result.to_dict() == cli_result
    assert [e["citation"] for e in result.citations] == [
        "c-221cc4b4ae2a",
        "c-22e7f97c762d",
        "c-a29683dbfb0b",
        "c-5db959fd9b5f",
    ]

    # Each span is the stored text at [start, end).
    text = (example_docs / "rate-card.md").read_text(encoding="utf-8")
    exact = result.claims[0]["evidence"][0]
    assert text[exact["start"] : exact["end"]] == exact["text"] == "overage $0.20 per 1,000 calls"

    # Citing the same answer again stores nothing and gives the same ids.
    again = store.cite(ctx.id, json.dumps(example_answer()))
    assert again.already_recorded and again.citations == result.citations
    assert list(store.export()) == cli.json_lines("export")


def test_text_given_as_strings_cites_the_same(store: citestore.Store, example_docs: Path) -> None:
    for name in ["rate-card.md", "plans.md"]:
        rev = store.ingest_text(
            name, (example_docs / name).read_text(encoding="utf-8"), chunker="paragraph:150"
        )
        assert rev["outcome"] == "new" and rev["seq"] == 1
        assert rev["chunking"] is not None and rev["chunking"]["spec"] == "paragraph:150"
    ctx = store.context(docs=["rate-card.md", "plans.md"])
    assert ctx.id == "ctx-504cd163e2ad"
    assert verdicts(store.cite(ctx, example_answer())) == VERDICTS
    # The same text again is no new revision.
    rev = store.ingest_text("plans.md", (example_docs / "plans.md").read_text(encoding="utf-8"))
    assert (rev["outcome"], rev["seq"]) == ("unchanged", 1)


def test_prompt_shows_each_chunk_under_its_label(
    store: citestore.Store, example_docs: Path
) -> None:
    store.ingest(example_docs, chunker="paragraph:150")
    ctx = store.context(docs=["rate-card.md"])
    block = ctx.prompt()
    for chunk in ctx.chunks:
        assert f'<chunk label="{chunk["label"]}">\n{chunk["text"]}' in block
    assert block.count("</chunk>") == len(ctx.chunks)
    assert "rate-card.md@r1" not in block  # labels only: no ids, no rank


def test_schema_is_the_clis(cli: Cli) -> None:
    assert citestore.schema("anthropic") == cli.json("schema", "--json")
    assert citestore.schema() == citestore.schema("anthropic")
    formats: List[Literal["openai", "openai-responses"]] = ["openai", "openai-responses"]
    for format in formats:
        assert citestore.schema(format) == cli.json("schema", "--format", format, "--json")
    assert citestore.schema("openai")["function"]["name"] == "emit_answer"


def test_wrapped_answers_cite_as_the_cli_does(
    store: citestore.Store, cli: Cli, example_docs: Path
) -> None:
    """An Anthropic message, an OpenAI Chat Completions or Responses response: the library
    finds the answer inside, from Python as from the CLI."""
    store.ingest(example_docs, chunker="paragraph:150")
    ctx = store.context(docs=["rate-card.md", "plans.md"])
    cli.run("ingest", "docs", "--chunker", "paragraph:150")
    cli.run("context", "--doc", "rate-card.md", "--doc", "plans.md")
    citations_api = ROOT / "fixtures" / "cite" / "anthropic-response.json"
    with pytest.raises(citestore.BadAnswer) as err:
        store.cite(ctx, json.loads(citations_api.read_text(encoding="utf-8")))
    assert "cite it with `citestore import-anthropic`" in str(err.value)
    assert str(err.value) == cli.error("cite", "--context", ctx.id, str(citations_api)).replace(
        str(citations_api), "answer", 1
    )
    for name in ["openai-chat-completion.json", "openai-response.json"]:
        path = ROOT / "fixtures" / "cite" / name
        response = json.loads(path.read_text(encoding="utf-8"))
        result = store.cite(ctx, response)
        assert verdicts(result) == VERDICTS, name
        assert result.to_dict() == cli.json("cite", "--context", ctx.id, str(path), "--json")


def test_locate_matches_the_cli_batch(cli: Cli) -> None:
    path = ROOT / "fixtures" / "example" / "quotes.jsonl"
    lines = [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    out = cli.run("locate", "--batch", str(path), check=False)
    assert out.returncode == 1  # one quote has no span
    expected = [json.loads(line) for line in out.stdout.splitlines()]
    got = [citestore.locate(case["chunk"], case["quote"]) for case in lines]
    assert got == expected
    assert None in got


def test_import_anthropic_cites_the_responses_cited_text(
    store: citestore.Store, example_docs: Path
) -> None:
    store.ingest(example_docs, chunker="paragraph:150")
    ctx = store.context(docs=["rate-card.md"])
    growth = next(c for c in ctx.chunks if c["text"].startswith("Growth"))
    index = ctx.chunks.index(growth)
    response = {
        "content": [
            {
                "type": "text",
                "text": "Growth overage is $0.12 per 1,000 calls.",
                "citations": [
                    {
                        "type": "char_location",
                        "document_index": index,
                        "cited_text": "overage $0.12 per 1,000 calls",
                        "start_char_index": 0,
                        "end_char_index": 10,
                    }
                ],
            }
        ]
    }
    result = store.import_anthropic(ctx, response)
    ev = result.claims[0]["evidence"][0]
    assert ev["verdict"] == "exact" and ev["chunk_id"] == growth["chunk_id"]

"""docs/python.md and the README's "Quick start: Python", run as written through the real
package: docs/python.md's code blocks are executed in order against a scratch folder, with the
model's API replaced by a stub that answers from the prompt it is sent (as a model would: quoting
the chunks, and once inventing a quote); the README's block runs in a scratch folder holding the
repository's fixtures/ and must print what the CLI's quick start prints."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from conftest import ROOT

import citestore

SECTION = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
BLOCKS = [b for b in re.findall(r"```python\n(.*?)```", SECTION, re.S)]
_QUICK_START = re.search(
    r"\n## Quick start: Python\n(.*?)\n## ",
    (ROOT / "README.md").read_text(encoding="utf-8"),
    re.S,
)
assert _QUICK_START is not None, "README.md has no 'Quick start: Python' section"
QUICK_START = _QUICK_START.group(1)
GUIDE = (ROOT / "fixtures" / "corpus" / "001_6c4cdf5166de66e1.txt").read_text(encoding="utf-8")


def dedent(block: str) -> str:
    import textwrap

    return textwrap.dedent(block)


class Ns(types.SimpleNamespace):
    def model_dump(self) -> Any:
        return json.loads(json.dumps(self, default=vars))


def chunks_in(prompt: str) -> List[Tuple[str, str]]:
    return re.findall(r'<chunk label="([a-z0-9]+)">\n(.*?)\n</chunk>', prompt, re.S)


class Messages:
    def __init__(self) -> None:
        self.calls: List[Dict[str, Any]] = []

    def create(self, **request: Any) -> Ns:
        self.calls.append(request)
        if "tools" in request:
            assert request["tools"] == [citestore.schema("anthropic")]
            assert request["tool_choice"] == {"type": "tool", "name": "emit_answer"}
            shown = chunks_in(request["messages"][0]["content"])
            assert len(shown) == 2
            claims = [
                {
                    "text": f"Claim from {label}.",
                    "evidence": [{"chunk_id": label, "quote": text[:120].rsplit(" ", 1)[0]}],
                }
                for label, text in shown
            ]
            claims.append(
                {
                    "text": "An invented claim.",
                    "evidence": [
                        {
                            "chunk_id": shown[0][0],
                            "quote": "citestore was written on the moon in 1969",
                        }
                    ],
                }
            )
            return Ns(
                content=[
                    Ns(type="text", text="Here is the answer."),
                    Ns(type="tool_use", name="emit_answer", input={"claims": claims}),
                ]
            )
        documents = [b for b in request["messages"][0]["content"] if b["type"] == "document"]
        cited = documents[1]["source"]["data"][:60]
        return Ns(
            content=[
                Ns(
                    type="text",
                    text="Cited.",
                    citations=[
                        Ns(
                            type="char_location",
                            document_index=1,
                            cited_text=cited,
                            start_char_index=0,
                            end_char_index=len(cited),
                        )
                    ],
                )
            ]
        )


class Completions:
    """OpenAI's Chat Completions, answering as the fixture's recorded response does."""

    def __init__(self) -> None:
        self.calls: List[Dict[str, Any]] = []

    def create(self, **request: Any) -> Ns:
        self.calls.append(request)
        assert request["tools"] == [citestore.schema("openai")]
        shown = chunks_in(request["messages"][0]["content"])
        answer = {
            "claims": [
                {
                    "text": "One claim.",
                    "evidence": [
                        {"chunk_id": shown[1][0], "quote": shown[1][1][:80].rsplit(" ", 1)[0]}
                    ],
                }
            ]
        }
        call = Ns(
            id="call_1",
            type="function",
            function=Ns(name="emit_answer", arguments=json.dumps(answer)),
        )
        return Ns(
            id="chatcmpl-1",
            object="chat.completion",
            model="gpt-4.1",
            choices=[
                Ns(
                    index=0,
                    finish_reason="tool_calls",
                    message=Ns(role="assistant", content=None, tool_calls=[call]),
                )
            ],
        )


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Messages:
    messages = Messages()
    stub = types.ModuleType("anthropic")
    stub.Anthropic = lambda: Ns(messages=messages)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "anthropic", stub)
    completions = Completions()
    openai = types.ModuleType("openai")
    openai.OpenAI = lambda: Ns(chat=Ns(completions=completions))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "openai", openai)
    return messages


def test_the_section_runs_as_written(
    model: Messages,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert len(BLOCKS) == 3
    monkeypatch.chdir(tmp_path)
    (tmp_path / "guide.md").write_text(GUIDE, encoding="utf-8")
    scope: Dict[str, Any] = {}
    exec(dedent(BLOCKS[0]), scope)
    out = capsys.readouterr().out.splitlines()
    assert len(model.calls) == 1
    assert sum("[exact]" in line for line in out) == 2, out
    assert any("[fabricated] not cited:" in line for line in out), out
    store: citestore.Store = scope["store"]
    assert store.path == "citestore.db"
    assert [c["caller_id"] for c in scope["ctx"].chunks] == ["guide-3", "guide-7"]

    # OpenAI: the schema in its shape, the whole response cited.
    exec(dedent(BLOCKS[1]), scope)
    [claim] = scope["result"].claims
    assert claim["evidence"][0]["verdict"] == "exact"
    assert claim["evidence"][0]["chunk_id"] == scope["ctx"].chunks[1]["chunk_id"]

    # The nightly job after an edit: a paragraph inserted at the top, one cited chunk deleted.
    cited = scope["ctx"].chunks
    edited = "A new introduction.\n\n" + GUIDE.replace(cited[1]["text"], "")
    (tmp_path / "guide.md").write_text(edited, encoding="utf-8")
    exec(dedent(BLOCKS[2]), scope)
    out = capsys.readouterr().out.splitlines()
    summary = scope["summary"]
    assert summary["errors"] == [] and summary["reanchored_documents"] == 1
    # Two citations were of the deleted chunk (one from Anthropic, one from OpenAI).
    assert summary["status"] == {"lost": 2, "moved": 1}
    assert out[0] == str(summary["status"])
    moves = sorted((p[1], p[2], p[3]) for p in (line.split(" ") for line in out[1:4]))
    assert moves == [("intact", "->", "lost")] * 2 + [("intact", "->", "moved")]
    assert sum(line.startswith("lost: c-") for line in out) == 2  # a quote may hold a newline
    assert (
        scope["store"]
        .context(chunks=["guide-v2-0"])
        .chunks[0]["text"]
        .startswith("A new introduction.")
    )


def test_the_readme_quick_start_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    [block] = re.findall(r"```python\n(.*?)```", QUICK_START, re.S)
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    monkeypatch.chdir(tmp_path)
    scope: Dict[str, Any] = {}
    exec(block, scope)
    out = capsys.readouterr().out.splitlines()
    # The CLI quick start's citations and changes (README, "Quick start: the command line").
    assert scope["ctx"].id == "ctx-504cd163e2ad"
    assert out[:4] == [
        "c-221cc4b4ae2a exact rate-card.md@r1#0-105 73 102",
        "c-22e7f97c762d fuzzy rate-card.md@r1#105-201 105 172",
        "c-a29683dbfb0b review rate-card.md@r1#201-348 261 333",
        "c-5db959fd9b5f repaired plans.md@r1#29-166 84 119",
    ]
    assert out[4] == "{'degraded': 1, 'lost': 1, 'moved': 2}"
    assert sorted(out[5:]) == [
        "c-221cc4b4ae2a intact -> moved",
        "c-22e7f97c762d intact -> degraded",
        "c-5db959fd9b5f intact -> moved",
        "c-a29683dbfb0b intact -> lost",
    ]
    assert scope["tool"] == citestore.schema("anthropic")


def test_the_citations_api_and_other_sentences(
    model: Messages, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = citestore.Store("cs.db")
    store.ingest_text("guide.md", GUIDE, chunker="paragraph:1500")
    ctx = store.context(docs=["guide.md"])
    assert len(ctx.chunks) > 5 and ctx.chunks[0]["caller_id"] is None
    client = sys.modules["anthropic"].Anthropic()
    documents = [
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": c["text"]},
            "citations": {"enabled": True},
        }
        for c in ctx.chunks
    ]
    message = client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": documents + [{"type": "text", "text": "Question?"}]}],
    )
    result = store.import_anthropic(ctx, message)  # the SDK's object, as it comes
    assert result.claims[0]["evidence"][0]["verdict"] == "exact"
    assert result.claims[0]["evidence"][0]["chunk_id"] == ctx.chunks[1]["chunk_id"]
    # Citing again (here as JSON text) stores nothing.
    again = store.import_anthropic(ctx, json.dumps(message.model_dump()))
    assert again.already_recorded and again.citations == result.citations
    assert citestore.locate(ctx.chunks[0]["text"], "nothing like it at all, zebra quartz") is None
    # The document sent whole: document_index 0 is guide.md, offsets into its text.
    whole = {
        "content": [
            {
                "type": "text",
                "text": "Whole.",
                "citations": [
                    {
                        "type": "char_location",
                        "document_index": 0,
                        "cited_text": GUIDE[200:260],
                        "start_char_index": 200,
                        "end_char_index": 260,
                    }
                ],
            }
        ]
    }
    sent_whole = store.import_anthropic(ctx, whole, sent="documents")
    ev = sent_whole.claims[0]["evidence"][0]
    assert ev["verdict"] == "exact" and GUIDE[ev["start"] : ev["end"]] == ev["text"]
    with pytest.raises(citestore.BadInput, match="expected chunks or documents"):
        store.import_anthropic(ctx, whole, sent="pages")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # ingest(path, chunker=…) and a configured chunker.
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("One.\n\nTwo.\n", encoding="utf-8")
    chunking = store.ingest(tmp_path / "docs", chunker="chars:100:0")["documents"][0]["chunking"]
    assert chunking is not None and chunking["spec"] == "chars:100:0"
    (tmp_path / "citestore.toml").write_text('[chunker]\nspec = "chars:50:0"\n', encoding="utf-8")
    configured = citestore.Store("cs.db", config=tmp_path / "citestore.toml")
    configured.ingest_text("b.md", "Alpha.\n\nBeta.\n", chunks=[{"start": 0, "end": 6}])
    chunking = configured.ingest_text("b.md", "Alpha.\n\nBeta gamma.\n")["chunking"]
    assert chunking is not None and chunking["spec"] == "chars:50:0"
    cited = [c["citation"] for c in result.citations + sent_whole.citations]
    assert [line["id"] for line in store.export()] == cited


def test_type_stubs_ship_with_the_package() -> None:
    package = Path(citestore.__file__).parent
    assert (package / "py.typed").is_file() and (package / "_native.pyi").is_file()
    for name in citestore.__all__:
        obj = getattr(citestore, name)
        if callable(obj):
            assert obj.__doc__, name

"""Every dict the package returns, checked against its type in ``citestore._types`` by a runtime
type checker (typeguard): every required key present, no key left over, every ``Literal`` one of
its names, every item of every list and every key of every count checked.

One store is built through the real package and the real CLI binary (the bundled citing example,
caller chunks, a Citations API import, an AI SDK response's import, verification by a Python
judge, a new revision, a sweep, a sharded sweep, a report, a retirement, a copy), keeping each
return by name; each is then checked
on its own, and a second test says the flow reached every key that is only sometimes there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable, Dict, List, Optional, TypeVar

import pytest
from conftest import NOW, ROOT, Cli, example_answer
from typeguard import CollectionCheckStrategy, TypeCheckError, check_type

import citestore
from citestore import _types as t

T = TypeVar("T")

# What each return must be, by the name the flow keeps it under.
EXPECTED: Dict[str, object] = {
    "init": t.InitResult,
    "ingest": t.IngestReport,
    "ingest_text": t.IngestResult,
    "ingest_text with caller chunks": t.IngestResult,
    "docs": List[t.DocInfo],
    "chunks": t.ChunksResult,
    "chunks of caller chunks": t.ChunksResult,
    "context": t.ContextResult,
    "context chunks": List[t.ContextChunk],
    "cite": t.CiteOutput,
    "cite again": t.CiteOutput,
    "cite citations": List[t.Evidence],
    "import_anthropic": t.CiteOutput,
    "import_response": t.CiteOutput,
    "import_response again": t.CiteOutput,
    "judge requests": List[t.JudgeRequest],
    "verify": t.VerifyResult,
    "verify without a judge": t.VerifyResult,
    "calibrate": t.CalibrationResult,
    "citations before the sweep": List[t.CitationLine],
    "sweep": t.SweepSummary,
    "health": t.HealthResult,
    "health by doc": t.HealthResult,
    "changes": List[t.Change],
    "changes since 0": List[t.Change],
    "citations": List[t.CitationLine],
    "export": List[t.ExportLine],
    "export w3c": List[t.W3CAnnotation],
    "export w3c utf16": List[t.W3CAnnotation],
    "show": List[t.ShowResult],
    "citation": List[t.Citation],
    "report": t.ReportResult,
    "sharded sweep (CLI)": t.SweepSummary,
    "health of sharded sweeps": t.HealthResult,
    "chunk": t.ChunkResult,
    "retire": t.RetireResult,
    "health with a retired document": t.HealthResult,
    "migrate": t.MigrateResult,
    "check": t.CheckResult,
    "sweep with a full check": t.SweepSummary,
    "incomplete sweep": t.SweepSummary,
    "locate": t.LocateResult,
    "locate review": t.LocateResult,
}


def check(value: object, expected: object) -> None:
    """Raises TypeCheckError unless ``value`` is an ``expected``, every item of every list and
    dict checked (typeguard's default checks only the first)."""
    check_type(value, expected, collection_check_strategy=CollectionCheckStrategy.ALL_ITEMS)


def need(value: Optional[T]) -> T:
    """The value an earlier step made, else the error that step's own test reports."""
    if value is None:
        raise RuntimeError("an earlier step of the flow failed; see its own test")
    return value


class Flow:
    """Runs steps in order, keeping each return (or the exception it raised) by name."""

    def __init__(self) -> None:
        self.got: Dict[str, object] = {}

    def step(self, name: str, make: Callable[[], T]) -> Optional[T]:
        assert name in EXPECTED, name
        try:
            value = make()
        except Exception as err:  # reported by this name's test, not by every test after it
            self.got[name] = err
            return None
        self.got[name] = value
        return value


def judge(request: t.JudgeRequest) -> t.Judgement:
    """A judge that finds every claim supported, keeping what it was asked."""
    JUDGE_REQUESTS.append(request)
    return {"relation": "supports", "confidence": 0.9}


JUDGE_REQUESTS: List[t.JudgeRequest] = []

LABELS: List[t.LabelledExample] = [
    {"claim": "The sky is blue.", "premise": "The sky is blue today.", "label": "supports"},
    {"claim": "The sky is green.", "premise": "The sky is blue today.", "label": "contradicts"},
]

NOTES = "Alpha paragraph about caching.\n\nBeta paragraph about retries.\n\nGamma closes.\n"


def build(tmp: Path) -> Dict[str, object]:
    """The flow: every method the package has, on the bundled example, each return kept."""
    flow = Flow()
    docs = tmp / "docs"
    shutil.copytree(ROOT / "fixtures" / "cite" / "docs", docs)
    (docs / "empty.md").write_text("", encoding="utf-8")  # skipped by the folder walk
    db = tmp / "types.db"
    store = citestore.Store(db)
    flow.step("init", lambda: store.init())
    flow.step("ingest", lambda: store.ingest(docs, chunker="paragraph:150"))
    flow.step("ingest_text", lambda: store.ingest_text("plain.md", NOTES, chunker="chars:40:0"))
    caller: List[t.CallerChunk] = [
        {"start": 0, "end": 30, "id": "notes-0"},
        {"start": 32, "end": 61, "id": "notes-1", "text": NOTES[32:61]},
        {"start": 63, "end": len(NOTES) - 1},
    ]
    flow.step(
        "ingest_text with caller chunks",
        lambda: store.ingest_text("notes.md", NOTES, chunks=caller),
    )
    flow.step("docs", lambda: store.docs())
    flow.step("chunks", lambda: store.chunks("rate-card.md"))
    flow.step("chunks of caller chunks", lambda: store.chunks("notes.md", revision=1))

    ctx = flow.step("context", lambda: store.context(docs=["rate-card.md", "plans.md"]))
    if ctx is not None:
        flow.got["context"] = ctx.to_dict()
        flow.got["context chunks"] = ctx.chunks
    cited = flow.step("cite", lambda: store.cite(need(ctx), example_answer()))
    if cited is not None:
        flow.got["cite"] = cited.to_dict()
        flow.got["cite citations"] = cited.citations
    flow.step("cite again", lambda: store.cite(need(ctx), example_answer()).to_dict())
    response = json.loads(
        (ROOT / "fixtures" / "cite" / "anthropic-response.json").read_text(encoding="utf-8")
    )
    flow.step("import_anthropic", lambda: store.import_anthropic(need(ctx), response).to_dict())
    # A provider's cited answer (fixtures/providers), in a store of its own: the answer, answer
    # spans, an unquoted source's proposal, a web source.
    providers = citestore.Store(tmp / "providers.db")
    providers.ingest(ROOT / "fixtures" / "providers" / "docs", chunker="paragraph:2000")
    penguins = ["tall-penguins.txt", "penguin-habitats.txt", "animals.txt"]
    ai_sdk = json.loads(
        (ROOT / "fixtures" / "providers" / "ai-sdk" / "generate-text.json").read_text(
            encoding="utf-8"
        )
    )

    def imported() -> t.CiteOutput:
        ctx = providers.context(docs=penguins)
        return providers.import_response("ai-sdk", ctx, ai_sdk).to_dict()

    flow.step("import_response", imported)
    flow.step("import_response again", imported)
    flow.step("verify", lambda: store.verify(need(ctx), judge=judge))
    flow.got["judge requests"] = list(JUDGE_REQUESTS)
    flow.step("verify without a judge", lambda: store.verify(all=True))
    flow.step("calibrate", lambda: store.calibrate(LABELS, judge=judge))
    flow.step("citations before the sweep", lambda: list(store.citations()))

    # Version 2 of both documents: a sweep re-extracts them and re-anchors their citations.
    for name in ["rate-card.md", "plans.md"]:
        (docs / name).write_bytes((ROOT / "fixtures" / "demo" / "v2" / name).read_bytes())
    flow.step("sweep", lambda: store.sweep())
    flow.step("health", lambda: store.health())
    flow.step("health by doc", lambda: store.health(by_doc=True))
    flow.step("changes", lambda: list(store.changes()))
    flow.step("changes since 0", lambda: list(store.changes(since=0)))
    flow.step("citations", lambda: list(store.citations()))
    exported = flow.step("export", lambda: list(store.export()))
    flow.step("export w3c", lambda: list(store.export(format="w3c")))
    flow.step("export w3c utf16", lambda: list(store.export(format="w3c", utf16=True)))
    ids = [line["id"] for line in exported or []]
    flow.step("show", lambda: [store.show(i) for i in need(ids or None)])
    flow.step("citation", lambda: [store.citation(i) for i in need(ids or None)])
    flow.step("report", lambda: store.report(tmp / "report.html"))

    # A sharded run, swept by the CLI (the package sweeps whole stores): health shows it as one.
    cli = Cli(db, tmp)

    def sharded() -> object:
        outs = [
            cli.run("sweep", "--shard", shard, "--run", "nightly", "--json", check=False)
            for shard in ["1/2", "2/2"]
        ]
        for out in outs:
            assert out.returncode in (0, 1), out.stderr
        return json.loads(outs[0].stdout)

    flow.step("sharded sweep (CLI)", sharded)
    flow.step("health of sharded sweeps", lambda: store.health())

    flow.step("chunk", lambda: store.chunk("chars:200:0", docs=["plain.md"]))
    flow.step("retire", lambda: store.retire("plain.md"))
    flow.step("health with a retired document", lambda: store.health())
    flow.step("migrate", lambda: store.migrate(tmp / "copy.db"))
    flow.step("check", lambda: store.check())
    flow.step("sweep with a full check", lambda: store.sweep(full_check=True))

    # A document whose new text cannot be read: the sweep raises, with its summary.
    broken = citestore.Store(tmp / "broken.db")
    (tmp / "broken").mkdir()
    (tmp / "broken" / "a.md").write_text("A paragraph.\n", encoding="utf-8")
    broken.ingest(tmp / "broken")
    (tmp / "broken" / "a.md").write_bytes(b"\xff\xfe\x00 not text")

    def incomplete() -> object:
        with pytest.raises(citestore.SweepIncomplete) as err:
            broken.sweep()
        return err.value.summary

    flow.step("incomplete sweep", incomplete)

    chunk = "Growth: included 500,000 calls/mo; overage $0.12 per 1,000 calls."
    flow.step("locate", lambda: citestore.locate(chunk, "overage $0.12 per 1,000 calls"))
    flow.step("locate review", lambda: citestore.locate(chunk, "overage $0.13 per 1,000 calls"))
    return flow.got


@pytest.fixture(scope="module")
def returns(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, object]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CITESTORE_NOW", NOW)
        return build(tmp_path_factory.mktemp("types"))


@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_return_has_its_type(returns: Dict[str, object], name: str) -> None:
    value = returns[name]
    if isinstance(value, BaseException):
        raise value
    if isinstance(value, list):
        assert value, f"{name}: an empty list checks nothing"
    check(value, EXPECTED[name])


def keys(items: object) -> List[str]:
    """Every key of every dict in ``items`` (a dict, or a list of them), nested ones too."""
    found: List[str] = []
    if isinstance(items, dict):
        for key, value in items.items():
            found.append(str(key))
            found.extend(keys(value))
    elif isinstance(items, list):
        for item in items:
            found.extend(keys(item))
    return found


@pytest.mark.parametrize(
    "name, key",
    [
        ("ingest", "skipped"),
        ("import_anthropic", "location"),
        ("import_anthropic", "external"),
        ("import_response", "answer"),
        ("import_response", "answer_span"),
        ("import_response", "proposal"),
        ("import_response", "external"),
        ("import_response again", "proposal"),
        ("export", "last_known"),
        ("export w3c", "citestore:lost"),
        ("export w3c utf16", "citestore:utf16Start"),
        ("show", "api_location"),
        ("show", "judge"),  # a verification row
        ("sharded sweep (CLI)", "shard"),
        ("health of sharded sweeps", "runs"),
        ("health of sharded sweeps", "shard"),
        ("locate review", "reason"),
        ("incomplete sweep", "error"),
    ],
)
def test_the_flow_reaches_each_key_only_sometimes_there(
    returns: Dict[str, object], name: str, key: str
) -> None:
    value = returns[name]
    if isinstance(value, BaseException):
        raise value
    assert key in keys(value), f"{name} never has {key!r}: the check above did not see it"


def test_the_flow_reaches_the_values_only_sometimes_there(returns: Dict[str, object]) -> None:
    """``None`` and the rarer names, so the checks above saw them too."""
    cite = returns["cite"]
    assert isinstance(cite, dict)
    verdicts = {ev["verdict"] for claim in cite["claims"] for ev in claim["evidence"]}
    assert verdicts == {
        "exact",
        "fuzzy",
        "review",
        "repaired",
        "ambiguous",
        "fabricated",
        "unknown-chunk",
    }
    assert any(claim["uncited"] for claim in cite["claims"])
    citations = returns["citations"]
    assert isinstance(citations, list)
    assert {line["status"] for line in citations} >= {"moved", "degraded", "lost"}
    assert any(line["current"] is None for line in citations)
    caller = returns["chunks of caller chunks"]
    assert isinstance(caller, dict)
    assert [c["caller_id"] for c in caller["chunks"]] == ["notes-0", "notes-1", None]
    retired = returns["health with a retired document"]
    assert isinstance(retired, dict) and retired["retired"]["documents"] == ["plain.md"]


# The checker itself: what it must reject ------------------------------------------------------

INIT: t.InitResult = {"db": "x.db", "schema_version": 3}
CHANGE_END: t.ChangeEnd = {"status": "moved", "revision": 2, "start": 0, "end": 5}
CURRENT: t.Current = {
    "revision": 2,
    "start": 0,
    "end": 5,
    "chunk_id": None,
    "score": 100,
    "method": "cited",
    "reason": None,
}


def test_the_checker_accepts_the_good_shapes() -> None:
    check(INIT, t.InitResult)
    check(CHANGE_END, t.ChangeEnd)
    check(CURRENT, t.Current)
    check([CURRENT, CURRENT], List[t.Current])
    check({"intact": 2, "lost": 1}, t.StatusCounts)


@pytest.mark.parametrize(
    "value, expected",
    [
        ({"db": "x.db", "schema_versoin": 3}, t.InitResult),  # a misspelt key
        ({"db": "x.db"}, t.InitResult),  # a key missing
        ({**INIT, "extra": 1}, t.InitResult),  # a key left over
        ({**INIT, "schema_version": "3"}, t.InitResult),  # a value of another type
        ({**CHANGE_END, "status": "broken"}, t.ChangeEnd),  # a status outside the Literal
        ({**CURRENT, "method": "guessed"}, t.Current),  # a method outside the Literal
        ({**CURRENT, "chunk_id": 7}, t.Current),  # not Optional[str]
        ([CURRENT, {**CURRENT, "method": "guessed"}], List[t.Current]),  # not the first item
        ({"intact": 2, "lots": 1}, t.StatusCounts),  # a count under no status
    ],
)
def test_the_checker_rejects(value: object, expected: object) -> None:
    with pytest.raises(TypeCheckError):
        check(value, expected)

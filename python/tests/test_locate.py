"""``citestore.locate`` with the CLI's position hints, and ``citestore.locate_many``: the same
results as the real binary's ``locate --json`` (hints choose the same occurrence, with the same
``hints`` object), ``near`` a ``str`` index however much non-ASCII text comes before it, a batch
equal to its quotes located one by one, and a bad pair named by its index."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest
from conftest import ROOT, Cli

import citestore

HINT_KEYS = ("prefix", "suffix", "near")


def read_jsonl(path: Path) -> List[Dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


HINT_CASES = read_jsonl(ROOT / "fixtures" / "hints" / "cases.jsonl")
VECTORS = read_jsonl(ROOT / "fixtures" / "vectors" / "locate.jsonl")


def hints_of(case: Dict[str, Any]) -> Dict[str, Any]:
    return {key: case[key] for key in HINT_KEYS if key in case}


def cli_locate(cli: Cli, tmp_path: Path, chunk: str, quote: str, **hints: Any) -> Any:
    """The binary's ``locate --json`` for one quote, its hints as ``--prefix``/``--suffix``/
    ``--near`` (``null`` when there is no span, its exit 1)."""
    path = tmp_path / "chunk.txt"
    path.write_text(chunk, encoding="utf-8")
    args = ["locate", "--chunk", str(path), "--quote", quote, "--json"]
    for key, value in hints.items():
        args += [f"--{key}", str(value)]
    out = cli.run(*args, check=False)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def test_the_hint_cases_choose_what_the_cli_chooses(cli: Cli, tmp_path: Path) -> None:
    """Each position-hint case of fixtures/hints, through the CLI's flags and through its
    ``--batch``, against the package: the same span, score and ``hints`` object."""
    batch = cli.run("locate", "--batch", str(ROOT / "fixtures" / "hints" / "cases.jsonl"))
    from_batch = [json.loads(line) for line in batch.stdout.splitlines()]
    chose = []
    for case, cli_batch in zip(HINT_CASES, from_batch):
        hints = hints_of(case)
        got = citestore.locate(case["chunk"], case["quote"], **hints)
        assert got == cli_locate(cli, tmp_path, case["chunk"], case["quote"], **hints), case
        assert got == cli_batch, case
        assert got is not None and got["start"] == case["expected_start"], case
        chose.append("hints" in got)
        if "hints" in got:
            assert got["hints"]["tied"] == case["expected_tied"], case
    # Most cases have a choice to make; the last one's empty hints choose nothing.
    assert sum(chose) >= 10 and not chose[-1]


def test_without_a_choice_there_is_no_hints_object(cli: Cli, tmp_path: Path) -> None:
    chunk = "The Growth plan includes 500,000 calls. Overage is billed monthly."
    cases: List[Tuple[str, Dict[str, Any]]] = [
        ("Overage is billed", {"prefix": "calls. "}),  # one occurrence
        ("Overage is billed", {}),  # no hints
        ("nothing like it at all, zebra quartz", {"near": 3}),  # no span
    ]
    for quote, hints in cases:
        got = citestore.locate(chunk, quote, **hints)
        assert got == cli_locate(cli, tmp_path, chunk, quote, **hints)
        assert got is None or "hints" not in got


def test_near_is_a_str_index_after_non_ascii_text(cli: Cli, tmp_path: Path) -> None:
    """Accents (2 UTF-8 bytes), a CJK word (3) and emoji (4 bytes, 2 UTF-16 units) before
    two copies of the quote: ``near`` and the offsets count code points, so the copy nearest
    ``near`` in the string is the one taken, as the CLI counts chars. Read as UTF-8 bytes or
    UTF-16 units, the same number would point nearer the other copy."""
    chunk = "Caf\u00e9 cr\u00e8me \u6771\u4eac \U0001f600\U0001f680 " * 6
    chunk += "one rate card, one rate card, and more text after it."
    quote = "one rate card"
    first, second = chunk.index(quote), chunk.rindex(quote)
    near = first + 2
    for wrong in (len(chunk[:near].encode("utf-8")), len(chunk[:near].encode("utf-16-le")) // 2):
        assert abs(wrong - second) < abs(wrong - first)
    got = citestore.locate(chunk, quote, near=near)
    assert got is not None
    assert (got["start"], got["end"]) == (first, first + len(quote))
    assert chunk[got["start"] : got["end"]] == got["text"] == quote
    assert got.get("hints") == {"candidates": 2, "chosen": 1, "agreement": 0.0, "tied": True}
    assert got == cli_locate(cli, tmp_path, chunk, quote, near=near)
    # Near the second copy, and a quote found only after folding (a curly apostrophe, an
    # uppercase letter): hints choose among the folded text's occurrences too.
    got = citestore.locate(chunk, "One rate card\u2019", near=second)
    assert got == cli_locate(cli, tmp_path, chunk, "One rate card\u2019", near=second)
    assert got is not None and got["start"] == second and got["how"] != "exact"


def test_a_negative_near_is_bad_input() -> None:
    with pytest.raises(citestore.BadInput, match=r"^near=-1: give a str index"):
        citestore.locate("abc abc", "abc", near=-1)


def pairs_of(cases: List[Dict[str, Any]]) -> List[Tuple[str, str]]:
    return [(case["chunk"], case["quote"]) for case in cases]


def one_by_one(pairs: List[Any]) -> List[Optional[citestore.LocateResult]]:
    out: List[Optional[citestore.LocateResult]] = []
    for pair in pairs:
        if isinstance(pair, tuple):
            out.append(citestore.locate(*pair))
        else:
            out.append(citestore.locate(pair["chunk"], pair["quote"], **hints_of(pair)))
    return out


def test_locate_many_equals_locate_one_by_one_over_the_vectors() -> None:
    pairs: List[Any] = pairs_of(VECTORS)
    got = citestore.locate_many(pairs)
    assert got == one_by_one(pairs)
    assert sum(r is None for r in got) > 50 and {r["how"] for r in got if r} >= {
        "exact",
        "fuzzy",
        "review",
    }
    # Dicts with hints, and runs of pairs sharing a chunk (folded once for the run).
    mixed: List[Any] = []
    for i, case in enumerate(VECTORS):
        chunk, quote = case["chunk"], case["quote"]
        mixed.append({"chunk": chunk, "quote": quote, "near": (i * 37) % len(chunk)})
        mixed.append((chunk, chunk[len(chunk) // 3 : len(chunk) // 3 + 12].strip() or "x"))
        mixed.append({"chunk": chunk, "quote": "the", "prefix": " ", "suffix": None})
    got = citestore.locate_many(mixed, accept=90.0, review=80.0, meaning_guard=False)
    want = [
        citestore.locate(
            p["chunk"] if isinstance(p, dict) else p[0],
            p["quote"] if isinstance(p, dict) else p[1],
            **(hints_of(p) if isinstance(p, dict) else {}),
            accept=90.0,
            review=80.0,
            meaning_guard=False,
        )
        for p in mixed
    ]
    assert got == want
    assert any(r is not None and "hints" in r for r in got)
    # A small batch (under the size worth releasing the GIL for) and an empty one.
    assert citestore.locate_many(pairs[:5]) == one_by_one(pairs[:5])
    assert citestore.locate_many([]) == []
    assert citestore.locate_many(iter(pairs[:3])) == one_by_one(pairs[:3])


def test_a_blank_quote_in_a_batch_is_bad_input_naming_its_index() -> None:
    pairs: List[Any] = pairs_of(VECTORS[:5])
    pairs[3] = (pairs[3][0], " \u00ad\u200b\n")
    with pytest.raises(citestore.BadInput) as err:
        citestore.locate_many(pairs)
    assert str(err.value) == (
        "pairs[3]: the quote is empty or has no visible characters; give the words the model quoted"
    )


@pytest.mark.parametrize(
    "bad, message",
    [
        (42, "pairs[1]: a int, not a (chunk, quote) tuple or a dict"),
        (("a", "b", "c"), "pairs[1]: a tuple of 3 items; give (chunk, quote) or a dict"),
        ({"chunk": "abc"}, 'pairs[1]: no "quote"; give {"chunk": ..., "quote": ...}'),
        (("abc", b"abc"), "pairs[1]: quote is a bytes, not a str"),
        ({"chunk": "abc", "quote": "b", "near": -2}, "pairs[1]: near=-2: give a str index"),
        ({"chunk": "abc", "quote": "b", "near": "2"}, "pairs[1]: near is a str, not an int"),
        ({"chunk": "abc", "quote": ""}, "pairs[1]: the quote is empty"),
    ],
)
def test_a_pair_of_another_shape_is_bad_input_naming_its_index(bad: Any, message: str) -> None:
    with pytest.raises(citestore.BadInput) as err:
        citestore.locate_many([("abc", "b"), bad, ("abc", "c")])
    assert str(err.value).startswith(message), str(err.value)


def test_bad_cut_offs_are_refused_for_a_batch_as_for_one_quote() -> None:
    for accept, review in [(80.0, 90.0), (101.0, 85.0)]:
        with pytest.raises(citestore.BadInput) as one:
            citestore.locate("abc", "b", accept=accept, review=review)
        with pytest.raises(citestore.BadInput) as many:
            citestore.locate_many([("abc", "b")], accept=accept, review=review)
        assert str(one.value) == str(many.value)


def test_a_large_batch_releases_the_gil() -> None:
    done = threading.Event()
    counted = [0]

    def count() -> None:  # pure Python: it only runs while no thread holds the GIL
        while not done.is_set():
            counted[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    pairs = pairs_of(VECTORS) * 3
    at_start = counted[0]
    got = citestore.locate_many(pairs)
    during = counted[0] - at_start
    done.set()
    counter.join()
    assert len(got) == len(pairs)
    assert during > 1000, f"the counter ran {during} times during the batch"

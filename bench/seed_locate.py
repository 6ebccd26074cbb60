"""The seed's reference locator (seed 001), verbatim but for the restored _DROP set.

Used as the oracle and the speed baseline for `citestore locate`; see bench/README.md.
"""
import re
import unicodedata

from rapidfuzz import fuzz

_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}
_DASHES = {"\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"}
_DROP = {"\u00ad", "\u200b", "\ufeff"}  # soft hyphen, ZWSP, BOM


def _fold(ch: str) -> str:
    if ch in _DROP:
        return ""
    if ch in _DASHES:
        return "-"
    if ch in _QUOTES:
        return _QUOTES[ch]
    folded = unicodedata.normalize("NFKC", ch).casefold()
    return " " if folded.isspace() else folded


def normalise_with_map(raw: str) -> tuple[str, list[int]]:
    out: list[str] = []
    back: list[int] = []
    prev_space = False
    for i, ch in enumerate(raw):
        for c in _fold(ch):
            if c == " ":
                if prev_space:
                    continue
                prev_space = True
            else:
                prev_space = False
            out.append(c)
            back.append(i)
    return "".join(out), back


ACCEPT, REVIEW = 95.0, 85.0


def locate(chunk_raw: str, quote: str) -> dict | None:
    hit = chunk_raw.find(quote)
    if hit >= 0:
        return {"start": hit, "end": hit + len(quote), "score": 100.0, "how": "exact"}

    hay, back = normalise_with_map(chunk_raw)
    needle, _ = normalise_with_map(quote)
    if not needle:
        return None

    al = fuzz.partial_ratio_alignment(needle, hay, score_cutoff=REVIEW)
    if al is None:
        return None

    start, end = back[al.dest_start], back[al.dest_end - 1] + 1
    span = chunk_raw[start:end]
    ratio = len(span) / max(len(quote), 1)
    if al.score < ACCEPT or not (0.85 <= ratio <= 1.20):
        return {"start": start, "end": end, "score": al.score, "how": "review"}
    return {"start": start, "end": end, "score": al.score, "how": "fuzzy"}

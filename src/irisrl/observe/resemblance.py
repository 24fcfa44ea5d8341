"""The last resort for an error-shaped line no rule and no vocabulary row names: the kind of the
labelled failure lines it shares the most distinctive words with.

The rules (observe/causes.py, exceptions.py, vocabulary.py) are written from the libraries'
sources and name most failures; what they miss on lines they never saw is a long tail of
wordings (a launcher's own "Failed to download chunk", a cloud's "not having enough capacity").
A nearest-neighbour vote over our labelled corpus (tests/fixtures/corpus: public pastes and lines
printed by current releases) names about half of those misses right (docs/REFERENCE.md Limits
says how that was measured). Such a name is a GUESS: reported with `"guessed": "resemblance"`,
fatal only once its process ended (like a vocabulary guess), and never given to a line a rule or
the vocabulary names.

How: a line is its set of words (3+ letters, camelCase split, lower case, plus 3-digit codes such
as 404 / 137); a word counts only if at least two corpus sources use it (no user names or paths),
weighted by its inverse document frequency. The K most similar corpus lines (cosine) vote with
their similarity. It names nothing when `benign` look-alikes win, when the best similarity is under
MIN_SIMILARITY, when the winner holds less than MIN_SHARE of the vote (neighbours of mixed kinds),
or when the line shares fewer than MIN_SHARED distinctive words with the winning lines. The table (data/resemblance.json) is built by scripts/build_resemblance.py from
the corpus files it lists with their sha256 (tests/unit/test_resemblance.py rebuilds it);
a corpus file added later stays out of it until it is rebuilt, so a fresh held-out set can be
measured before it is learned from. Stdlib only."""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "resemblance.json"
K = 9                       # neighbours that vote (leave-one-file-out over the corpus: 5-9 best)
MIN_SIMILARITY = 0.2        # below it the nearest line shares too little to name anything
MIN_SOURCES = 2             # a word used by one source only is a name or a path, not vocabulary
MIN_SHARED = 2              # distinctive words the line must share with the winners ("happened" alone is chance)
MIN_SHARE = 0.7             # the winning kind's part of the vote: neighbours of mixed kinds agree on nothing
GENERIC_IDF = 1.1           # a word in over a third of the lines ("error") is not evidence of a kind
BENIGN = "benign"
_WORD = re.compile(r"[A-Za-z][A-Za-z]+|\b\d{3}\b")
_CAMEL = re.compile(r"([a-z])([A-Z])")
_STOP = frozenset("the and for with from this that was not are you your have has but will can use please".split())


def words(text: str) -> frozenset[str]:
    """The line's words as the table knows them."""
    split = _CAMEL.sub(r"\1 \2", text)
    return frozenset(w for w in (m.lower() for m in _WORD.findall(split)) if len(w) > 2 and w not in _STOP)


@dataclass(frozen=True)
class Guess:
    kind: str
    similarity: float                # cosine of the nearest labelled line, 0..1
    share: float                     # the winning kind's part of the neighbours' vote, 0..1
    shared: tuple[str, ...]          # the line's most distinctive words the winners share


@dataclass(frozen=True)
class Table:
    idf: dict[str, float]
    docs: tuple[tuple[str, dict[str, float]], ...]     # (kind, unit vector)
    postings: dict[str, tuple[int, ...]]                # word -> the docs that use it

    @classmethod
    def of(cls, vocab: dict[str, float], rows: Iterable[tuple[str, Iterable[str]]]) -> Table:
        docs = tuple((kind, _unit(ws, vocab)) for kind, ws in rows)
        postings: dict[str, list[int]] = defaultdict(list)
        for i, (_, vec) in enumerate(docs):
            for w in vec:
                postings[w].append(i)
        return cls(vocab, docs, {w: tuple(ix) for w, ix in postings.items()})


def _unit(ws: Iterable[str], idf: dict[str, float]) -> dict[str, float]:
    vec = {w: idf[w] for w in ws if w in idf}
    norm = math.sqrt(sum(x * x for x in vec.values())) or 1.0
    return {w: x / norm for w, x in vec.items()}


def nearest(text: str, table: Table | None = None) -> Guess | None:
    """The kind the line's nearest labelled lines vote for, or None (no table, too little in
    common, or look-alikes of benign lines win)."""
    table = table if table is not None else load()
    if table is None:
        return None
    query = _unit(words(text), table.idf)
    scores: dict[int, float] = defaultdict(float)
    for w, x in query.items():
        for i in table.postings.get(w, ()):
            scores[i] += x * table.docs[i][1][w]
    top = sorted(scores.items(), key=lambda item: -item[1])[:K]
    if not top or top[0][1] < MIN_SIMILARITY:
        return None
    votes: dict[str, float] = defaultdict(float)
    for i, sim in top:
        votes[table.docs[i][0]] += sim
    kind = max(votes, key=lambda k: votes[k])
    if kind == BENIGN:
        return None
    winners = [table.docs[i][1] for i, _ in top if table.docs[i][0] == kind]
    shared = sorted((w for w in query if table.idf[w] >= GENERIC_IDF and any(w in d for d in winners)),
                    key=lambda w: -query[w])
    share = votes[kind] / sum(votes.values())
    if len(shared) < MIN_SHARED or share < MIN_SHARE:
        return None
    return Guess(kind, round(top[0][1], 3), round(share, 3), tuple(shared[:4]))


@functools.cache
def load() -> Table | None:
    """The shipped table (None when it is missing or unreadable: then nothing is guessed)."""
    try:
        return from_json(json.loads(DATA.read_text()))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def from_json(raw: Any) -> Table:
    """A table from build()'s JSON (the shipped file, or one built in memory to measure)."""
    words = raw["words"]
    return Table.of(dict(zip(words, raw["idf"], strict=True)), ((kind, (words[i] for i in ix)) for kind, ix in raw["docs"]))


# ---- building the table (scripts/build_resemblance.py) -----------------------------------------
def build(files: dict[str, bytes]) -> dict[str, object]:
    """The table's JSON from corpus files (name -> JSONL bytes): every labelled line, its words,
    the words two or more sources use with their idf, and each file's sha256."""
    rows: list[tuple[str, frozenset[str], str]] = []
    for name in sorted(files):
        for raw in files[name].decode().splitlines():
            if raw.strip():
                entry = json.loads(raw)
                rows.append((entry["kind"], words(entry["line"]), f"{name}:{entry.get('source', '')}"))
    sources: dict[str, set[str]] = defaultdict(set)
    for _, ws, source in rows:
        for w in ws:
            sources[w].add(source)
    df = Counter(w for _, ws, _ in rows for w in ws)
    vocab = sorted(w for w in df if len(sources[w]) >= MIN_SOURCES)
    index = {w: i for i, w in enumerate(vocab)}
    return {
        "about": "built by scripts/build_resemblance.py; read by irisrl/observe/resemblance.py",
        "sources": {name: hashlib.sha256(files[name]).hexdigest() for name in sorted(files)},
        "words": vocab,
        "idf": [round(math.log((1 + len(rows)) / (1 + df[w])), 4) for w in vocab],
        "docs": [[kind, sorted(index[w] for w in ws if w in index)] for kind, ws, _ in rows],
    }

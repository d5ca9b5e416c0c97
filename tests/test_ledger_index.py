"""The requirement index finds the merge a full scan finds (issue 15: merging a statement into a
1,000-requirement ledger compared it with every requirement)."""

from __future__ import annotations

import random

from rcm_tui.core.heuristics import requirement_similarity
from rcm_tui.core.ledger import MERGE_THRESHOLD, _similar_requirement
from rcm_tui.core.ledger_index import index_of
from rcm_tui.core.models import Requirement, Session
from rcm_tui.eval import long_session

WORDS = ("Kafka", "Redis", "cache", "queue", "retries", "latency", "billing", "users", "export",
         "PostgreSQL", "backups", "encrypted", "daily", "logs", "kept", "audit", "EU", "region")
UNITS = ("ms", "days", "MB", "requests per second", "GB", "people")
ZH = ("消息必须保留7天", "日志保留30天", "团队有5人", "备份每天一次")


def _statement(rng: random.Random) -> str:
    words = rng.sample(WORDS, rng.randint(1, 6))
    if rng.random() < 0.5:
        words.insert(rng.randrange(len(words) + 1), f"{rng.choice((5, 7, 30, 100))} "
                     f"{rng.choice(UNITS)}")
    if rng.random() < 0.08:
        return rng.choice(ZH)
    if rng.random() < 0.03:
        return "ok"
    return "We need " + " ".join(words)


def _full_scan(session: Session, text: str) -> Requirement | None:
    best: tuple[float, Requirement] | None = None
    for req in session.requirements:
        score = requirement_similarity(text, req.text)
        if score >= MERGE_THRESHOLD and (best is None or score > best[0]):
            best = (score, req)
    return best[1] if best else None


def test_index_gives_the_merges_of_a_full_scan_on_random_ledgers() -> None:
    rng = random.Random(15)
    merges = 0
    for _ in range(6):
        session = Session()
        for number in range(120):
            text = _statement(rng)
            expected = _full_scan(session, text)
            assert _similar_requirement(session, text) is expected, text
            merges += expected is not None
            if expected is None or rng.random() < 0.3:
                session.requirements.append(
                    Requirement(id=f"R{number}", text=text, source_turn=number)
                )
            elif rng.random() < 0.3:
                expected.text = _statement(rng)  # edited in place: the index must follow
    assert merges > 50  # the random ledgers do merge, so the equality means something


def test_distinct_needs_are_looked_up_among_few_candidates() -> None:
    session = Session()
    for number in range(1, 1001):
        session.requirements.append(Requirement(
            id=f"R{number}", text=long_session.user_turn(number), source_turn=number))
    candidates = index_of(session.requirements).candidates(long_session.user_turn(1001))
    # None shares the need's subject, area and unit: none is worth scoring (it was ~70).
    assert candidates is not None and len(candidates) <= 3
    assert _similar_requirement(session, long_session.user_turn(1001)) is None
    restated = long_session.user_turn(500)
    assert _similar_requirement(session, restated) is session.requirements[499]


def test_a_rewound_ledger_is_indexed_afresh() -> None:
    session = Session()
    session.requirements = [Requirement(id="R1", text="Backups are kept 30 days", source_turn=1)]
    assert _similar_requirement(session, "backups kept 30 days") is session.requirements[0]
    session.requirements[:] = [Requirement(id="R1", text="Logs are encrypted", source_turn=1)]
    assert _similar_requirement(session, "backups kept 30 days") is None
    assert _similar_requirement(session, "logs encrypted") is session.requirements[0]

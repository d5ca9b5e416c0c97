"""Markdown and JSON exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rcm_tui import config, export
from rcm_tui.core.models import (
    Message,
    QualityRecord,
    RejectedOption,
    Session,
    StatusBlock,
    session_from_data,
)
from rcm_tui.export import to_json, to_markdown
from rcm_tui.store import SessionStore


@pytest.fixture
def rich_session(make_session) -> Session:
    session = make_session(turns=3, solidified=True)
    session.rejected.append(
        RejectedOption(
            id="X2", option="Write-through cache", reason="too slow", turn=3, reopened_turn=5
        )
    )
    session.status_blocks.append(StatusBlock(turn=3, conclusion="Redis with per-tenant TTL"))
    session.memory.trajectory = "narrowing down eviction policy"
    session.memory.open_questions.append("Which eviction policy?")
    session.metrics.bloat_ratio = 1.75
    session.metrics.first_answer_attempt_turn = 2
    return session


def section(markdown: str, title: str) -> str:
    start = markdown.index(f"## {title}")
    end = markdown.find("\n## ", start + 1)
    return markdown[start : end if end != -1 else None]


def test_markdown_header_and_solidified(rich_session: Session) -> None:
    md = to_markdown(rich_session)
    assert md.startswith(f"# {rich_session.title}\n")
    assert f"session `{rich_session.id}`" in md
    assert "3 turns" in md
    solid = section(md, "SOLIDIFIED")
    assert "(turn 3)" in solid
    assert "> Use Redis with per-tenant TTL." in solid


def test_markdown_decisions(rich_session: Session) -> None:
    decisions = section(to_markdown(rich_session), "Decisions")
    assert "**Current conclusion** (STATUS, turn 3): Redis with per-tenant TTL" in decisions
    assert "**Trajectory:** narrowing down eviction policy" in decisions
    assert "- **Memcached** — no persistence (turn 2, heuristic)" in decisions
    reopened = next(line for line in decisions.splitlines() if "Write-through" in line)
    assert "too slow" in reopened and "**reopened** at turn 5" in reopened
    memcached = next(line for line in decisions.splitlines() if "Memcached" in line)
    assert "reopened" not in memcached
    assert "- Which eviction policy?" in decisions


def test_markdown_requirements_table(rich_session: Session) -> None:
    table = section(to_markdown(rich_session), "Requirements")
    assert "| id | requirement | status | turn | confidence |" in table
    assert "| R1 | Responses must stay under 200 ms | pending | 1 | 0.70 |" in table
    # The pipe inside the text is escaped so the row keeps five columns.
    assert "| R2 | No new infrastructure \\| only Redis | confirmed | 1 | 0.70 |" in table


def test_markdown_transcript_in_order(rich_session: Session) -> None:
    md = to_markdown(rich_session)
    transcript = section(md, "Transcript")
    positions = [transcript.index(f"### Turn {n}") for n in (1, 2, 3)]
    assert positions == sorted(positions)
    turn2 = transcript[positions[1] : positions[2]]
    assert turn2.index("**User:**") < turn2.index("User message 2") < turn2.index("**Assistant:**")
    assert "Assistant answer 2: consider a TTL per tenant." in turn2
    assert "*quality 0.72 · judge heuristic*" in turn2


def test_markdown_shows_refinement_attempts(make_session) -> None:
    session = make_session(turns=1, quality=False)
    session.messages[-1].attempt = 2
    session.quality.append(
        QualityRecord(
            turn=1,
            clarity=1,
            completeness=1,
            assumptions=0,
            verbosity=0,
            premature_attempt=True,
            middle_turn_reference=1,
            requirement_tracking=1,
            overall=0.5,
            attempts=3,
            shown_attempt=2,
            readvocated_final=["Memcached"],
            issues=["proposed a rejected option"],
        )
    )
    transcript = section(to_markdown(session), "Transcript")
    assert "**Assistant (attempt 2):**" in transcript
    assert "showing attempt 2 of 3" in transcript
    assert "premature attempt" in transcript
    assert "re-advocated: Memcached" in transcript
    assert "*– proposed a rejected option*" in transcript


def test_markdown_quality_and_metrics(rich_session: Session) -> None:
    md = to_markdown(rich_session)
    quality = section(md, "Quality per turn")
    assert "| 3 | 0.73 | 0.80 | 0.70 | 0.20 | 0.30 | 0.60 | 0.90 | no | 1 |" in quality
    metrics = section(md, "Metrics")
    assert "- **Bloat ratio (last ÷ first):** 1.75 (moderate)" in metrics
    assert "- **Average quality:** 0.72" in metrics
    assert "- **Requirements:** 2 (1 confirmed, 1 pending)" in metrics
    assert "- **Rejected options:** 1 active, 1 reopened" in metrics
    assert "- **First full answer attempt:** turn 2" in metrics
    assert "- **Answer lengths:** 50, 60, 70" in metrics


@pytest.mark.parametrize(
    ("ratio", "label"),
    [
        (None, "not measured yet"),
        (1.2, "1.20 (minimal)"),
        (1.5, "1.50 (moderate)"),
        (2.0, "2.00 (significant)"),
    ],
)
def test_bloat_bands(ratio: float | None, label: str) -> None:
    assert export.bloat_label(ratio) == label


def test_markdown_of_an_empty_session() -> None:
    md = to_markdown(Session(title="Empty"))
    assert "No messages yet." in md
    assert "None recorded." in section(md, "Requirements")
    assert "SOLIDIFIED" not in md and "Quality per turn" not in md


def test_json_export_is_the_session_file(rich_session: Session, tmp_path: Path) -> None:
    sessions = SessionStore(tmp_path / "s")
    sessions.save(rich_session)
    exported = to_json(rich_session)
    assert exported.encode() == sessions.path_for(rich_session.id).read_bytes()
    assert exported.startswith('{\n  "schema_version": 1,')
    assert session_from_data(json.loads(exported)).dump() == rich_session.dump()


def test_exports_never_contain_api_keys(
    rich_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai_key = "sk-proj-EXPORTLEAKCHECK0123456789"
    anthropic_key = "sk-ant-api03-EXPORTLEAKCHECK987"
    monkeypatch.setenv("OPENAI_API_KEY", openai_key)
    monkeypatch.setenv("ANTHROPIC_API_KEY", anthropic_key)
    path = config.default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[providers.openai]\napi_key = "{openai_key}"\n')
    assert config.load_settings().settings.providers.openai.api_key == openai_key
    rich_session.messages.append(Message(role="user", content="unrelated", turn=4))
    for text in (to_markdown(rich_session), to_json(rich_session)):
        assert openai_key not in text and anthropic_key not in text
        assert "api_key" not in text
    # The exporter has no route to the settings at all.
    assert config not in vars(export).values()

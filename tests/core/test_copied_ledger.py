"""Replies that copy the ledger back (small models do): never shown, never scored as proposals;
and re-advocacy labels that claim only what happened."""

from __future__ import annotations

from rcm_tui.core import prompts
from rcm_tui.core.echo import copies_ledger, strip_copied_ledger
from rcm_tui.core.ledger_snapshot import LedgerSnapshot, RejectedItem, RequirementItem
from rcm_tui.core.llm import LLMRequest
from rcm_tui.core.models import Message, QualityRecord, Session
from rcm_tui.core.readvocacy_label import readvocacy_label
from rcm_tui.core.turn import Pipeline, PipelineSettings
from rcm_tui.eval.ab import ledger_copies_shown

from .fakes import ScriptedProvider

ASK = (
    "We are choosing a database for a payments ledger. It must handle 2,000 writes per second "
    "and we need strict ACID. Let's not use MongoDB, our compliance team wants SQL."
)
BLOCK = prompts.ledger_block(
    LedgerSnapshot(
        rejected=(RejectedItem("MongoDB", "our compliance team wants SQL"),),
        requirements=(RequirementItem("R1", "It must handle 2,000 writes per second"),),
    ),
    status_requested=False,
)
ANSWER = "PostgreSQL fits: strict ACID, SQL for compliance, and 2,000 writes per second is fine."


def copy_then(answer: str) -> object:
    """What SmolLM2-135M does: the ledger it was sent, the user's message, then maybe more."""

    def reply(request: LLMRequest) -> str:
        sent = next(m.content for m in request.messages if prompts.LEDGER_HEADER in m.content)
        block = sent[sent.index(prompts.LEDGER_HEADER) : sent.index("[/ledger]") + 9]
        return f"{block}\n\n{ASK} {answer}".strip()

    return reply


async def run(provider: ScriptedProvider, text: str = ASK) -> tuple[Session, object]:
    # A model big enough to be sent the ledger (the lean profile sends none), scored by the
    # heuristics alone; a weak reply is rewritten, a fair one is not.
    settings = PipelineSettings(profile="full", llm_analysis=False, llm_judge=False,
                                quality_threshold=0.5)
    pipeline = Pipeline(provider, provider, settings, emit=lambda _e: None)
    session = Session()
    session.messages.append(Message(role="user", content=text, turn=1))
    return session, await pipeline.run_turn(session, text)


def test_the_copied_block_and_the_repeated_message_are_cut_out() -> None:
    cut = strip_copied_ledger(f"{BLOCK}\n\n{ASK}\n{ANSWER}", [BLOCK], ASK)
    assert cut.copied and cut.text == ANSWER
    # On one line, as a model that drops the newlines writes it: nothing of its own is left.
    assert strip_copied_ledger(BLOCK.replace("\n", " ") + " " + ASK, [BLOCK], ASK).text == ""
    # A line cut short by max_tokens is still a copy.
    assert strip_copied_ledger(f"{ANSWER}\n- MongoDB (reason: our com", [BLOCK], ASK).text == ANSWER


def test_a_line_that_opens_with_a_copied_line_keeps_what_follows_and_paragraphs_stay() -> None:
    request = prompts.REFINE_INSTRUCTION.format(
        issues="- proposes MongoDB, which the user rejected", rejected="MongoDB"
    )
    reply = "Options:\n\n- proposes MongoDB, which the user rejected. PostgreSQL is ACID."
    assert strip_copied_ledger(reply, [request], ASK).text == "Options:\n\nPostgreSQL is ACID."


def test_a_reply_that_says_the_same_in_its_own_words_is_untouched() -> None:
    own = "MongoDB is out, as you said. For 2,000 writes per second PostgreSQL does well."
    cut = strip_copied_ledger(own, [BLOCK], ASK)
    assert not cut.copied and cut.text == own
    assert not copies_ledger(own, [BLOCK])
    assert copies_ledger(f"{own}\n- R1: It must handle 2,000 writes per second", [BLOCK])


async def test_a_copy_followed_by_an_answer_shows_the_answer_without_a_rewrite() -> None:
    provider = ScriptedProvider({"generation": [copy_then(ANSWER)]}, parallel_calls=False)
    session, outcome = await run(provider)

    assert outcome.reply == ANSWER  # type: ignore[attr-defined]
    assert [r.purpose for r in provider.log] == ["generation"]
    # The copied "- MongoDB (reason: …)" line is not read as a proposal of MongoDB.
    record = session.quality_for(1)
    assert record is not None and record.readvocated == []
    assert ledger_copies_shown(session) == 0
    # The inspector keeps what the model wrote.
    assert prompts.LEDGER_HEADER in session.calls[0].response


async def test_a_reply_that_was_only_the_copy_is_sampled_again() -> None:
    provider = ScriptedProvider(
        {"generation": [copy_then("")], "refinement": [ANSWER]}, parallel_calls=False
    )
    session, outcome = await run(provider)

    assert outcome.reply == ANSWER  # type: ignore[attr-defined]
    assert ledger_copies_shown(session) == 0
    record = session.quality_for(1)
    assert record is not None and (record.attempts, record.shown_attempt) == (2, 2)


def test_the_eval_counts_a_shown_reply_that_copies_the_ledger() -> None:
    session = Session()
    session.messages += [
        Message(role="user", content=ASK, turn=1, ledger_sent=BLOCK),
        Message(role="assistant", content="Sure.\n- R1: It must handle 2,000 writes per second",
                turn=1),
        Message(role="user", content="And backups?", turn=2),
        Message(role="assistant", content=ANSWER, turn=2),
    ]
    assert ledger_copies_shown(session) == 1


def record(final: list[str], proposed_in: dict[str, list[int]], attempts: int, shown: int
           ) -> QualityRecord:
    return QualityRecord(
        turn=2, clarity=1, completeness=1, assumptions=0, verbosity=0, premature_attempt=False,
        middle_turn_reference=1, requirement_tracking=1, overall=1,
        readvocated=list(proposed_in), readvocated_final=final, readvocated_in=proposed_in,
        attempts=attempts, shown_attempt=shown,
    )


def test_refined_away_only_when_an_earlier_attempt_proposed_it_and_the_shown_one_does_not() -> None:
    assert readvocacy_label(record([], {"MongoDB": [1]}, 2, 2)) == "MongoDB (refined away)"
    # The rewrite proposed it and was discarded: nothing was refined away.
    assert readvocacy_label(record([], {"MongoDB": [2]}, 2, 1)) == (
        "MongoDB (attempt 2 proposed it; attempt 1 shown)"
    )
    assert readvocacy_label(record(["MongoDB"], {"MongoDB": [1, 2]}, 2, 1)) == (
        "MongoDB (still in the shown reply: all 2 attempts proposed it)"
    )


async def test_a_turn_whose_every_attempt_only_copied_the_ledger_fails_instead_of_showing_it(
) -> None:
    copies = [copy_then("") for _ in range(4)]
    provider = ScriptedProvider({"generation": copies[:1], "refinement": copies[1:]},
                          parallel_calls=False)
    session, outcome = await run(provider)

    assert not outcome.ok  # type: ignore[attr-defined]
    assert "only copied the ledger back (4 attempts)" in outcome.error  # type: ignore[attr-defined]
    assert not [m for m in session.messages if m.role == "assistant"]


async def test_a_rewrite_that_copies_the_list_of_issues_shows_only_its_own_words() -> None:
    provider = ScriptedProvider(
        {
            "generation": ["MongoDB would be my pick for the ledger."],
            "refinement": ["- proposes MongoDB, which the user rejected\nPostgreSQL, then."],
        },
        parallel_calls=False,
    )
    session, outcome = await run(provider)

    assert outcome.reply == "PostgreSQL, then."  # type: ignore[attr-defined]
    record = session.quality_for(1)
    assert record is not None and record.readvocated_final == []
    assert readvocacy_label(record) == "MongoDB (refined away)"

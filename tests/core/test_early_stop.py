"""A small model's sample is stopped at the first sentence proposing a rejected option, and
resampled up to `max_refinement_attempts` times; the shown reply is always a whole one.

Measured on SmolLM2-135M (`rcm-tui eval`): a re-advocating sample usually proposes the option
in its first sentence, and was let run to its 160 tokens before the guard read it.
"""

from __future__ import annotations

from rcm_tui.core.events import PipelineEvent, ReplyDelta, ReplyShown, ReplyStarted, TurnFailed
from rcm_tui.core.llm import ProviderError
from rcm_tui.core.models import Message, Session
from rcm_tui.core.readvocacy_label import readvocacy_label
from rcm_tui.core.turn import Pipeline, PipelineSettings, TurnOutcome
from rcm_tui.core.turn.early_stop import ProposalWatch
from rcm_tui.providers.offline import scripted_reply

from .fakes import ScriptedProvider

REJECT = "Let's not use MongoDB, our compliance team wants SQL."
PROPOSES = (
    "MongoDB would be my pick for the ledger. It scales writes across shards, and its "
    "documents map well onto transfers, so every payment is one insert and one read."
)
CLEAN = "PostgreSQL: strict ACID, serializable transactions, and 2,000 writes a second is easy."


class SmallModel(ScriptedProvider):
    parameter_count: int = 135_000_000


def make(provider: ScriptedProvider, events: list[PipelineEvent], **settings: object) -> Pipeline:
    return Pipeline(provider, provider, PipelineSettings(**settings), emit=events.append)


async def turn(pipeline: Pipeline, session: Session, text: str, reply: str) -> TurnOutcome:
    session.messages.append(Message(role="user", content=text, turn=session.turn + 1))
    with scripted_reply(reply):
        return await pipeline.run_turn(session, text)


async def rejected_then(pipeline: Pipeline, reply: str) -> tuple[Session, TurnOutcome]:
    session = Session()
    await turn(pipeline, session, REJECT, "Understood: SQL it is.")
    return session, await turn(pipeline, session, "Which database then?", reply)


def streamed(events: list[PipelineEvent], turn_number: int, attempt: int) -> str:
    return "".join(
        e.text for e in events
        if isinstance(e, ReplyDelta) and e.turn == turn_number and e.attempt == attempt
    )


async def test_a_sample_proposing_a_rejected_option_stops_at_that_sentence() -> None:
    provider = SmallModel({"refinement": [CLEAN]}, parallel_calls=False)
    events: list[PipelineEvent] = []
    session, outcome = await rejected_then(make(provider, events), PROPOSES)

    # The first sample was cut after its first sentence: the rest never streamed.
    assert streamed(events, 2, 1).startswith("MongoDB would be my pick for the ledger.")
    assert "shards" not in streamed(events, 2, 1)
    assert provider.events.count("end:generation") == 1  # the first turn's; not the second's
    stopped = next(c for c in session.calls if c.turn == 2 and c.attempt == 1)
    assert "stopped at a sentence proposing MongoDB" in stopped.note
    assert stopped.completion_tokens > 0  # its cost is counted, estimated
    # The user sees the whole second sample, and the label says what happened.
    assert outcome.reply == CLEAN
    record = session.quality_for(2)
    assert record is not None and record.attempts == 2 and record.shown_attempt == 2
    assert readvocacy_label(record) == "MongoDB (refined away)"


async def test_the_cut_draft_leaves_the_screen_before_the_next_one_streams() -> None:
    provider = SmallModel({"refinement": [CLEAN]}, parallel_calls=False)
    events: list[PipelineEvent] = []
    await rejected_then(make(provider, events), PROPOSES)

    second = [e for e in events if getattr(e, "turn", None) == 2]
    kinds = [(type(e).__name__, getattr(e, "attempt", None)) for e in second
             if isinstance(e, ReplyStarted | ReplyShown)]
    # ReplyStarted clears the chat's draft (ui/screens/turn_view.py): attempt 2 replaces the
    # cut attempt 1 at once, and what stays shown is attempt 2, whole.
    assert kinds == [("ReplyStarted", 1), ("ReplyStarted", 2), ("ReplyShown", 2)]
    shown = [e for e in second if isinstance(e, ReplyShown)]
    assert [e.text for e in shown] == [CLEAN]


async def test_samples_are_drawn_up_to_the_limit_and_the_last_runs_whole() -> None:
    provider = SmallModel({"refinement": [PROPOSES, PROPOSES, PROPOSES]}, parallel_calls=False)
    events: list[PipelineEvent] = []
    session, outcome = await rejected_then(
        make(provider, events, max_refinement_attempts=3), PROPOSES
    )

    record = session.quality_for(2)
    assert record is not None
    # Independent samples: a fourth could have been clean, so it was drawn.
    assert record.attempts == 4 and record.shown_attempt == 4
    # Three cut short; the last allowed one was never stopped, so the shown reply is whole.
    notes = [c.note for c in session.calls if c.turn == 2]
    assert sum("stopped at a sentence" in n for n in notes) == 3
    assert outcome.reply == PROPOSES
    assert readvocacy_label(record) == (
        "MongoDB (still in the shown reply: all 4 attempts proposed it)"
    )


async def test_a_turn_whose_last_attempt_fails_after_cut_ones_fails_rather_than_show_a_cut_draft(
) -> None:
    provider = SmallModel(
        {"refinement": [PROPOSES, ProviderError("the local model failed: boom")]},
        parallel_calls=False,
    )
    events: list[PipelineEvent] = []
    session, outcome = await rejected_then(
        make(provider, events, max_refinement_attempts=2), PROPOSES
    )

    assert not outcome.ok
    assert any(isinstance(e, TurnFailed) and e.turn == 2 for e in events)
    assert [m.content for m in session.messages if m.turn == 2] == ["Which database then?"]
    assert not any(isinstance(e, ReplyShown) and e.turn == 2 for e in events)


async def test_a_mention_as_rejected_is_not_stopped() -> None:
    reply = "MongoDB is ruled out by compliance. PostgreSQL gives you strict ACID instead."
    provider = SmallModel(parallel_calls=False)
    events: list[PipelineEvent] = []
    session, outcome = await rejected_then(make(provider, events), reply)

    assert outcome.reply == reply
    assert [c.purpose for c in session.calls if c.turn == 2] == ["generation"]
    assert not any("stopped" in c.note for c in session.calls)


async def test_the_full_profile_lets_a_draft_finish_for_its_rewrite() -> None:
    provider = SmallModel({"refinement": [CLEAN]}, parallel_calls=False)
    events: list[PipelineEvent] = []
    session, _outcome = await rejected_then(
        make(provider, events, profile="full", llm_analysis=False, llm_judge=False), PROPOSES
    )

    # A rewrite request quotes the whole draft: it must not be cut.
    assert "shards" in streamed(events, 2, 1)
    assert not any("stopped" in c.note for c in session.calls)


def test_the_watch_reads_completed_sentences_only() -> None:
    watch = ProposalWatch(["MongoDB"], lambda text: text)
    pieces = ["Mongo", "DB would be my", " pick", ".", " It scales"]
    fed = [watch.feed(p) for p in pieces]
    # "…my pick." is complete only once the space after its full stop arrives.
    assert fed == [False, False, False, False, True]
    assert watch.proposed == ["MongoDB"]
    assert watch.kept == "MongoDB would be my pick."


async def test_the_checklist_is_sent_again_only_when_it_changed() -> None:
    provider = SmallModel(parallel_calls=False)
    pipeline = make(provider, [])
    session = Session()
    await turn(pipeline, session, "We need an audit log of every transfer.", "Noted.")
    await turn(pipeline, session, "How do we model accounts?", "One table per account.")
    await turn(pipeline, session, "And the indexes?", "An index on account_id.")
    sent = [r.messages[-1].content for r in provider.log if r.purpose == "generation"]
    # Turn 2 carries the open need; turn 3 would carry the very same list: it is in the
    # history already, and each repeat cost prompt tokens and seconds of time to first token.
    assert sent[1].endswith("- We need an audit log of every transfer")
    assert sent[2] == "And the indexes?"


async def test_among_equally_good_attempts_the_latest_is_shown() -> None:
    same = "PostgreSQL with one table per account and an index on account_id."
    provider = SmallModel({"refinement": [same]}, parallel_calls=False)
    events: list[PipelineEvent] = []
    pipeline = make(provider, events)
    session = Session()
    await turn(pipeline, session, "How do we model accounts?", same)
    # Both attempts repeat the last reply: nothing tells them apart, and the engine's KV
    # cache holds the later one, so the next turn need not read the shown reply again.
    await turn(pipeline, session, "And the indexes?", same)
    record = session.quality_for(2)
    assert record is not None and record.attempts == 2 and record.shown_attempt == 2


async def test_once_an_attempt_is_without_the_option_a_proposing_sample_ends_the_search() -> None:
    provider = SmallModel({"refinement": [PROPOSES, CLEAN]}, parallel_calls=False)
    events: list[PipelineEvent] = []
    pipeline = make(provider, events)
    session = Session()
    await turn(pipeline, session, REJECT, CLEAN)
    # The first sample repeats the last reply (another sample is due), the second proposes
    # the rejected option: the repeat, free of it, is shown; no third sample is drawn.
    outcome = await turn(pipeline, session, "Which database then?", CLEAN)
    record = session.quality_for(2)
    assert record is not None and (record.attempts, record.shown_attempt) == (2, 1)
    assert outcome.reply == CLEAN
    assert readvocacy_label(record) == "MongoDB (attempt 2 proposed it; attempt 1 shown)"


async def test_a_small_model_is_asked_not_to_write_a_rejected_name() -> None:
    provider = SmallModel({"refinement": [CLEAN]}, parallel_calls=False)
    session = Session()
    pipeline = make(provider, [])
    await turn(pipeline, session, "We are choosing a database for a payments ledger.", CLEAN)
    await turn(pipeline, session, REJECT, "Understood: SQL it is.")
    await turn(pipeline, session, "No flat foods either. And no cloud storage.", CLEAN)

    rejected = {r.option.lower() for r in session.active_rejections()}
    assert {"mongodb", "flat foods", "cloud storage"} <= rejected
    generations = [r for r in provider.log if r.purpose == "generation"]
    assert generations[0].avoid == ()  # nothing rejected yet
    # The turn that rejects it already answers without it: the ledger is read first.
    assert generations[1].avoid == ("MongoDB",)
    # Named options only: banning "cloud" or "flat" would take common words from every reply.
    assert generations[2].avoid == ("MongoDB",)


async def test_a_capable_model_is_not_steered() -> None:
    provider = ScriptedProvider({}, parallel_calls=False)
    provider.parameter_count = 70_000_000_000
    session = Session()
    pipeline = make(provider, [])
    await turn(pipeline, session, REJECT, "Understood: SQL it is.")
    await turn(pipeline, session, "Which database then?", CLEAN)
    assert all(r.avoid == () for r in provider.log)

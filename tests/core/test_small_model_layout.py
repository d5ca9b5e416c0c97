"""The small-model (lean) profile's prompt: what is placed where, and which attempt is shown.

Measured on SmolLM2-135M (`rcm-tui eval ../shared/scenarios --provider local`): the full
system prompt and the bracketed ledger block came back as talk about the instructions and as
one short question repeated turn after turn, and requirement coverage fell below plain chat.
"""

from __future__ import annotations

from pathlib import Path

from rcm_tui.config import load_settings
from rcm_tui.controller import Controller, ProviderPair
from rcm_tui.core import prompts, small_model
from rcm_tui.core.llm import ChatMessage
from rcm_tui.core.models import Message, Session
from rcm_tui.core.quality import Scores
from rcm_tui.core.turn import Pipeline, PipelineSettings
from rcm_tui.providers.offline import scripted_reply
from rcm_tui.store import SessionStore

from .fakes import ScriptedProvider


class SmallModel(ScriptedProvider):
    parameter_count: int = 135_000_000


def make(provider: ScriptedProvider, **settings: object) -> Pipeline:
    return Pipeline(provider, provider, PipelineSettings(**settings), emit=lambda _e: None)


async def turn(pipeline: Pipeline, session: Session, text: str, reply: str) -> None:
    session.messages.append(Message(role="user", content=text, turn=session.turn + 1))
    with scripted_reply(reply):
        await pipeline.run_turn(session, text)


def generations(provider: ScriptedProvider) -> list[list[ChatMessage]]:
    return [r.messages for r in provider.log if r.purpose == "generation"]


async def test_a_small_model_gets_a_plain_system_prompt_and_its_needs_after_the_message() -> None:
    provider = SmallModel(parallel_calls=False)
    pipeline = make(provider)
    session = Session()
    await turn(pipeline, session, "We need an audit log of every transfer.", "Noted.")
    await turn(pipeline, session, "How do we model accounts?", "One table per account.")
    await turn(pipeline, session, "And the indexes?", "An index on account_id.")
    second, third = generations(provider)[1:3]
    assert second[0] == ChatMessage("system", prompts.SMALL_MODEL_SYSTEM_PROMPT)
    # The need no reply met yet follows the newest message, in plain words, without brackets.
    assert second[-1].content == (
        "How do we model accounts?\n\n"
        f"{prompts.CHECKLIST_HEADER}\n- We need an audit log of every transfer"
    )
    assert not any(prompts.LEDGER_HEADER in m.content for m in second + third)
    # History keeps each message as it was sent: every prompt extends the previous one.
    assert third[: len(second)] == second


async def test_a_need_a_reply_met_leaves_the_checklist() -> None:
    provider = SmallModel(parallel_calls=False)
    pipeline = make(provider)
    session = Session()
    await turn(pipeline, session, "Sessions must expire after 30 minutes of inactivity.",
               "Store a last_seen column and expire sessions after 30 minutes of inactivity "
               "with a nightly cleanup job.")
    await turn(pipeline, session, "Where do the sessions live?", "In PostgreSQL.")
    assert generations(provider)[1][-1].content == "Where do the sessions live?"


async def test_the_full_profile_keeps_the_system_prompt_and_the_ledger_block() -> None:
    provider = ScriptedProvider(parallel_calls=False)
    pipeline = make(provider, profile="full", llm_analysis=False, llm_judge=False)
    await turn(pipeline, Session(), "We need an audit log of every transfer.", "Noted.")
    first = generations(provider)[0]
    assert first[0] == ChatMessage("system", prompts.SYSTEM_PROMPT)
    assert first[-1].content.startswith(prompts.LEDGER_HEADER)


async def test_a_small_model_retries_with_a_fresh_sample_not_a_rewrite_request() -> None:
    provider = SmallModel({"refinement": ["PostgreSQL with a partitioned events table."]},
                          parallel_calls=False)
    pipeline = make(provider)
    session = Session()
    await turn(pipeline, session, "Let's not use MongoDB, compliance wants SQL.", "Understood.")
    await turn(pipeline, session, "Which database then?", "MongoDB would be my pick here.")
    first = generations(provider)[1]
    again = next(r for r in provider.log if r.purpose == "refinement")
    assert again.messages == first and again.temperature == 0.8
    assert session.messages[-1].content == "PostgreSQL with a partitioned events table."


class LoadsToASmallModel(ScriptedProvider):
    """A local model whose size is known once loaded, as the embedded one's is."""

    name = "local"
    parameter_count: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self.heads: list[list[ChatMessage] | None] = []

    def preload(self, head: list[ChatMessage] | None = None) -> None:
        self.heads.append(head)
        self.parameter_count = 135_000_000


async def test_the_preload_reads_the_system_prompt_of_the_profile_the_loaded_model_gets(
    tmp_path: Path,
) -> None:
    model = LoadsToASmallModel()
    controller = Controller(
        load_settings(None, {"provider": "local"}),
        SessionStore(tmp_path),
        providers=ProviderPair(model, model),
    )
    await controller.preload()
    assert model.heads == [None, [ChatMessage("system", prompts.SMALL_MODEL_SYSTEM_PROMPT)]]
    await controller.aclose()




def test_of_the_attempts_the_one_meeting_most_needs_is_shown() -> None:
    plain = Scores(clarity=0.9, completeness=0.9, assumptions=0.1, verbosity=0.1,
                   premature_attempt=False, middle_turn_reference=0.8, requirement_tracking=0.8)
    meets = plain.model_copy(update=dict(clarity=0.6, completeness=0.6, addressed=["R2"]))
    repeats = plain.model_copy(update=dict(addressed=["R2", "R3"], repeated=True))
    proposes = plain.model_copy(update=dict(addressed=["R2", "R3"], readvocated=["MongoDB"]))
    ranked = sorted(
        [(plain, 1), (meets, 2), (repeats, 3), (proposes, 4)],
        key=lambda d: small_model.rank(*d),
        reverse=True,
    )
    assert [attempt for _s, attempt in ranked] == [2, 1, 3, 4]

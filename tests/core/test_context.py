"""Prompt assembly: priority of what is kept, cache-friendly layout, budget behaviour."""

from __future__ import annotations

from rcm_tui.core.context import Budget, assemble, estimate_tokens
from rcm_tui.core.models import Message, RejectedOption, Requirement, Session, Solidified


def conversation(turns: int, words: int = 20) -> Session:
    session = Session()
    for t in range(1, turns + 1):
        session.messages.append(Message(role="user", content=f"question {t} " + "x " * words,
                                        turn=t))
        session.messages.append(Message(role="assistant", content=f"answer {t} " + "y " * words,
                                        turn=t))
    session.requirements.append(Requirement(id="R1", text="Invoices kept 10 years",
                                            source_turn=2))
    session.rejected.append(RejectedOption(id="X1", option="microservices", reason="too heavy",
                                           turn=3))
    session.solidified = Solidified(text="CONCLUSION: modular monolith", turn=4)
    return session


def test_ledger_sits_after_the_history_in_the_newest_user_message() -> None:
    session = conversation(3)
    prompt = assemble(session, "next?", 4, Budget(6000, 500, 6))
    roles = [m.role for m in prompt.messages]
    assert roles[0] == "system" and roles[-1] == "user"
    final = prompt.messages[-1].content
    assert final.index("SOLIDIFIED") < final.index("do NOT propose") < final.index("R1")
    assert final.rstrip().endswith("next?")
    assert "microservices" in final
    # the history before it is the plain conversation, no ledger in it
    assert all("[Conversation ledger" not in m.content for m in prompt.messages[:-1])


def test_prefix_is_stable_from_turn_to_turn_when_everything_fits() -> None:
    session = conversation(3)
    before = assemble(session, "q4", 4, Budget(6000, 500, 6))
    session.messages.append(Message(role="user", content="q4", turn=4))
    session.messages.append(Message(role="assistant", content="a4", turn=4))
    session.requirements.append(Requirement(id="R2", text="CSV export", source_turn=4))
    after = assemble(session, "q5", 5, Budget(6000, 500, 6))
    assert after.prefix[: len(before.prefix)] == before.prefix
    assert after.summarised_through == 0


def test_over_budget_summarises_old_turns_and_never_cuts_the_ledger() -> None:
    session = conversation(30, words=60)
    budget = Budget(1500, 300, 4)
    prompt = assemble(session, "and now?", 31, budget)
    assert prompt.over_budget and prompt.summarised_through > 0
    assert prompt.messages[1].content.startswith("Summary of the conversation")
    final = prompt.messages[-1].content
    assert "Invoices kept 10 years" in final and "microservices" in final and "modular" in final
    assert prompt.tokens <= budget.prompt + estimate_tokens(final)
    # the most recent turn is still verbatim
    assert any(m.content.startswith("answer 30") for m in prompt.messages)


def test_summary_moves_in_chunks_so_the_prefix_repeats() -> None:
    session = conversation(20, words=60)
    budget = Budget(2500, 300, 4)
    first = assemble(session, "a", 21, budget, chunk=3)
    assert first.summarised_through % 3 == 0


def test_interrupted_turns_are_not_in_the_history() -> None:
    session = conversation(2)
    session.messages.append(Message(role="user", content="lost question", turn=3))
    prompt = assemble(session, "new question", 4, Budget(6000, 500, 6))
    assert all(m.content != "lost question" for m in prompt.messages)


def test_cjk_text_counts_one_token_per_character() -> None:
    assert estimate_tokens("数据库选择") >= 5
    assert estimate_tokens("abcd" * 10) <= 12

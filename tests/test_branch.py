"""Forking a session (issue 14, "Branch"): the core fork, and `rcm-tui sessions fork`."""

from __future__ import annotations

import argparse
import asyncio
import json

import pytest

from rcm_tui import cli_sessions
from rcm_tui.core.branch import fork_session
from rcm_tui.core.models import Session
from rcm_tui.store import SessionStore

from .ui.conftest import converse, make_controller


def conversation(turns: int = 6) -> Session:
    controller = make_controller()
    session = asyncio.run(converse(controller, turns))
    controller.release()
    return session


def test_a_fork_keeps_the_history_and_the_ledger_as_of_its_turn() -> None:
    parent = conversation(6)
    mongo = next(r for r in parent.rejected if "mongodb" in r.option.lower())
    assert mongo.turn == 4
    later_reqs = [r for r in parent.requirements if r.source_turn > 3]
    assert later_reqs, "the conversation states requirements after turn 3"

    branch = fork_session(parent, 3)

    assert branch.id != parent.id
    assert branch.parent is not None and (branch.parent.id, branch.parent.turn) == (parent.id, 3)
    assert branch.turn == 3
    assert [m.content for m in branch.messages] == [m.content for m in parent.messages[:6]]
    # Rejected at turn 4: not carried into a branch forked at turn 3.
    assert branch.rejected == []
    assert {r.id for r in branch.requirements} == {
        r.id for r in parent.requirements if r.source_turn <= 3
    }
    assert [q.turn for q in branch.quality] == [1, 2, 3]
    assert len(branch.metrics.answer_lengths) == 3
    assert all(c.turn <= 3 for c in branch.calls)
    # The parent is untouched.
    assert parent.turn == 6 and parent.rejected


def test_a_rejection_reopened_after_the_fork_turn_stands_in_the_branch() -> None:
    parent = conversation(5)
    mongo = next(r for r in parent.rejected if "mongodb" in r.option.lower())
    mongo.reopened_turn = 5
    branch = fork_session(parent, 4)
    assert [r.option for r in branch.active_rejections()] == [mongo.option]


def test_a_status_changed_after_the_fork_turn_goes_back_to_pending() -> None:
    parent = conversation(5)
    req = parent.requirements[0]
    req.status, req.updated_turn = "confirmed", 5
    branch = fork_session(parent, 4)
    assert next(r for r in branch.requirements if r.id == req.id).status == "pending"


def test_forking_at_a_turn_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="no turn 9"):
        fork_session(conversation(2), 9)


def test_the_parent_key_survives_a_save_and_a_load() -> None:
    store = SessionStore()
    branch = fork_session(conversation(3), 2)
    store.save(branch)
    loaded = store.load(branch.id)
    assert loaded.parent == branch.parent
    assert loaded.dump()["parent"] == {"id": branch.parent.id, "turn": 2}  # type: ignore[union-attr]
    assert conversation(1).dump()["parent"] is None


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    root = argparse.ArgumentParser(prog="rcm-tui")
    cli_sessions.add_parser(root.add_subparsers(dest="command"))
    args = root.parse_args(["sessions", *argv])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_sessions_fork_cli_writes_a_branch_and_lists_it_with_its_parent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parent = conversation(6)
    SessionStore().save(parent)

    code, out, err = run_cli(capsys, "fork", parent.id, "--turn", "3", "--json")
    assert (code, err) == (0, "")
    made = json.loads(out)
    assert made["parent"] == {"id": parent.id, "turn": 3}

    branch = SessionStore().load(made["id"])
    assert branch.turn == 3 and branch.rejected == []
    assert SessionStore().load(parent.id).turn == 6

    code, out, _ = run_cli(capsys, "show", made["id"])
    assert f"Fork of:   {parent.id} at turn 3" in out

    code, out, _ = run_cli(capsys, "list", "--json")
    listed = {e["id"]: e for e in json.loads(out)}
    assert listed[made["id"]]["parent"] == {"id": parent.id, "turn": 3}
    assert listed[parent.id]["parent"] is None


def test_sessions_fork_cli_refuses_a_missing_turn_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parent = conversation(2)
    SessionStore().save(parent)
    code, out, err = run_cli(capsys, "fork", parent.id, "--turn", "7")
    assert code == 1 and out == ""
    assert err.startswith("rcm-tui: cannot fork") and "no turn 7" in err
    assert len(SessionStore().list()) == 1


def test_an_index_record_written_before_parent_existed_is_re_derived() -> None:
    store = SessionStore()
    branch = fork_session(conversation(3), 2)
    store.save(branch)
    index = json.loads(store.index_path.read_text())
    del index["sessions"][branch.id]["parent"]  # as an older rcm-tui wrote it
    store.index_path.write_text(json.dumps(index))
    listed = {e.id: e for e in SessionStore().list()}
    assert listed[branch.id].parent == (branch.parent.id, 2)  # type: ignore[union-attr]

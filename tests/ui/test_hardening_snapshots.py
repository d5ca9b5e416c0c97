"""Issue 14 snapshots: the copy confirmation, a rendered STATUS block, a cancelled reply kept.

Fixed like tests/ui/test_snapshots.py; regenerate with --snapshot-update and look at them."""

from __future__ import annotations

import asyncio
from typing import Any

from rcm_tui.core.models import CancelledReply, Message
from rcm_tui.providers.offline import scripted_reply
from rcm_tui.ui.app import RcmApp

from .conftest import T0, converse, freeze, make_controller
from .test_snapshots import MEDIUM, app_with, settle, type_and_send

STATUS_REPLY = (
    "[STATUS]\nCONCLUSION: PostgreSQL with SERIALIZABLE transfers\n"
    "REJECTED: MongoDB (fragile multi-document transactions)\nOPEN: audit trail format\n"
    "[/STATUS]\n\nOne primary with a synchronous replica covers 2,000 writes per second."
)


def test_copy_confirmation(snap_compare: Any) -> None:
    async def copy(pilot: Any) -> None:
        await type_and_send(pilot, "/copy code")

    assert snap_compare(app_with(5), terminal_size=MEDIUM, run_before=copy)


def test_status_block_rendered(snap_compare: Any) -> None:
    controller = make_controller()

    async def talk() -> None:
        await converse(controller, 3)
        with scripted_reply(STATUS_REPLY):
            outcome = await controller.send("Where do we stand?")
        assert outcome.ok
        await controller.drain()
        freeze(controller.session)

    asyncio.run(talk())
    assert snap_compare(RcmApp(controller), terminal_size=MEDIUM, run_before=settle)


def test_cancelled_reply_kept(snap_compare: Any) -> None:
    controller = make_controller()
    asyncio.run(converse(controller, 2))
    session = controller.session
    session.messages.append(
        Message(role="user", content="Sketch the transfer procedure.", turn=3, created_at=T0)
    )
    session.cancelled_replies.append(
        CancelledReply(turn=3, content="1. Lock both accounts in id order.\n2. Check the",
                       created_at=T0)
    )
    freeze(session)
    assert snap_compare(RcmApp(controller), terminal_size=MEDIUM, run_before=settle)

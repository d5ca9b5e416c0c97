"""Make assets/screenshot.svg (and .png when cairosvg is installed) from the real app.

The first ten turns of the db-selection scenario are replayed through the controller with the
offline provider and their scripted replies, then the solidify key is pressed, exactly as a
user would. Everything runs in a throw-away data folder.

    python assets/make_screenshot.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ASSETS = Path(__file__).resolve().parent
SIZE = (160, 45)
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

# From the db-selection scenario: the user first explores MongoDB, then rejects it.
SCRIPT: list[tuple[str, str]] = [
    (
        (
            "We're building the core ledger for a payments startup and need to pick a primary "
            "database. Can you help me choose?"
        ),
        (
            "Happy to help. A few questions first: what transaction volume do you expect, do you "
            "need multi-row transactions, and what does your team already run in production?"
        ),
    ),
    (
        "Around 2,000 writes per second at peak. The team knows JSON-heavy stacks well.",
        (
            "Given a JSON-heavy team, MongoDB is a natural candidate: flexible documents, "
            "horizontal sharding, and multi-document transactions since 4.0."
        ),
    ),
    (
        "Tell me more about how MongoDB handles sharding for this load.",
        (
            "MongoDB shards by a shard key; for a ledger you would pick account_id hashed to "
            "spread writes..."
        ),
    ),
    (
        "And backups, how would that work with MongoDB?",
        "You would use Ops Manager or Atlas continuous backups with point-in-time restore...",
    ),
    (
        "We must also keep an immutable audit trail of every balance change.",
        "You could add an append-only audit collection written in the same transaction...",
    ),
    (
        "What would the schema for accounts and transfers look like?",
        ("An accounts collection with balance and version fields, and a transfers collection..."),
    ),
    (
        (
            "Actually, let's not use MongoDB. Our compliance team requires strict ACID guarantees"
            " and SQL reporting, so a document store is off the table."
        ),
        (
            "Understood — we drop MongoDB. PostgreSQL fits: serializable transactions, mature "
            "tooling, and SQL for reporting."
        ),
    ),
    (
        "OK, PostgreSQL it is. How should we model accounts and transfers there?",
        "Use an accounts table and a transfers table with a double-entry postings table...",
    ),
    (
        "Reads for the dashboard must not slow down writes.",
        "Put dashboard reads on a streaming read replica...",
    ),
    (
        "How do we hit 2,000 writes per second on PostgreSQL?",
        "Batch commits, keep transactions short, partition postings by month...",
    ),
]


def main() -> int:
    home = Path(tempfile.mkdtemp(prefix="rcm-tui-screenshot-"))
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        os.environ.pop(name, None)

    from rcm_tui.config import load_settings
    from rcm_tui.controller import Controller
    from rcm_tui.store import SessionStore
    from rcm_tui.ui.app import RcmApp

    controller = Controller(load_settings(None, {"provider": "offline"}), SessionStore())
    controller.session.id = "20250301-090000-5c4eed"

    async def converse() -> None:
        for user, reply in SCRIPT:
            outcome = await controller.send(user, scripted_reply=reply)
            if not outcome.ok:
                raise SystemExit(f"turn failed: {outcome.error}")
        await controller.drain()

    asyncio.run(converse())
    session = controller.session
    session.created_at = T0
    for message in session.messages:
        message.created_at = T0 + timedelta(minutes=3 * message.turn)

    class ScreenshotApp(RcmApp):
        CURSOR_BLINK = False

    app = ScreenshotApp(controller)

    async def solidify_and_shoot(pilot) -> None:  # type: ignore[no-untyped-def]
        while not app.main.ready:
            await asyncio.sleep(0.01)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause(0.3)
        svg = ASSETS / "screenshot.svg"
        svg.write_text(app.export_screenshot(title="rcm-tui"), encoding="utf-8")
        print(f"wrote {svg}")
        write_png(svg)
        await pilot.press("ctrl+q")

    app.run(headless=True, size=SIZE, auto_pilot=solidify_and_shoot)
    return 0


def write_png(svg: Path) -> None:
    try:
        import cairosvg  # type: ignore[import-not-found]
    except ImportError:
        print("cairosvg is not installed: no PNG (pip install cairosvg)")
        return
    # The SVG asks for Fira Code from the web; render with a local monospace font instead.
    text = svg.read_text(encoding="utf-8").replace("Fira Code", "DejaVu Sans Mono")
    png = svg.with_suffix(".png")
    cairosvg.svg2png(bytestring=text.encode("utf-8"), write_to=str(png), output_width=1920)
    print(f"wrote {png}")


if __name__ == "__main__":
    sys.exit(main())

"""A one-line input that keeps keys in the order they were typed, even in a burst.

Textual's Input inserts a printable key as soon as it reads it, but runs a bound key (ctrl+a,
ctrl+k, Enter, Tab, Escape) only once the key has bubbled up to the app, through the message
queues, by which time the letters typed after it are already in. Sent at once, "ctrl+a ctrl+k 2
Enter" into a dialog showing "3" submitted an empty answer, and "Tab" then text landed in the
first field (issue 14). Here a bound key runs where it is read, and a letter read after an
earlier key moved the focus goes on to the widget that now has it.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class OrderedInput(Input):
    async def _on_key(self, event: events.Key) -> None:
        focused = self.app.focused
        if focused is not None and focused is not self:
            # An earlier key of the burst (Tab) moved the focus on: so does this one.
            event.stop()
            event.prevent_default()
            focused.post_message(events.Key(event.key, event.character))
            return
        if not event.is_printable and await self.app._check_bindings(event.key):
            # The binding chain from here up (this input's own bindings first), run now
            # rather than after the keys queued behind it; stopped so it does not run twice.
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

"""The controller owns one session: it persists it, runs turns and commands, and forwards the
pipeline's events to whoever drives it (the TUI, replay, eval, bench).

Order of a turn: the user's message is appended and saved *before* any model call, so nothing
typed is lost; then the pipeline runs; every change is saved atomically by the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar, cast, get_args

from .config import LoadedSettings, Settings
from .core.context import title_from
from .core.events import (
    Notice,
    PipelineEvent,
    StageChanged,
)
from .core.llm import LLMProvider, ProviderError
from .core.models import (
    CancelledReply,
    Message,
    ProviderInfo,
    RejectedOption,
    Requirement,
    RequirementStatus,
    Session,
    utc_now,
)
from .partial_reply import PartialReply
from .providers.registry import Choice, ModelSpec, build_provider, choose_provider, model_name
from .providers.switching import switched_settings, unavailable_reason
from .run_settings import ProviderPair, explain_choice, pipeline_settings
from .store import SessionLock, SessionStore, StoreError

if TYPE_CHECKING:
    # The pipeline and the ledger (and the heuristics they compile, ~0.1 s) load on first use,
    # not on the way to the TUI's first frame.
    from .core.profile import ProfileChoice
    from .core.turn import Pipeline, TurnOutcome

log = logging.getLogger("rcm_tui.controller")
T = TypeVar("T")
TITLE_WORDS = 8


def session_title(text: str) -> str:
    return title_from(text, TITLE_WORDS) or "New session"


class Controller:
    def __init__(
        self,
        loaded: LoadedSettings,
        store: SessionStore,
        *,
        session: Session | None = None,
        reliability: bool = True,
        on_event: Callable[[PipelineEvent], None] | None = None,
        providers: ProviderPair | None = None,
    ) -> None:
        self.loaded = loaded
        self.settings = loaded.settings
        self.store = store
        self.reliability = reliability
        self.on_event = on_event
        self.choice: Choice = explain_choice(choose_provider(self.settings), loaded)
        # The settings as started, with the provider they chose: a --base-url stays with it.
        self._started = self.settings.model_copy(update={"provider": self.choice.name})
        # A model named on the command line wins over a resumed session's last model, until
        # the user switches with /model.
        self._model_flag = any(
            loaded.source_of(key).startswith("flag") for key in ("provider", "model")
        )
        # One line for the screen when a resumed session's model could not be restored.
        self.model_note: str | None = None
        self._providers = providers
        self._lock: SessionLock | None = None
        self._pipeline: Pipeline | None = None
        self._partial = PartialReply()
        # The in-process model's background load (see preload), awaited by the first turn.
        self._loading: asyncio.Future[None] | None = None
        self.session = session or self._new_session()
        self.session.reliability = reliability
        # Set for replay scripts and eval scenarios: /export may not leave the exports folder.
        self.exports_confined = False

    # -- providers (built lazily: SDK imports stay off the first frame) ----------------------
    def _new_session(self) -> Session:
        return Session(provider=ProviderInfo(name=self.choice.name, model=self._model_name()))

    def _model_name(self) -> str:
        return model_name(self.settings, ModelSpec(self.choice.name, self.settings.model))

    @property
    def provider_label(self) -> str:
        if self._providers is not None:
            return self._providers.generator.label
        if self.choice.name == "offline":
            # the same words before and after the first turn (the class attribute, no build)
            from .providers.offline import OfflineProvider

            return OfflineProvider.label
        return f"{self.choice.name} · {self._model_name()}"

    def _profile(self) -> ProfileChoice | None:
        # The offline demo has no model whose calls a profile could spend.
        if self._pipeline is None or not self.reliability or self.choice.name == "offline":
            return None
        return self._pipeline.profile

    @property
    def header_reason(self) -> str:
        """Why this provider; once a turn has run, also why its profile runs."""
        profile = self._profile()
        if profile is None:
            return self.choice.reason
        return f"{self.choice.reason}; {profile.name} profile: {profile.reason}"

    @property
    def profile_label(self) -> str:
        """Which profile runs ("lean profile"), once a turn has run; "" before."""
        profile = self._profile()
        return "" if profile is None else f"{profile.name} profile"

    async def warm_analysers(self) -> None:
        """Read the guard's word hierarchy and Chinese bridge in a worker thread, before the
        first turn needs them."""
        from .core.heuristics import bridge_zh, hierarchy

        await asyncio.to_thread(hierarchy.warm)
        await asyncio.to_thread(bridge_zh.warm)

    async def preload(self) -> float | None:
        """Load an in-process model now, off the event loop, so the first reply costs what the
        later ones do. Seconds it took, or None when the provider has nothing to load.

        Only the local provider is built here: a remote provider's SDK import would be paid
        on the event loop for no gain (it loads nothing).
        """
        if self.choice.name != "local":
            return None
        load = getattr(self.providers().generator, "preload", None)
        if load is None:
            return None
        started = time.perf_counter()
        if self._loading is None:
            self._loading = asyncio.ensure_future(self._load_and_read_head(load))
        await self._loading
        return time.perf_counter() - started

    async def _load_and_read_head(self, load: Callable[..., None]) -> None:
        # The loaded model's size decides the profile, and the profile the system prompt; that
        # prompt is then read into the KV cache: every turn's prompt starts with it, so the
        # first one decodes only what later ones do.
        await asyncio.to_thread(load, None)
        await asyncio.to_thread(load, self.pipeline().stable_head())

    def providers(self) -> ProviderPair:
        if self._providers is None:
            generator = build_provider(self.choice.name, self.settings)
            analyst = build_provider(self.choice.name, self.settings, analysis=True)
            self._providers = ProviderPair(generator, analyst)
        return self._providers

    def pipeline(self) -> Pipeline:
        from .core.turn import Pipeline

        if self._pipeline is None:
            pair = self.providers()
            settings = pipeline_settings(self.settings, self.reliability)
            window = getattr(pair.generator, "context_window", None)
            if window:
                # A local model's context holds prompt and reply; never plan past it.
                settings.budget.total = min(settings.budget.total, int(window))
            self._pipeline = Pipeline(
                pair.generator, pair.analyst, settings, emit=self._emit, save=self.save
            )
        return self._pipeline

    def _emit(self, event: PipelineEvent) -> None:
        self._partial.track(event)
        if self.on_event is not None:
            self.on_event(event)

    def _keep_partial_reply(self, turn: int) -> None:
        kept = self._partial.take(turn)
        if kept is not None:
            text, attempt = kept
            writer = self._providers.generator if self._providers is not None else None
            self.session.cancelled_replies.append(CancelledReply(
                turn=turn, content=text, attempt=attempt,
                provider=writer.name if writer else None, model=writer.model if writer else None,
            ))

    # -- persistence --------------------------------------------------------------------------
    def save(self, session: Session | None = None) -> None:
        session = session or self.session
        if session is not self.session:
            return  # a background task of a session that is no longer open
        fresh = self._lock is None
        if self._lock is None:
            self._lock = self.store.lock(session.id)
        try:
            self.store.save(session)
        except StoreError:
            if fresh and not self.store.path_for(session.id).exists():
                self._discard_lock()  # a disk-full first save leaves no lock file behind
            raise

    def _discard_lock(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            with contextlib.suppress(OSError):
                os.unlink(lock.path)  # we still hold the flock: no one else uses the file
            lock.release()

    def release(self) -> None:
        if self._lock is not None:
            try:
                # The document on disk holds the whole session once it is closed.
                self.store.flush(self.session)
            except StoreError as exc:
                log.warning("cannot fold the journal into the session: %s", exc)
            self._lock.release()
            self._lock = None

    def open_session(self, session_id: str) -> Session:
        """Switch to a stored session (lock first: another instance may hold it)."""
        resolved = self.store.resolve(session_id)
        lock = self.store.lock(resolved)
        try:
            session = self.store.load(resolved)
        except Exception:
            lock.release()
            raise
        self.release()
        self._lock = lock
        self.session = session
        self._restore_session_model()
        return session

    # -- the model (/model, and the one a resumed session last used) ------------------------
    def _restore_session_model(self) -> None:
        """Run a resumed session on the model it last used, unless the command line named
        one (the flag wins) or that model cannot run here (the current one stays, and
        `model_note` says why). The offline demo is never restored over a configured
        provider."""
        self.model_note = None
        saved = self.session.provider
        spec = ModelSpec(saved.name, saved.model)
        if (spec.provider, model_name(self.settings, spec)) == (
            self.choice.name, self._model_name()
        ):
            return
        if spec.provider == "offline" and self.choice.name != "offline":
            return
        used = f"{saved.name} · {saved.model}" if saved.model else saved.name
        if self._model_flag:
            self.model_note = (
                f"This session last used {used}; the command line's choice, "
                f"{self.provider_label}, runs it now."
            )
            return
        problem = unavailable_reason(self.settings, spec)
        if problem is not None:
            self.model_note = (
                f"This session last used {used}, which cannot run here: {problem}. "
                f"Using {self.provider_label}."
            )
            return
        self._use(switched_settings(self.settings, spec, self._started), None,
                  "the session's last model")

    def _use(self, settings: Settings, pair: ProviderPair | None, reason: str) -> None:
        # The next turn builds its pipeline on these providers (built now, or on first use).
        self.settings = settings
        self.choice = Choice(settings.provider, reason)
        self._providers, self._pipeline, self._loading = pair, None, None
        self.session.provider = ProviderInfo(name=self.choice.name, model=self._model_name())

    async def switch_model(self, spec: ModelSpec) -> str:
        """Run the next turns on `spec` and return its label. When it cannot run here (an
        unknown provider, a missing SDK or key, a model file that does not load), ValueError
        says why and the current model stays."""
        keep = f"still using {self.provider_label}"
        problem = unavailable_reason(self.settings, spec)
        if problem is not None:
            raise ValueError(f"{problem}; {keep}.")
        settings = switched_settings(self.settings, spec, self._started)
        built: list[LLMProvider] = []
        try:
            built.append(build_provider(spec.provider, settings))
            built.append(build_provider(spec.provider, settings, analysis=True))
            load = getattr(built[0], "preload", None)
            if load is not None:
                await asyncio.to_thread(load)  # an in-process model must load before it is used
        except ProviderError as exc:
            for provider in built:
                await provider.aclose()
            raise ValueError(f"{exc.message}; {keep}.") from None
        old, pipeline = self._providers, self._pipeline
        if pipeline is not None:
            await pipeline.cancel_background()  # its input is on disk: it runs again later
        self._use(settings, ProviderPair(built[0], built[1]), f"switched with /model at turn "
                  f"{self.session.turn}")
        self._model_flag = False
        if self.session.messages:
            self.save()
        if old is not None:
            await old.aclose()
        return self.provider_label

    def fork(self, turn: int | None = None) -> Session:
        """Fork the open session at `turn` (default: the last) into a new saved session, and
        switch to it; the parent is left as it was."""
        from .core.branch import fork_session

        branch = fork_session(self.session, self.session.turn if turn is None else turn)
        lock = self.store.lock(branch.id)
        try:
            self.store.save(branch)
        except Exception:
            lock.release()
            raise
        self.release()
        self._lock = lock
        self.session = branch
        return branch

    def new_session(self) -> Session:
        self.release()
        self.session = self._new_session()
        self.session.reliability = self.reliability
        return self.session

    # -- turns --------------------------------------------------------------------------------
    def record_user_message(self, text: str) -> Message:
        """Append and save the user's message; runs before any model call."""
        session = self.session
        message = Message(role="user", content=text, turn=session.turn + 1)
        session.messages.append(message)
        if session.title == "New session" and \
                not any(m.role == "user" for m in session.messages[:-1]):
            session.title = session_title(text)
        self._emit(StageChanged(message.turn, "saving"))
        self.save()
        return message

    async def send(self, text: str) -> TurnOutcome:
        self.record_user_message(text)
        return await self._run(text)

    async def retry(self) -> TurnOutcome | None:
        """Run the pipeline again for an unanswered (failed or interrupted) user message."""
        pending = self.session.pending_user_turn
        if pending is None:
            return None
        return await self._run(pending.content)

    async def regenerate(self) -> TurnOutcome | None:
        """Replace the last reply with a new one for the same message (None: nothing answered
        to regenerate)."""
        from .core.rewind import user_message

        turn = self.session.turn
        if turn == 0 or self.session.pending_user_turn is not None:
            return None
        return await self.resend(turn, user_message(self.session, turn))

    async def resend(self, turn: int, text: str) -> TurnOutcome:
        """Drop user turn `turn` and every later one, with what they put in the ledger, then
        send `text` as that turn (an edited message, or the same one to regenerate)."""
        await self.rewind(turn)
        return await self.send(text)

    async def rewind(self, turn: int) -> None:
        """Drop user turn `turn` and every later one; the ledger is as it stood before it."""
        from .core.rewind import rewind_before, user_message

        rewound = rewind_before(self.session, turn)
        if not rewound.messages and self.session.title == session_title(
                user_message(self.session, turn)):
            rewound.title = "New session"  # named after the first message: the edited one
        if self._pipeline is not None:
            # A summary of the dropped turns must not land in the rewound session.
            await self._pipeline.cancel_background()
        self.session = rewound  # a new object: the store rewrites the file, no stale journal

    async def _run(self, text: str) -> TurnOutcome:
        turn = self.session.turn
        from .core.turn import TurnOutcome

        try:
            pipeline = self.pipeline()
        except ProviderError as exc:
            self._emit(Notice(exc.message, "warning"))
            return TurnOutcome(turn, False, error=exc.message, error_kind=exc.kind)
        if self._loading is not None:
            # A message sent while the model loads waits for it here, so the turn is planned
            # knowing the model (its size picks the profile); a failed load is the turn's to
            # report.
            with contextlib.suppress(Exception):
                await asyncio.shield(self._loading)
        self._partial.clear()
        try:
            return await pipeline.run_turn(self.session, text)
        except asyncio.CancelledError:
            self._keep_partial_reply(self.session.turn)
            self.save()
            raise

    async def solidify(self) -> str:
        if not self.session.messages:
            raise ValueError("nothing to solidify yet: the conversation is empty")
        block = await self.pipeline().solidify(self.session)
        return block.text

    def edit_solidified(self, text: str) -> None:
        from .core.models import Solidified

        self.session.solidified = Solidified(text=text.strip(), turn=self.session.turn,
                                             edited=True)
        self.save()

    def reject(self, option: str, reason: str = "") -> RejectedOption:
        from .core import ledger

        entry = ledger.reject_option(self.session, option, reason, self.session.turn,
                                     origin="user")
        self.save()
        return entry

    def unreject(self, option: str) -> RejectedOption | None:
        """Reopen the rejected option `option` names exactly; a partial or ambiguous name is
        refused with the candidates (ValueError), never guessed."""
        from .core import ledger, ledger_edits

        exact, partial = ledger.rejections_named(self.session, option)
        if exact is None and partial:
            names = " or ".join(f"“{r.option}”" for r in partial)
            raise ValueError(f"“{option}” only partly names {names}; type the full name.")
        if exact is None:
            return None
        return self.edit_ledger(ledger_edits.unreject, exact.id)

    def edit_ledger(self, change: Callable[..., T], *args: Any) -> T:
        """One edit of the ledger by hand (a function of core/ledger_edits, given the session,
        `args` and the current turn), saved. Its errors (KeyError, ValueError) say why."""
        result = change(self.session, *args, turn=self.session.turn)
        self.save()
        return result

    def set_requirement_status(self, req_id: str, status: str) -> Requirement:
        from .core import ledger

        # A panel key names the status as text: checked here, where it becomes a status.
        if status not in get_args(RequirementStatus):
            raise ValueError(f"unknown requirement status {status!r}")
        known = cast(RequirementStatus, status)
        req = ledger.set_requirement_status(self.session, req_id, known, self.session.turn)
        self.save()
        return req

    def recap(self, now: Any = None) -> str | None:
        """Where the session stood, when it was idle longer than resume_recap_after."""
        from .core.recap import recap_text

        minutes = self.settings.resume_recap_after
        if not self.session.messages or minutes <= 0:
            return None
        idle = (now or utc_now()) - self.session.updated_at
        if idle < timedelta(minutes=minutes):
            return None
        return recap_text(self.session)

    async def drain(self) -> None:
        if self._pipeline is not None:
            await self._pipeline.drain()

    async def aclose(self, *, wait: bool = True) -> None:
        """Finish (or, with wait=False, cancel) background work, then close the providers."""
        if wait:
            await self.drain()
        elif self._pipeline is not None:
            await self._pipeline.cancel_background()
        if self._providers is not None:
            await self._providers.aclose()
        self.release()

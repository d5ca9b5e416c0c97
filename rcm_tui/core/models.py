"""The session document: one JSON file per conversation.

The keys here are the stable contract of PRODUCT.md ("The session document"); other tools read
them. Keys may be added, never renamed or repurposed. `schema_version` changes only with a
migration in `migrate_document`.
"""

from __future__ import annotations

import operator
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Generic, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from .requirement_writes import NotedList, note_write, noted_lists
from .tracked_lists import TrackedList

SCHEMA_VERSION = 1

Role = Literal["user", "assistant"]
RequirementStatus = Literal["pending", "addressed", "confirmed", "dropped"]
DialogState = Literal[
    "greeting", "information_seeking", "problem_solving", "clarification", "closing"
]
# Who put an item into the ledger: the deterministic analyser, the LLM analyser, the user by
# hand (a panel key or a slash command), the model's own reply markers, or a STATUS block.
Origin = Literal["heuristic", "llm", "user", "model", "status", "solidify"]
CallPurpose = Literal[
    "analysis", "generation", "judge", "refinement", "consolidation", "status", "solidify",
    "topic_summary", "recap",
]


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_session_id() -> str:
    # Sortable by creation time, unique without coordination, safe as a file name.
    return utc_now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


class Document(BaseModel):
    """Base for every part: unknown keys from newer writers are kept, not dropped."""

    # NaN/inf (possible in a hand-edited file) are written back as NaN/Infinity, which the
    # loader reads, rather than as null, which it would reject.
    model_config = ConfigDict(
        extra="allow", validate_assignment=False, ser_json_inf_nan="constants"
    )


class _Tracking(Document):
    """A part whose lists grow with the session: they are TrackedLists (tracked_lists.py),
    which tell the journal and the indexes what changed without a pass over every item. A
    list assigned to one of them is copied into a TrackedList: keep using the attribute, not
    the list assigned."""

    _TRACKED: ClassVar[tuple[str, ...]] = ()

    def model_post_init(self, context: Any, /) -> None:
        values = self.__dict__
        for name in self._TRACKED:
            if type(values.get(name)) is list:
                values[name] = TrackedList(values[name])

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._TRACKED and type(value) is list:
            value = TrackedList(value)
        super().__setattr__(name, value)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        copied.model_post_init(None)  # the lists given in `update` are plain
        return copied


class Message(Document):
    role: Role
    content: str
    turn: int
    created_at: datetime = Field(default_factory=utc_now)
    # Which refinement attempt produced an assistant message (1 = the first draft).
    attempt: int | None = None
    # The ledger block a user message was sent with, in the "as sent" layout: later prompts
    # repeat it in the history exactly as the model first saw it, so they extend the KV cache.
    ledger_sent: str | None = None
    # On an assistant message: the provider and model that wrote it (/model can change them
    # mid-session). Absent in documents written before they were recorded.
    provider: str | None = None
    model: str | None = None

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        note_write(self)  # the prompt's pairing of the history reads only what was written


class Requirement(Document):
    id: str
    text: str
    status: RequirementStatus = "pending"
    source_turn: int
    confidence: float = 0.7
    origin: Origin = "heuristic"
    updated_turn: int | None = None
    # Turns where the user said it again although it was already in the ledger.
    restated_turns: list[int] = Field(default_factory=list)
    # "user" once the user set the status by hand: the analysers never override it.
    status_set_by: Origin | None = None
    # "user" once the user wrote the text by hand (edited, added or merged): the analysers
    # never replace it.
    text_set_by: Origin | None = None
    # Texts this requirement stands for besides its own: what the user edited away and the
    # texts of requirements merged into it. A finding like one of them is this requirement.
    replaced_texts: list[str] = Field(default_factory=list)
    # Set on a requirement the user merged into another (its status is then "dropped"): the
    # analysers send whatever matches it to that one and never bring it back.
    merged_into: str | None = None

    def model_post_init(self, context: Any, /) -> None:
        noted_lists(self, REQUIREMENT_LISTS)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in REQUIREMENT_LISTS and isinstance(value, list):
            value = NotedList(value)  # changed in place later, it logs itself
        super().__setattr__(name, value)
        note_write(self)  # the journal saves what was written, not a comparison of them all


# A requirement's list fields: changed in place (restated_turns.append), so NotedLists.
REQUIREMENT_LISTS = ("restated_turns", "replaced_texts")


class RejectedOption(Document):
    id: str
    option: str
    reason: str = ""
    turn: int
    origin: Origin = "heuristic"
    reopened_turn: int | None = None
    # A class of things ("flat foods", "used clothing", "screens"), not one named option: a
    # reply proposing any member of it goes against the rejection.
    category: bool = False
    # "user" once the user edited its name or reason by hand, or reopened it by hand.
    edited_by: Origin | None = None
    reopened_by: Origin | None = None

    @property
    def active(self) -> bool:
        return self.reopened_turn is None


class Solidified(Document):
    text: str
    turn: int
    edited: bool = False
    # True when the model failed and the block was built from the ledger alone.
    fallback: bool = False


class Memory(Document):
    facts: list[str] = Field(default_factory=list)
    trajectory: str = ""
    trajectory_turn: int | None = None  # the turn of the latest decision
    open_questions: list[str] = Field(default_factory=list)


class StatusBlock(Document):
    turn: int
    conclusion: str = ""
    rejected: list[str] = Field(default_factory=list)
    open: list[str] = Field(default_factory=list)


# A dimension's score: any float in a record or the engine's scores, [0, 1] in a judge's answer.
S = TypeVar("S", bound=float)
UnitScore = Annotated[float, Field(ge=0, le=1)]


class Dimensions(BaseModel, Generic[S]):
    """The seven quality dimensions of PRODUCT.md, declared once for the engine's scores, the
    judge's verdict and the session document's quality records."""

    clarity: S
    completeness: S
    assumptions: S  # unfounded assumptions: lower is better
    verbosity: S  # needless length: lower is better
    premature_attempt: bool
    middle_turn_reference: S
    requirement_tracking: S


# The six graded dimensions, in the order the judge is asked for them.
GRADED_DIMENSIONS = (
    "clarity", "completeness", "assumptions", "verbosity", "middle_turn_reference",
    "requirement_tracking",
)
# Of those, the two where lower is better.
LOWER_IS_BETTER = frozenset({"assumptions", "verbosity"})


def graded(scores: Dimensions[Any]) -> dict[str, float]:
    return {name: getattr(scores, name) for name in GRADED_DIMENSIONS}


class _TurnPart(Document):
    # A base of its own so that `turn` stays the record's first key (PRODUCT.md's order).
    turn: int


class QualityRecord(Dimensions[float], _TurnPart):
    overall: float
    issues: list[str] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    # Rejected options proposed by any draft of this turn (what the layer caught)...
    readvocated: list[str] = Field(default_factory=list)
    # ...and by the reply that was finally shown (what the user saw).
    readvocated_final: list[str] = Field(default_factory=list)
    # The attempts (1 = the first draft) that proposed each option: what the label may claim.
    readvocated_in: dict[str, list[int]] = Field(default_factory=dict)
    attempts: int = 1
    shown_attempt: int = 1
    judge: Literal["llm", "heuristic"] = "heuristic"


class CallRecord(Document):
    """One LLM call, kept for the inspector and for the cost figures."""

    turn: int
    purpose: CallPurpose
    attempt: int = 1
    model: str = ""
    prompt: list[dict[str, str]] = Field(default_factory=list)
    response: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    ms: float = 0.0
    ttft_ms: float | None = None
    fallback: bool = False
    error: str | None = None
    note: str = ""


class SentLedger(Document):
    """A ledger block as sent to the model, kept once: the call records that sent it name it
    by `id` (see call_text.py). `text` is emptied once no record keeps its prompt."""

    id: str
    text: str
    turn: int


class TurnCost(Document):
    turn: int
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    seconds: float = 0.0
    ttft_ms: float | None = None


class TokenTotals(Document):
    prompt: int = 0
    completion: int = 0
    cached: int = 0


class Restatement(Document):
    turn: int
    requirement_id: str
    text: str


class Metrics(_Tracking):
    _TRACKED = ("answer_lengths", "consolidation_turns", "status_turns", "llm_calls",
                "restated_requirements")

    answer_lengths: list[int] = Field(default_factory=list)
    bloat_ratio: float | None = None
    first_answer_attempt_turn: int | None = None
    consolidation_turns: list[int] = Field(default_factory=list)
    status_turns: list[int] = Field(default_factory=list)
    llm_calls: list[TurnCost] = Field(default_factory=list)
    tokens: TokenTotals = Field(default_factory=TokenTotals)
    restated_requirements: list[Restatement] = Field(default_factory=list)
    grounding_discarded: int = 0
    fallbacks: int = 0


class Topic(Document):
    turn: int
    title: str
    summary: str = ""


class ProviderInfo(Document):
    name: str = "offline"
    model: str = ""


class CancelledReply(Document):
    """What a reply had streamed when the user cancelled its turn. Kept so the useful part is
    not lost, and kept apart from `messages`: it is not an answer (the turn stays open for a
    retry, and it never counts in the metrics or reaches a prompt)."""

    turn: int
    content: str
    attempt: int = 1
    created_at: datetime = Field(default_factory=utc_now)
    # The provider and model that were writing it (as on an assistant message).
    provider: str | None = None
    model: str | None = None


class LedgerEdit(Document):
    """One change the user made to the ledger by hand (a panel key or /req): what, to which
    item, and the text before and after (a requirement's text, a rejected option's name). The
    items carry the effect; this is the record, enough to take the change back (a fork or a
    rewind to an earlier turn)."""

    turn: int
    action: Literal["add", "edit", "merge", "edit_rejected", "unreject"]
    target: str
    before: str = ""
    after: str = ""
    # For a merge: the requirement merged away.
    merged: str | None = None
    # For an edited rejected option: its reason before and after.
    reason_before: str | None = None
    reason_after: str | None = None
    origin: Origin = "user"
    created_at: datetime = Field(default_factory=utc_now)


class ParentRef(Document):
    """Where a branch was forked: the parent session and the last turn it shares with it."""

    id: str
    turn: int


class SerialCalls(Document):
    """The server was found to serve one request at a time: when, and what it did."""

    turn: int
    reason: str


class Session(_Tracking):
    _TRACKED = ("messages", "requirements", "status_blocks", "quality", "calls", "sent_ledgers")

    schema_version: int = SCHEMA_VERSION
    id: str = Field(default_factory=new_session_id)
    title: str = "New session"
    created_at: datetime = Field(default_factory=utc_now)
    updated_at: datetime = Field(default_factory=utc_now)
    provider: ProviderInfo = Field(default_factory=ProviderInfo)
    messages: list[Message] = Field(default_factory=list)
    requirements: list[Requirement] = Field(default_factory=list)
    rejected: list[RejectedOption] = Field(default_factory=list)
    pivots: list[int] = Field(default_factory=list)
    solidified: Solidified | None = None
    memory: Memory = Field(default_factory=Memory)
    status_blocks: list[StatusBlock] = Field(default_factory=list)
    quality: list[QualityRecord] = Field(default_factory=list)
    metrics: Metrics = Field(default_factory=Metrics)
    consolidated_context: str = ""
    consolidated_through_turn: int = 0
    topics: list[Topic] = Field(default_factory=list)
    dialog_state: DialogState = "greeting"
    calls: list[CallRecord] = Field(default_factory=list)
    reliability: bool = True
    cancelled_replies: list[CancelledReply] = Field(default_factory=list)
    # Set on a branch (`sessions fork`, /fork): an optional key, so no migration is needed.
    parent: ParentRef | None = None
    # Set once the server cut off or refused a call because another one ran; from then on,
    # and when the session is resumed, the layer sends one call at a time.
    one_call_at_a_time: SerialCalls | None = None
    # Every change the user made to the ledger by hand, in order.
    ledger_edits: list[LedgerEdit] = Field(default_factory=list)
    # The ledger blocks the call records of the last turns sent, each once (call_text.py).
    sent_ledgers: list[SentLedger] = Field(default_factory=list)

    # -- derived views, never stored twice ------------------------------------------------
    @property
    def turn(self) -> int:
        """The number of the last user turn (0 before the first message)."""
        # Messages are stored in turn order: read from the end, not the whole history (this is
        # asked many times a turn).
        last = self._last_user()
        return last.turn if last is not None else 0

    @property
    def pending_user_turn(self) -> Message | None:
        """The last user message when no answer was stored for it (an interrupted turn)."""
        answered: set[int] = set()
        for m in reversed(self.messages):
            if m.role == "user":
                return None if m.turn in answered else m
            answered.add(m.turn)
        return None

    def _last_user(self) -> Message | None:
        return next((m for m in reversed(self.messages) if m.role == "user"), None)

    def active_rejections(self) -> list[RejectedOption]:
        return [r for r in self.rejected if r.active]

    def open_requirements(self) -> list[Requirement]:
        return [r for r in self.requirements if r.status == "pending"]

    def live_requirements(self) -> list[Requirement]:
        return [r for r in self.requirements if r.status != "dropped"]

    def average_quality(self) -> float | None:
        if not self.quality:
            return None
        # In C, in the same order (the same sum): the sessions index asks once a turn.
        return sum(map(_OVERALL, self.quality)) / len(self.quality)

    def quality_for(self, turn: int) -> QualityRecord | None:
        return next((q for q in self.quality if q.turn == turn), None)

    def dump(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


_OVERALL = operator.attrgetter("overall")


class DocumentError(ValueError):
    """A session document that cannot be used; the message says why, in one line."""


# Each entry upgrades a document from version N to N+1, in place, as plain JSON data.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def migrate_document(data: Any) -> dict[str, Any]:
    """Bring raw JSON data up to SCHEMA_VERSION, or raise DocumentError saying why not."""
    if not isinstance(data, dict):
        raise DocumentError(f"not a session document (top level is {type(data).__name__})")
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise DocumentError("missing or invalid schema_version")
    if version > SCHEMA_VERSION:
        raise DocumentError(
            f"schema_version {version} is newer than this rcm-tui understands ({SCHEMA_VERSION})"
        )
    if version < 1:
        raise DocumentError(f"unknown schema_version {version}")
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["schema_version"] = version
    return data


def session_from_data(data: Any) -> Session:
    """Validate migrated JSON data as a Session, with a one-line reason on failure."""
    from pydantic import ValidationError

    migrated = migrate_document(data)
    try:
        return Session.model_validate(migrated)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "document"
        raise DocumentError(f"invalid {where}: {first['msg']}") from None

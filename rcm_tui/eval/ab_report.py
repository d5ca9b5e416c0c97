"""The A/B eval's table and Markdown report."""

from __future__ import annotations

from typing import Any

# The two arms of every scenario: without the layer and with it.
ARMS = ("plain", "rcm_tui")


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def _ledger_cell(figures: dict[str, Any]) -> str:
    ledger = figures.get("ledger")
    if not ledger:
        return "–"
    s = ledger["summary"]
    return (
        f"{_num(s['rejection_precision'])}/{_num(s['rejection_recall'])} · "
        f"{_num(s['requirement_recall'])}"
    )


COLUMNS = (
    "re-advocacy",
    "req. coverage",
    "premature",
    "ledger copies shown",
    "bloat",
    "ledger rej P/R · req R",
    "s/turn",
    "calls/turn",
    "prompt tok/turn",
)


def _cells(figures: dict[str, Any] | None) -> list[str]:
    if figures is None:
        return ["failed"] + [""] * (len(COLUMNS) - 1)
    return [
        f"{_pct(figures['readvocacy_rate'])} ({figures['readvocated_replies']}/"
        f"{figures['replies']})",
        f"{_pct(figures['requirement_coverage'])} ({figures['requirements_covered']}/"
        f"{figures['requirements_reference']})",
        f"{_pct(figures['premature_rate'])} ({figures['premature_replies']})",
        str(figures["ledger_copies_shown"]),
        _num(figures["bloat_ratio"]),
        _ledger_cell(figures),
        _num(figures["seconds_per_turn"]),
        _num(figures["calls_per_turn"]),
        _num(figures["prompt_tokens_processed_per_turn"], 0),
    ]


def table_rows(report: dict[str, Any]) -> list[list[str]]:
    rows: list[list[str]] = []
    for name, entry in report["scenarios"].items():
        for index, arm in enumerate(ARMS):
            label = name if index == 0 else ""
            rows.append([label, arm, *_cells(entry.get(arm))])
    for index, arm in enumerate(ARMS):
        rows.append(["total" if index == 0 else "", arm, *_cells(report["total"][arm])])
    return rows


def _header(report: dict[str, Any]) -> str:
    return (
        f"rcm-tui eval · {len(report['scenarios'])} scenario(s) in {report['dir']} · "
        f"provider {report['provider']} ({report['model']}) · jobs {report['jobs']}"
    )


def format_table(report: dict[str, Any]) -> str:
    head = ["scenario", "arm", *COLUMNS]
    rows = table_rows(report)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [_header(report), "", line(head), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    out.append("")
    out.append(f"sessions: {report['sessions']}")
    out += [f"error: {e}" for e in report["errors"]]
    return "\n".join(out)


DEFINITIONS = """\
- **re-advocacy**: replies the user saw that propose an option the user had rejected
  (`quality[].readvocated_final`), per assistant reply. Mentioning it as rejected is not counted.
  The plain run is checked by the same deterministic test.
- **req. coverage**: reference = the non-dropped requirements of the layered run's ledger (the
  same list for both arms); covered = a reply shown at or after the turn the requirement was
  stated contains at least half of its content words (the engine's deterministic test).
- **premature**: replies flagged `premature_attempt` (a full solution while requirements were
  still unknown).
- **ledger copies shown**: replies shown that still contain a line of a ledger block the
  session sent to the model (or one of the block's markers): the prompt copied back to the user.
- **bloat**: last answer length ÷ first answer length (the total is the mean over scenarios).
- **ledger rej P/R · req R**: rejected-option precision / recall and requirement recall against
  `NAME.expect.json`, scored as `shared/tools/score-scenarios` does.
- **s/turn**: wall-clock seconds per user turn, from the message to the reply shown and
  scored (rewrites included; background consolidation excluded).
- **calls/turn**, **prompt tok/turn**: LLM calls and prompt tokens the model had to process
  (cached tokens excluded) per user turn, background consolidation included."""


def format_markdown(report: dict[str, Any], command: str) -> str:
    head = ["scenario", "arm", *COLUMNS]
    rows = table_rows(report)
    md = [
        "# rcm-tui eval: with and without the reliability layer",
        "",
        _header(report).replace("rcm-tui eval · ", "") + f" · {report['date']}",
        "",
        f"Command: `{command}`",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---", "---"] + ["---:"] * len(COLUMNS)) + "|",
    ]
    md += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    md += ["", "## Definitions", "", DEFINITIONS, "", f"Sessions: {report['sessions']}."]
    if report["provider"] == "offline":
        md += [
            "",
            "With the offline provider the scripted replies are played: the plain run shows "
            "them as written, the layered run refines those that re-advocate a rejected "
            "option.",
        ]
    if report["errors"]:
        md += ["", "## Errors", ""] + [f"- {e}" for e in report["errors"]]
    return "\n".join(md) + "\n"

"""rcm-tui: long LLM conversations that do not get lost."""

__version__ = "0.1.0"

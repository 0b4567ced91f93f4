"""Baseline brains: ``null``, ``random`` and ``replay:<path>``.

They need no model and no network, so they anchor the score scale (null and random are the floor a real
brain must beat) and make runs reproducible (replay feeds recorded replies back in).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome, SeededRandom
from wmbench.core.directions import DIRECTIONS, GRAMMAR_ORDER, TRAVEL_PHRASES
from wmbench.protocol.grammar import format_reply
from wmbench.protocol.observation import BrainInput

NULL_MOTION = "a person stands still, calm"


class NullBrain(ProviderBrain):
    """``null`` — the same calm, well-formed reply every time: every direction safe(open), standing still.

    It ignores the scene entirely, so its score is what a brain earns by never perceiving anything.
    """

    name = "null"
    provider = "null"

    def __init__(self) -> None:
        super().__init__()
        self._text = format_reply({d: ("safe", "open") for d in GRAMMAR_ORDER}, NULL_MOTION)

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        return ProviderOutcome(text=self._text)


#: The pools the random brain draws from.
RANDOM_VERDICTS: tuple[tuple[str, str], ...] = (
    ("safe", "open"), ("danger", "wall"), ("danger", "beast"), ("danger", "human"),
)
RANDOM_MOTION_DIRECTIONS: tuple[str, ...] = tuple(TRAVEL_PHRASES[d] for d in DIRECTIONS)
RANDOM_MOTION_SPEEDS: tuple[str, ...] = ("walks", "jogs", "runs", "sprints")
RANDOM_MOTION_MOODS: tuple[str, ...] = ("calmly", "cautiously", "in fear", "in terror")


class RandomBrain(SeededRandom, ProviderBrain):
    """``random`` — a well-formed but uninformed reply: each direction's verdict drawn at random, and a MOTION
    built from a small pool of speeds, directions and moods (or standing still).

    Seeded: ``reset(seed)`` re-seeds a ``numpy.random.Generator``; the same seed gives the same replies.
    ``reset()`` without a seed starts over from the constructor's ``seed`` (not from fresh OS entropy).
    """

    name = "random"
    provider = "random"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        pick = self._rng.integers
        verdicts = {d: RANDOM_VERDICTS[int(pick(len(RANDOM_VERDICTS)))] for d in GRAMMAR_ORDER}
        # One slot past the end of the speed pool stands for "stands still".
        speed_index = int(self._rng.integers(len(RANDOM_MOTION_SPEEDS) + 1))
        mood = RANDOM_MOTION_MOODS[int(self._rng.integers(len(RANDOM_MOTION_MOODS)))]
        if speed_index == len(RANDOM_MOTION_SPEEDS):
            motion = f"a person stands still {mood}"
        else:
            direction = RANDOM_MOTION_DIRECTIONS[int(self._rng.integers(len(RANDOM_MOTION_DIRECTIONS)))]
            motion = f"a person {RANDOM_MOTION_SPEEDS[speed_index]} {direction} {mood}"
        return ProviderOutcome(text=format_reply(verdicts, motion))


# ---------------------------------------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ReplayBook:
    """Replies loaded from a replay file: the shared sequence and per-scenario ones (ids upper-cased)."""

    path: Path
    shared: tuple[str, ...]
    by_scenario: dict[str, tuple[str, ...]]

    def sequence_for(self, scenario: str | None) -> tuple[str, ...]:
        if scenario is not None and scenario in self.by_scenario:
            return self.by_scenario[scenario]
        return self.shared


def load_replay_book(path: str | Path) -> ReplayBook:
    """Read a replay file.

    Two formats, told apart by content:
      * JSONL — every non-empty line is a JSON object with the reply under ``"text"`` or ``"reply"``, and
        optionally ``"scenario"`` (e.g. ``"S12"``) and ``"index"`` (order within that scenario; either every
        line of a scenario has one or none does — then file order counts);
      * plain text — replies separated by one or more blank lines.

    Raises ``FileNotFoundError`` / ``ValueError`` with the line number for anything it cannot read.
    """
    path = Path(path).expanduser()
    if not path.is_file():
        raise FileNotFoundError(f"replay file {str(path)!r} does not exist (expected a .jsonl or text file)")
    content = path.read_text(encoding="utf-8")
    lines = [(n, line.strip()) for n, line in enumerate(content.splitlines(), start=1) if line.strip()]
    if not lines:
        raise ValueError(f"replay file {str(path)!r} is empty: expected at least one reply")
    if all(line.startswith("{") for _, line in lines):
        return _book_from_jsonl(path, lines)
    blocks = [block.strip() for block in _split_on_blank_lines(content)]
    return ReplayBook(path=path, shared=tuple(b for b in blocks if b), by_scenario={})


def _split_on_blank_lines(content: str) -> list[str]:
    blocks: list[list[str]] = [[]]
    for line in content.splitlines():
        if line.strip():
            blocks[-1].append(line.rstrip())
        elif blocks[-1]:
            blocks.append([])
    return ["\n".join(b) for b in blocks]


def _book_from_jsonl(path: Path, lines: list[tuple[int, str]]) -> ReplayBook:
    shared: list[str] = []
    groups: dict[str, list[tuple[int | None, int, str]]] = {}
    for number, line in lines:
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"{where}: not valid JSON ({exc.msg}); expected an object like {{\"text\": ...}}") from exc
        if not isinstance(record, dict):
            raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
        text = record.get("text", record.get("reply"))
        if not isinstance(text, str):
            raise ValueError(f"{where}: expected a string under 'text' or 'reply', got {text!r}")
        scenario = record.get("scenario")
        index = record.get("index")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool) or index < 0):
            raise ValueError(f"{where}: 'index' must be a non-negative integer, got {index!r}")
        if scenario is None:
            if index is not None:
                raise ValueError(f"{where}: 'index' given without 'scenario'")
            shared.append(text)
        else:
            groups.setdefault(str(scenario).strip().upper(), []).append((index, number, text))
    by_scenario = {sid: _order_group(path, sid, entries) for sid, entries in groups.items()}
    return ReplayBook(path=path, shared=tuple(shared), by_scenario=by_scenario)


def _order_group(path: Path, scenario: str, entries: list[tuple[int | None, int, str]]) -> tuple[str, ...]:
    indexed = [(index, line, text) for index, line, text in entries if index is not None]
    if not indexed:
        return tuple(text for _, _, text in entries)
    if len(indexed) != len(entries):
        raise ValueError(f"{path}: scenario {scenario}: either every line has an 'index' or none does")
    indices = [index for index, _, _ in indexed]
    if len(set(indices)) != len(indices):
        raise ValueError(f"{path}: scenario {scenario}: duplicate 'index' values {sorted(indices)}")
    return tuple(text for _, _, text in sorted(indexed, key=lambda e: e[0]))


ExhaustedPolicy = Literal["error", "cycle"]


class ReplayBrain(ProviderBrain):
    """``replay:<path>`` — replies read back from a file, in order (see :func:`load_replay_book`).

    Scenario-specific replies are used after ``start_scenario("S12")`` (the harness calls it when the brain
    has it); otherwise, or for a scenario the file does not list, the shared sequence is used.
    When the sequence runs out: ``on_exhausted="error"`` (default) returns a reply with ``error`` set — a
    replay that is too short is a mistake worth seeing; ``"cycle"`` starts over. ``reset()`` rewinds.
    """

    provider = "replay"

    def __init__(self, path: str | Path, *, on_exhausted: ExhaustedPolicy = "error",
                 scenario: str | None = None) -> None:
        super().__init__()
        if on_exhausted not in ("error", "cycle"):
            raise ValueError(f"on_exhausted must be 'error' or 'cycle', got {on_exhausted!r}")
        self.book = load_replay_book(path)
        self.name = f"replay:{path}"
        self.model = str(self.book.path)
        self.on_exhausted: ExhaustedPolicy = on_exhausted
        self._scenario: str | None = None
        self._cursor = 0
        if scenario is not None:
            self.start_scenario(scenario)

    def start_scenario(self, scenario_id: str | None) -> None:
        """Select the replies of a scenario (e.g. ``"S12"``; None = the shared sequence) and rewind."""
        with self._lock:
            self._scenario = None if scenario_id is None else str(scenario_id).strip().upper()
            self._cursor = 0

    def reset(self, seed: int | None = None) -> None:
        with self._lock:
            self._cursor = 0

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        replies = self.book.sequence_for(self._scenario)
        where = f"{self.book.path}" + (f" (scenario {self._scenario})" if self._scenario else "")
        if not replies:
            return ProviderOutcome(text="", error=f"replay has no replies for {where}")
        if self._cursor >= len(replies):
            if self.on_exhausted == "error":
                return ProviderOutcome(
                    text="", error=f"replay exhausted: all {len(replies)} replies of {where} were used "
                                   "(reset() rewinds; on_exhausted='cycle' starts over)")
            self._cursor = 0
        text = replies[self._cursor]
        self._cursor += 1
        return ProviderOutcome(text=text)

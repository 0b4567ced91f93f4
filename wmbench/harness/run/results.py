"""A run directory's files: ``episodes.jsonl`` (append-only, resumable), ``run.json`` and ``scores.json``.

``episodes.jsonl`` holds one JSON line per *finished* episode::

    {"scenario": "S12", "seed": 0, "body": "smpl", "brain": "reference", "trace": {...},
     "summary": {"decisions": 20, "events": {...}, "parse_errors": 0, "failed_decisions": 0, "wall_s": 1.2},
     "error": null}

Each line is written in one piece, flushed and ``fsync``-ed, so a killed run loses at most the line being
written. The reader ignores a truncated last line (that episode simply runs again), and the writer cuts such
a tail off before appending. Any other unreadable line (bad UTF-8, bad JSON, no scenario/seed/body/brain, a
``trace``/``summary``/``error`` of the wrong type: :func:`check_line_shape`) is
skipped with a warning and never lost silently: :meth:`EpisodeLog.read` copies every such line, byte for
byte, into ``episodes.unreadable.jsonl`` next to it (rewritten on each read, so it always lists exactly the
lines currently unreadable) and counts them in :attr:`EpisodeLog.unreadable`; their episodes run again.
:meth:`EpisodeLog.done_keys` says which (scenario, seed, body, brain) are finished, so a rerun resumes and
never duplicates.

Nothing secret is written: :class:`~wmbench.core.redaction.Redactor` replaces API keys (values of
``*KEY*``/``*TOKEN*``/``*SECRET*`` environment variables and options, and anything shaped like ``sk-...``,
``hf_...`` or a bearer token) with ``<redacted>`` in ``run.json`` and in every episode line.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, cast

from wmbench.core.errors import ConfigError
from wmbench.core.redaction import Redactor
from wmbench.harness.run.episode import EpisodeResult, EpisodeSummary
from wmbench.protocol.trace import InstanceRecord, Trace, TraceDict, TraceFormatError
from wmbench.scoring.scores_file import Scores, scores_from_json, scores_to_json

EPISODES_FILE = "episodes.jsonl"
#: Side file holding a copy of every unreadable line of episodes.jsonl (see the module docstring).
UNREADABLE_FILE = "episodes.unreadable.jsonl"
RUN_FILE = "run.json"
SCORES_FILE = "scores.json"
#: ``wmbench frontier --out RUN`` writes its curve here; the run's report then plots it
FRONTIER_FILE = "frontier.json"
#: The run directory's lock file (:mod:`wmbench.harness.run.lock`): one writer per run directory.
LOCK_FILE = ".wmbench.lock"

@dataclass(frozen=True, order=True)
class EpisodeKey:
    """What identifies an episode in a run directory."""

    scenario: str
    seed: int
    body: str
    brain: str


class EpisodeLine(TypedDict):
    """One line of ``episodes.jsonl`` (see the module docstring); ``instance`` is which family member the
    episode saw (None when the trace has none)."""

    scenario: str
    seed: int
    instance: InstanceRecord | None
    body: str
    brain: str
    trace: TraceDict | None
    summary: EpisodeSummary
    error: str | None


def episode_line(result: EpisodeResult) -> EpisodeLine:
    """The JSON object written for one finished episode."""
    return {
        "scenario": result.scenario,
        "seed": result.seed,
        "instance": result.trace["meta"].get("instance") if result.trace else None,  # which family member
        "body": result.body,
        "brain": result.brain,
        "trace": result.trace,
        "summary": result.summary(),
        "error": result.error,
    }


def plain_json(value: Any) -> Any:
    """A copy of ``value`` that strict JSON can hold: non-finite floats become None, numpy values Python
    numbers and lists, tuples lists, mapping keys strings, and any other object its ``str``."""
    if isinstance(value, Mapping):
        return {str(k): plain_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_json(v) for v in value]
    if value is None or isinstance(value, (bool, str)):
        return value
    if hasattr(value, "tolist") and not isinstance(value, (int, float)):  # numpy scalar or array
        return plain_json(value.tolist())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int):
        return value
    return str(value)


def line_key(line: Mapping[str, Any]) -> EpisodeKey:
    return EpisodeKey(str(line["scenario"]), int(line["seed"]), str(line["body"]), str(line["brain"]))


#: ``summary`` counts scoring adds up: each must be a whole number when present.
SUMMARY_COUNTS = ("decisions", "parse_errors", "failed_decisions")


def check_line_shape(line: Any) -> EpisodeKey:
    """The key of an episode line whose parts have the types scoring relies on; TypeError saying which part
    does not (``trace`` an object or null, ``summary`` an object of whole-number counts, ``error`` text or
    null). Such a line is a broken record: kept aside and counted like an unreadable one, never scored."""
    if not isinstance(line, Mapping):
        raise TypeError(f"expected a JSON object, got {type(line).__name__}")
    key = line_key(line)
    trace, summary, error = line.get("trace"), line.get("summary", {}), line.get("error")
    if trace is not None and not isinstance(trace, Mapping):
        raise TypeError(f"'trace' must be an object or null, got {type(trace).__name__}")
    if not isinstance(summary, Mapping):
        raise TypeError(f"'summary' must be an object, got {type(summary).__name__}")
    for name in SUMMARY_COUNTS:
        value = summary.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"'summary.{name}' must be a whole number, got {value!r}")
    if error is not None and not isinstance(error, str):
        raise TypeError(f"'error' must be text or null, got {type(error).__name__}")
    return key


class EpisodeLog:
    """The append-only ``episodes.jsonl`` of one run directory."""

    def __init__(self, path: Path | str, redactor: Redactor | None = None) -> None:
        self.path = Path(path)
        self.redactor = redactor or Redactor()
        #: Unreadable lines found by the last read (kept in :attr:`unreadable_path`).
        self.unreadable = 0
        #: Later lines of an episode already read, ignored by the last full read (see :meth:`iter_lines`).
        self.duplicates = 0

    @property
    def unreadable_path(self) -> Path:
        return self.path.with_name(UNREADABLE_FILE)

    def append(self, result: EpisodeResult) -> str:
        """Write one line for ``result`` (flushed and fsync-ed before returning); returns the line's JSON text
        as written (redacted, without the newline), which is what a later read of it parses.

        A value strict JSON cannot hold (NaN or infinity, e.g. a brain's ``latency_s``; a numpy integer in a
        brain's metadata) must not crash the suite: such a line is written with those values made plain
        (non-finite -> null, numpy scalars -> numbers, anything else -> its ``str``) and says so under
        ``"sanitized"``.
        """
        data: dict[str, Any] = dict(episode_line(result))
        try:
            text = json.dumps(data, separators=(",", ":"), allow_nan=False)
        except (ValueError, TypeError) as err:
            warnings.warn(f"{self.path}: episode {result.scenario} seed {result.seed} held values that are "
                          f"not plain JSON ({err}); written with them replaced", stacklevel=2)
            data = {**plain_json(data), "sanitized": f"{type(err).__name__}: {err}"}
            text = json.dumps(data, separators=(",", ":"), allow_nan=False)
        line = self.redactor.text(text)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._cut_partial_tail()
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        return line

    def read(self) -> list[EpisodeLine]:
        """Every complete line, first occurrence of each key only, in file order. A line is checked for its
        scenario/seed/body/brain only (one written by an older wmbench may lack other keys: readers of its
        ``trace`` and ``summary`` use ``.get``)."""
        return list(self.iter_lines())

    def iter_lines(self) -> Iterator[EpisodeLine]:
        """:meth:`read` one line at a time, so a caller that keeps only what it needs stays small.

        **One result per episode**: the *first* complete line of each (scenario, seed, body, brain) is the
        result; a later line for the same key (two processes that ran the same episode before the run lock
        existed, or a line appended by hand) is ignored, counted in :attr:`duplicates` and warned about once.
        A run directory holds one brain and body (``run.json`` refuses a mix), so this is one result per
        (scenario, seed). First, not last: the first line is the one the run that wrote it scored and
        resumed from, so re-reading never changes a score already reported."""
        seen: set[EpisodeKey] = set()
        duplicates = 0
        for line in self._complete_lines():
            key = line_key(line)
            if key not in seen:
                seen.add(key)
                yield line
            else:
                duplicates += 1
        self.duplicates = duplicates
        if duplicates:
            warnings.warn(f"{self.path}: {duplicates} duplicate episode line(s) ignored; the first line of each "
                          "(scenario, seed) is its result", stacklevel=2)

    def done_keys(self) -> set[EpisodeKey]:
        """The episodes already finished (error episodes included: they are results too)."""
        return {line_key(line) for line in self._complete_lines()}

    def _complete_lines(self) -> Iterator[EpisodeLine]:
        if not self.path.exists():
            return
        bad: list[bytes] = []
        with open(self.path, "rb") as f:  # bytes: one bad byte must cost its line only, not the whole file
            for number, raw in enumerate(f, start=1):
                if not raw.endswith(b"\n"):
                    break  # a truncated last line: that episode did not finish
                if not raw.strip():
                    continue
                try:
                    line = json.loads(raw.decode("utf-8"))
                    check_line_shape(line)
                except (ValueError, KeyError, TypeError) as err:  # UnicodeDecodeError is a ValueError
                    # a damaged line is skipped, not fatal: its episode just runs again
                    warnings.warn(f"{self.path}:{number}: skipping unreadable episode line ({err}); expected "
                                  f"one UTF-8 JSON object with scenario/seed/body/brain (and trace, summary, "
                                  f"error of the right types); kept in "
                                  f"{self.unreadable_path.name}", stacklevel=2)
                    bad.append(raw)
                    continue
                yield cast(EpisodeLine, line)  # its identity keys checked above (see :meth:`read`)
        self._keep_unreadable(bad)

    def _keep_unreadable(self, bad: list[bytes]) -> None:
        """Rewrite the side file with exactly the unreadable lines (none: remove a stale one)."""
        self.unreadable = len(bad)
        side = self.unreadable_path
        if not bad:
            if side.exists():
                with contextlib.suppress(OSError):  # read-only run dir: the stale copy stays
                    side.unlink()
            return
        try:
            write_bytes_atomic(side, b"".join(bad))
        except OSError as err:  # a read-only run dir can still be read (report, video): the lines were warned
            warnings.warn(f"{side}: cannot keep the unreadable lines aside ({err.strerror or err})", stacklevel=3)

    def _cut_partial_tail(self) -> None:
        """Drop an unterminated last line left by a killed run, so the next line starts clean."""
        if not self.path.exists():
            return
        with open(self.path, "rb+") as f:
            size = f.seek(0, os.SEEK_END)
            if size == 0:
                return
            f.seek(size - 1)
            if f.read(1) == b"\n":
                return
            keep = _end_of_last_complete_line(f, size)
            f.truncate(keep)
            f.flush()
            os.fsync(f.fileno())


def _end_of_last_complete_line(f: Any, size: int, block: int = 1 << 16) -> int:
    """Offset just past the last ``\\n`` of a binary file (0 if there is none)."""
    pos = size
    while pos > 0:
        start = max(0, pos - block)
        f.seek(start)
        chunk = f.read(pos - start)
        idx = chunk.rfind(b"\n")
        if idx >= 0:
            return start + idx + 1
        pos = start
    return 0


def write_json(path: Path | str, data: Any) -> Path:
    """Write ``data`` as indented JSON atomically (temp file + rename), so readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_text_atomic(path, json.dumps(data, indent=2, sort_keys=False) + "\n")


def write_bytes_atomic(path: Path | str, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename: readers see the old file or the new
    one, never half of one. A failure (full disk, file-size limit) removes the temporary file and raises, and
    leaves an existing ``path`` as it was."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:  # cleanup only (half-written temp file), then re-raised
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return path


def write_text_atomic(path: Path | str, text: str) -> Path:
    """:func:`write_bytes_atomic` for UTF-8 text."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_scores(out: Path | str, scores: Scores) -> Path:
    """Write ``out/scores.json`` atomically (:func:`~wmbench.scoring.scores_file.scores_to_json`)."""
    path = Path(out) / SCORES_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_text_atomic(path, scores_to_json(scores))


def read_scores(out: Path | str) -> Scores:
    """Read ``out/scores.json`` as the typed model; ``ScoresFileError`` (one line) if it is not one
    (``FileNotFoundError`` if there is none)."""
    path = Path(out) / SCORES_FILE
    return scores_from_json(path.read_bytes(), str(path))


def line_trace(line: Mapping[str, Any], where: Path | str) -> Trace:
    """The trace of episode line ``line`` read from ``where``; :class:`TraceFormatError` naming the episode and
    the file when it holds none (a hand-edited or foreign line: one line for the user, not a ``KeyError``)."""
    try:
        return Trace.from_dict(line["trace"])
    except (KeyError, TraceFormatError) as err:
        reason = err if isinstance(err, TraceFormatError) else "no trace"
        raise TraceFormatError(f"{line.get('scenario')} seed {line.get('seed')} in {where}: {reason}") from None


class JsonFileError(ConfigError):
    """A run file (``run.json``, ``scores.json``, ...) is not valid UTF-8 JSON; the message names the file."""


def read_json(path: Path | str) -> Any:
    """The JSON value in ``path``; :class:`JsonFileError` (a ``ValueError``) if it holds none."""
    with open(path, encoding="utf-8") as f:
        try:
            return json.load(f)
        except ValueError as err:  # JSONDecodeError, UnicodeDecodeError
            raise JsonFileError(f"{path}: expected a JSON file, got unreadable data ({err})") from None


def write_run_config(out: Path | str, config: Mapping[str, Any], redactor: Redactor) -> dict[str, Any]:
    """Write ``out/run.json`` (redacted). A resumed run keeps the first ``started`` and lists each resume.

    Raises ``ValueError`` when ``out`` already holds a run with a different brain, body, brain options, env
    options (``env_kwargs``; a run.json without them had none), motion model or bench-scene pace (a run.json
    without ``pace`` played its scenes at their own speeds: made on the character, with ``--unpaced``, or on a
    slow body before scenes were paced to it) — mixing them would make the scores meaningless.
    """
    path = Path(out) / RUN_FILE
    new = redactor.data(dict(config))
    if path.exists():
        old = read_json(path)
        for field in ("brain", "body", "brain_options", "env_kwargs", "motion_model", "pace"):
            if _run_field(old, field) != _run_field(new, field):
                hint = " (or --unpaced to go on with it at the scenes' own speeds)" if field == "pace" else ""
                raise ValueError(
                    f"{Path(out)} already holds a run with {field}={_run_field(old, field)!r}, this one has "
                    f"{field}={_run_field(new, field)!r}; use another --out directory{hint}"
                )
        new["started"] = old.get("started", new.get("started"))
        new["resumed"] = [*old.get("resumed", []), config.get("started")]
    write_json(path, new)
    return new


def _run_field(config: Mapping[str, Any], field: str) -> Any:
    """A run.json field for the mixing check; missing option dicts (older run.json files) count as empty,
    a missing motion model as ``procedural`` (the only one before ``--motion-model``), a missing pace as 1.0
    (the scenes' own speeds). The env's ``pace`` mode is compared through the pace it played, not as an env
    option, so ``--unpaced`` goes on with a run made before pacing."""
    if field == "motion_model":
        return config.get(field) or "procedural"
    if field == "pace":
        return config.get(field, 1.0)
    if field == "env_kwargs":
        return {k: v for k, v in (config.get(field) or {}).items() if k != "pace"}
    return config.get(field, {} if field.endswith(("_options", "_kwargs")) else None)

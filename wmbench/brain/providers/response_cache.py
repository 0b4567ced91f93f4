"""An on-disk cache of model responses, so reruns of the same prompts cost nothing and never touch a server.

Card:
    key       sha256 of the canonical JSON (sorted keys, no spaces) of ``{model, base_url, messages, params}``
              plus, when given, the decision's ``context`` (scenario, instance, seed, decision index, sample
              id — so two seeds or two samples never share an entry) — never the API key;
    location  ``WMBENCH_CACHE_DIR`` or ``~/.cache/wmbench/responses``, one file per key in a 2-letter shard
              (``ab/abcdef….json``);
    writes    atomic: a temp file in the same folder, then ``os.replace`` — a killed run never leaves half a
              file, and concurrent writers of the same key simply race to an identical result;
    reads     a missing, unreadable or malformed file is a miss, never an error;
    contents  only non-empty replies: :meth:`ResponseCache.put` refuses an empty text (a failed or
              ``content: null`` reply must be asked again, never replayed);
    manage    :meth:`ResponseCache.info` (entries, bytes) and :meth:`ResponseCache.clear` back
              ``wmbench cache info|clear``.
    secrets   a reply that echoes a credential (the ``secrets`` given, secret-looking environment values,
              anything shaped like ``sk-...``) is stored with it replaced by ``<redacted>``
              (:class:`wmbench.core.redaction.Redactor`).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from wmbench.core.redaction import Redactor

CACHE_DIR_ENV = "WMBENCH_CACHE_DIR"
DEFAULT_CACHE_DIR = Path("~/.cache/wmbench/responses")


def default_cache_dir() -> Path:
    """``$WMBENCH_CACHE_DIR`` if set, else ``~/.cache/wmbench/responses``."""
    return Path(os.environ.get(CACHE_DIR_ENV) or DEFAULT_CACHE_DIR).expanduser()


def cache_key(model: str, base_url: str, messages: Sequence[Mapping[str, Any]],
              params: Mapping[str, Any], context: Mapping[str, Any] | None = None) -> str:
    """sha256 hex digest of the canonical JSON of the request and its decision context (see module card)."""
    payload: dict[str, Any] = {"model": model, "base_url": base_url, "messages": list(messages),
                               "params": dict(params)}
    if context is not None:
        payload["context"] = dict(context)
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedResponse:
    """The part of a completion worth keeping."""

    text: str
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class ResponseCache:
    """A directory of cached responses (see module card)."""

    def __init__(self, directory: str | Path | None = None, secrets: Iterable[str] = ()) -> None:
        self.directory = Path(directory).expanduser() if directory is not None else default_cache_dir()
        self._redactor = Redactor(secrets)

    def path_for(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedResponse | None:
        try:
            record = json.loads(self.path_for(key).read_text(encoding="utf-8"))
            return CachedResponse(
                text=str(record["text"]), model=str(record.get("model", "")),
                prompt_tokens=record.get("prompt_tokens"), completion_tokens=record.get("completion_tokens"),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, response: CachedResponse) -> Path:
        if not response.text.strip():
            raise ValueError("refusing to cache an empty reply; expected the text of a successful completion")
        target = self.path_for(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{key[:8]}-", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                record = {**asdict(response), "text": self._redactor.text(response.text),
                          "model": self._redactor.text(response.model)}
                json.dump(record, handle, ensure_ascii=False)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp_name, target)
        except BaseException:  # cleanup only (half-written temp file), then re-raised
            Path(tmp_name).unlink(missing_ok=True)
            raise
        return target

    def entries(self) -> list[Path]:
        """Every cached response file (temp files of writes in progress excluded)."""
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.glob("??/*.json") if p.is_file())

    def info(self) -> CacheInfo:
        """Where the cache is, how many responses it holds and their size on disk."""
        files = self.entries()
        return CacheInfo(directory=self.directory, entries=len(files),
                         bytes=sum(f.stat().st_size for f in files))

    def clear(self) -> int:
        """Delete every cached response (and empty shard folders); the number of responses deleted."""
        files = self.entries()
        for f in files:
            f.unlink(missing_ok=True)
        for shard in self.directory.glob("??"):
            if shard.is_dir() and not any(shard.iterdir()):
                shard.rmdir()
        return len(files)


@dataclass(frozen=True)
class CacheInfo:
    """What ``wmbench cache info`` prints."""

    directory: Path
    entries: int
    bytes: int

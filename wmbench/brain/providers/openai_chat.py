"""``openai/<model>`` — any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp, ``wmbench serve``, …).

Card:
    client     the official ``openai`` client (``AsyncOpenAI`` on a private event-loop thread) with *its own*
               retries: 408/409/429/5xx, connection errors and time-outs are retried ``max_retries`` times,
               ``Retry-After`` / ``retry-after-ms`` honoured (up to the client's 2-minute cap) — and shared:
               it pauses every brain of the process asking the same endpoint (and every Ray task of the
               run, through its shared board: :mod:`wmbench.brain.providers.endpoint_gate`) — the attempts
               it took reported as ``retries`` (the client's ``retries_taken``). The backoff jitter is the
               client's own: it only moves *when* a retry is sent, never what a reply says;
    deadline   ``timeout_s`` is a true wall-clock deadline for the whole decision — every attempt, every
               wait between attempts, every byte of the body. A server that drips bytes, hangs or asks
               to be retried later than the deadline ends the decision with an error at ``timeout_s``
               (the request is cancelled, not left running);
    fatal      an answer that no retry can fix stops the brain at once and every later decision fails
               instantly with the same reason (``BrainReply.fatal``; the runner then stops the run): HTTP
               401/403 (key), 404 (model or URL), an endpoint that cannot be reached after the retries, or
               ``max_consecutive_failures`` failed decisions in a row (default 5);
    endpoint   ``base_url`` option, else ``OPENAI_BASE_URL``; the key from ``OPENAI_API_KEY`` or a file
               (``api_key_file=PATH``, its first line), or the ``api_key`` option (visible in ``ps`` when
               given on a command line: prefer the other two). With a ``base_url`` a missing key is sent as
               ``"EMPTY"`` (local servers need none); with neither a key nor a base URL the brain refuses to
               start (one line naming ``OPENAI_API_KEY``), before any request goes to the public endpoint.
               The key is never cached, logged or put in error messages;
    episodes   ``start_episode(context)`` (called by the harness after ``reset``) names the scenario,
               instance and seed *for the local cache key only*; each request carries an opaque session
               token for the episode (32 random hex digits, new per episode) as the ``user`` field, which
               ``wmbench serve`` keeps one brain per session by. Nothing else about the episode reaches the
               endpoint: no scenario id, title, instance or seed in any field or header (a side channel a
               submitted system could replay canonical answers through, or detect the benchmark by).
               ``debug_session_labels=True`` (a documented debug option) restores the labelled session id
               ``wmbench-<scenario>-<instance>-seed<N>-<hex>`` and the ``X-Wmbench-Session`` /
               ``X-Wmbench-Seed`` headers, for reading a server's logs;
    history    ``history=N`` (default 0, the official single-turn protocol) sends the last N (scene, reply)
               turns of the episode as chat messages before the current scene (:func:`chat_messages`);
    cache      :mod:`wmbench.brain.providers.response_cache`, keyed by the request *and* the decision context
               (scenario, instance, seed, decision index, ``sample_id``); ``cache=None`` (default) means on
               at ``temperature == 0`` and off above it, ``True``/``False`` force it; empty and failed
               replies are never stored; a write that fails (disk full, read-only) is skipped;
    reply      latency (all attempts), prompt/completion tokens from ``usage``, ``retries``, ``cached``;
               ``content: null`` or an empty reply is a failed decision that says what came back, and so is
               an answer that is not a ``chat.completion`` JSON object (a ``200 text/plain`` page, a proxy's
               HTML): counted as a failure, never an exception.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import threading
import uuid
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wmbench.brain.errors import BrainSpecError, require_module
from wmbench.brain.prompt import scene_to_json
from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.brain.providers.endpoint_gate import gate_for
from wmbench.brain.providers.observation_message import observation_messages, text_only
from wmbench.brain.providers.response_cache import CachedResponse, ResponseCache, cache_key
from wmbench.core.errors import RunError
from wmbench.core.key_file import read_key_file
from wmbench.protocol.observation import BrainInput

SPEC_PATTERN = "openai/<model>"
#: HTTP answers that no retry can fix: the run should stop and say so.
FATAL_STATUS = frozenset({401, 403, 404})
#: The openai client's default endpoint (what an unset base_url means), for the endpoint's shared gate.
DEFAULT_BASE_URL = "https://api.openai.com/v1"
SESSION_HEADER = "X-Wmbench-Session"
API_KEY_ENV = "OPENAI_API_KEY"
SEED_HEADER = "X-Wmbench-Seed"


@dataclass(frozen=True)
class EpisodeContext:
    """What the harness tells a brain about the episode it starts (all optional for callers outside it)."""

    scenario: str | None = None
    seed: int | None = None
    instance: str | None = None


@dataclass(frozen=True)
class ChatTurn:
    """One earlier (scene, reply) exchange of the episode, replayed as chat messages by ``history=N``."""

    scene_json: str
    reply: str


def chat_messages(scene: BrainInput, *, system_prompt: str | None = None,
                  history: Sequence[ChatTurn] = ()) -> list[dict[str, Any]]:
    """The chat messages of one decision: system, then each earlier turn (user scene, assistant reply), then
    the current scene as the last user message. With no history this is exactly
    :func:`wmbench.brain.prompt.build_messages` (the official single-turn protocol).

    This is the one place that builds what the endpoint sees; other content (images) hooks in here."""
    # image/rays modes: content parts and the mode's note (brain/providers/observation_message.py); else build_messages
    current = observation_messages(scene.copy(), system_prompt=system_prompt)
    earlier: list[dict[str, Any]] = []
    for turn in history:
        earlier.append({"role": "user", "content": turn.scene_json})
        earlier.append({"role": "assistant", "content": turn.reply})
    return [current[0], *earlier, *current[1:]]


_SSL_CONTEXTS: dict[tuple[str | None, str | None], Any] = {}
_SSL_LOCK = threading.Lock()


def shared_ssl_context() -> Any:
    """The verifying SSL context every brain's HTTP client of this process uses: httpx's default
    (``httpx.create_ssl_context()``: the CA bundle, ``SSL_CERT_FILE``/``SSL_CERT_DIR`` honoured), built once
    per value of those variables. Building one loads the CA bundle (~80 ms of CPU); a run of 16 concurrent
    API episodes paid that 16 times, one brain after another, before its requests went out."""
    key = (os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
    with _SSL_LOCK:
        context = _SSL_CONTEXTS.get(key)
        if context is None:
            import httpx  # the openai client's own dependency

            context = _SSL_CONTEXTS[key] = httpx.create_ssl_context()
    return context


class _LoopThread:
    """A private asyncio loop on a daemon thread: lets a synchronous ``decide`` put a real deadline (task
    cancellation) on an async request, and lets many threads share one connection pool. Once closed, every
    request in flight is cancelled and later ones fail at once (:class:`BrainClosedError`)."""

    #: how long past the deadline a caller waits for the cancelled request to wind down
    GRACE_S = 5.0

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.closed = False
        self._thread = threading.Thread(target=self.loop.run_forever, name="wmbench-openai-loop", daemon=True)
        self._thread.start()

    def run(self, coro: Any, deadline_s: float | None = None) -> Any:
        """Run ``coro`` on the loop; ``asyncio.TimeoutError`` (cancelling it) after ``deadline_s``."""
        if self.closed:
            coro.close()
            raise BrainClosedError("the brain is closed")
        job = coro if deadline_s is None else asyncio.wait_for(coro, deadline_s)
        future = asyncio.run_coroutine_threadsafe(job, self.loop)
        try:
            return future.result(timeout=None if deadline_s is None else deadline_s + self.GRACE_S)
        except concurrent.futures.CancelledError:
            if self.closed:
                raise BrainClosedError("the brain was closed while a request was in flight") from None
            raise asyncio.TimeoutError from None
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise asyncio.TimeoutError from None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True

        async def cancel_the_rest() -> None:
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for other in others:
                other.cancel()
            if others:  # let them unwind before the loop stops (no task destroyed while pending)
                await asyncio.wait(others, timeout=self.GRACE_S)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(cancel_the_rest(), self.loop).result(timeout=self.GRACE_S)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=self.GRACE_S)
        if not self._thread.is_alive():
            self.loop.close()


class BrainClosedError(RunError):
    """A decision asked of an OpenAIBrain after ``close()`` (or cut off by it)."""


class OpenAIBrain(ProviderBrain):
    """A brain behind an OpenAI-compatible ``/v1/chat/completions`` endpoint (see module card)."""

    provider = "openai"
    serialize_calls = True  # per-episode state (history, decision index); the runner gives each episode one

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_file: str | Path | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 4,
        temperature: float = 0.0,
        max_tokens: int = 256,
        system_prompt: str | None = None,
        cache: bool | None = None,
        cache_dir: str | Path | None = None,
        history: int = 0,
        sample_id: str | int | None = None,
        max_consecutive_failures: int = 5,
        seed: int | None = 0,
        debug_session_labels: bool = False,
    ) -> None:
        super().__init__()
        if not model:
            raise BrainSpecError(f"{SPEC_PATTERN} needs a model name, e.g. 'openai/gpt-4o-mini'")
        if max_retries < 0 or timeout_s <= 0 or history < 0 or max_consecutive_failures < 1:
            raise ValueError(
                "expected max_retries >= 0, timeout_s > 0, history >= 0 and max_consecutive_failures >= 1, "
                f"got {max_retries}, {timeout_s}, {history}, {max_consecutive_failures}")
        self._openai = require_module("openai", spec_pattern=SPEC_PATTERN, extra="openai")
        self.name = f"openai/{model}"
        self.model = model
        self.timeout_s = float(timeout_s)
        self.max_retries = int(max_retries)
        self.params: dict[str, Any] = {"temperature": float(temperature), "max_tokens": int(max_tokens)}
        self.system_prompt = system_prompt
        self.history = int(history)
        self.sample_id = sample_id
        self.max_consecutive_failures = int(max_consecutive_failures)
        self.seed = seed
        self.debug_session_labels = bool(debug_session_labels)
        url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = api_key or read_key_file(api_key_file) or os.environ.get(API_KEY_ENV) or None
        if key is None and url is None:  # the public endpoint with key "EMPTY" would only answer 401s
            raise BrainSpecError(f"{self.name} needs an API key: set {API_KEY_ENV} (or the option "
                                 f"api_key_file=PATH), or point OPENAI_BASE_URL / base_url= at a server that "
                                 "needs none")
        key = key or "EMPTY"
        self._secret = key if key != "EMPTY" else None
        self._gate = gate_for(url or DEFAULT_BASE_URL)  # the endpoint's shared pause and connection slots
        self._loop = _LoopThread()
        self._client = self._loop.run(self._make_client(url, key))
        self.base_url = str(self._client.base_url)
        use_cache = float(temperature) == 0.0 if cache is None else bool(cache)
        self.cache = ResponseCache(cache_dir, secrets=[key]) if use_cache else None  # an echoed key is redacted
        self._turns: deque[ChatTurn] = deque(maxlen=max(1, self.history))
        self._episode = EpisodeContext(seed=seed)
        self._session = self._new_session_id()
        self._decision_index = 0
        self._consecutive_failures = 0
        self._fatal: str | None = None

    async def _make_client(self, base_url: str | None, key: str) -> Any:
        # every attempt waits while the endpoint is paused by a Retry-After any brain of this process (or run) got
        gate = self._gate
        http_client = self._openai.DefaultAsyncHttpxClient(
            verify=shared_ssl_context(),  # the same verification as httpx's default, built once per process
            event_hooks={"request": [gate.before_request], "response": [gate.after_response]})
        return self._openai.AsyncOpenAI(base_url=base_url, api_key=key, timeout=self.timeout_s,
                                        max_retries=self.max_retries, http_client=http_client)

    # -- episodes -----------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start a new episode: forget the chat history, count decisions from 0, take a new session id."""
        with self._lock:
            self._episode = EpisodeContext(seed=self.seed if seed is None else seed)
            self._turns.clear()
            self._decision_index = 0
            self._session = self._new_session_id()

    def start_episode(self, context: EpisodeContext | Mapping[str, Any]) -> None:
        """Name the episode just reset (scenario, instance, seed): it goes into cache keys and session ids."""
        ctx = context if isinstance(context, EpisodeContext) else EpisodeContext(**dict(context))
        with self._lock:
            self._episode = ctx
            self._session = self._new_session_id()

    def _new_session_id(self) -> str:
        """An opaque random token (``debug_session_labels``: labelled with the scenario, instance and seed)."""
        token = uuid.uuid4().hex
        if not self.debug_session_labels:
            return token
        ctx = self._episode
        parts = [p for p in (ctx.scenario, ctx.instance, None if ctx.seed is None else f"seed{ctx.seed}") if p]
        return "-".join(["wmbench", *parts, token[:12]])

    def _request_headers(self) -> dict[str, str]:
        """Extra HTTP headers: none, unless ``debug_session_labels`` asks for the labelled ones."""
        if not self.debug_session_labels:
            return {}
        headers = {SESSION_HEADER: self._session}
        if self._episode.seed is not None:
            headers[SEED_HEADER] = str(self._episode.seed)
        return headers

    def close(self) -> None:
        if self._loop.closed:
            return
        with contextlib.suppress(Exception):
            self._loop.run(self._client.close(), deadline_s=5)
        self._loop.close()

    # -- one decision -------------------------------------------------------------------------------------
    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        if self._fatal is not None:
            return ProviderOutcome(text="", error=self._fatal, fatal=True)
        if self._loop.closed:
            return ProviderOutcome(text="", error="the brain is closed; expected decisions before close()",
                                   fatal=True)
        messages = chat_messages(scene, system_prompt=self.system_prompt,
                                 history=list(self._turns)[-self.history:] if self.history else ())
        context = {"scenario": self._episode.scenario, "instance": self._episode.instance,
                   "seed": self._episode.seed, "decision": self._decision_index, "sample": self.sample_id}
        self._decision_index += 1
        key = cache_key(self.model, self.base_url, messages, self.params, context)
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            self._remember(scene, hit.text)
            self._consecutive_failures = 0
            return ProviderOutcome(text=hit.text, prompt_tokens=hit.prompt_tokens,
                                   completion_tokens=hit.completion_tokens, cached=True)
        outcome = self._ask(messages)
        if outcome.error is not None:
            return self._failed(outcome)
        self._consecutive_failures = 0
        self._remember(scene, outcome.text)
        if self.cache is not None:
            # a full or read-only cache folder costs a rerun, not this good reply (an echoed key is redacted)
            with contextlib.suppress(OSError, ValueError):
                self.cache.put(key, CachedResponse(
                    text=outcome.text, model=self.model, prompt_tokens=outcome.prompt_tokens,
                    completion_tokens=outcome.completion_tokens))
        return outcome

    def _ask(self, messages: list[dict[str, Any]]) -> ProviderOutcome:
        request = self._client.chat.completions.with_raw_response.create(
            model=self.model, messages=messages, user=self._session, extra_headers=self._request_headers(),
            **self.params)
        try:
            with self._gate.connection():  # the endpoint's connection budget (endpoint_gate), held while out
                raw = self._loop.run(request, deadline_s=self.timeout_s)
            completion = raw.parse()
        except asyncio.TimeoutError:
            return ProviderOutcome(text="", error=f"no complete answer from {self.base_url} within the "
                                                  f"{self.timeout_s:g} s deadline (timeout_s)")
        except Exception as exc:  # the endpoint/network/SDK failed: a failed decision, classified fatal or not
            return ProviderOutcome(text="", error=self._describe(exc), fatal=self._is_fatal(exc))
        if not isinstance(getattr(completion, "choices", None), list):  # e.g. 200 text/plain: parse() gives str
            response = getattr(raw, "http_response", None)
            kind = response.headers.get("content-type", "no content type") if response is not None else "?"
            return ProviderOutcome(text="", error=f"{self.base_url} answered {kind} {str(completion)[:80]!r}; "
                                                  "expected a chat.completion JSON object")
        retries = int(getattr(raw, "retries_taken", 0) or 0)
        usage = completion.usage
        prompt_tokens = usage.prompt_tokens if usage is not None else None
        completion_tokens = usage.completion_tokens if usage is not None else None
        choice = completion.choices[0] if completion.choices else None
        text = choice.message.content if choice is not None else None
        if not text or not text.strip():
            what = "no choices" if choice is None else (
                f"content {'null' if text is None else repr(text)} (finish_reason={choice.finish_reason!r})")
            return ProviderOutcome(text="", prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                                   retries=retries, error=f"empty reply from {self.base_url}: {what}")
        return ProviderOutcome(text=text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                               retries=retries)

    def _failed(self, outcome: ProviderOutcome) -> ProviderOutcome:
        self._consecutive_failures += 1
        if outcome.fatal:
            self._fatal = outcome.error
        elif self._consecutive_failures >= self.max_consecutive_failures:
            self._fatal = (f"{self._consecutive_failures} decisions in a row failed "
                           f"(max_consecutive_failures); the last: {outcome.error}")
        return ProviderOutcome(text="", prompt_tokens=outcome.prompt_tokens,
                               completion_tokens=outcome.completion_tokens, retries=outcome.retries,
                               error=self._fatal or outcome.error, fatal=self._fatal is not None)

    def _remember(self, scene: BrainInput, reply: str) -> None:
        if self.history:
            self._turns.append(ChatTurn(scene_json=scene_to_json(text_only(scene)), reply=reply))  # no pictures

    def _is_fatal(self, exc: Exception) -> bool:
        if isinstance(exc, BrainClosedError):
            return True
        if isinstance(exc, self._openai.APITimeoutError):
            return False
        if isinstance(exc, self._openai.APIConnectionError):  # still unreachable after the client's retries
            return True
        return isinstance(exc, self._openai.APIStatusError) and exc.status_code in FATAL_STATUS

    def _describe(self, exc: Exception) -> str:
        attempts = f" after {self.max_retries + 1} attempts" if self.max_retries else ""
        if isinstance(exc, self._openai.APITimeoutError):
            message = f"{self.base_url} timed out{attempts}"
        elif isinstance(exc, self._openai.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            detail = f"{type(cause).__name__}: {cause}" if cause is not None else str(exc)
            message = f"cannot reach {self.base_url}{attempts} ({detail})"
        elif isinstance(exc, self._openai.APIStatusError):
            body = exc.body if isinstance(exc.body, dict) else {}
            said = body.get("message") if isinstance(body.get("message"), str) else exc.message
            message = f"{self.base_url} answered HTTP {exc.status_code}: {said}"
        else:
            message = f"{type(exc).__name__}: {exc}"
        if self._secret:
            message = message.replace(self._secret, "***")
        return message

    def __repr__(self) -> str:  # never show the key
        return f"OpenAIBrain(model={self.model!r}, base_url={self.base_url!r})"

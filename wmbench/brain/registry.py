"""One registry for every brain: ``get_brain("openai/gpt-4o-mini")`` and friends.

Specs (built in)::

    reference            the scripted world model (wmbench.brain.reference.brain)
    null                 always the same calm reply            random      seeded random well-formed replies
    replay:<path>        replies read back from a file
    panel:<name>         a validity-panel brain, e.g. panel:left-first (wmbench.brain.panel.brains)
    openai/<model>       an OpenAI-compatible endpoint (extra: openai)
    hf/<path>            a local transformers model (extra: hf)
    onnx/<path>          an ONNX export run by onnxruntime (extra: onnx)

Plugins: any installed distribution may declare entry points in the group ``wmbench.brains``. The entry point
name is the spec (``demo-echo``), also matched with an argument (``demo-echo:loud`` or ``demo-echo/loud``).
What it loads is either a **function** called as ``fn(spec, **options)``, or a **class** called as
``cls(**options)``; either way the result must satisfy the :class:`~wmbench.brain.base.Brain` protocol.
Built-in names win over plugins of the same name. Lookup, lazy import and plugin loading are the shared
:class:`~wmbench.core.registry.Registry` (:data:`BRAINS`, keyed by provider prefix); this module adds the
spec parsing (``openai/MODEL``, ``replay:PATH``) and the optional-dependency checks on top.

Providers are imported only when asked for; a missing optional dependency raises
:class:`~wmbench.brain.errors.MissingExtraError` naming the extra to install.
"""

from __future__ import annotations

import importlib.util
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from typing import Any

from wmbench.brain.base import Brain
from wmbench.brain.errors import BrainSpecError, PluginLoadError, UnknownBrainError
from wmbench.core import errors as core_errors
from wmbench.core.errors import MissingExtraError
from wmbench.core.registry import Registry
from wmbench.core.suggest import nearest

PLUGIN_GROUP = "wmbench.brains"


@dataclass(frozen=True)
class BrainProvider:
    """A built-in provider: how a spec is recognised and what it builds.

    ``separator`` None means the spec is the bare ``prefix``; otherwise the text after ``prefix + separator``
    is passed to ``target`` as the keyword ``argument``. ``target`` is a lazy ``"module:Class"`` reference;
    ``requires`` are the optional modules it needs, brought by the ``extra``.
    """

    prefix: str
    target: str
    summary: str
    separator: str | None = None
    argument: str | None = None
    extra: str | None = None
    requires: tuple[str, ...] = ()

    @property
    def pattern(self) -> str:
        return self.prefix if self.separator is None else f"{self.prefix}{self.separator}<{self.argument}>"

    def argument_of(self, spec: str) -> str | None:
        """The spec's argument if this provider handles ``spec`` ("" for bare providers), else None."""
        if self.separator is None:
            return "" if spec == self.prefix else None
        head = self.prefix + self.separator
        return spec[len(head):] if spec.startswith(head) else None


BUILTIN_PROVIDERS: tuple[BrainProvider, ...] = (
    BrainProvider("reference", "wmbench.brain.reference.brain:ReferenceBrain", "scripted world model (default)"),
    BrainProvider("vision", "wmbench.brain.reference.vision:VisionBrain",
                  "scripted, perceives from the camera image (run with --observation image)"),
    BrainProvider("forecaster", "wmbench.brain.reference.forecaster:ForecasterBrain",
                  "the reference brain plus a FORECAST line (forecast scoring demo)"),
    BrainProvider("null", "wmbench.brain.baselines:NullBrain", "always the same calm reply"),
    BrainProvider("random", "wmbench.brain.baselines:RandomBrain", "seeded random well-formed replies"),
    BrainProvider("replay", "wmbench.brain.baselines:ReplayBrain", "replies read back from a file",
                  separator=":", argument="path"),
    BrainProvider("panel", "wmbench.brain.panel.brains:make_panel_brain", "a validity-panel brain (wmbench validity)",
                  separator=":", argument="name"),
    BrainProvider("openai", "wmbench.brain.providers.openai_chat:OpenAIBrain", "OpenAI-compatible endpoint",
                  separator="/", argument="model", extra="openai", requires=("openai",)),
    BrainProvider("hf", "wmbench.brain.providers.transformers_lm:HFBrain", "local transformers model",
                  separator="/", argument="path", extra="hf", requires=("torch", "transformers")),
    BrainProvider("onnx", "wmbench.brain.providers.onnx_lm:ONNXBrain", "ONNX model on onnxruntime",
                  separator="/", argument="path", extra="onnx", requires=("onnxruntime", "transformers")),
)


#: Provider prefix -> its class or factory (lazy), plus ``wmbench.brains`` entry points.
BRAINS: Registry[Callable[..., Any]] = Registry("brain", PLUGIN_GROUP, normalise=str.strip)
for _provider in BUILTIN_PROVIDERS:
    BRAINS.register_lazy(_provider.prefix, _provider.target)


def list_brains() -> list[str]:
    """Every spec pattern known now: the built-ins, then installed plugin names (sorted)."""
    builtin = [p.pattern for p in BUILTIN_PROVIDERS]
    plugins = sorted({ep.name for ep in _plugin_entry_points()} - {p.prefix for p in BUILTIN_PROVIDERS})
    return builtin + plugins


def get_brain(spec: str, **options: Any) -> Brain:
    """Build the brain a spec names (see module card); ``options`` go to its constructor.

    Raises UnknownBrainError (a ValueError) listing the known specs, BrainSpecError for a known prefix
    with a missing argument, MissingExtraError for a missing optional dependency, PluginLoadError for a
    broken plugin.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise UnknownBrainError("brain spec", repr(spec), list_brains())
    spec = spec.strip()
    for provider in BUILTIN_PROVIDERS:
        argument = provider.argument_of(spec)
        if argument is None:
            continue
        if provider.separator is not None and not argument:
            raise BrainSpecError(f"brain spec {spec!r} needs a {provider.argument}: {provider.pattern}")
        return _build_builtin(provider, argument, options)
    entry_point = _find_plugin(spec)
    if entry_point is not None:
        return _build_plugin(entry_point, spec, options)
    raise UnknownBrainError("brain spec", spec, list_brains(), suggestion=suggest_spec(spec))


#: model-name beginnings that say "an API model" when given without a provider prefix (``--brain gpt4``)
API_MODEL_HINTS = ("gpt", "o1", "o3", "o4", "chatgpt", "claude", "gemini", "llama", "mistral", "mixtral", "qwen",
                   "deepseek", "phi", "gemma")


def suggest_spec(spec: str) -> str | None:
    """The spec the user probably meant, or None: a known prefix with the wrong separator
    (``openai:gpt-4o`` -> ``openai/gpt-4o``), a misspelt prefix (``opneai/x`` -> ``openai/x``), a misspelt
    bare name (``referense`` -> ``reference``), or a bare API model name (``gpt4`` -> ``openai/gpt4``)."""
    spec = spec.strip()
    bare = [p.prefix for p in BUILTIN_PROVIDERS if p.separator is None]
    with_argument = {p.prefix: p for p in BUILTIN_PROVIDERS if p.separator is not None}
    for sep in (":", "/", " ", "="):
        head, found, rest = spec.partition(sep)
        if not found or not rest.strip():
            continue
        prefix = head.lower() if head.lower() in with_argument else nearest(head, with_argument)
        if prefix is not None:
            return f"{prefix}{with_argument[prefix].separator}{rest.strip()}"
    close = nearest(spec, bare)
    if close is not None:
        return close
    if spec.lower().startswith(API_MODEL_HINTS) and "openai" in with_argument:
        return f"openai/{spec}"
    return None


def _build_builtin(provider: BrainProvider, argument: str, options: dict[str, Any]) -> Brain:
    for module in provider.requires:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(provider.pattern, provider.extra or provider.prefix, module)
    try:
        factory = BRAINS.get(provider.prefix)
    except core_errors.PluginLoadError as exc:  # a built-in whose module is gone: an ImportError, as before
        raise ImportError(f"{provider.pattern}: provider {provider.target!r} is not available ({exc.__cause__})"
                          ) from exc
    if provider.argument is not None:
        options = {provider.argument: argument, **options}
    _check_options(factory, options, provider.pattern)
    return factory(**options)


def _check_options(factory: Any, options: dict[str, Any], pattern: str) -> None:
    """A clear TypeError for options the provider does not take (instead of a bare signature error)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # no introspectable signature: let the call itself decide
        return
    try:
        signature.bind(**options)
    except TypeError as exc:
        accepted = [name for name, p in signature.parameters.items()
                    if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        raise TypeError(f"{pattern}: bad options {sorted(options)} ({exc}); it accepts: "
                        f"{', '.join(accepted) or 'no options'}") from None


def _plugin_entry_points() -> list[EntryPoint]:
    return list(BRAINS.entry_points())


def _find_plugin(spec: str) -> EntryPoint | None:
    candidates = _plugin_entry_points()
    for entry_point in candidates:
        if spec == entry_point.name:
            return entry_point
    for entry_point in candidates:
        if spec.startswith((entry_point.name + ":", entry_point.name + "/")):
            return entry_point
    return None


def _build_plugin(entry_point: EntryPoint, spec: str, options: dict[str, Any]) -> Brain:
    origin = f"plugin {entry_point.name!r} ({entry_point.value})"
    try:
        loaded = BRAINS.load_entry_point(entry_point)
    except core_errors.PluginLoadError as exc:
        cause = exc.__cause__
        raise PluginLoadError(f"{origin} could not be loaded: {type(cause).__name__}: {cause}") from cause
    if not callable(loaded):
        raise PluginLoadError(f"{origin} must load a class or a function, got {type(loaded).__name__}")
    brain = loaded(**options) if isinstance(loaded, type) else loaded(spec, **options)
    if not isinstance(brain, Brain):
        raise PluginLoadError(
            f"{origin} returned {type(brain).__name__}, which is not a Brain "
            "(needs name, reset(seed), decide(scene) -> BrainReply, close())")
    return brain

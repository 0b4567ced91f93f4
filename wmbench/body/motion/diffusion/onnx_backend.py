"""The denoiser through onnxruntime, on the best provider onnxruntime itself offers.

The provider comes from ``onnxruntime.get_available_providers()`` (CUDA first when listed, else CPU), never
from torch; :attr:`OnnxDenoiser.providers` is what the session really got (onnxruntime falls back to CPU
when CUDA is listed but cannot start).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from wmbench.core.errors import ConfigError

#: Providers in order of preference.
PREFERRED_PROVIDERS: tuple[str, ...] = ("CUDAExecutionProvider", "CPUExecutionProvider")


def choose_providers(available: list[str]) -> list[str]:
    """The preferred providers that ``available`` lists, in preference order (CPU always last)."""
    chosen = [p for p in PREFERRED_PROVIDERS if p in available]
    return chosen or ["CPUExecutionProvider"]


class OnnxDenoiser:
    """Calls ``denoiser.onnx`` with the same arguments as the numpy denoiser."""

    def __init__(self, path: Path) -> None:
        try:
            import onnxruntime as ort
        except ImportError as exc:
            raise ImportError("the onnx motion backend needs onnxruntime: pip install 'wmbench[onnx]'") from exc
        if not Path(path).is_file():
            raise FileNotFoundError(f"no ONNX motion model at {path}; train one with `wmbench train-motion`")
        options = ort.SessionOptions()
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), options,
                                                providers=choose_providers(ort.get_available_providers()))
        except Exception as err:  # onnxruntime's own types (InvalidProtobuf, Fail, ...): a garbage file
            raise ConfigError(f"{path} cannot be loaded by onnxruntime ({type(err).__name__}: "
                              f"{str(err).strip()[:200]}); re-export with `wmbench train-motion`") from None
        self.providers: list[str] = list(self.session.get_providers())

    def __call__(self, noisy: np.ndarray, t: np.ndarray, context: np.ndarray, cond: np.ndarray,
                 tokens: np.ndarray) -> np.ndarray:
        feeds = {"noisy": noisy.astype(np.float32), "t": t.astype(np.int64), "context": context.astype(np.float32),
                 "cond": cond.astype(np.float32), "tokens": tokens.astype(np.int64)}
        return self.session.run(["clean"], feeds)[0]

"""The denoiser's forward pass and the DDIM sampler in numpy: inference from the shipped weights, no torch.

Card
----
:class:`NumpyDenoiser` mirrors :class:`~wmbench.body.motion.diffusion.denoiser_torch.Denoiser` operation for
operation from its ``state_dict`` arrays (float32; each linear layer is one 2-D matrix product over all rows of
the batch, and the GELU cubes by multiplication: 1.34x the single stream's frames/s of ``x ** 3`` and batched
3-D products, round 6). :func:`ddim_sample` runs deterministic DDIM (eta = 0, ``prediction_type = "sample"``)
over the step schedule that diffusers' ``DDIMScheduler`` computed at export time (``timesteps``,
``alphas_cumprod``, ``final_alpha_cumprod`` are stored with the weights), so the numpy sampler and the diffusers
one take the same steps (a test checks they agree); a batch of candidates may be pruned between steps
(``prune``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * (x * x * x))))


def _silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


class NumpyDenoiser:
    """The denoiser from ``weights`` (name -> array, as in the torch ``state_dict``) and its ``config``."""

    def __init__(self, weights: Mapping[str, np.ndarray], config: Mapping[str, int]) -> None:
        self.w = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        self.width, self.heads = int(config["width"]), int(config["heads"])
        self.layers, self.context = int(config["layers"]), int(config["context"])
        half = self.width // 2
        self._freqs = np.exp(-math.log(10000.0) * np.arange(half, dtype=np.float32) / half)

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        flat = x.reshape(-1, x.shape[-1]) @ self.w[name + ".weight"].T + self.w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], flat.shape[-1])

    def __call__(self, noisy: np.ndarray, t: np.ndarray, context: np.ndarray, cond: np.ndarray,
                 tokens: np.ndarray) -> np.ndarray:
        """Same arguments and result as the torch ``Denoiser.forward`` (numpy arrays, batch first)."""
        mask = (tokens > 0).astype(np.float32)[..., None]
        text = (self.w["word.weight"][tokens] * mask).sum(1) / np.maximum(mask.sum(1), 1.0)
        angles = np.asarray(t, dtype=np.float32)[:, None] * self._freqs[None]
        time = self._linear(_silu(self._linear(np.concatenate((np.sin(angles), np.cos(angles)), 1), "time1")),
                            "time2")
        cond_token = self._linear(cond, "cond_in") + self._linear(text, "text_proj") + time
        frames = self._linear(np.concatenate((context, noisy), axis=1), "frame_in")
        chunk = noisy.shape[1]
        kinds = np.concatenate((np.repeat(self.w["kind"][0:1], self.context, 0),
                                np.repeat(self.w["kind"][1:2], chunk, 0)))
        x = np.concatenate((cond_token[:, None], frames + kinds[None]), axis=1) + self.w["position"][None]
        b, n, width = x.shape
        dh = width // self.heads
        for i in range(self.layers):
            p = f"layers.{i}."
            h = _layer_norm(x, self.w[p + "norm1.weight"], self.w[p + "norm1.bias"])
            q, k, v = self._linear(h, p + "qkv").reshape(b, n, 3, self.heads, dh).transpose(2, 0, 3, 1, 4)
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(dh)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attn = scores / scores.sum(-1, keepdims=True)
            x = x + self._linear((attn @ v).transpose(0, 2, 1, 3).reshape(b, n, width), p + "out")
            h = _layer_norm(x, self.w[p + "norm2.weight"], self.w[p + "norm2.bias"])
            x = x + self._linear(_gelu_tanh(self._linear(h, p + "ff1")), p + "ff2")
        x = _layer_norm(x[:, 1 + self.context:], self.w["norm.weight"], self.w["norm.bias"])
        return self._linear(x, "frame_out")


#: ``(noisy, t, context, cond, tokens) -> clean chunk``: a numpy denoiser or an onnxruntime session wrapper.
DenoiseFn = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]
#: ``(step index, predicted clean chunks (B, CHUNK, D)) -> indices of the candidates to keep, or None``: the
#: pruning hook of :func:`ddim_sample` (candidate selection, ``generator._Stream``).
PruneFn = Callable[[int, np.ndarray], "np.ndarray | None"]


def ddim_sample(denoise: DenoiseFn, noise: np.ndarray, context: np.ndarray, cond: np.ndarray,
                tokens: np.ndarray, timesteps: np.ndarray, alphas_cumprod: np.ndarray,
                final_alpha_cumprod: float, prune: PruneFn | None = None) -> np.ndarray:
    """Deterministic DDIM from ``noise`` (B, CHUNK, D) over ``timesteps`` (descending); returns the clean
    chunks. The update is diffusers' DDIM step with eta = 0 and a predicted sample. Each row is its own
    sample (the batch is only stacked for speed). ``prune``, when given, is called after each step but the
    last with the step's index and predicted clean chunks; the rows it names (None: all) go on."""
    x = noise.astype(np.float32)
    steps = [int(s) for s in timesteps]
    for i, t in enumerate(steps):
        x0 = denoise(x, np.full(len(x), t, dtype=np.int64), context, cond, tokens).astype(np.float32)
        a_t = float(alphas_cumprod[t])
        a_prev = float(alphas_cumprod[steps[i + 1]]) if i + 1 < len(steps) else float(final_alpha_cumprod)
        eps = (x - math.sqrt(a_t) * x0) / math.sqrt(1.0 - a_t)
        x = (math.sqrt(a_prev) * x0 + math.sqrt(1.0 - a_prev) * eps).astype(np.float32)
        keep = prune(i, x0) if prune is not None and i + 1 < len(steps) else None
        if keep is not None:
            x, context, cond, tokens = x[keep], context[keep], cond[keep], tokens[keep]
    return x

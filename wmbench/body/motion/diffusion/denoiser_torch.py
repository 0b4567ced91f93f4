"""The denoiser network in torch (training and ONNX export only; inference runs without torch).

Card
----
A small MDM-style transformer over frames. Tokens: one *condition token* (intent vector + the text encoder's
mean word embedding + the diffusion step's sinusoidal embedding, each through its own projection), then
``CONTEXT`` clean previous frames, then ``CHUNK`` noisy frames; each token gets a learned position embedding and
a context/noisy type embedding. Pre-norm encoder layers (multi-head self-attention, tanh-GELU feed-forward),
a final layer norm, and a linear read-out of the noisy tokens predict the clean chunk (``prediction_type =
"sample"``, as MDM does). The text encoder is a learned word embedding (no downloaded text model), mean-pooled
over the words present and projected. Every layer is written out explicitly so :mod:`denoiser_numpy` can
mirror it operation for operation.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
from torch import nn

from wmbench.body.motion.diffusion.dataset import CHUNK, COND_DIM, CONTEXT, FRAME_DIM, MAX_WORDS


@dataclass(frozen=True)
class DenoiserConfig:
    """Sizes of the denoiser: ``width`` of the tokens, attention ``heads``, encoder ``layers``, feed-forward
    width ``ff``, ``vocabulary`` size (word ids 1..vocabulary-1; 0 pads)."""

    vocabulary: int
    width: int = 128
    heads: int = 4
    layers: int = 4
    ff: int = 256
    frame_dim: int = FRAME_DIM
    cond_dim: int = COND_DIM
    context: int = CONTEXT
    chunk: int = CHUNK
    max_words: int = MAX_WORDS

    def to_dict(self) -> dict:
        return asdict(self)


def timestep_embedding(t: torch.Tensor, width: int) -> torch.Tensor:
    """(B,) diffusion steps -> (B, width) sinusoidal embedding [sin, cos]."""
    half = width // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    angles = t.float()[:, None] * freqs[None]
    return torch.cat((torch.sin(angles), torch.cos(angles)), dim=1)


class EncoderLayer(nn.Module):
    """Pre-norm self-attention + feed-forward block."""

    def __init__(self, width: int, heads: int, ff: int) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.ff1 = nn.Linear(width, ff)
        self.ff2 = nn.Linear(ff, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, w = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(b, n, 3, self.heads, w // self.heads).permute(2, 0, 3, 1, 4)
        attn = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(w // self.heads), dim=-1)
        x = x + self.out((attn @ v).transpose(1, 2).reshape(b, n, w))
        return x + self.ff2(nn.functional.gelu(self.ff1(self.norm2(x)), approximate="tanh"))


class Denoiser(nn.Module):
    """Predicts the clean chunk from a noisy one, the step, the context frames, the intent and the words."""

    def __init__(self, config: DenoiserConfig) -> None:
        super().__init__()
        c = config
        self.config = c
        self.frame_in = nn.Linear(c.frame_dim, c.width)
        self.cond_in = nn.Linear(c.cond_dim, c.width)
        self.word = nn.Embedding(c.vocabulary, c.width)
        self.text_proj = nn.Linear(c.width, c.width)
        self.time1 = nn.Linear(c.width, c.width)
        self.time2 = nn.Linear(c.width, c.width)
        self.position = nn.Parameter(torch.randn(1 + c.context + c.chunk, c.width) * 0.02)
        self.kind = nn.Parameter(torch.randn(2, c.width) * 0.02)
        self.layers = nn.ModuleList(EncoderLayer(c.width, c.heads, c.ff) for _ in range(c.layers))
        self.norm = nn.LayerNorm(c.width)
        self.frame_out = nn.Linear(c.width, c.frame_dim)

    def forward(self, noisy: torch.Tensor, t: torch.Tensor, context: torch.Tensor, cond: torch.Tensor,
                tokens: torch.Tensor) -> torch.Tensor:
        """``noisy`` (B, CHUNK, D), ``t`` (B,), ``context`` (B, CONTEXT, D), ``cond`` (B, COND_DIM), ``tokens``
        (B, MAX_WORDS) int64 -> predicted clean chunk (B, CHUNK, D)."""
        mask = (tokens > 0).float()[..., None]
        text = (self.word(tokens) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        time = self.time2(nn.functional.silu(self.time1(timestep_embedding(t, self.config.width))))
        cond_token = self.cond_in(cond) + self.text_proj(text) + time
        frames = self.frame_in(torch.cat((context, noisy), dim=1))
        kinds = torch.cat((self.kind[0:1].expand(self.config.context, -1),
                           self.kind[1:2].expand(self.config.chunk, -1)), dim=0)
        x = torch.cat((cond_token[:, None], frames + kinds[None]), dim=1) + self.position[None]
        for layer in self.layers:
            x = layer(x)
        return self.frame_out(self.norm(x[:, 1 + self.config.context:]))


class TorchDenoiser:
    """The shipped weights in the torch network on ``device`` (``"cuda"`` when torch sees a GPU, else CPU),
    called with numpy arrays like the numpy denoiser: the GPU inference path (needs the ``motion`` extra)."""

    def __init__(self, weights: dict, config: dict, device: str | None = None) -> None:
        names = ("vocabulary", "width", "heads", "layers", "ff", "frame_dim", "cond_dim", "context", "chunk",
                 "max_words")
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.model = Denoiser(DenoiserConfig(**{k: int(config[k]) for k in names}))
        self.model.load_state_dict({k: torch.as_tensor(v) for k, v in weights.items()})
        self.model.to(self.device).eval()

    @torch.no_grad()
    def __call__(self, noisy, t, context, cond, tokens):
        args = [torch.as_tensor(a).to(self.device) for a in (noisy, t, context, cond, tokens)]
        return self.model(*args).cpu().numpy()

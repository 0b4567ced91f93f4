"""``--motion-model NAME``: the option ``run``, ``live`` and ``bench`` share, and ``wmbench train-motion``.

:func:`add_motion_model_argument` adds the option; :func:`apply_motion_model` selects the generator before
the command runs (``wmbench.body.motion.registry.select_generator``: the choice travels to worker processes through
the environment). An unknown name, or a generator that cannot be built (a missing extra, missing weights),
is a usage error naming what is available.
"""

from __future__ import annotations

import argparse

from wmbench.body.motion.diffusion.train import check_args, configure, run
from wmbench.body.motion.registry import select_generator, selected_generator_name
from wmbench.core.errors import ConfigError
from wmbench.harness.cli.base import UsageError
from wmbench.harness.run.out_dir import check_out_dir, check_out_file


def add_motion_model_argument(p: argparse.ArgumentParser) -> None:
    """Add ``--motion-model`` to a subcommand's parser."""
    p.add_argument("--motion-model", default=None, metavar="NAME",
                   help="motion generator that animates the character/robot: procedural (default), keyframe, "
                        "diffusion or a plugin of the wmbench.motion_generators entry-point group")


def apply_motion_model(args: argparse.Namespace) -> str:
    """Select ``args.motion_model`` (when given); returns the generator now selected."""
    name = getattr(args, "motion_model", None)
    if name is None:
        return selected_generator_name()
    try:
        return select_generator(name)
    except (KeyError, ImportError, FileNotFoundError, ValueError) as err:
        # str(err), not err.args[0]: a FileNotFoundError's first arg is its errno (the old "--motion-model: 2")
        raise UsageError(f"--motion-model {name!r}: {err.args[0] if isinstance(err, KeyError) and err.args else err}"
                         ) from None


def configure_train_motion(p: argparse.ArgumentParser) -> None:
    configure(p)


def train_motion_command(args: argparse.Namespace) -> int:
    """``wmbench train-motion``: needs the ``motion`` extra (torch, diffusers). The arguments are checked before
    diffusers is imported (seconds of CPU), so a bad argument is answered at once; an extra that is missing or
    does not import is one usage line either way."""
    extra = "train-motion needs the motion extra (pip install 'wmbench[motion]')"
    try:
        import torch  # noqa: F401  (check_args reads torch: the denoiser's heads, CUDA)
    except ImportError as err:
        raise UsageError(f"{extra}: {err}") from None
    try:
        check_args(args)  # the arguments in train's own words first, then the extra, then where the output goes
    except ConfigError as err:
        raise UsageError(str(err)) from None
    try:
        import diffusers  # noqa: F401
    except ImportError as err:
        raise UsageError(f"{extra}: {err}") from None
    try:
        if args.save_windows is not None:
            check_out_file(args.save_windows, "--save-windows", "a .npz file")
        else:  # before training, not when the weights are written
            check_out_dir(args.out)
        return run(args)
    except ConfigError as err:  # an output that cannot be written or unreadable windows
        raise UsageError(str(err)) from None

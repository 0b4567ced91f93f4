"""The learned motion generator: a text-to-motion diffusion model trained on DeepMimic mocap.

Modules, in the order data flows: :mod:`deepmimic` (clips from ``pybullet_data`` -> 22 joints),
:mod:`dataset` (labelled, augmented training windows and the data card), :mod:`denoiser_torch` (the network,
for training and export), :mod:`train` (``wmbench train-motion``), :mod:`denoiser_numpy` (the same network and
the DDIM sampler in numpy), :mod:`onnx_backend` (onnxruntime), :mod:`blas_threads` (single-threaded BLAS while
sampling) and :mod:`generator` (``DiffusionGenerator``, registered as ``diffusion``). The shipped model is in
``weights/`` (see ``docs/motion_models.md``). Importing this package imports neither torch nor diffusers.
"""

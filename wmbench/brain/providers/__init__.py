"""Model-backed brains: OpenAI-compatible endpoints, local transformers and ONNX LMs, and what they share."""

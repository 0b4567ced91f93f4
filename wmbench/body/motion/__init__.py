"""Motion generators: a MotionIntent in, 22-joint frames out — the contract, the registry and every generator."""

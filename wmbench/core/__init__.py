"""Shared vocabulary of wmbench: the leaf package every other part imports and that imports nothing of ours."""

"""Counterfactual replay: fork a recorded episode at a decision, play another reply, score both branches; blame."""

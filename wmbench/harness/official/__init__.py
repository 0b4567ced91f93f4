"""The official WM Bench, both ways: Track-A static scoring, official export, the dataset export."""

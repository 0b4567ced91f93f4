"""The scripted brains that prove every scenario solvable: the reference, its forecaster and the vision brain."""

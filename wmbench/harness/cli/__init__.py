"""The ``wmbench`` command line: the composition root that wires runs, reports and measurers."""

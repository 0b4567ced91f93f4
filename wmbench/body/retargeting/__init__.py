"""Retargeting: the 22-joint pose carried onto other rigs."""

"""Speed envelopes: the once-sorted classifier answers exactly like classify_speed."""

from __future__ import annotations

import numpy as np
import pytest

from wmbench.body.envelope import SpeedClassifier, classifier_for, classify_speed, scaled_envelope
from wmbench.core.speed import SPEED_CLASS_SPEEDS

UNSORTED = {"still": 0.0, "walk": 2.0, "jog": 1.0, "run": 4.5, "sprint": 6.5}


@pytest.mark.parametrize("envelope", [scaled_envelope(2.5), scaled_envelope(3.0), SPEED_CLASS_SPEEDS, UNSORTED])
def test_the_classifier_equals_classify_speed_everywhere(envelope):
    classify = SpeedClassifier(envelope)
    halfway = [(a + b) / 2 for a in envelope.values() for b in envelope.values()]  # the thresholds themselves
    for speed in [*np.linspace(-1.0, 8.0, 4001).tolist(), *halfway, *np.nextafter(halfway, 10.0).tolist()]:
        assert classify(speed) == classify_speed(speed, envelope)


def test_a_replaced_envelope_gets_a_new_classifier():
    first = classifier_for(SPEED_CLASS_SPEEDS, None)
    assert classifier_for(SPEED_CLASS_SPEEDS, first) is first
    other = classifier_for(UNSORTED, first)
    assert other is not first and other(1.2) == classify_speed(1.2, UNSORTED) != first(1.2)

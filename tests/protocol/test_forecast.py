"""The optional FORECAST line (issue 27 item 2): read like PREDICT, with a required horizon; never changes PREDICT."""

from __future__ import annotations

import pytest

from wmbench.protocol.forecast import ForecastItem, parse_forecast
from wmbench.protocol.grammar import parse_reply

TWO_LINES = "PREDICT: left=danger(beast), right=safe(open), fwd=safe(open), back=safe(open)\nMOTION: walks right"


def test_items_carry_their_horizons():
    items = parse_forecast(TWO_LINES + "\nFORECAST: fwd=danger(beast)@+1s, left=safe(open)@+2.5 s")
    assert items == (ForecastItem("fwd", "danger", "beast", 1.0), ForecastItem("left", "safe", "open", 2.5))


@pytest.mark.parametrize("line, expected", [
    ("**Forecast:** front = danger (beast) @ +1.5 s; back=safe @+3", [("fwd", 1.5), ("back", 3.0)]),
    ("- FORECAST = all=safe(open)@+2", [("fwd", 2.0), ("left", 2.0), ("right", 2.0), ("back", 2.0)]),
    ("FORECAST: fwd=danger(beast)", []),                   # no horizon: not a forecast
    ("FORECAST: fwd=danger(beast)@+999s", []),             # beyond any episode
    ("The forecast: fwd=danger(beast)@+1s", []),           # a label opens its line
])
def test_tolerant_reading_and_what_is_refused(line, expected):
    assert sorted((i.direction, i.horizon_s) for i in parse_forecast(f"{TWO_LINES}\n{line}")) == sorted(expected)


def test_a_forecast_line_never_changes_the_parsed_reply():
    with_forecast = parse_reply(TWO_LINES + "\nFORECAST: fwd=danger(beast)@+1s, left=safe(open)@+1s")
    assert with_forecast == parse_reply(TWO_LINES)
    assert parse_forecast(None) == () and parse_forecast(TWO_LINES) == ()

"""Reading replies: a repeated text reply is parsed once and reads exactly like a fresh parse."""

from __future__ import annotations

from wmbench.envs.decisions import _read, read_reply

REPLY = ("PREDICT: left=safe(open), right=danger(wall), fwd=safe(open), back=safe(open)\n"
         "MOTION: a person jogs forward, alert")


def test_a_repeated_reply_reads_like_a_fresh_parse_and_is_parsed_once():
    first = read_reply(REPLY, 2000)
    again = read_reply("".join(list(REPLY)), 2000)   # an equal string, another object
    assert again is first                             # served from the cache
    assert first == _read(REPLY, 2000)                # ... and equal to reading it anew
    assert first.intent.speed_class.value == "jog" and first.parsed.ok


def test_the_clip_length_is_part_of_the_key():
    short = read_reply(REPLY, 40)
    assert short.reply == REPLY[:40] and short.reply_chars == len(REPLY)
    assert short != read_reply(REPLY, 2000)


def test_non_str_actions_are_read_as_before():
    class Text(str):
        pass

    odd = Text(REPLY)
    assert read_reply(odd, 2000) == _read(odd, 2000)
    assert read_reply(REPLY.encode(), 2000) == _read(REPLY.encode(), 2000)
    assert read_reply(None, 2000).intent.speed_class.value == "still"

"""The on-disk response cache: stable keys, atomic round trips, misses on damage."""

from __future__ import annotations

from wmbench.brain.providers.response_cache import CachedResponse, ResponseCache, cache_key, default_cache_dir

MESSAGES = [{"role": "system", "content": "rules"}, {"role": "user", "content": "{\"walls\": {}}"}]
PARAMS = {"temperature": 0.0, "max_tokens": 256}


def test_key_is_stable_and_depends_on_every_part():
    key = cache_key("m", "http://x/v1", MESSAGES, PARAMS)
    assert key == cache_key("m", "http://x/v1", list(MESSAGES), dict(reversed(list(PARAMS.items()))))
    assert len(key) == 64
    others = {
        cache_key("m2", "http://x/v1", MESSAGES, PARAMS),
        cache_key("m", "http://y/v1", MESSAGES, PARAMS),
        cache_key("m", "http://x/v1", MESSAGES[:1], PARAMS),
        cache_key("m", "http://x/v1", MESSAGES, {**PARAMS, "temperature": 0.7}),
    }
    assert key not in others and len(others) == 4


def test_round_trip_and_damaged_files_are_misses(tmp_path):
    cache = ResponseCache(tmp_path)
    key = cache_key("m", "u", MESSAGES, PARAMS)
    assert cache.get(key) is None
    stored = CachedResponse(text="PREDICT: x\nMOTION: y", model="m", prompt_tokens=3, completion_tokens=4)
    path = cache.put(key, stored)
    assert path == tmp_path / key[:2] / f"{key}.json"
    assert cache.get(key) == stored
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp files left behind
    path.write_text("{not json")
    assert cache.get(key) is None


def test_cache_dir_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("WMBENCH_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    assert ResponseCache().directory == tmp_path / "c"
    monkeypatch.delenv("WMBENCH_CACHE_DIR")
    assert default_cache_dir().parts[-3:] == (".cache", "wmbench", "responses")

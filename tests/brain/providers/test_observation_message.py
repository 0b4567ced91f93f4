"""Image observations over HTTP: the openai client sends the strip as an image part, ``wmbench serve`` hands
it back to the served brain (real server on 127.0.0.1, real episodes)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.brain.provider_fixtures import calm_scene
from wmbench.brain.prompt import build_messages
from wmbench.brain.providers.observation_message import MODE_NOTES, observation_messages, scene_with_images
from wmbench.brain.reference.vision import VisionBrain
from wmbench.brain.server.endpoint import make_server
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.observation import encode_png_data_url
from wmbench.protocol.trace import Trace
from wmbench.scoring import score_trace

pytest.importorskip("openai")


def test_text_scenes_give_the_prompt_module_messages():
    assert observation_messages(calm_scene()) == build_messages(calm_scene())


def test_image_scene_becomes_a_text_part_and_an_image_part_and_the_mode_is_explained():
    url = encode_png_data_url(np.zeros((8, 32, 3), dtype=np.uint8))
    scene = {"observation": "image", "t": 0.0, "recent_decisions": [], "last_prediction": None, "image": url}
    system, user = observation_messages(scene)
    assert MODE_NOTES["image"] in system["content"]
    text, image = user["content"]
    assert text["type"] == "text" and "image" not in json.loads(text["text"])
    assert image == {"type": "image_url", "image_url": {"url": url}}
    assert scene_with_images(json.loads(text["text"]), user["content"]) == scene  # what serve rebuilds


def test_served_vision_brain_scores_from_images_through_the_openai_client(tmp_path):
    """End to end: env (image mode) -> openai client -> HTTP -> wmbench serve -> VisionBrain -> reply."""
    from wmbench.brain.providers.openai_chat import OpenAIBrain

    local = run_episode("S07", VisionBrain(), env_kwargs={"observation": "image"})
    with make_server(VisionBrain()) as server:
        server.start_in_thread()
        client = OpenAIBrain("vision", base_url=server.url, cache=False)
        served = run_episode("S07", client, env_kwargs={"observation": "image"})
        client.close()
        requests = server.requests_served
    assert served.ok and served.failed_decisions == 0, served.error
    replies = [d["reply"] for d in served.trace["decisions"]]
    assert replies == [d["reply"] for d in local.trace["decisions"]]  # the served brain saw the same pixels
    assert any("beast" in r for r in replies)  # ... and saw the beast in them (the text part has no npcs)
    assert score_trace(Trace.from_dict(served.trace)).score > 10
    assert requests == len(replies)


def test_serve_refuses_an_image_part_that_is_not_a_data_url():
    import urllib.error
    import urllib.request

    messages = build_messages(calm_scene())
    messages[1]["content"] = [{"type": "text", "text": messages[1]["content"]},
                              {"type": "image_url", "image_url": {"url": "http://example.com/x.png"}}]
    with make_server("vision") as server:
        server.start_in_thread()
        request = urllib.request.Request(server.url + "/chat/completions",
                                         data=json.dumps({"model": "v", "messages": messages}).encode(),
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as failure:
            urllib.request.urlopen(request, timeout=10)
    assert failure.value.code == 400
    assert "data URL" in json.loads(failure.value.read())["error"]["message"]


def test_the_optional_map_travels_as_a_second_image_part():
    from wmbench.envs.wmbench_env import WMBenchEnv
    from wmbench.protocol.observation import brain_input

    env = WMBenchEnv("S02", observation="image", panorama_panel=16, image_map=True)
    try:
        obs, _ = env.reset(seed=0)
        assert env.observation_space.contains(obs) and obs["map"].shape == (96, 96, 3)
        scene = brain_input(obs)
    finally:
        env.close()
    system, user = observation_messages(scene)
    assert "map seen from straight above" in system["content"]
    urls = [p["image_url"]["url"] for p in user["content"][1:]]
    assert urls == [scene["image"], scene["map"]]
    assert scene_with_images(json.loads(user["content"][0]["text"]), user["content"]) == scene
    with pytest.raises(ValueError, match="needs an image observation"):
        WMBenchEnv("S02", image_map=True)

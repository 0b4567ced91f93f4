"""Every OpenAI brain of a process verifies TLS with one SSL context (httpx's default, built once): building
one per brain cost ~80 ms of CPU each, paid serially by a run's 16 episode threads before their first requests."""

from __future__ import annotations

import ssl

import pytest

from wmbench.brain.providers.openai_chat import shared_ssl_context
from wmbench.brain.registry import get_brain

pytest.importorskip("openai")
certifi = pytest.importorskip("certifi")


def _context_of(brain: object) -> ssl.SSLContext:
    return brain._client._client._transport._pool._ssl_context  # type: ignore[attr-defined]


def test_brains_share_one_verifying_context(monkeypatch):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    brains = [get_brain("openai/m", base_url="http://127.0.0.1:9/v1", api_key="EMPTY", cache=False)
              for _ in range(3)]
    try:
        assert {id(_context_of(b)) for b in brains} == {id(shared_ssl_context())}
        context = shared_ssl_context()
        assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname  # httpx's default
    finally:
        for brain in brains:
            brain.close()


def test_another_ca_bundle_gets_its_own_context(monkeypatch):
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    default = shared_ssl_context()
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    bundle = shared_ssl_context()
    assert bundle is not default and bundle is shared_ssl_context()
    assert bundle.verify_mode == ssl.CERT_REQUIRED

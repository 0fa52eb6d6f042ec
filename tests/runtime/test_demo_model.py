"""Which model the demo chooses: an ``e2ee-*`` model read from the endpoint's /models, never a
hard-coded id (``venice-uncensored`` was retired while the demo still named it)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from letta_tool_emulation.runtime.demo import NoModel, default_model
from letta_tool_emulation.runtime.standin import StandIn
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL


def text_model(model_id: str, tools: bool, e2ee: bool) -> dict[str, Any]:
    caps = {"supportsFunctionCalling": tools, "supportsE2EE": e2ee}
    return {"id": model_id, "type": "text", "model_spec": {"capabilities": caps, "availableContextTokens": 32768}}


class Listing:
    """A /models endpoint serving whatever ``models`` holds."""

    def __init__(self) -> None:
        self.models: list[dict[str, Any]] = []
        listing = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = json.dumps({"data": listing.models}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listing() -> Iterator[Listing]:
    endpoint = Listing()
    yield endpoint
    endpoint.close()


def test_the_stand_ins_end_to_end_encrypted_model() -> None:
    with StandIn() as standin:
        assert default_model(standin.url, "stand-in") == f"venice/{E2EE_MODEL}"


def test_an_e2ee_model_without_native_tools_first_and_never_a_retired_default(listing: Listing) -> None:
    listing.models = [
        text_model("venice-uncensored", tools=False, e2ee=False),
        text_model("e2ee-glm-5-1", tools=True, e2ee=True),
        text_model("e2ee-gemma-3-27b-p", tools=False, e2ee=True),
        text_model("e2ee-gpt-oss-20b-p", tools=False, e2ee=True),
    ]
    assert default_model(listing.url, None) == "venice/e2ee-gemma-3-27b-p"
    listing.models = [text_model("venice-uncensored", tools=False, e2ee=False), text_model("e2ee-glm-5-1", True, True)]
    assert default_model(listing.url, None) == "venice/e2ee-glm-5-1"  # emulated all the same in E2EE mode


def test_no_e2ee_model_or_no_listing_says_what_to_do(listing: Listing) -> None:
    listing.models = [text_model("venice-uncensored", tools=False, e2ee=False)]
    with pytest.raises(NoModel, match="lists no e2ee-\\* model; pass --model"):
        default_model(listing.url, None)
    url = listing.url
    listing.close()
    with pytest.raises(NoModel, match="could not be read; pass --model"):
        default_model(url, None)

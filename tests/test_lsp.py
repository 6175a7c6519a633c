"""Issue #25 item 6: `kierki lsp` driven by a real LSP client over stdio (JSON-RPC with
Content-Length framing): lint's findings as the author types, hover, completion and
go-to-definition for `extends`."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")

KIERKI = os.path.join(os.path.dirname(sys.executable), "kierki")


class Client:
    """A minimal LSP client: requests with ids, notifications, and the server's messages."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([KIERKI, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    return
                header += byte
            length = int(next(h for h in header.decode().split("\r\n") if h.lower().startswith("content-length")).split(":")[1])
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m).get("result")

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def wait(self, want) -> dict:
        while True:
            m = self.inbox.get(timeout=60)
            if want(m):
                return m

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def client():
    c = Client()
    try:
        c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.notify("initialized", {})
        yield c
    finally:
        c.close()


def _open(client: Client, path: Path, text: str) -> list:
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    return client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]["diagnostics"]


def test_findings_hover_completion_and_definition_over_stdio(tmp_path, client):
    path = tmp_path / "house.yaml"
    text = "kierki: 1\nextends: kierki_standard.yaml\nname: house\ncontracts:\n  bez_krola_kier:\n    lead_ban: card == HK\n"
    found = _open(client, path, text)  # unsaved: the file is not on disk
    n401 = [d for d in found if d["code"] == "N401"]
    assert [d["range"]["start"] for d in n401] == [{"line": 5, "character": 22}]
    assert "did you mean 'KH'?" in n401[0]["message"] and n401[0]["severity"] == 1

    uri = path.as_uri()
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": text.replace("HK", "KH")}]})
    fixed = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]["diagnostics"]
    assert [d["code"] for d in fixed] == ["M624"]  # the base's reason no longer fits the changed ban

    def hover(line: int, col: int) -> str:
        result = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}})
        return result["contents"]["value"] if result else ""

    assert "a ruleset this one modifies" in hover(1, 2)  # the key's doc from the schema
    assert "Bez króla kier" in hover(4, 5)  # the contract, in words
    assert "the card being tested" in hover(5, 16)  # an expression name

    items = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 23}})
    labels = {i["label"] for i in items["items"]}
    assert {"KH", "hearts", "trick.is_last", "held", "card.suit"} <= labels
    assert not {"seat", "match.total", "tricks_taken"} & labels, "only the names of a play restriction"
    keys = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 4, "character": 0}})
    assert {"lead_ban", "score", "extends", "schedule"} <= {i["label"] for i in keys["items"]}

    target = client.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 12}})
    assert target["uri"].endswith("/kierki_standard.yaml") and target["range"]["start"]["line"] == 0


def test_hover_on_a_finding_code_explains_it():
    from kierki_dsl.lsp.server import hover_text

    assert "declared total disagrees" in hover_text("# M601\n", 0, 3)


def test_completion_offers_the_names_of_the_cursors_scope_over_stdio(tmp_path, client):
    """Through a real client: in a trick-scoring condition ``trick.*`` and not ``seat`` or
    ``match.total``; in seat scoring ``seat`` and ``match.total`` and not ``trick.winner``."""
    path = tmp_path / "house.yaml"
    text = ("kierki: 1\nextends: kierki_standard.yaml\nname: house\ncontracts:\n  bez_lew:\n    score:\n"
            "      - per_trick: -20\n        when: trick.\n      - per_seat: match.\n")
    _open(client, path, text)
    uri = path.as_uri()

    def labels(line: int, col: int) -> set:
        got = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                         "position": {"line": line, "character": col}})
        return {i["label"] for i in got["items"]}

    trick = labels(7, 20)
    assert {"trick.number", "trick.is_last", "trick.winner"} <= trick and not {"seat", "match.total", "card"} & trick
    seat = labels(8, 28)
    assert {"seat", "match.total", "tricks_taken"} <= seat and not {"trick.winner", "led_suit", "card"} & seat

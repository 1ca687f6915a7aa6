"""A real HTTP receiver of completion notices on loopback, in a thread of the test process.

Each request is recorded (path, headers, exact body) with what it was answered; a
``behaviour`` decides the answer per request: a status, after an optional pause (longer than
the sender's timeout: a request that times out), or dropping the connection unanswered.
"""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int = 200
    pause: float = 0.0  # seconds before answering
    drop: bool = False  # close the connection without an answer


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes
    answer: Answer
    number: int  # 0 for the first request the server received

    @property
    def key(self) -> str:
        return self.headers.get("idempotency-key", "")

    @property
    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.body)
        return data

    @property
    def delivered(self) -> bool:
        """Answered 2xx (a paused answer may still have come after the sender gave up)."""
        return 200 <= self.answer.status < 300 and not self.answer.drop


Behaviour = Callable[[int, str], Answer]  # (request number, idempotency key) -> answer


def always_ok(number: int, key: str) -> Answer:
    del number, key
    return Answer()


def failing_half(seed: int = 7) -> Behaviour:
    """Every request fails (500) or not by a fair coin of its own."""
    coin = random.Random(seed)
    lock = threading.Lock()

    def answer(number: int, key: str) -> Answer:
        del number, key
        with lock:
            return Answer(500) if coin.random() < 0.5 else Answer()

    return answer


@dataclass
class WebhookServer:
    behaviour: Behaviour = always_ok
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/import"

    def delivered_keys(self) -> list[str]:
        with self.lock:
            return [r.key for r in self.received if r.delivered]

    def all(self) -> list[Received]:
        with self.lock:
            return list(self.received)


def _handler(server: WebhookServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a receiver in production would

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            key = self.headers.get("Idempotency-Key", "")
            with server.lock:
                number = len(server.received)
                answer = server.behaviour(number, key)
                headers = {name.lower(): value for name, value in self.headers.items()}
                server.received.append(Received(self.path, headers, body, answer, number))
            if answer.pause:
                time.sleep(answer.pause)
            if answer.drop:
                self.close_connection = True
                return
            try:
                text = b"ok" if answer.status < 300 else b"receiver says no"
                self.send_response(answer.status)
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)
            except OSError:  # the sender gave up waiting (its timeout): nothing to answer
                pass

        def log_message(self, format: str, *args: Any) -> None:
            del format, args  # quiet: the test reads `received`

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a handler still pausing is not waited for
    # socketserver's default backlog (5) drops the connects of a batch sent together.
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a sender that hung up
            super().handle_error(request, client_address)


@contextmanager
def webhook_server(behaviour: Behaviour = always_ok) -> Iterator[WebhookServer]:
    """A receiver on 127.0.0.1 (a free port) until the block ends."""
    state = WebhookServer(behaviour)
    httpd = _Server(("127.0.0.1", 0), _handler(state))
    state.port = httpd.server_address[1]
    thread = threading.Thread(
        target=httpd.serve_forever, args=(0.05,), name="webhook-server", daemon=True
    )
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5.0)

"""A TCP proxy in front of the stand-in that breaks connections the way networks do: a reset
before any response, a reset after part of the response, or a silence. Each fault applies
to the next chat completion request only; everything else passes through untouched."""

from __future__ import annotations

import contextlib
import select
import socket
import struct
import threading
from dataclasses import dataclass


@dataclass
class Fault:
    kind: str  # "reset" (after `after` response bytes; 0: before any) or "stall" (for `seconds`)
    after: int = 0
    seconds: float = 0.0


class FaultProxy:
    def __init__(self, upstream_port: int) -> None:
        self.upstream = ("127.0.0.1", upstream_port)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self._faults: list[Fault] = []
        self._lock = threading.Lock()
        self.applied: list[str] = []
        self._closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def next_chat(self, fault: Fault) -> None:
        with self._lock:
            self._faults.append(fault)

    def close(self) -> None:
        self._closed = True
        self.sock.close()

    def _serve(self) -> None:
        while not self._closed:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._pipe, args=(client,), daemon=True).start()

    def _pipe(self, client: socket.socket) -> None:
        upstream = socket.create_connection(self.upstream)
        first = client.recv(65536)
        fault = None
        if first.startswith(b"POST /v1/chat/completions"):
            with self._lock:
                fault = self._faults.pop(0) if self._faults else None
        if fault is not None:
            self.applied.append(f"{fault.kind}:{fault.after}")
        if fault is not None and fault.kind == "reset" and fault.after == 0:
            _reset(client)
            upstream.close()
            return
        upstream.sendall(first)
        sent = 0
        sockets = [client, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 60)
                if not readable:
                    break
                for s in readable:
                    data = s.recv(65536)
                    if not data:
                        return
                    if s is client:
                        upstream.sendall(data)
                        continue
                    if fault is not None and fault.kind == "reset" and sent + len(data) >= fault.after:
                        client.sendall(data[: fault.after - sent])
                        _reset(client)
                        return
                    if fault is not None and fault.kind == "stall" and sent + len(data) >= fault.after:
                        client.sendall(data[: fault.after - sent])
                        threading.Event().wait(fault.seconds)
                        return
                    client.sendall(data)
                    sent += len(data)
        except OSError:
            return
        finally:
            for s in (client, upstream):
                with contextlib.suppress(OSError):
                    s.close()


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset, as a dropped connection looks to the other side."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()

"""The Letta server process the launcher starts: schema first, then Letta with the plugin.

Run as ``python -m letta_tool_emulation.runtime.letta_process --host H --port P [--data-dir D]``
with LETTA_PG_URI set; with ``--data-dir`` (the embedded database's) changes are refused while
its disk is full (see ``app``). With LETTA_UVICORN_WORKERS=N uvicorn spawns N fresh worker
processes; the plugin's ``.pth`` hook activates it in each of them, and this process does not
import the app itself (that would cost ~20 s for nothing).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .app import DATA_DIR_ENV

EXIT_SETUP_FAILED = 3


def _say(text: str) -> None:
    print(text, flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="letta_process")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8283)
    parser.add_argument("--data-dir", help="the embedded database's directory, watched for a full disk")
    parser.add_argument("--backup-dir", help="where a backup goes before the schema is upgraded")
    args = parser.parse_args(argv)
    if args.data_dir:
        os.environ[DATA_DIR_ENV] = args.data_dir  # read by the app factory, in every worker

    # Letta writes its OpenAPI schema into the working directory unless told not to; the
    # flag reaches spawned workers too, as they inherit sys.argv.
    sys.argv.append("--no-generation")
    from .database import DatabaseError
    from .schema import ensure_schema

    try:
        ensure_schema(backup_dir=Path(args.backup_dir) if args.backup_dir else None, log=_say)
    except DatabaseError as exc:
        print(f"letta-tool-emulation: {exc}", file=sys.stderr, flush=True)
        return EXIT_SETUP_FAILED

    import letta_tool_emulation

    if not letta_tool_emulation.activate():
        print("letta-tool-emulation: the plugin is not active in this server (see the warning above).", file=sys.stderr)

    import uvicorn
    from letta.settings import settings

    uvicorn.run(
        "letta_tool_emulation.runtime.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=settings.uvicorn_workers,
        timeout_keep_alive=settings.uvicorn_timeout_keep_alive,
        access_log=False,
        # The loop and HTTP parser Letta's server was tested on. The package installs uvloop and httptools for
        # the proxy, and uvicorn's "auto" would otherwise switch this server to them as well.
        loop="asyncio",
        http="h11",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Command line: ``letta-tool-emulation server | proxy | calibrate | stand-in-model | demo``."""

from __future__ import annotations

import argparse
import logging
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="letta-tool-emulation",
        description="Letta agents with tool calling on models that have no native function calling.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    server = sub.add_parser("server", help="start a Letta server with the plugin (embedded PostgreSQL by default)")
    server.add_argument("--host", default="127.0.0.1")
    server.add_argument("--port", type=int, default=8283)
    server.add_argument("--data-dir", help="where the embedded database lives (default ~/.letta-tool-emulation/pgdata)")
    server.add_argument(
        "--database-only",
        action="store_true",
        help="start only the embedded PostgreSQL, without Letta (to restore a backup, or for maintenance)",
    )

    proxy = sub.add_parser(
        "proxy",
        help="serve an OpenAI-compatible API with tool calling for any client, in front of Venice or another endpoint",
    )
    proxy.add_argument("--host", default="127.0.0.1", help="where to listen (default 127.0.0.1)")
    proxy.add_argument("--port", type=int, default=8400)
    proxy.add_argument(
        "--upstream",
        metavar="URL",
        help="an OpenAI-compatible base URL (key in LETTA_TOOL_EMULATION_UPSTREAM_KEY); default: Venice",
    )
    proxy.add_argument(
        "--api-key-env", metavar="NAME", help="the environment variable holding the key clients must send"
    )
    proxy.add_argument(
        "--timeout", type=float, default=120.0, help="seconds the upstream may stay silent before a request fails"
    )
    proxy.add_argument(
        "--mode",
        choices=("auto", "free", "constrained"),
        help="emulated replies in free text, constrained to the JSON envelope, or auto: constrained where the "
        "endpoint enforces schemas (default: LETTA_TOOL_EMULATION_MODE, else auto)",
    )

    standin = sub.add_parser("stand-in-model", help="run the local stand-in model (no function calling, Venice-strict)")
    standin.add_argument("--host", default="127.0.0.1")
    standin.add_argument("--port", type=int, default=8399)
    standin.add_argument("--sloppy", action="store_true", help="write calls the way real models drift")
    standin.add_argument(
        "--natural", action="store_true", help="write calls inside everyday prose (preambles, sign-offs)"
    )
    standin.add_argument("--seed", type=int, default=0)

    cal = sub.add_parser(
        "calibrate",
        help="measure a model on a few dozen BFCL questions in each mode its endpoint supports, and record the best",
    )
    cal.add_argument("--base-url", required=True, metavar="URL", help="the model's OpenAI-compatible base URL")
    cal.add_argument("--model", required=True, metavar="NAME", help="the model id, as the endpoint names it")
    cal.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="the environment variable holding the endpoint's key (default: VENICE_API_KEY for Venice, "
        "else LETTA_TOOL_EMULATION_UPSTREAM_KEY); the key is never recorded",
    )
    cal.add_argument("--questions", type=int, metavar="N", help="ask only N of the 32 questions, taken from each kind")
    cal.add_argument("--max-tokens", type=int, default=256, help="output limit per reply (default 256)")
    cal.add_argument("--timeout", type=float, default=120.0, help="seconds the endpoint may stay silent (default 120)")

    demo = sub.add_parser("demo", help="start everything, create an agent and watch it remember something")
    demo.add_argument("--model", help="model handle to use (default: an e2ee-* model from the endpoint's /models)")
    demo.add_argument("--port", type=int, default=8283)
    demo.add_argument("--data-dir")
    demo.add_argument("--stream", action="store_true", help="stream the agent's reply token by token")

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per HTTP request is noise here
    if args.command == "server":
        from .runtime.server import main as server_main

        return server_main(args.host, args.port, args.data_dir, database_only=args.database_only)
    if args.command == "proxy":
        from .proxy.server import SettingsError, settings_from
        from .proxy.server import main as proxy_main

        try:
            return proxy_main(
                settings_from(args.host, args.port, args.upstream, args.api_key_env, args.timeout, args.mode)
            )
        except SettingsError as exc:
            print(f"letta-tool-emulation proxy: {exc}", file=sys.stderr)
            return 2
    if args.command == "stand-in-model":
        from .runtime.standin import serve

        print(
            f"Stand-in model at http://{args.host}:{args.port}/v1 "
            f"(sloppy={args.sloppy}, natural={args.natural}, seed={args.seed})"
        )
        serve(args.port, args.host, sloppy=args.sloppy, natural=args.natural, seed=args.seed)
        return 0
    if args.command == "calibrate":
        from .calibrate import main as calibrate_main

        return calibrate_main(
            args.base_url, args.model, args.api_key_env, args.questions, args.max_tokens, args.timeout
        )
    if args.command == "demo":
        from .runtime.demo import main as demo_main

        return demo_main(model=args.model, port=args.port, data_dir=args.data_dir, stream=args.stream)
    return 2


if __name__ == "__main__":
    sys.exit(main())

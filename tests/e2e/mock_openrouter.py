#!/usr/bin/env python3
"""A local stand-in for the OpenRouter API (standard library only), for end-to-end tests.

Speaks POST /chat/completions (streaming and not), GET /models and GET /key under /api/v1, checks
the Bearer key, and plays chess honestly: it reads the FEN from the arena's latest context message
and asks `chaiba moves --fen` for the legal moves. The model id selects a behaviour:

  mock/legal          a legal move (prefers mate, then captures) via the make_move tool
  mock/illegal-once   an illegal move the first time in a game, legal moves after the rejection
  mock/always-illegal only illegal moves (the player forfeits)
  mock/ratelimit      429 with Retry-After: 1 on its first request, legal afterwards
  mock/ratelimit-hour 429 with Retry-After: 3600 on its first request (an hourly limit), legal afterwards
  mock/slow           waits 1.5 s before answering (for timeouts)
  mock/stalled        waits 6 s before answering (for timeouts a loaded machine cannot cause)
  mock/garbage        a 200 with a body that is not JSON on its first request, legal afterwards
  mock/prose          prose without a move the first time in a game, legal moves after the feedback
  mock/text-mode      no tool support (listed so in /models): answers "MOVE: <san>" in text
  mock/midstream      when streaming, an error chunk mid-stream on its first request
  mock/draw-accept    legal moves; accepts any draw offer (respond_to_draw_offer {accept: true})
  mock/draw-offer     legal moves, each with offer_draw: true
  (mock/legal and the others decline a draw offer: respond_to_draw_offer {accept: false} along
  with their move, whenever the request offers that tool)
  anthropic/mock-claude  legal moves, with Anthropic-style prompt caching: the prefix up to the
                      message part marked cache_control is "written" once and "read" when a later
                      request repeats it exactly (usage cached_tokens / cache_write_tokens)

Other modes add their models as plugins: every tests/e2e/mock_modes/*.py module with MODELS (a
list of (id, supported_parameters)) and answer(model, body, count) -> dict: {"content", "tool_calls",
"images" (an image model's message.images, not streamed)} for an answer, or {"status", "error", "headers"} for an HTTP error ("sleep" seconds first, if set).

POST .../v1/messages speaks Anthropic's Messages API for the plugins' models (x-api-key = --key;
see mock_anthropic.py).

Streamed answers are chunked on a kept connection (keep-alive), as OpenRouter's streams reuse
theirs. --answer-ms N makes every chess answer take at least N ms (a benchmark's fixed load).
Binds 127.0.0.1 on a free port and prints "PORT <n>" on its first line of output.
Usage: mock_openrouter.py --chaiba PATH [--key KEY] [--port N] [--answer-ms N]
"""
import argparse
import hashlib
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mock_anthropic  # noqa: E402 - next to this file

MODELS = [
    ("mock/legal", True), ("mock/illegal-once", True), ("mock/always-illegal", True),
    ("mock/ratelimit", True), ("mock/slow", True), ("mock/stalled", True), ("mock/garbage", True), ("mock/prose", True),
    ("mock/text-mode", False), ("mock/midstream", True), ("anthropic/mock-claude", True),
    ("mock/draw-accept", True), ("mock/draw-offer", True), ("mock/ratelimit-hour", True),
]

def load_plugins():
    """The mode plugins of tests/e2e/mock_modes, by model id."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mock_modes")
    plugins = {}
    if not os.path.isdir(folder):
        return plugins
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py") or name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location("mock_mode_" + name[:-3], os.path.join(folder, name))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for model_id, params in module.MODELS:
            plugins[model_id] = (module, params)
    return plugins


PLUGINS = load_plugins()
PROMPT_PRICE = 0.000001  # USD per token
COMPLETION_PRICE = 0.000002
FEN_RE = re.compile(r"Position \(FEN\): ([^\n]+)")

lock = threading.Lock()
request_counts = {}  # model -> number of chat requests seen


def count_request(model):
    """This model's number of chat requests so far, this one included."""
    with lock:
        request_counts[model] = request_counts.get(model, 0) + 1
        return request_counts[model]


class Chess:
    """Legal moves from one long-lived `chaiba moves --stdin` (a FEN line in, a line of moves out):
    starting a process per request cost a core's worth of CPU at the arena benchmarks' ~25 answers
    a second, CPU the page under test then lacked. Requests take turns on it; it is restarted if it
    dies."""

    def __init__(self, chaiba):
        self.chaiba = chaiba
        self.lock = threading.Lock()
        self.process = None

    def _ask(self, fen):
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen([self.chaiba, "moves", "--stdin"], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, bufsize=1)
        self.process.stdin.write(fen + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("chaiba moves --stdin stopped answering")
        return line.rstrip("\n")

    def legal_moves(self, fen):
        if "\n" in fen or "\r" in fen:
            raise RuntimeError("a FEN with a line break")
        with self.lock:
            try:
                line = self._ask(fen)
            except (OSError, RuntimeError):
                self.process = None
                line = self._ask(fen)  # once more on a fresh process
        if line.startswith("error: "):
            raise RuntimeError("chaiba moves failed: " + line)
        return line.split()


def message_text(message):
    content = message.get("content")
    if isinstance(content, list):  # content parts (cache_control)
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def latest_fen(messages):
    for message in reversed(messages):
        if message.get("role") == "user":
            match = FEN_RE.search(message_text(message))
            if match:
                return match.group(1).strip()
    return None


def was_rejected(messages):
    """True when the arena has rejected an answer of this model in this game."""
    for message in messages:
        text = message_text(message)
        if message.get("role") == "tool" and ("not accepted" in text or text.startswith("Error")):
            return True
        if message.get("role") == "user" and text.startswith("[SYSTEM]") and (
                "not accepted" in text or "did not make a move" in text):
            return True
    return False


def protocol_error(messages, tools):
    """What a strict OpenAI-compatible server would refuse with a 400, or None."""
    if not messages or messages[0].get("role") != "system":
        return "the first message must be the system prompt"
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ("system", "user", "assistant", "tool"):
            return "messages[%d]: unknown role %r" % (i, role)
        calls = message.get("tool_calls") or []
        if calls and not tools:
            return "messages[%d]: tool_calls without tools in the request" % i
        if role == "assistant" and calls:
            ids = [c.get("id") for c in calls]
            answered = []
            for follower in messages[i + 1:i + 1 + len(ids)]:
                if follower.get("role") != "tool":
                    break
                answered.append(follower.get("tool_call_id"))
            if sorted(answered) != sorted(ids):
                return ("messages[%d]: an assistant message with 'tool_calls' must be followed by tool messages "
                        "responding to each 'tool_call_id' (%s)" % (i, ", ".join(map(str, ids))))
        if role == "tool":
            previous = [m for m in messages[:i] if m.get("role") != "tool"]
            owner = previous[-1] if previous else {}
            if message.get("tool_call_id") not in [c.get("id") for c in owner.get("tool_calls") or []]:
                return "messages[%d]: a tool message must answer a tool call of the assistant message before it" % i
        if not isinstance(message.get("content"), (str, list)) and not (role == "assistant" and calls):
            return "messages[%d]: content must be text" % i
    return None


def choose(moves, fen):
    rng = random.Random(hashlib.sha256(fen.encode()).hexdigest())
    mates = [m for m in moves if m.endswith("#")]
    if mates:
        return mates[0]
    captures = [m for m in moves if "x" in m]
    if captures and rng.random() < 0.6:
        return rng.choice(captures)
    return rng.choice(moves)


prompt_cache = set()  # hashes of cached prefixes (anthropic/ models)


def cache_usage(body):
    """(cached, written) prompt tokens for a request with a cache_control breakpoint."""
    messages = body.get("messages") or []
    marked = -1
    for i, message in enumerate(messages):
        content = message.get("content")
        if isinstance(content, list) and any(isinstance(p, dict) and "cache_control" in p for p in content):
            marked = i
    if marked < 0:
        return 0, 0
    prefix = json.dumps([body.get("tools"), messages[:marked + 1]], sort_keys=True)
    key = hashlib.sha256(prefix.encode()).hexdigest()
    tokens = len(prefix) // 4
    with lock:
        if key in prompt_cache:
            return tokens, 0
        prompt_cache.add(key)
    return 0, tokens


def usage_for(body_text, completion_tokens=24, cached=0, written=0):
    prompt = max(1, len(body_text) // 4)
    uncached = max(0, prompt - cached - written)
    cost = (uncached + 0.1 * cached + 1.25 * written) * PROMPT_PRICE + completion_tokens * COMPLETION_PRICE
    return {"prompt_tokens": prompt, "completion_tokens": completion_tokens,
            "total_tokens": prompt + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": cached, "cache_write_tokens": written},
            "completion_tokens_details": {"reasoning_tokens": 0},
            "cost": round(cost, 10)}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # small writes of a stream go out at once on a kept connection
    server_version = "MockOpenRouter/1.0"

    def log_message(self, fmt, *args):  # quiet unless asked
        if self.server.verbose:
            sys.stderr.write("mock: " + (fmt % args) + "\n")

    # Browsers call the API from the page's origin: like OpenRouter, allow any origin and answer
    # the CORS preflight. Retry-After is not exposed (the page falls back to its own backoff).
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def do_OPTIONS(self):
        self.send_response(204)
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Authorization, Content-Type, HTTP-Referer, X-Title, "
                         "X-OpenRouter-Title, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def send_json(self, status, payload, headers=None):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_error_json(self, status, message, headers=None):
        self.send_json(status, {"error": {"code": status, "message": message}}, headers)

    def authorized(self):
        expected = "Bearer " + self.server.key
        if self.headers.get("Authorization") != expected:
            self.send_error_json(401, "No auth credentials found")
            return False
        return True

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.endswith("/models"):
            data = []
            listed = [(m, ["temperature", "max_tokens"] + (["tools", "tool_choice"] if tools else []))
                      for m, tools in MODELS] + [(m, p) for m, (_, p) in PLUGINS.items()]
            for model_id, params in listed:
                data.append({"id": model_id, "name": "Mock " + model_id.split("/")[-1], "context_length": 32768,
                             "pricing": {"prompt": str(PROMPT_PRICE), "completion": str(COMPLETION_PRICE),
                                         "request": "0"},
                             "supported_parameters": params})
            return self.send_json(200, {"data": data})
        if path.endswith("/mock/requests"):  # the tests' view: chat requests seen per model
            with lock:
                return self.send_json(200, dict(request_counts))
        if path.endswith("/key"):
            if not self.authorized():
                return
            return self.send_json(200, {"data": {"label": "mock key", "limit": 10, "limit_remaining": 9.5,
                                                 "usage": 0.5, "is_free_tier": False}})
        self.send_error_json(404, "not found")

    def do_POST(self):
        started = time.monotonic()
        length = int(self.headers.get("Content-Length") or 0)
        body_text = self.rfile.read(length).decode("utf-8", "replace")
        if self.path.split("?")[0].endswith("/v1/messages"):
            return mock_anthropic.handle(self, body_text, PLUGINS, count_request)
        if not self.path.split("?")[0].endswith("/chat/completions"):
            return self.send_error_json(404, "not found")
        if not self.authorized():
            return
        try:
            body = json.loads(body_text)
        except ValueError:
            return self.send_error_json(400, "body is not JSON")
        model = body.get("model", "")
        messages = body.get("messages") or []
        stream = bool(body.get("stream"))
        with lock:
            request_counts[model] = request_counts.get(model, 0) + 1
            count = request_counts[model]
        if model in PLUGINS:
            reply = PLUGINS[model][0].answer(model, body, count)
            if reply.get("sleep"):
                time.sleep(reply["sleep"])
            if "status" in reply:
                return self.send_error_json(reply["status"], reply.get("error", "mock error"), reply.get("headers"))
            return self.send_answer(model, count, body_text, stream, reply.get("content") or "",
                                    reply.get("tool_calls") or [], images=reply.get("images"))
        if model not in dict(MODELS):
            return self.send_error_json(400, model + " is not a valid model ID")

        if model == "mock/ratelimit" and count == 1:
            return self.send_error_json(429, "Rate limit exceeded: mock", {"Retry-After": "1"})
        if model == "mock/ratelimit-hour" and count == 1:
            return self.send_error_json(429, "Rate limit exceeded: mock hourly limit", {"Retry-After": "3600"})
        if model == "mock/garbage" and count == 1:
            data = b"<html><body>502 Bad Gateway, or something</body>"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if model == "mock/slow":
            time.sleep(1.5)
        if model == "mock/stalled":
            time.sleep(6.0)

        problem = protocol_error(messages, body.get("tools"))
        if problem:
            return self.send_error_json(400, "mock: " + problem)
        fen = latest_fen(messages)
        if fen is None:
            return self.send_error_json(400, "mock: no 'Position (FEN):' in any user message")
        try:
            moves = self.server.chess.legal_moves(fen)
        except Exception as error:  # noqa: BLE001 - reported to the client
            return self.send_error_json(500, "mock: " + str(error))
        if not moves:
            return self.send_error_json(400, "mock: no legal moves in " + fen)

        move = choose(moves, fen)
        prose = False
        if model == "mock/always-illegal" or (model == "mock/illegal-once" and not was_rejected(messages)):
            move = "Ke9"
        if model == "mock/prose" and not was_rejected(messages):
            prose = True
        use_tools = bool(body.get("tools")) and model != "mock/text-mode"
        tool_names = [t.get("function", {}).get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
        draw_offered = "respond_to_draw_offer" in tool_names
        reasoning = "Mock idea for " + move

        if prose:
            content, tool_calls = "What a fascinating position. I need to think about the center.", []
        elif use_tools and draw_offered and model == "mock/draw-accept":
            content = ""
            tool_calls = [{"id": "call_%d" % count, "type": "function",
                           "function": {"name": "respond_to_draw_offer",
                                        "arguments": json.dumps({"accept": True, "reasoning": "A fair result."})}}]
        elif use_tools:
            content = ""
            args = {"move": move, "reasoning": reasoning}
            if model == "mock/draw-offer":
                args["offer_draw"] = True
            tool_calls = [{"id": "call_%d" % count, "type": "function",
                           "function": {"name": "make_move", "arguments": json.dumps(args)}}]
            if draw_offered:  # every other model declines, and moves in the same answer
                tool_calls.insert(0, {"id": "call_%d_draw" % count, "type": "function",
                                      "function": {"name": "respond_to_draw_offer",
                                                   "arguments": json.dumps({"accept": False})}})
        else:
            content, tool_calls = "I like this. " + reasoning + ".\nMOVE: " + move, []
        cached, written = cache_usage(body) if model.startswith("anthropic/") else (0, 0)
        # --answer-ms: a chess answer takes at least that long (the benchmarks' models "think").
        wait = self.server.answer_ms / 1000.0 - (time.monotonic() - started)
        if wait > 0:
            time.sleep(wait)
        return self.send_answer(model, count, body_text, stream, content, tool_calls, cached, written)

    def send_answer(self, model, count, body_text, stream, content, tool_calls, cached=0, written=0, images=None):
        usage = usage_for(body_text, cached=cached, written=written)
        finish = "tool_calls" if tool_calls else "stop"
        gen_id = "gen-mock-%d" % count

        if not stream:
            message = {"role": "assistant", "content": content or None}
            if tool_calls:
                message["tool_calls"] = tool_calls
            if images:
                message["images"] = images
            return self.send_json(200, {"id": gen_id, "model": model, "choices": [
                {"finish_reason": finish, "native_finish_reason": finish, "message": message}], "usage": usage})

        # Chunked, on a connection kept open for the next request, as OpenRouter's own streams
        # (HTTP/2 there): a connection per answer cost the browser a TCP setup each time.
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.send_stream(model, count, content, tool_calls, finish, usage, gen_id)
        self.wfile.write(b"0\r\n\r\n")  # the last chunk (an error above closes the connection instead)
        self.wfile.flush()

    def write_chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def send_stream(self, model, count, content, tool_calls, finish, usage, gen_id):
        def event(payload):
            self.write_chunk(b"data: " + json.dumps(payload).encode() + b"\n\n")
            self.wfile.flush()

        self.write_chunk(b": OPENROUTER PROCESSING\n\n")
        base = {"id": gen_id, "model": model}
        if content:
            half = len(content) // 2
            event(dict(base, choices=[{"index": 0, "delta": {"role": "assistant", "content": content[:half]}}]))
            if model == "mock/midstream" and count == 1:
                event(dict(base, error={"code": 502, "message": "Provider disconnected"},
                           choices=[{"index": 0, "delta": {}, "finish_reason": "error"}]))
                return
            event(dict(base, choices=[{"index": 0, "delta": {"content": content[half:]}}]))
        for index, call in enumerate(tool_calls):
            args = call["function"]["arguments"]
            event(dict(base, choices=[{"index": 0, "delta": {"tool_calls": [
                {"index": index, "id": call["id"], "type": "function",
                 "function": {"name": call["function"]["name"], "arguments": args[:5]}}]}}]))
            if model == "mock/midstream" and count == 1:
                event(dict(base, error={"code": 502, "message": "Provider disconnected"},
                           choices=[{"index": 0, "delta": {}, "finish_reason": "error"}]))
                return
            self.write_chunk(b": OPENROUTER PROCESSING\n\n")
            event(dict(base, choices=[{"index": 0, "delta": {"tool_calls": [
                {"index": index, "function": {"arguments": args[5:]}}]}}]))
        event(dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]))
        event(dict(base, choices=[], usage=usage))
        self.write_chunk(b"data: [DONE]\n\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (timeout, cancel) closes the socket: expected, not worth a trace.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chaiba", required=True, help="path of the chaiba binary (for legal moves)")
    parser.add_argument("--key", default="sk-mock-key", help="the only API key accepted")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--answer-ms", type=float, default=0,
                        help="each chess answer takes at least this many milliseconds (default 0: as fast as it can)")
    args = parser.parse_args()
    server = Server(("127.0.0.1", args.port), Handler)
    server.chess = Chess(args.chaiba)
    server.key = args.key
    server.verbose = args.verbose
    server.answer_ms = max(0.0, args.answer_ms)
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

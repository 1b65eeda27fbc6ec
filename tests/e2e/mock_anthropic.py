"""The Anthropic Messages API side of the local stand-in (used by mock_openrouter.py for
POST .../v1/messages): checks x-api-key and anthropic-version, translates the request into the
OpenAI-style body the mode plugins read, and sends the plugin's answer back as an Anthropic
message, streamed as SSE events (message_start, content_block_*, ping, message_delta, message_stop)
or whole."""
import json


def to_openai(body):
    """An Anthropic request as the OpenAI-style body the plugins read."""
    messages = []
    system = body.get("system")
    if isinstance(system, list):
        system = "".join(b.get("text", "") for b in system if isinstance(b, dict))
    if system:
        messages.append({"role": "system", "content": system})
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            messages.append({"role": message.get("role"), "content": content})
            continue
        texts, calls = [], []
        for block in content or []:
            kind = block.get("type")
            if kind == "text":
                texts.append(block.get("text", ""))
            elif kind == "tool_use":
                calls.append({"id": block.get("id"), "type": "function",
                              "function": {"name": block.get("name"), "arguments": json.dumps(block.get("input"))}})
            elif kind == "tool_result":
                result = block.get("content")
                if isinstance(result, list):
                    result = "".join(b.get("text", "") for b in result if isinstance(b, dict))
                messages.append({"role": "tool", "tool_call_id": block.get("tool_use_id"), "content": result or ""})
        if message.get("role") == "assistant":
            messages.append({"role": "assistant", "content": "".join(texts) or None, "tool_calls": calls or None})
        elif texts:
            messages.append({"role": "user", "content": "".join(texts)})
    tools = [{"type": "function", "function": {"name": t.get("name"), "parameters": t.get("input_schema")}}
             for t in body.get("tools") or []]
    choice = (body.get("tool_choice") or {}).get("type", "auto")
    return {"model": body.get("model"), "messages": messages, "tools": tools,
            "tool_choice": "none" if choice == "none" else "auto", "stream": bool(body.get("stream"))}


def problem(body):
    """What the real API would refuse with a 400, or None."""
    if not isinstance(body.get("max_tokens"), int):
        return "max_tokens: Field required"
    messages = body.get("messages") or []
    if not messages or messages[0].get("role") != "user":
        return "messages: the first message must use the user role"
    for i in range(1, len(messages)):
        if messages[i].get("role") == messages[i - 1].get("role"):
            return "messages: roles must alternate between user and assistant"
    for i, message in enumerate(messages):
        uses = [b.get("id") for b in message.get("content") or [] if isinstance(b, dict) and b.get("type") == "tool_use"]
        if uses:
            follower = messages[i + 1] if i + 1 < len(messages) else {}
            answered = [b.get("tool_use_id") for b in follower.get("content") or []
                        if isinstance(b, dict) and b.get("type") == "tool_result"]
            if sorted(answered) != sorted(uses):
                return "messages.%d: tool_use ids were found without tool_result blocks immediately after" % i
    return None


def handle(handler, body_text, plugins, count_request):
    """Answers one POST /v1/messages on the stand-in's request handler."""
    def error(status, kind, message):
        handler.send_json(status, {"type": "error", "error": {"type": kind, "message": message}})

    if handler.headers.get("x-api-key") != handler.server.key:
        return error(401, "authentication_error", "invalid x-api-key")
    if handler.headers.get("anthropic-version") != "2023-06-01":
        return error(400, "invalid_request_error", "anthropic-version header is required")
    try:
        body = json.loads(body_text)
    except ValueError:
        return error(400, "invalid_request_error", "body is not JSON")
    model = body.get("model", "")
    if model not in plugins:
        return error(404, "not_found_error", "model: " + model)
    bad = problem(body)
    if bad:
        return error(400, "invalid_request_error", bad)
    count = count_request(model)
    reply = plugins[model][0].answer(model, to_openai(body), count)
    if "status" in reply:
        return error(reply["status"], "api_error", reply.get("error", "mock error"))
    blocks = []
    if reply.get("content"):
        blocks.append({"type": "text", "text": reply["content"]})
    for c in reply.get("tool_calls") or []:
        blocks.append({"type": "tool_use", "id": c["id"].replace("call_", "toolu_"), "name": c["function"]["name"],
                       "input": json.loads(c["function"]["arguments"])})
    stop = "tool_use" if reply.get("tool_calls") else "end_turn"
    usage = {"input_tokens": max(1, len(body_text) // 4), "output_tokens": 24,
             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    message = {"id": "msg_mock_%d" % count, "type": "message", "role": "assistant", "model": model,
               "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": usage}
    if not body.get("stream"):
        return handler.send_json(200, message)

    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Connection", "close")
    handler.end_headers()
    handler.close_connection = True

    def event(name, payload):
        handler.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(payload))).encode())
        handler.wfile.flush()

    event("message_start", {"type": "message_start", "message": dict(message, content=[], stop_reason=None,
                                                                      usage=dict(usage, output_tokens=1))})
    event("ping", {"type": "ping"})
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            event("content_block_start", {"type": "content_block_start", "index": index,
                                          "content_block": {"type": "text", "text": ""}})
            text = block["text"]
            for piece in (text[:len(text) // 2], text[len(text) // 2:]):
                event("content_block_delta", {"type": "content_block_delta", "index": index,
                                              "delta": {"type": "text_delta", "text": piece}})
        else:
            event("content_block_start", {"type": "content_block_start", "index": index,
                                          "content_block": {"type": "tool_use", "id": block["id"],
                                                            "name": block["name"], "input": {}}})
            arguments = json.dumps(block["input"])
            for piece in (arguments[:7], arguments[7:]):
                event("content_block_delta", {"type": "content_block_delta", "index": index,
                                              "delta": {"type": "input_json_delta", "partial_json": piece}})
        event("content_block_stop", {"type": "content_block_stop", "index": index})
    event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                            "usage": {"output_tokens": usage["output_tokens"]}})
    event("message_stop", {"type": "message_stop"})

"""A model for the tool loop's end-to-end checks: mock/echo answers with the last user message."""
MODELS = [("mock/echo", ["temperature", "max_tokens", "tools", "tool_choice", "structured_outputs"])]


def answer(model, body, count):
    del model, count
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    text = users[-1].get("content") if users else ""
    if isinstance(text, list):
        text = "".join(part.get("text", "") for part in text if isinstance(part, dict))
    return {"content": "echo: " + (text or "")}

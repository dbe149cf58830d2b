"""Model providers behind one small async interface: OpenAI-compatible HTTP, Anthropic, built-ins."""

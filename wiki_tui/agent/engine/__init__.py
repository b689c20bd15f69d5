"""How a model is asked: the streaming interface, litellm for real models, the offline engine's
entry, and the read-only tools a model may call."""

"""Search agents: the WebDancer-style ReAct loop (LLM) and the rule-based reference agents."""

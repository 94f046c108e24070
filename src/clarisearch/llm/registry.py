"""Bind models to named roles: `--model SPEC` for every role, `--role NAME=SPEC` for one.

A spec is `rules` (the rule-based reference role) or `PROVIDER/MODEL[?option=value&...]`, e.g.
`openai/gpt-4o-mini`, `vllm/Qwen/Qwen2.5-7B-Instruct?base_url=http://gpu:8000/v1`,
`ollama/qwen2.5:7b`, `deepseek/deepseek-chat?reasoning_effort=high`. Options `base_url`,
`api_key_env`, `max_concurrency` and `timeout` configure the endpoint; any other option is sent
in the request body. Keys are read from the environment variable named by `api_key_env`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from clarisearch.llm.base import LLM
from clarisearch.llm.cache import CachedLLM, CacheMode, ResponseStore
from clarisearch.llm.metered import MeteredLLM
from clarisearch.llm.openai_compat import OpenAICompatLLM
from clarisearch.llm.retry import RetryingLLM

ROLES = ("agent", "clarifier", "user", "rewriter", "judge", "summarizer", "extractor")
RULES = "rules"

PROVIDERS: dict[str, tuple[str | None, str]] = {
    "openai": (None, "OPENAI_API_KEY"),
    "vllm": ("http://localhost:8000/v1", "VLLM_API_KEY"),
    "sglang": ("http://localhost:30000/v1", "SGLANG_API_KEY"),
    "ollama": ("http://localhost:11434/v1", "OLLAMA_API_KEY"),
    "llamacpp": ("http://localhost:8080/v1", "LLAMACPP_API_KEY"),
    "deepseek": ("https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
    "qwen": ("https://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY"),
    "ernie": ("https://qianfan.baidubce.com/v2", "QIANFAN_API_KEY"),
    "gemini": ("https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"),
    "anthropic": ("https://api.anthropic.com/v1/", "ANTHROPIC_API_KEY"),
    "openrouter": ("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "local": ("http://127.0.0.1:8000/v1", "LOCAL_LLM_API_KEY"),
}
# Spec/provider options that configure the endpoint (everything else goes in the request body).
ENDPOINT_OPTIONS = frozenset({"base_url", "api_key_env", "max_concurrency", "timeout", "usd_per_1m_prompt",
                              "usd_per_1m_completion"})


class SpecError(ValueError):
    pass


@dataclass(frozen=True)
class ModelSpec:
    provider: str
    model: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return RULES if self.provider == RULES else f"{self.provider}/{self.model}"

    def option(self, name: str, default: str | None = None) -> str | None:
        return dict(self.options).get(name, default)


def parse_spec(spec: str) -> ModelSpec:
    spec = spec.strip()
    if spec == RULES:
        return ModelSpec(RULES, RULES)
    head, _, query = spec.partition("?")
    provider, sep, model = head.partition("/")
    if not sep or not model:
        raise SpecError(f"model spec {spec!r} is not 'rules' or PROVIDER/MODEL (e.g. openai/gpt-4o-mini)")
    return ModelSpec(provider, model, tuple(sorted(parse_qsl(query, keep_blank_values=True))))


def parse_role_overrides(pairs: list[str] | None) -> dict[str, str]:
    """`NAME=SPEC` pairs from `--role`; unknown role names are an error."""
    result = {}
    for pair in pairs or []:
        name, sep, spec = pair.partition("=")
        if not sep or not spec:
            raise SpecError(f"--role {pair!r} is not NAME=SPEC")
        if name not in ROLES:
            raise SpecError(f"unknown role {name!r}; roles are {', '.join(ROLES)}")
        parse_spec(spec)
        result[name] = spec
    return result


def resolve_bindings(model: str | None, roles: dict[str, str]) -> dict[str, str]:
    """Every role's spec: the override, else `--model`, else `rules`."""
    if model:
        parse_spec(model)
    return {role: roles.get(role, model or RULES) for role in ROLES}


@dataclass
class EndpointSettings:
    cache_mode: CacheMode = "use"
    cache_path: Path | None = None
    max_attempts: int = 4
    base_delay_s: float = 1.0
    default_concurrency: int = 8
    providers: dict[str, dict[str, Any]] = field(default_factory=dict)


class LLMFactory:
    """Builds role-bound LLM stacks: metered( cached( retrying( endpoint ) ) )."""

    def __init__(self, settings: EndpointSettings | None = None, overrides: dict[str, LLM] | None = None):
        self.settings = settings or EndpointSettings()
        self.overrides = overrides or {}
        self._semaphores: dict[str, asyncio.Semaphore] = {}
        self._store = ResponseStore(self.settings.cache_path) if (
            self.settings.cache_path and self.settings.cache_mode != "off") else None

    def provider_option(self, spec: ModelSpec, name: str) -> str | None:
        """A spec option, else the provider config file's value, else None."""
        value = spec.option(name)
        if value is None and name in self.settings.providers.get(spec.provider, {}):
            value = str(self.settings.providers[spec.provider][name])
        return value

    def endpoint(self, spec: ModelSpec) -> tuple[str | None, str]:
        preset = PROVIDERS.get(spec.provider)
        configured = spec.provider in self.settings.providers
        if preset is None and not configured and spec.option("base_url") is None:
            known = ", ".join(sorted({*PROVIDERS, *self.settings.providers}))
            raise SpecError(f"unknown provider {spec.provider!r} (known: {known}); or give ?base_url=...")
        base_url, key_env = preset or (None, "OPENAI_API_KEY")
        return (self.provider_option(spec, "base_url") or base_url,
                self.provider_option(spec, "api_key_env") or key_env)

    def prices(self, spec: ModelSpec) -> tuple[float, float]:
        """USD per million prompt and completion tokens (0 when not configured)."""
        return (float(self.provider_option(spec, "usd_per_1m_prompt") or 0),
                float(self.provider_option(spec, "usd_per_1m_completion") or 0))

    def build(self, role: str, spec_text: str) -> LLM:
        if role in self.overrides:
            return MeteredLLM(role, self.overrides[role])
        spec = parse_spec(spec_text)
        if spec.provider == RULES:
            raise SpecError(f"role {role!r} is bound to rules, which has no LLM")
        base_url, key_env = self.endpoint(spec)
        sem_key = base_url or "openai"
        if sem_key not in self._semaphores:
            limit = int(self.provider_option(spec, "max_concurrency") or self.settings.default_concurrency)
            self._semaphores[sem_key] = asyncio.Semaphore(limit)
        extra = {k: _coerce(v) for k, v in spec.options if k not in ENDPOINT_OPTIONS}
        llm: LLM = OpenAICompatLLM(spec.model, base_url, key_env, self._semaphores[sem_key],
                                   timeout_s=float(self.provider_option(spec, "timeout") or 300), extra_body=extra)
        llm = RetryingLLM(llm, self.settings.max_attempts, self.settings.base_delay_s)
        if self._store is not None:
            llm = CachedLLM(llm, self._store, self.settings.cache_mode)
        return MeteredLLM(role, llm, prices=self.prices(spec))

    def is_rules(self, role: str, spec_text: str) -> bool:
        return role not in self.overrides and parse_spec(spec_text).provider == RULES


def _coerce(value: str) -> object:
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(value.lower(), value)

"""Reading one input of any supported kind: the format is told from the content.

An input given in the place of one endpoint (``/version`` or ``/metrics``: a paste box of the
Check a cluster page, an answer of ``kubectl get --raw``) must be that endpoint's format: what it
is instead is named (``/version`` JSON given as ``/metrics``, an HTML login page, an API error),
never read as something else.
"""

from __future__ import annotations

import json
import re

from ..errors import cut
from . import messages
from .cmdline import read_command_lines
from .configs import read_yaml_inputs
from .endpoints import read_metrics, read_version_json
from .model import MAX_INPUT_BYTES, InspectError, Reading, decode_text

_METRICS_LINE = re.compile(r"^(# (HELP|TYPE) \S+|kubernetes_(feature_enabled|build_info)[{ ])", re.M)
#: A JSON object, or an array (not an INI section such as a systemd unit's [Service]).
_JSON_START = re.compile(r"\s*(?:\{|\[\s*(?:[\[{\]\"0-9-]|true\b|false\b|null\b))")
_YAML_LINE = re.compile(r"^(apiVersion|kind)\s*:|^- op\s*:|^# target:", re.M)
_HTML_START = re.compile(r"\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<!--)", re.I)
_HTML_TITLE = re.compile(r"<title[^>]*>([^<]{0,200})", re.I)

#: The endpoints an input may be given as, and the format each answers in.
VERSION = "/version"
METRICS = "/metrics"
ENDPOINTS = (VERSION, METRICS)


def content_kind(text: str) -> str:
    """What the text is, from its content: ``/version``, ``/metrics``, ``html``, ``YAML`` or
    ``command line`` (JSON that is not /version is ``/version`` here: its reader names it)."""
    if _JSON_START.match(text):
        return VERSION
    if _HTML_START.match(text):
        return "html"
    if _METRICS_LINE.search(text):
        return METRICS
    if _YAML_LINE.search(text):
        return "YAML"
    return "command line"


def describe(text: str, kind: str) -> str:
    """A short description of what an input is, for a message about a wrong place."""
    if kind == "html":
        title = _HTML_TITLE.search(text[:100_000])
        return messages.html_page(title.group(1).strip() if title else None)
    if kind == VERSION:
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            return "JSON that does not parse"
        if isinstance(doc, dict) and isinstance(doc.get("gitVersion"), str):
            return f"/version JSON (gitVersion {cut(doc['gitVersion'])})"
        return messages.json_not_version(doc)
    if kind == METRICS:
        return "/metrics text"
    if kind == "YAML":
        return "YAML (a manifest or a config)"
    return "neither JSON nor /metrics text"


def read_input(data: bytes | str, source: str, max_bytes: int = MAX_INPUT_BYTES, expected: str | None = None) -> Reading:
    """One file or pasted text: ``/version`` JSON, ``/metrics`` text, YAML (static pod,
    kubeadm, kind, static pod patch) or command lines, in that order of checks. ``expected``
    (``/version`` or ``/metrics``) is the endpoint the input was given as: other content is
    refused, saying what it is."""
    text = decode_text(data, source, max_bytes)
    kind = content_kind(text)
    if expected is not None and kind != expected:
        raise InspectError(messages.given_as(source, expected, describe(text, kind)))
    if kind == "html":
        raise InspectError(f"{source}: {describe(text, kind)}")
    if kind == VERSION:
        return read_version_json(text, source)
    if kind == METRICS:
        return read_metrics(text, source)
    if kind == "YAML":
        return read_yaml_inputs(text, source)
    return read_command_lines(text, source)

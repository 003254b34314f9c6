"""Reading one input of any supported kind: the format is told from the content."""

from __future__ import annotations

import re

from .cmdline import read_command_lines
from .configs import read_yaml_inputs
from .endpoints import read_metrics, read_version_json
from .model import MAX_INPUT_BYTES, Reading, decode_text

_METRICS_LINE = re.compile(r"^(# (HELP|TYPE) \S+|kubernetes_(feature_enabled|build_info)[{ ])", re.M)
_JSON_START = re.compile(r"\s*\{")
_YAML_LINE = re.compile(r"^(apiVersion|kind)\s*:|^- op\s*:|^# target:", re.M)


def read_input(data: bytes | str, source: str, max_bytes: int = MAX_INPUT_BYTES) -> Reading:
    """One file or pasted text: ``/version`` JSON, ``/metrics`` text, YAML (static pod,
    kubeadm, kind, static pod patch) or command lines, in that order of checks."""
    text = decode_text(data, source, max_bytes)
    if _JSON_START.match(text):
        return read_version_json(text, source)
    if _METRICS_LINE.search(text):
        return read_metrics(text, source)
    if _YAML_LINE.search(text):
        return read_yaml_inputs(text, source)
    return read_command_lines(text, source)

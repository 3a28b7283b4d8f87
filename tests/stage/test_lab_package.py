"""The lab package as a whole: what it exports, and what importing it costs."""

import subprocess
import sys

import lab

NAMES = ["Workspace", "ScriptedModel", "ScriptError", "Request", "forever", "fail", "summariser",
         "call", "reply", "say", "text", "user", "tool_result",
         "shape", "show", "validate", "count_tokens", "render_request", "big_log", "Shell"]


def test_exports():
    missing = [name for name in NAMES if not hasattr(lab, name)]
    assert missing == []


def test_importing_lab_loads_no_plotting_or_widget_library():
    code = ("import sys, lab; heavy = [m for m in ('matplotlib', 'ipywidgets') if m in sys.modules];"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]" and out.stderr == ""

"""`python -m lab` as the README has a learner type it, in a folder of their own."""

import subprocess
import sys


def test_a_starter_redirected_into_harness_py_is_the_starter(tmp_path):
    """The shell makes the empty harness.py before Python starts; it must not stand in for the
    course's harness package, or the command prints nothing and a traceback."""
    done = subprocess.run(f'"{sys.executable}" -m lab starter 12 > harness.py', shell=True, cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    text = (tmp_path / "harness.py").read_text()
    compile(text, "harness.py", "exec")
    assert "def summarize(model, messages):" in text
    again = subprocess.run([sys.executable, "-m", "lab", "diff", "11", "12"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout.startswith("--- harness.py (lesson 11)")

"""A demonstration cell that runs the learner's code stops at the checks' time limit, in one
sentence, in a real kernel; every other cell runs as IPython runs it. The cells are sent as
JupyterLab sends them, each execute request carrying its cell's id ("cellId" in its metadata),
which is how the kernel knows a demonstration. One kernel for the file."""

import queue

import pytest
from jupyter_client.manager import start_new_kernel

LOOPING = ("def run_agent(model, system, messages, tools, prompt, **options):\n"
           "    while True:\n"
           "        pass\n")

CELLS = [
    ("setup", "import lab\nfrom lab.checks import engine\nengine.TEST_SECONDS = 0.25"),
    # Before any lab has passed, a demonstration runs on the reference, and the hook leaves it be.
    ("demo-copy-again", "print('the reference ran')"),
    ("install", LOOPING + "lab.install(run_agent=run_agent)"),
    # Lesson 3's demonstration of that name now runs the learner's endless loop.
    ("demo-copy-again", "import harness\nharness.run_agent(None, '', [], [], 'go')\nprint('never')"),
    ("after", "print('the next cell runs')"),
    # A cell that is no lesson's demonstration gets IPython's own traceback, not a sentence.
    ("plain", "raise KeyboardInterrupt"),
]


def _run(kc, cell_id, source, seconds=60):
    """Send one cell as JupyterLab does; return (printed text, error names) once it is idle."""
    msg = kc.session.msg("execute_request", {"code": source, "silent": False, "store_history": True,
                                             "user_expressions": {}, "allow_stdin": False,
                                             "stop_on_error": False},
                         metadata={"cellId": cell_id})
    kc.shell_channel.send(msg)
    printed, errors = "", []
    while True:
        try:
            reply = kc.get_iopub_msg(timeout=seconds)
        except queue.Empty:
            pytest.fail(f"cell {cell_id} did not finish within {seconds} s")
        if reply["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
            continue
        kind, content = reply["msg_type"], reply["content"]
        if kind == "stream":
            printed += content["text"]
        elif kind == "error":
            errors.append(content["ename"])
        elif kind == "status" and content["execution_state"] == "idle":
            return printed, errors


def test_a_demonstration_on_the_learners_endless_loop_stops_in_one_sentence(tmp_path):
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path),
                              extra_arguments=["--IPKernelApp.log_level=ERROR"])
    try:
        got = [_run(kc, cell_id, source) for cell_id, source in CELLS]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert got[1] == ("the reference ran\n", [])
    assert got[3] == ("This demonstration ran your run_agent for more than 1.5 s, so the cell stopped "
                      "it: an endless loop? Fix it, run its check again, then this cell.\n", [])
    assert got[4] == ("the next cell runs\n", [])
    assert got[5][1] == ["KeyboardInterrupt"]

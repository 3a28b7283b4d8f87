"""A try-it cell that awaits lab.meanwhile, in a real kernel: the learner's coroutine runs in
meanwhile's own thread, so a stop has to be sent there. A coroutine that spins without ever
awaiting is stopped at the checks' time limit in one sentence, and the next cell can start a
virtual loop again. One kernel for the file."""

import nbformat

from lab.lessons.build import execute

CELLS = [
    "import lab\nfrom lab.checks import engine\nengine.TEST_SECONDS = 1",
    # run_agent as a learner might get it wrong: a loop with no await in it never gives way
    "async def run_agent():\n"
    "    while True:\n"
    "        pass\n"
    "\n"
    "with lab.trying('run_agent'):\n"
    "    await lab.meanwhile(run_agent())\n"
    "print('the cell went on')",
    "async def fine():\n"
    "    return 'another virtual loop ran'\n"
    "print(await lab.meanwhile(fine()))",
]


def test_a_coroutine_that_never_awaits_is_stopped_in_its_own_thread(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    ran = execute(nb, cwd=tmp_path)
    texts = ["".join(o.get("text", "") for o in cell.outputs) for cell in ran.cells]
    assert texts[1] == ("run_agent did not finish within 1 s, so this cell stopped it: an endless "
                        "loop? Fix the cell above and run both again.\nthe cell went on\n")
    assert texts[2] == "another virtual loop ran\n"
    assert not any(o["output_type"] == "error" or o.get("name") == "stderr"
                   for cell in ran.cells for o in cell.outputs)

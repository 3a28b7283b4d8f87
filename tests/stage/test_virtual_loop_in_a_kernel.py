"""lab.meanwhile where lesson 15 uses it: a top-level `await` in a notebook cell, inside a real
IPython kernel that already runs an event loop of its own. One kernel start for the whole file."""

import nbformat

from lab.lessons.build import execute

CELLS = [
    "import asyncio\nimport lab",
    # The awaited model and a spinner, side by side on virtual time; the kernel's own loop is
    # the one the cell awaits on, and the virtual loop is another.
    "lab.clock.reset()\n"
    "ticks = []\n"
    "async def spinner():\n"
    "    for _ in range(20):\n"
    "        await asyncio.sleep(1)\n"
    "        ticks.append(lab.clock.now)\n"
    "async def main():\n"
    "    model = lab.AsyncScriptedModel([lab.say('Done.')], latency=20)\n"
    "    reply, _ = await asyncio.gather(model.complete('s', [lab.user('go')], []), spinner())\n"
    "    print('reply at t=%s:' % lab.clock.now, reply['content'][0]['text'])\n"
    "    return asyncio.get_running_loop() is not kernel_loop\n"
    "kernel_loop = asyncio.get_running_loop()\n"
    "on_its_own_loop = await lab.meanwhile(main())\n"
    "print(len(ticks), 'ticks, the last at t=%s' % ticks[-1], on_its_own_loop)",
    # An exception comes out of the await as itself, and a second await runs after it.
    "async def fails():\n"
    "    await asyncio.sleep(3)\n"
    "    raise KeyError('gone')\n"
    "try:\n"
    "    await lab.meanwhile(fails())\n"
    "except KeyError as exc:\n"
    "    print('KeyError', exc, 'at t=%s' % lab.clock.now)",
]


def test_a_cell_awaits_meanwhile_at_top_level_in_a_running_kernel(tmp_path):
    # A meanwhile that ran its loop in the kernel's own thread would fail the cell with "Cannot
    # run the event loop while another loop is running"; one that printed from a thread the
    # kernel does not know would leave the cell's output empty.
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    ran = execute(nb, cwd=tmp_path)
    outputs = [cell.outputs for cell in ran.cells]
    assert all(o.get("name") != "stderr" and o["output_type"] != "error" for cell in outputs for o in cell)
    texts = ["".join(o.get("text", "") for o in cell) for cell in outputs]
    assert texts == ["",
                     "reply at t=20.0: Done.\n20 ticks, the last at t=20.0 True\n",
                     "KeyError 'gone' at t=23.0\n"]

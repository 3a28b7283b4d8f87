"""python -m lab agent: the harness the course builds, run as an interactive coding agent against
a real Chat Completions server, on a real directory.

    python -m lab agent --harness harness.py --base-url URL --model NAME --dir DIR ["first prompt"]
    python -m lab agent --demo          the same against the course's scripted server, no key needed

The parts, each in a module of its own:
    cli.py        the command: its options, the prompt loop, failures said as sentences
    loading.py    the harness: the course's, or the learner's file checked lab by lab first
    local.py      the real directory as a workspace (confined to it) and an async /bin/sh
    transport.py  the `send` of lesson 16's AdapterModel: HTTP, retries, the key
    terminal.py   the keyboard: y/N approvals, typing that steers a run, Ctrl-C
    session.py    the session log (lesson 11) under DIR/.agent/, resume, compaction (lesson 12)
    render.py     the events as they happen, as text or one JSON object a line (lesson 7)
    failures.py   what a failed reply means, in one sentence the learner can act on
    demo.py       the scripted task --demo runs
"""


def main(argv=None):
    from lab.agent import cli
    return cli.main(argv)

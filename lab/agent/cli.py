"""python -m lab agent: the command, its options, and the prompt loop.

    python -m lab agent --harness FILE --base-url URL --model NAME --dir DIR ["first prompt"]
    python -m lab agent --demo [--dir DIR] ["first prompt"]

Exit status: 0 when the session ended as asked (/exit, end of input, Ctrl-C at the prompt); 1 when
the harness was refused, the server cannot be used (no server, a refused key, an unknown model),
the disk is full, or, with no terminal, a run failed; 2 when the command itself is wrong.
Everything said to the person goes to standard error, in sentences; standard output holds the
run's events only (text, or with --json one JSON object a line). The key is read from the
environment variable --api-key-env names and appears in no output, log or session file.
"""

import argparse
import asyncio
import datetime
import os
import platform
import sys

from lab.agent import demo, failures, loading, render, session, terminal
from lab.agent.local import COMMAND_SECONDS, LocalShell, LocalWorkspace, full_disk
from lab.agent.transport import TRIES, Transport

PROG = "python -m lab agent"
KEY_ENV = "AGENT_API_KEY"


class Usage(Exception):
    """The command is wrong; exit status 2."""


class Stop(Exception):
    """The session cannot go on; the message is one sentence; exit status 1."""


def parser():
    p = argparse.ArgumentParser(
        prog=PROG, description="Run a harness as an interactive coding agent on a directory, "
        "against a Chat Completions server.")
    p.add_argument("prompt", nargs="?", help="the first prompt; more are read at the \"> \" prompt")
    p.add_argument("--harness", default="reference", metavar="FILE",
                   help="your harness.py, checked against the labs first; `reference` for the course's (default)")
    p.add_argument("--base-url", metavar="URL", help="the server's base URL, before /chat/completions, e.g. http://localhost:11434/v1")
    p.add_argument("--model", metavar="NAME", help="the model's name as the server knows it")
    p.add_argument("--dir", metavar="DIR", help="the directory the agent works in; its tools stay inside it")
    p.add_argument("--api-key-env", default=KEY_ENV, metavar="VAR",
                   help=f"the environment variable holding the API key (default {KEY_ENV}); unset: no key is sent")
    p.add_argument("--resume", action="store_true", help="go on with the session in DIR/.agent/session.jsonl")
    p.add_argument("--json", action="store_true", help="print each event as one JSON object a line")
    p.add_argument("--demo", action="store_true",
                   help="start the course's scripted server and run a small task on it (no key, no model)")
    p.add_argument("--max-turns", type=int, default=50, metavar="N", help="model calls a prompt may make (default 50)")
    p.add_argument("--context-window", type=int, default=session.WINDOW, metavar="TOKENS",
                   help=f"the model's context, in tokens: compaction starts near it (default {session.WINDOW})")
    p.add_argument("--command-timeout", type=float, default=COMMAND_SECONDS, metavar="SECONDS",
                   help=f"a bash command running longer is stopped (default {COMMAND_SECONDS:g})")
    p.add_argument("--tries", type=int, default=TRIES, metavar="N",
                   help=f"requests in all when the server says 429 or 5xx (default {TRIES})")
    return p


def note(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def settings(argv):
    try:
        args = parser().parse_args(argv)
    except SystemExit as leaving:
        raise Usage("") if leaving.code else leaving
    if args.demo:
        args.base_url = args.base_url or None
        args.model = args.model or demo.MODEL
        args.dir = demo.directory(args.dir)
        args.prompt = args.prompt or demo.PROMPT
        args.api_key_env = args.api_key_env
    else:
        missing = [o for o, v in (("--base-url", args.base_url), ("--model", args.model), ("--dir", args.dir)) if not v]
        if missing:
            raise Usage(f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} needed: say which "
                        "server, which model and which directory (or try --demo)")
        if not args.base_url.startswith(("http://", "https://")):
            raise Usage(f"--base-url {args.base_url} is not a URL: it starts with http:// or https://")
    if not os.path.isdir(args.dir):
        raise Usage(f"there is no directory {args.dir}: --dir names the directory the agent works in")
    for name in ("max_turns", "context_window", "tries"):
        if getattr(args, name) < 1:
            raise Usage(f"--{name.replace('_', '-')} must be 1 or more")
    if args.command_timeout <= 0:
        raise Usage("--command-timeout must be more than 0 seconds")
    return args


class Agent:
    """One session: the harness's parts put together over DIR, and the prompt loop."""

    def __init__(self, args, key, stdin=0):
        self.args, self.key, self.stdin = args, key, stdin
        self.dir = os.path.realpath(args.dir)
        self.failed = False
        self.leaving = False       # /exit was typed during a run

    def setup(self, parts, label):
        a = self.args
        self.parts = parts
        self.transport = Transport(a.base_url, self.key, tries=a.tries, notify=note)
        model = parts["AdapterModel"](parts["ChatCompletions"](a.model), self.transport)
        self.writer = parts["QuotingWriter"](model) if "QuotingWriter" in parts else model
        ws = LocalWorkspace(self.dir)
        shell = LocalShell(self.dir, a.command_timeout, hidden={a.api_key_env})
        tools = [parts["make_read_tool"](ws), parts["make_write_tool"](ws), parts["make_bash_tool"](shell)]
        self.keyboard = terminal.Keyboard(self.stdin)
        # Lesson 14: the person is asked about every write and bash call; the standing rules are
        # checked first (the outer gate), so a network command is refused without asking.
        tools = parts["gate"](parts["gate"](tools, terminal.approver(self.keyboard)), parts["command_rules"])
        self.log = parts["SessionLog"](session.log_workspace(self.dir), session.LOG)
        try:
            self.lock = session.lock(self.dir)
        except BlockingIOError:
            raise Stop(f"Another agent is working in {self.dir} now: two would write one session "
                       "file, so end that one first.") from None
        except OSError as error:
            raise Stop(f"The agent cannot keep its session in {self.dir}/.agent: {error.strerror or error}.") from None
        messages = self.opening()
        facts = {"directory": self.dir, "platform": platform.system(),
                 "shell": "bash runs /bin/sh command lines, starting in the directory"}
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        self.h = parts["session"](model, tools, facts, messages, a.max_turns, now=now)
        self.save(lambda: self.log.append_message(self.h.messages[-1]))   # the [Session started] line
        self.h.subscribe(parts["persist_to"](self.log))
        where = a.base_url if not a.demo else f"the course's scripted server ({a.base_url})"
        note(f"Agent: {label}, model {a.model} at {where}, working in {self.dir}.")
        note(f"Session: {session.path_of(self.dir)}"
             + (f" (resumed: {len(messages)} messages)." if a.resume else "."))
        if self.keyboard.interactive:
            note("Type a task. /exit or Ctrl-D ends the session; Ctrl-C stops a run; what you "
                 "type while it runs steers it.")
        else:
            note("No terminal: every write and bash call is denied, since nobody can be asked.")

    def opening(self):
        """The messages the session starts from: the log's replay with --resume, else none (an
        earlier session is set aside, not lost)."""
        if not self.args.resume:
            moved = session.set_aside(self.dir)
            if moved:
                note(f"An earlier session was kept as {moved}; --resume would have gone on with it.")
            return []
        torn = session.mend_tail(self.dir)
        if torn:
            note(f"The session's last line was cut off (the process was stopped while writing it); "
                 f"it was moved to {torn} and the lines before it are kept.")
        try:
            messages = self.log.replay()
        except ValueError as error:
            raise Stop(f"The session cannot be resumed: {error}.") from None
        if not messages:
            note("There was no session to resume here; a new one starts.")
        return messages

    def save(self, write):
        try:
            write()
        except OSError as error:
            raise Stop(self.disk_sentence(error)) from None

    def disk_sentence(self, error):
        what = "the disk is full" if full_disk(error) else f"it could not be written ({error.strerror or error})"
        return (f"The session could not be saved to {session.path_of(self.dir)}: {what}. Everything "
                "before this point is saved and the file is still whole; free some space, then go "
                "on with --resume.")

    def broke(self, error):
        return (f"The run stopped: the harness raised {type(error).__name__}: {error}. The session "
                f"is saved up to that point; --resume goes on from it.")

    def renderer(self):
        if self.args.json:
            return render.JsonLines(self.parts["JsonRenderer"])
        return render.TextRenderer()

    async def drive(self, run, shown):
        async for event in run:
            shown.render(event)

    async def one(self, text):
        """One prompt, run to its end, cancelled or failed: "ok", "failed", "cancelled" or "fatal"."""
        try:
            compacted = await self.parts["maybe_compact"](
                self.h, self.log, self.writer, window=self.args.context_window,
                reserve=min(session.RESERVE, self.args.context_window // 4),
                keep_recent_tokens=min(session.KEEP_RECENT, self.args.context_window // 4))
        except OSError as error:
            raise Stop(self.disk_sentence(error)) from None
        if compacted:
            note("The conversation was near the context window, so its older part is now a "
                 "summary (lesson 12); the whole of it stays in the session file.")
        shown = self.renderer()
        task = asyncio.ensure_future(self.drive(self.h.prompt(text), shown))
        self.keyboard.running(task)
        try:
            await self.steer_while(task)
            await task
        except asyncio.CancelledError:
            if not task.cancelled():
                raise                       # it is this program being cancelled, not the run
            note("Cancelled. The session is saved as it stood; a call cut off has no result, and "
                 "the model is told so next time.")
            return "cancelled"
        except OSError as error:
            if full_disk(error) or error.filename and str(error.filename).endswith("session.jsonl"):
                raise Stop(self.disk_sentence(error)) from None
            raise Stop(self.broke(error)) from None
        except Exception as error:         # a listener or the harness itself raised
            raise Stop(self.broke(error)) from None
        finally:
            self.keyboard.running(None)
        last = next((m for m in reversed(self.h.messages) if m["role"] == "assistant"), None)
        if last is not None and last.get("stop_reason") == "error":
            sentence, fatal = failures.explain(
                last, self.transport.last, url=self.transport.url, model=self.args.model,
                key_env=self.args.api_key_env, has_key=bool(self.key))
            note(sentence)
            self.failed = True
            return "fatal" if fatal else "failed"
        return "ok"

    async def steer_while(self, task):
        """Until `task` ends: each line typed is h.steer(line) (lesson 9), taken at the next safe
        point of the run. Without a terminal, lines wait to be prompts."""
        if not self.keyboard.interactive:
            await asyncio.wait({task})
            return
        while not task.done():
            typed = asyncio.ensure_future(self.keyboard.line())
            done, _ = await asyncio.wait({task, typed}, return_when=asyncio.FIRST_COMPLETED)
            if typed not in done:
                typed.cancel()
                try:
                    await typed
                except asyncio.CancelledError:
                    pass
                else:                      # a line came in just as the run ended: keep it
                    self.keyboard._lines.put_nowait(typed.result())
                return
            line = typed.result()
            if line is None or line is terminal.INTERRUPT or not line.strip():
                if line is None:
                    await asyncio.wait({task})
                continue
            if line.strip() in ("/exit", "/quit"):
                self.leaving = True
                note("(the session ends when this run does; Ctrl-C stops the run now)")
                continue
            self.h.steer(line)
            note("(noted: the agent reads this at its next step)")

    async def prompts(self):
        """The prompts: the first one given on the command line, then each line at "> "."""
        if self.args.prompt:
            if self.keyboard.interactive or self.args.demo:
                note(f"> {self.args.prompt}")
            yield self.args.prompt
        while not self.leaving:
            if self.keyboard.interactive:
                sys.stderr.write("> ")
                sys.stderr.flush()
            line = await self.keyboard.line()
            if line is None or line is terminal.INTERRUPT:
                if self.keyboard.interactive:
                    sys.stderr.write("\n")
                return
            if line.strip() in ("/exit", "/quit"):
                return
            if line.strip():
                yield line

    async def main(self):
        loop = asyncio.get_running_loop()
        server = None
        try:
            if self.args.demo and not self.args.base_url:
                server = demo.server().start()
                self.args.base_url = server.url
            parts, label = await asyncio.to_thread(
                loading.load, self.args.harness, os.path.join(self.dir, ".agent"), note)
            self.setup(parts, label)
            self.keyboard.start(loop)
            try:
                async for text in self.prompts():
                    if await self.one(text) == "fatal":
                        return 1
            finally:
                self.keyboard.stop()
        finally:
            if server is not None:
                server.stop()
                note(f"The demo's files are in {self.dir}.")
        return 1 if self.failed and not self.keyboard.interactive else 0


def main(argv=None, *, stdin=0):
    """The command; `stdin` is the file descriptor prompts and answers are read from."""
    try:
        args = settings(sys.argv[1:] if argv is None else argv)
    except Usage as error:
        if str(error):
            note(f"{PROG}: {error}.")
        return 2
    except SystemExit as leaving:    # --help
        return leaving.code or 0
    key = None if args.demo else os.environ.get(args.api_key_env) or None
    try:
        sys.stdout.reconfigure(line_buffering=True)
    except (AttributeError, ValueError):
        pass
    try:
        return asyncio.run(Agent(args, key, stdin).main())
    except loading.Refused as error:
        note(f"{PROG}: {error}")
        return 1
    except Stop as error:
        note(str(error))
        return 1
    except KeyboardInterrupt:
        note("Stopped.")
        return 130

"""Helpers that a lesson notebook's cells call. Each imports ipywidgets, matplotlib or IPython only
when it is called, so `import lab` stays light.

    lab.rung(12, "what-is-sent")    a question (lab/rungs/)
    lab.hints(12, lab=1)            a lab's hint ladder
    lab.progress(12)                which questions are answered, which labs pass
    lab.draw_log(log, 35, ...)      a figure drawn from a session log (lab/runtime/figures.py)
    lab.show_diff("11", "12.1")     what changed between two harness.py files, readably
    with lab.trying("summarize"):   a try-it cell that reports an unwritten gap in a sentence
"""

import contextlib
import html
import os
import threading
import traceback

import harness
from lab import rungs
from lab.checks import engine
from lab.course import starters
from lab.rungs import text
from lab.runtime import checkcell, figures
from lab.stage import virtual_loop


def rung(lesson, rung_id):
    """Lesson `lesson`'s question `rung_id`, as a widget that remembers its answer."""
    return rungs.rung(lesson, rung_id)


def hints(lesson, lab):
    """The three-level hint ladder of lab `lab` of lesson `lesson`."""
    return rungs.hints(lesson, lab)


def progress(lesson=None):
    """Print which of the lesson's questions are answered and which of its labs pass; with no
    lesson, the same for every lesson of the course, as a table and a small chart."""
    for passed_lesson, passed_lab in sorted(getattr(checkcell, "PASSED", ())):
        if lesson is None or passed_lesson == lesson:
            rungs.record_lab(passed_lesson, passed_lab, True)
    if lesson is not None:
        rungs.progress(lesson)
        return
    rows = text.course_progress()
    print("Your progress through the course")
    for number, title, answered, questions, passed, labs in rows:
        print(f"  {number:02d} {title:<34} questions {answered:>2} of {questions:<2}  labs {passed} of {labs}")
    if rows:
        figures.show(figures.progress_figure(rows),
                     alt="; ".join(f"lesson {n}: {a}/{q} questions, {p}/{l} labs" for n, _, a, q, p, l in rows))


def draw_log(log, keep_recent_tokens, *, alt, title=None):
    """Draw `log` (see lab.runtime.figures.log_figure), display it with `alt` as its text form, and
    return what was drawn (a lab.runtime.figures.Plan)."""
    fig = figures.log_figure(log, keep_recent_tokens, title=title)
    plan = fig.lab_plan
    figures.show(fig, alt)
    return plan


_DIFF_STYLE = """<style>
.lab-diff { font-family: var(--jp-code-font-family, monospace); font-size: 12px; line-height: 1.35;
  border: 1px solid var(--jp-border-color1, #bdbdbd); border-radius: 4px; overflow-x: auto; margin: 4px 0;
  color: var(--jp-content-font-color1, rgba(0, 0, 0, 0.87)); background: var(--jp-layout-color0, #fff); }
.lab-diff div { white-space: pre; padding: 0 8px; }
.lab-diff .lab-diff-add { background: color-mix(in srgb, var(--jp-success-color1, #388e3c) 18%, transparent); }
.lab-diff .lab-diff-del { background: color-mix(in srgb, var(--jp-error-color1, #d32f2f) 18%, transparent); }
.lab-diff .lab-diff-hunk { background: var(--jp-layout-color2, #eee); font-style: italic; }
.lab-diff .lab-diff-file { background: var(--jp-layout-color2, #eee); font-weight: 600; }
.lab-starter pre { font-size: 12px; max-height: 30em; overflow: auto; }
</style>"""


def _diff_html(diff_text):
    rows = []
    for line in diff_text.splitlines():
        if line.startswith(("+++", "---")):
            kind = "lab-diff-file"
        elif line.startswith("@@"):
            kind = "lab-diff-hunk"
        elif line.startswith("+"):
            kind = "lab-diff-add"
        elif line.startswith("-"):
            kind = "lab-diff-del"
        else:
            kind = "lab-diff-same"
        rows.append(f'<div class="{kind}">{html.escape(line, quote=False) or " "}</div>')
    return "".join(rows)


def show_diff(old, new):
    """Display what changed from the harness at `old` to the harness at `new` ("11" is the end of
    lesson 11, "12.1" the start of lesson 12's lab 1), coloured line by line, followed by the whole
    file `new` names, folded away. The text form is the plain unified diff."""
    from IPython.display import display
    a, b = starters.Stage.parse(old), starters.Stage.parse(new)
    text = starters.diff(a, b)
    whole = starters.text_at(b)
    page = (f'{_DIFF_STYLE}<div class="lab-diff">{_diff_html(text)}</div>'
            f'<details class="lab-starter"><summary>The whole harness.py this exercise starts '
            f'from ({b}), {len(whole.splitlines())} lines</summary>'
            f'<pre>{html.escape(whole, quote=False)}</pre></details>')
    display({"text/html": page, "text/plain": text}, raw=True)


def _in_harness(filename):
    """Whether `filename` is a module of the course's harness package."""
    return os.path.dirname(os.path.abspath(filename)) == os.path.dirname(os.path.abspath(harness.__file__))


class _Watchdog:
    """Stops the thread that made it, `seconds` from now, by raising checkcell.Overran inside it
    (the checks' own way to stop a test), unless `cancel()` came first. A stop that was sent but
    not yet delivered when the body ended is taken back, so it never lands in a later line."""

    def __init__(self, seconds):
        self.target = threading.get_ident()
        self.fired = False
        self._lock = threading.Lock()
        self._done = False
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self):
        import ctypes  # here: the grader's sandbox forbids ctypes, and runs no try-it cell
        with self._lock:
            if self._done:
                return
            self.fired = True
            # A cell awaiting lab.meanwhile runs the learner's code in meanwhile's thread, while
            # this one sits in the kernel's event loop: the stop goes where the code runs, and
            # reaches the cell as the outcome of its await.
            self.sent_to = virtual_loop.interrupt_worker(checkcell.Overran)
            if self.sent_to is None:
                self.sent_to = self.target
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.target),
                                                           ctypes.py_object(checkcell.Overran))

    def cancel(self):
        self._timer.cancel()
        with self._lock:
            self._done = True
            if self.fired:
                import ctypes
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.sent_to), None)


@contextlib.contextmanager
def trying(name, seconds=None):
    """For a try-it cell: run the body, and if the learner's `name` is not written yet, raises,
    runs longer than a check's test may (`seconds`, lab.checks.engine.TEST_SECONDS by default) or
    is interrupted, say so in a sentence instead of stopping "Run All". Under nbgrader it does not
    hide anything: a try-it cell earns no points either way."""
    limit = engine.TEST_SECONDS if seconds is None else seconds
    watchdog = _Watchdog(limit)
    try:
        try:
            yield
        finally:
            watchdog.cancel()
    except checkcell.Overran:
        print(f"{name} did not finish within {limit:g} s, so this cell stopped it: an endless loop? "
              "Fix the cell above and run both again.")
    except KeyboardInterrupt:
        print(f"Stopped: you interrupted this cell while {name} ran. Run it again when you are ready.")
    except NotImplementedError:
        print(f"{name} is not written yet: fill in its cell above, run it, then run this cell "
              "again.")
    except NameError as error:  # a cell above was not run in this kernel
        missing = getattr(error, "name", None) or str(error)
        print(f"{missing} is not defined yet: run the cells above this one first (Run > Run All "
              "Above Selected Cell).")
    except Exception as error:  # the learner's own code raised: say where, briefly
        where, frames = "", traceback.extract_tb(error.__traceback__)
        for frame in reversed(frames):
            if frame.filename.startswith("<") or "ipykernel" in frame.filename:
                where = f" (in {frame.name}, line {frame.lineno} of its cell)"
                break
        # A course function such as text_of that raised was handed something it cannot read: it
        # is the one that raised, so the sentence names it rather than the gap.
        called = [f.name for f in frames if _in_harness(f.filename) and not f.name.startswith("<")]
        who = called[0] if called else name
        print(f"{who} raised {type(error).__name__}: {error}{where}. Fix the cell above and run "
              "both again.")
        if os.environ.get("LAB_TRY_RAISES"):
            raise


def require_pass(lesson, lab):
    """The visible line of a hidden-tests cell. When nbgrader runs the notebook (validate or
    autograde), it raises AssertionError unless lab `lab`'s visible tests passed in this kernel, so
    an empty or failing gap never earns the hidden tests' points, and `nbgrader validate --invert`
    sees every graded cell of an unfilled copy fail. For a learner, whose copy has no hidden
    tests, it says in one line what the cell is for and whether they would count now."""
    passed = (lesson, lab) in checkcell.PASSED
    if os.environ.get("NBGRADER_EXECUTION"):
        if not passed:
            raise AssertionError(f"lab {lab} of lesson {lesson} has not passed its visible tests, "
                                 "so its hidden tests earn nothing")
        return
    if passed:
        print(f"Lab {lab}'s hidden tests run when your notebook is graded; its visible tests pass "
              "in this kernel, so they will count.")
    else:
        print(f"Lab {lab}'s hidden tests run when your notebook is graded, and count only once its "
              "visible tests pass (run its check cell above; they do not pass in this kernel yet).")

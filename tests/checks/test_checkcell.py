"""lab.check, as a notebook's check cell calls it: sentences for the learner, a raise for nbgrader,
a time limit on every test, an interrupt that ends in a sentence, and the learner's code taking
over harness once a lab passes."""

import _thread
import time

import pytest

import harness
import lab
from lab import lessons
from lab.runtime import checkcell, takeover

summarize_offering_tools = lessons.load(12, "wrong").summarize_offering_tools

REFERENCE_FIND_CUT = harness.find_cut


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setenv("LAB_RUNGS_DIR", str(tmp_path))
    yield
    takeover.use_reference(12)
    checkcell.PASSED.clear()  # a pass here must not show in another test's lab.progress()


def stub(model, messages):
    raise NotImplementedError


def yours(reference, **scope):
    """The reference's definition as a learner's own: the same code, written out anew (a
    learner who copied the course's text into a cell), not the course's object, which lab.check
    refuses to count as the learner's. `scope` names what the notebook holds besides the
    reference module's names (the learner's other functions): its globals are a copy then."""
    import types
    code = reference.__code__
    return types.FunctionType(code.replace(co_filename=f"<your cell: {code.co_name}>"),
                              dict(reference.__globals__, **scope) if scope else reference.__globals__,
                              reference.__name__, reference.__defaults__, reference.__closure__)


ROWS, COMPACT = yours(harness.SessionLog.rows), yours(harness.compact)   # as a learner wrote them


def test_an_empty_gap_is_not_done_yet_and_does_not_raise(capsys):
    lab.check(12, 1, summarize=stub)
    out = capsys.readouterr().out
    assert out.startswith("Lab 1 is not done yet: summarize still raises NotImplementedError, so there is "
                          "nothing to test.")
    assert harness.summarize is not stub


def test_a_wrong_gap_gets_the_failing_tests_sentence(capsys):
    lab.check(12, 1, summarize=summarize_offering_tools)
    out = capsys.readouterr().out
    assert "Lab 1 of lesson 12, tests: 2 of 3 pass." in out
    assert "why: summarize got the conversation's question answered instead of a summary, because the " in out
    assert takeover.running_on()["summarize"] == "reference"


def test_under_nbgrader_a_partly_right_lab_gives_its_points_and_an_empty_one_raises(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    score = lab.check(12, 1, summarize=summarize_offering_tools)   # 2 of its 3 tests pass
    assert isinstance(score, checkcell.Score) and score == 2 and repr(score) == "2"
    with pytest.raises(AssertionError):
        lab.check(12, 1, summarize=stub)


def test_a_lab_that_passed_and_then_fails_no_longer_passes(capsys):
    """Passes follow the code: the learner breaks a passing gap and checks again."""
    lab.check(12, 1, summarize=yours(harness.summarize))
    assert takeover.running_on()["summarize"] == "yours" and (12, 1) in checkcell.PASSED
    capsys.readouterr()
    lab.check(12, 1, summarize=summarize_offering_tools)
    out = " ".join(capsys.readouterr().out.split())   # the lines are wrapped for the notebook
    assert out.endswith("Lab 1 no longer passes: it passed before, so from here on harness runs on the "
                                 "reference summarize again, until this check passes.")
    assert takeover.running_on()["summarize"] == "reference" and harness.summarize is not summarize_offering_tools
    assert (12, 1) not in checkcell.PASSED
    lab.progress(12)
    assert "[ ] lab 1" in capsys.readouterr().out
    # emptied again: the same, said once, and a lab that never passed says nothing of the kind
    lab.check(12, 1, summarize=stub)
    assert "no longer passes" not in capsys.readouterr().out
    lab.check(12, 2, find_cut=summarize_offering_tools, rows=ROWS, compact=COMPACT)
    assert "no longer passes" not in capsys.readouterr().out


def test_a_pass_hands_the_learners_code_to_harness_and_there_is_a_way_back(capsys):
    calls = []
    written_out = yours(REFERENCE_FIND_CUT)   # the course's own would be refused (see KEPT)

    def mine(rows, keep_recent_tokens):
        calls.append(len(rows))
        return written_out(rows, keep_recent_tokens)

    # as in a notebook: the learner's compact calls the learner's find_cut and summarize
    compact = yours(harness.compact, find_cut=mine, summarize=yours(harness.summarize))
    lab.check(12, 2, find_cut=mine, rows=ROWS, compact=compact)
    out = capsys.readouterr().out
    assert "7 of 7 pass" in out
    # the success line names the cells that now run on the learner's code, as the lesson lists them
    assert "re-run them to see it" in out and "The walk back and the cut" in out and "Figure 12.1" in out
    assert "The compaction line and its replay" in out
    assert harness.find_cut is mine and takeover.running_on()["find_cut"] == "yours"
    lab.progress(12)
    assert "[x] lab 2" in capsys.readouterr().out
    harness.compact(harness.SessionLog(lab.Workspace(), "s.jsonl"), None, keep_recent_tokens=5)
    assert calls, "compact should now call the learner's find_cut"
    lab.check(12, 2, find_cut=mine, rows=ROWS, compact=compact)  # again: harmless
    lab.use_reference(12)
    assert harness.find_cut is REFERENCE_FIND_CUT
    assert takeover.running_on()["find_cut"] == "reference"


def test_a_wrong_signature_or_missing_name_is_a_sentence(capsys):
    def summarize(messages):
        return ""
    lab.check(12, 1, summarize=summarize)
    assert capsys.readouterr().out.strip() == ("not yet: summarize should take (model, messages); yours takes "
                                               "(messages).")
    lab.check(12, 2, find_cut=REFERENCE_FIND_CUT)
    out = capsys.readouterr().out
    assert "rows is not defined" in out and "compact is not defined" in out


def test_a_passing_check_has_no_value_so_nbgrader_gives_the_cell_all_its_points():
    assert lab.check(12, 1, summarize=yours(harness.summarize)) is None


def test_an_endless_loop_is_stopped_and_reported_in_one_sentence(capsys):
    def find_cut(rows, keep_recent_tokens):
        while True:
            pass
    started = time.monotonic()
    lab.check(12, 2, find_cut=find_cut, rows=ROWS, compact=COMPACT, timeout=0.5)
    out = " ".join(capsys.readouterr().out.split())
    assert time.monotonic() - started < 10
    assert "why: find_cut (at line " in out
    assert "of its definition) did not finish within 0.5 s, so the check stopped it: an endless loop?" in out
    assert "Traceback" not in out and "The other 6 tests were not run" in out
    assert takeover.running_on()["find_cut"] == "reference"


def test_an_endless_loop_under_nbgrader_scores_zero(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")

    def summarize(model, messages):
        while True:
            pass
    with pytest.raises(AssertionError, match="did not finish"):
        lab.check(12, 1, summarize=summarize, timeout=0.3)


def test_an_interrupt_ends_the_check_with_a_sentence(capsys):
    def summarize(model, messages):
        _thread.interrupt_main()  # as the stop button does: KeyboardInterrupt in the main thread
        time.sleep(0.5)
        return "late"
    lab.check(12, 1, summarize=summarize)
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("Check stopped: you interrupted it during the test")
    assert "Traceback" not in out and takeover.running_on()["summarize"] == "reference"


def test_a_cell_that_does_not_parse_or_raised_is_named():
    problem = checkcell.cell_problem("summarize", ["x = 1", "def summarize(model, messages)\n    pass\n"])
    assert problem == ("the cell that defines summarize does not parse (line 1: expected ':'): fix it "
                       "and run that cell again")
    problem = checkcell.cell_problem("SessionLog.rows", ["open('nope')\ndef rows(self):\n    return []\n"])
    assert problem.startswith("the cell that defines SessionLog.rows raised an error before rows was defined")
    assert checkcell.cell_problem("compact", ["lab.check(12, lab=2)  # compact above"]) == ""


def test_only_the_gaps_still_stubbed_are_named(capsys):
    def compact(log, model, *, keep_recent_tokens):
        raise NotImplementedError()
    lab.check(12, 2, find_cut=yours(harness.find_cut), rows=ROWS, compact=compact)
    out = capsys.readouterr().out
    assert "why: not written yet (it still raises NotImplementedError)." in out


HANDS_BACK = ("import harness\n\n"
              "def summarize(model, messages):\n"
              "    return harness.summarize(model, messages)\n")


def test_the_courses_own_summarize_is_not_the_learners(capsys, monkeypatch):
    """`summarize = harness.summarize` in the gap's cell: graded, harness holds a stub there, so
    the notebook must not call it a pass either."""
    reference = harness.summarize
    lab.check(12, 1, summarize=harness.summarize)
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("not yet: summarize is the course's own harness.summarize, which graded "
                          "code does not have: write summarize yourself."), out
    assert harness.summarize is reference and takeover.running_on()["summarize"] == "reference"
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError, match="course's own harness.summarize"):
        lab.check(12, 1, summarize=harness.summarize)


def test_a_gap_that_hands_back_to_the_courses_answer_fails_each_test(capsys):
    reference = harness.summarize
    cell = {}
    exec(compile(HANDS_BACK, "<your cell>", "exec"), cell)
    lab.check(12, 1, summarize=cell["summarize"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Lab 1 of lesson 12, tests: 0 of 3 pass." in out, out
    assert out.count("why: your summarize calls harness.summarize, the course's own answer, which "
                     "graded code does not have: write summarize yourself.") == 3, out
    assert harness.summarize is reference, "lab.check left its guard in harness"
    assert takeover.running_on()["summarize"] == "reference"


# The course's answer kept under a name of the learner's own before the check: graded, each of
# these names holds the starter's stub, so none may pass in the notebook. (A default argument
# cannot hold it: the signature check refuses a parameter the gap does not have.)
KEPT = {
    "an import of its own": ("from harness import summarize as course_summarize\n\n"
                             "def summarize(model, messages):\n"
                             "    return course_summarize(model, messages)\n"),
    "a name of its own": ("import harness\n\n"
                          "course_summarize = harness.summarize\n\n"
                          "def summarize(model, messages):\n"
                          "    return course_summarize(model, messages)\n"),
    "a closure": ("import harness\n\n"
                  "def make(answer):\n"
                  "    def summarize(model, messages):\n"
                  "        return (lambda: answer(model, messages))()\n"
                  "    return summarize\n\n"
                  "summarize = make(harness.summarize)\n"),
}


@pytest.mark.parametrize("form", KEPT)
def test_the_courses_answer_kept_under_a_name_of_the_learners_fails_each_test(capsys, form):
    reference = harness.summarize
    cell = {}
    exec(compile(KEPT[form], "<your cell>", "exec"), cell)
    mine = cell["summarize"]
    before = (dict(cell), [c.cell_contents for c in mine.__closure__ or ()])
    lab.check(12, 1, summarize=mine)
    out = " ".join(capsys.readouterr().out.split())
    assert "Lab 1 of lesson 12, tests: 0 of 3 pass." in out, f"{form}: {out}"
    assert out.count("why: your summarize calls harness.summarize, the course's own answer") == 3, out
    after = (dict(cell), [c.cell_contents for c in mine.__closure__ or ()])
    assert after == before, f"takeover.answers_out_of_reach left a stand-in in the learner's {form}"
    assert harness.summarize is reference and takeover.running_on()["summarize"] == "reference"


def test_the_answer_kept_by_the_learner_may_still_be_called_from_elsewhere(capsys):
    """The course's answer under a name of the learner's own is stood in for only in the namespace
    the functions under test were defined in, and only while their check runs: elsewhere, and
    afterwards, that name still calls the answer."""
    cell = {"__name__": "notebook"}
    exec(compile("from harness import summarize as course_summarize\n\n"
                 "def helper(model, messages):\n"
                 "    return course_summarize(model, messages)\n", "<your cell>", "exec"), cell)
    mine = yours(harness.summarize)
    with takeover.answers_out_of_reach(12, {"summarize": mine}):
        assert cell["course_summarize"] is takeover.reference_of("summarize")
    model = lab.ScriptedModel([lab.reply(lab.text("short summary"))])
    assert cell["helper"](model, [lab.user("hello")]) == "short summary"


def _compact_calling(call_find_cut, call_summarize="summarize", **scope):
    """The reference's compact written out in a notebook whose other names are `scope`, calling
    find_cut and summarize as the two arguments say."""
    import inspect
    source = inspect.getsource(harness.compact)
    source = source.replace("cut = find_cut(", f"cut = {call_find_cut}(")
    source = source.replace("summary = summarize(", f"summary = {call_summarize}(")
    cell = dict(vars(inspect.getmodule(harness.compact)), harness=harness, **scope)
    exec(compile(source, "<your cell: compact>", "exec"), cell)
    return cell["compact"]


def test_a_gap_that_reaches_another_gap_through_harness_fails_as_graded(capsys):
    """Graded, harness is the starter, where find_cut is a stub: a compact that calls
    harness.find_cut (or the course's find_cut under a name of its own) would score nothing
    there for the tests that reach it, so here those tests fail too, naming compact."""
    find_cut, summarize = yours(harness.find_cut), yours(harness.summarize)
    says = ("why: your compact calls harness.find_cut, which graded code does not have (there every "
            "gap of the lesson is a stub): call your own find_cut instead.")
    forms = {"through harness": _compact_calling("harness.find_cut", summarize=summarize),
             "kept under a name of its own": _compact_calling(
                 "cut_at", summarize=summarize, cut_at=takeover.reference_of("find_cut"))}
    for form, compact in forms.items():
        lab.check(12, 2, find_cut=find_cut, rows=ROWS, compact=compact)
        out = " ".join(capsys.readouterr().out.split())
        assert "Lab 2 of lesson 12, tests: 7 of 7 pass." not in out and says in out, f"{form}: {out}"
        assert takeover.running_on()["compact"] == "reference", form
    # the same compact calling its own find_cut passes
    lab.check(12, 2, find_cut=find_cut, rows=ROWS,
              compact=_compact_calling("find_cut", find_cut=find_cut, summarize=summarize))
    assert "Lab 2 of lesson 12, tests: 7 of 7 pass." in capsys.readouterr().out


def test_a_gap_that_reaches_the_learners_own_code_through_harness_fails_as_graded(capsys):
    """Once lab 1 passes, harness.summarize is the learner's own; graded it is still the
    starter's stub, so compact must call summarize itself."""
    find_cut, summarize = yours(harness.find_cut), yours(harness.summarize)
    lab.check(12, 1, summarize=summarize)
    assert takeover.running_on()["summarize"] == "yours"
    capsys.readouterr()
    compact = _compact_calling("find_cut", "harness.summarize", find_cut=find_cut)
    lab.check(12, 2, find_cut=find_cut, rows=ROWS, compact=compact)
    out = " ".join(capsys.readouterr().out.split())
    assert ("why: your compact calls harness.summarize, which graded code does not have (there every "
            "gap of the lesson is a stub): call your own summarize instead.") in out, out
    assert harness.summarize is summarize, "lab.check left its guard in harness"


def test_while_the_answers_are_out_of_reach_every_place_of_a_name_is_still_found():
    """A test that installs the learner's code asks manifest.places where each name lives; with
    a stand-in of its own in each place it would find the package alone, and given code would
    go on calling the course's answer instead of the learner's."""
    from lab.course import manifest
    before = manifest.places("summarize")
    with takeover.answers_out_of_reach(12, {}):
        during = manifest.places("summarize")
        assert len({id(vars(owner)[attribute]) for owner, attribute in during}) == 1
    assert [owner for owner, _ in during] == [owner for owner, _ in before], \
        "takeover.answers_out_of_reach hid some of summarize's places from manifest.places"
    package, module = before[0][0], before[1][0]
    assert vars(package)["summarize"] is vars(module)["summarize"] is takeover.reference_of("summarize")


def test_a_thread_whose_test_is_over_gets_no_stop(monkeypatch):
    """The notebook's check stops a looping test by raising Overran in its thread, again every
    50 ms while the thread lives. A thread whose test had just ended, still returning, took one
    where nothing could catch it, and Python printed "Exception ignored in thread ..." under the
    check. _stop now raises nothing once the thread's work is over."""
    import threading
    import time

    from lab.runtime import checkcell

    escaped = []
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(args.exc_type))
    box = {}

    def returning():   # the work is over; what is left of the thread takes a while
        box["finished"] = True
        started = time.monotonic()
        while time.monotonic() - started < 0.3:
            pass
    thread = threading.Thread(target=returning, daemon=True)
    thread.start()
    while not box:
        time.sleep(0.001)
    assert checkcell._stop(thread, grace=2.0, finished=lambda: box.get("finished", False))
    assert escaped == [], f"_stop raised {escaped} into a thread whose test was over"

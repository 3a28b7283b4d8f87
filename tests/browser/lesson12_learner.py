"""What a learner does in lesson 12, step by step, and what each step must show them.

Each step acts through the page and then waits, up to a limit, for what the learner should see:
the feedback the lesson data (lab/lessons/lesson12/) gives that answer, the model answer, the
hint, the check's sentence. If the page shows something else, the step raises LearnerSawProblem
saying which rung or cell, what was done, what was expected and what was shown.

The rungs' CSS classes are the ones lab/rungs/ documents as stable.
"""

import re
import textwrap
import time
import types

from lab.lessons import lesson12 as DATA

from lab_page import LearnerSawProblem

FEEDBACK_TIMEOUT = 10          # seconds for a click to show its feedback
SETTLE = 1.5                   # seconds a wrong text must stay, once the page has responded


def plain(text):
    """Text as the page shows it, for comparing: no `code` or **bold** marks, spaces collapsed."""
    return " ".join(text.replace("`", "").replace("**", "").split())


def spec(rung_id):
    for item in DATA.RUNGS:
        if item.id == rung_id:
            return item
    raise LookupError(f"lesson 12 has no rung {rung_id!r}")


def rung(nb, rung_id):
    return nb.page.locator(f".lab-rung--{rung_id}")


def _shown(locator):
    return plain(locator.inner_text()) if locator.count() and locator.is_visible() else None


def wait_for_text(nb, locator, expected, timeout, what, before=None, responded=None,
                  settle=SETTLE):
    """Wait until `locator` is visible and shows `expected` (compared as plain text).

    Fails after `timeout` s, or sooner: once the page has responded to the action (`responded()`
    is true; by default, the text is no longer `before`, what it showed before the action) and
    has then shown the same wrong thing for `settle` s."""
    want = plain(expected)
    responded = responded or (lambda got: got != before)
    deadline = time.monotonic() + timeout
    last, since = object(), time.monotonic()
    while True:
        got = _shown(locator)
        if got == want:
            return got
        now = time.monotonic()
        if got != last:
            last, since = got, now
        if now > deadline or (responded(got) and now - since > settle):
            shown = "nothing (it is hidden or absent)" if got is None else repr(got)
            raise LearnerSawProblem(f"{what}: expected {want!r}; the page showed {shown}")
        nb.page.wait_for_timeout(100)


def every_rung_rendered(nb):
    """Every rung of the lesson data is on the page once, drawn, with its options; every lab has
    its hint ladder. Returns the number of rungs."""
    missing, wrong = [], []
    for item in DATA.RUNGS:
        box = rung(nb, item.id)
        if box.count() != 1:
            missing.append(f"{item.id} (found {box.count()})")
            continue
        if item.kind in ("choice", "multi"):
            n = box.locator(".lab-rung-option").count()
            if n != len(item.options):
                wrong.append(f"{item.id} has {n} option buttons, not {len(item.options)}")
        if not box.is_visible():
            wrong.append(f"{item.id} is not visible")
    for lab_number in DATA.HINTS:
        if nb.page.locator(f".lab-hints--lab{lab_number}").count() != 1:
            missing.append(f"hint ladder of lab {lab_number}")
    if missing or wrong:
        raise LearnerSawProblem("not every rung was drawn after Run All: "
                                + "; ".join([f"missing {m}" for m in missing] + wrong))
    return len(DATA.RUNGS)


def choose(nb, rung_id, index):
    """Click option `index` of a choice rung; see that option's own feedback, marked right or
    wrong as the lesson data says."""
    item = spec(rung_id)
    option = item.options[index]
    box = rung(nb, rung_id)
    button = box.locator(f".lab-rung-option-{index}")
    button.scroll_into_view_if_needed()
    button.click()
    verdict = ("Yes. " if option.right else "Not this one. ") + option.feedback
    what = (f"rung {rung_id}: after picking ({'abcdefghij'[index]}) {plain(option.text)[:60]!r}, "
            "its feedback")
    # The kernel has answered the click once the button is marked chosen.
    chosen = lambda got: "lab-rung-chosen" in (button.get_attribute("class") or "")
    wait_for_text(nb, box.locator(".lab-rung-feedback"), verdict, FEEDBACK_TIMEOUT, what,
                  responded=chosen)
    mark = "lab-rung-right" if option.right else "lab-rung-wrong"
    classes = button.get_attribute("class") or ""
    if "lab-rung-chosen" not in classes or mark not in classes:
        raise LearnerSawProblem(f"rung {rung_id}: the picked option is not marked chosen and "
                                f"{mark.split('-')[-1]} (its classes: {classes})")
    return verdict


def type_number(nb, rung_id, number, press="Enter"):
    """Type `number` into a number rung and press Enter (or click Check); see its feedback."""
    item = spec(rung_id)
    box = rung(nb, rung_id)
    field = box.locator(".lab-rung-number-input input")
    field.scroll_into_view_if_needed()
    feedback = box.locator(".lab-rung-feedback")
    before = _shown(feedback)
    field.fill(str(number))
    if press == "Enter":
        field.press("Enter")
    else:
        box.locator(".lab-rung-submit").click()
    if number == item.answer:
        expected = "Yes. " + item.right
    else:
        expected = "Not quite. " + item.near.get(number, item.wrong)
    wait_for_text(nb, feedback, expected, FEEDBACK_TIMEOUT,
                  f"rung {rung_id}: after typing {number}, its feedback", before=before)
    return expected


def multi_verdict(item, picked, key):
    """What a tick-all rung says after Check with the options `picked` ticked, written out here
    from the lesson data: "Yes." and its right text; or, on a first wrong Check (`key` False),
    how many ticks are wrong, a ✗ line with its own feedback for each ticked option that does
    not fit, and how many fitting options are left unticked, never which; or, with the key out,
    the count of options whose tick is right and a ✗ line for each one got wrong."""
    wrong = [(i, tick) for i, tick in enumerate(item.ticks) if (i in picked) != tick.fits]
    if not wrong:
        return "Yes. " + item.right
    if not key:
        lines = [f"Not quite: {len(wrong)} of {len(item.ticks)} ticks {'is' if len(wrong) == 1 else 'are'} wrong."]
        lines += [f"✗ “{tick.text}”: ticked, but it does not fit. {tick.feedback}"
                  for i, tick in wrong if i in picked]
        left = sum(1 for i, tick in wrong if i not in picked)
        if left:
            lines.append(("One option that fits is" if left == 1 else f"{left} options that fit are")
                         + " not ticked: read the options you left once more.")
        lines.append("Change your ticks and Check again; a second wrong Check, or the key's "
                     "button, shows every option's answer and why.")
        return " ".join(lines)
    lines = [f"Not quite: {len(item.ticks) - len(wrong)} of {len(item.ticks)} right. "
             + ("The option you got wrong:" if len(wrong) == 1 else "The options you got wrong:")]
    for i, tick in wrong:
        how = "ticked, but it does not fit." if i in picked else "it fits, but is not ticked."
        lines.append(f"✗ “{tick.text}”: {how} {tick.feedback}")
    return " ".join(lines + [item.wrong])


def tap_and_check(nb, rung_id, indexes, wrong_before=0):
    """Tap the options `indexes` (each one not tapped yet) of a multi-select rung, press Check,
    see the verdict on what is tapped now (`wrong_before` wrong Checks came before it: the
    second wrong one shows the key), and the marks: every option marked ✓ or ✗ as well as
    coloured when the ticks are right or the key is out, else only the ticked ones."""
    item = spec(rung_id)
    box = rung(nb, rung_id)
    for index in indexes:
        button = box.locator(f".lab-rung-option-{index}")
        button.scroll_into_view_if_needed()
        button.click()
        nb.page.wait_for_function("(el) => el.classList.contains('lab-rung-chosen')",
                                  arg=button.element_handle(), timeout=FEEDBACK_TIMEOUT * 1000)
    options = [box.locator(f".lab-rung-option-{i}") for i in range(len(item.ticks))]
    picked = {i for i, button in enumerate(options)
              if "lab-rung-chosen" in (button.get_attribute("class") or "")}
    box.locator(".lab-rung-submit").click()
    right_now = all((i in picked) == tick.fits for i, tick in enumerate(item.ticks))
    key = wrong_before + (0 if right_now else 1) >= 2
    expected = multi_verdict(item, picked, key)
    wait_for_text(nb, box.locator(".lab-rung-feedback"), expected, FEEDBACK_TIMEOUT,
                  f"rung {rung_id}: after Check with options {sorted(picked)} tapped, its feedback")
    for i, (button, tick) in enumerate(zip(options, item.ticks)):
        shown, classes = button.inner_text().strip(), button.get_attribute("class") or ""
        if not (key or right_now or i in picked):
            if shown.startswith(("✓", "✗")) or "lab-rung-wrong" in classes or "lab-rung-right" in classes:
                raise LearnerSawProblem(f"rung {rung_id}: after a first wrong Check, option {i}, "
                                        f"not ticked, is marked ({shown[:40]!r}): that gives the key away")
            continue
        right = (i in picked) == tick.fits
        mark, verdict = ("✓", "lab-rung-right") if right else ("✗", "lab-rung-wrong")
        if not shown.startswith(mark) or verdict not in classes:
            raise LearnerSawProblem(f"rung {rung_id}: after Check, option {i} should be marked "
                                    f"{mark} and {verdict}; it shows {shown[:40]!r} with the "
                                    f"classes {classes}")
    return expected


def write_answer(nb, rung_id, answer):
    """Type `answer` into an open question's text area; it is sent when the area loses focus."""
    area = rung(nb, rung_id).locator(".lab-rung-open-text textarea")
    area.scroll_into_view_if_needed()
    area.fill(answer)


def compare(nb, rung_id):
    """Tick an open question's "I compared my answer ..." box (its model answer is showing); see
    that the rung was not counted as answered before the tick, and is after it."""
    box = rung(nb, rung_id)
    classes = box.get_attribute("class") or ""
    if "lab-rung-answered" in classes:
        raise LearnerSawProblem(f"rung {rung_id}: counted as answered before the learner said "
                                "they compared their answer with the model answer")
    tick = box.locator(".lab-rung-compared input[type=checkbox]")
    if not tick.is_visible():
        raise LearnerSawProblem(f"rung {rung_id}: no \"I compared my answer\" box to tick once "
                                "the model answer shows")
    tick.scroll_into_view_if_needed()
    tick.check()
    try:
        nb.page.wait_for_function("(el) => el.classList.contains('lab-rung-answered')",
                                  arg=box.element_handle(), timeout=FEEDBACK_TIMEOUT * 1000)
    except Exception as error:  # playwright's TimeoutError; said as what the learner saw
        raise LearnerSawProblem(f"rung {rung_id}: ticked \"I compared\", and the rung is still "
                                "not marked answered") from error


def reveal(nb, rung_id):
    """Press an open question's reveal button; see the model answer and the common answers."""
    item = spec(rung_id)
    box = rung(nb, rung_id)
    body = box.locator(".lab-reveal-body")
    if body.is_visible():
        raise LearnerSawProblem(f"rung {rung_id}: the model answer shows before it is asked for")
    box.locator(".lab-reveal").click()
    common = " ".join(f"{answer} {misses}" for answer, misses in item.common)
    expected = (f"A model answer. {item.model_answer} "
                f"Common answers, and what each one misses {common}")
    wait_for_text(nb, body, expected, FEEDBACK_TIMEOUT,
                  f"rung {rung_id}: after pressing the reveal button, the revealed text")


def open_hints(nb, lab_number):
    """Open the three levels of a lab's hint ladder, one at a time, each only after the last."""
    ladder = nb.page.locator(f".lab-hints--lab{lab_number}")
    levels = DATA.HINTS[lab_number].levels
    for level, (_, text) in enumerate(levels, start=1):
        button = ladder.locator(f".lab-hint-level-{level}")
        body = ladder.locator(f".lab-hint-body-{level}")
        if body.is_visible():
            raise LearnerSawProblem(f"hints of lab {lab_number}: level {level} shows before "
                                    "its button is pressed")
        for later in range(level + 1, 4):
            if ladder.locator(f".lab-hint-level-{later}").is_enabled():
                raise LearnerSawProblem(f"hints of lab {lab_number}: level {later} can be "
                                        f"opened before level {level}")
        button.scroll_into_view_if_needed()
        button.click()
        wait_for_text(nb, body, text, FEEDBACK_TIMEOUT,
                      f"hints of lab {lab_number}: after pressing level {level}, its text")


# --- the summarize gap ------------------------------------------------------------------------

STUB = re.compile(r"^[ \t]*# YOUR CODE HERE\n[ \t]*raise NotImplementedError\(\)[ \t]*\n?", re.M)

# A mistake the lesson argues against: asking in the agent's voice.
WRONG_SUMMARIZE = '''\
document = user_message("\\n".join(["<conversation>", render(messages), "</conversation>"]))
reply = model.complete(harness.SYSTEM, [document], [])
summary = text_of(reply).strip()
if reply["stop_reason"] == "error" or not summary:
    raise RuntimeError("no summary")
return summary
'''

# Right, and it keeps the model of every call it makes, so the learner can see later demo
# cells run on it: summaries_written is theirs.
RIGHT_SUMMARIZE = '''\
summaries_written.append(model)
document = user_message("\\n".join(["<conversation>", render(messages), "</conversation>"]))
reply = model.complete(SUMMARY_SYSTEM, [document], [])
summary = text_of(reply).strip()
if reply["stop_reason"] == "error" or not summary:
    raise RuntimeError(f"no summary: {reply.get('error_message', 'the reply was empty')}")
return summary
'''


def fill_gap(source, body, before=""):
    """The learner's edition of a gap cell with its stub replaced by `body` (indented like the
    stub), and `before` put above the cell's first line."""
    match = STUB.search(source)
    if match is None:
        raise LearnerSawProblem(f"the gap holds no '# YOUR CODE HERE' stub:\n{source}")
    indent = re.match(r"[ \t]*", match.group(0)).group(0)
    filled = source[:match.start()] + textwrap.indent(body, indent) + source[match.end():]
    return before + filled.rstrip("\n")


def expected_verdict(body):
    """What lab.check(12, lab=1) says of `body` as summarize, computed here from the same
    tests the notebook's check cell runs: (the count line, [failing sentences])."""
    import harness
    from lab import checks

    scope = {name: getattr(harness, name) for name in
             ("SUMMARY_SYSTEM", "estimate_tokens", "render", "text_of", "user_message")}
    scope.update(harness=harness, summaries_written=[])
    exec("def summarize(model, messages):\n" + textwrap.indent(body, "    "), scope)
    results = checks.run(12, 1, types.SimpleNamespace(summarize=scope["summarize"]), hidden=False)
    passed = sum(r.passed for r in results)
    head = f"Lab 1 of lesson 12, tests: {passed} of {len(results)} pass."
    return head, [f"✗ {r.test.title} why: {r.message}." for r in results if not r.passed]


def run_check(nb, check_cell, body):
    """Run the check cell; see the verdict lab.check gives `body`. Returns the output text."""
    nb.run_cell(check_cell)
    shown = plain(nb.output_text(check_cell))
    head, failures = expected_verdict(body)
    missing = [line for line in [head] + failures if plain(line) not in shown]
    if missing:
        raise LearnerSawProblem(f"cell {check_cell} (the lab 1 check): expected {missing!r}; "
                                f"the page showed {shown!r}")
    return shown

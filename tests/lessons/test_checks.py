"""Every lesson's lab tests: the reference passes them all, an empty gap is "not done" and never
a failure, and each wrong answer the lesson keeps (lab/lessons/lessonNN/wrong.py) is caught with
one sentence that names the function at fault. The standard these tests enforce is
written out in docs/lesson-standard.md."""

import pytest

from lab import checks, lessons
from lab.course import manifest


def reference(lesson, lab=None):
    return manifest.Namespace({name: manifest.reference(name, lesson) for name in manifest.names(lesson, lab)})


def stubs(lesson, lab):
    def stub(*args, **kwargs):
        raise NotImplementedError("not written")
    return manifest.Namespace({name: stub for name in manifest.names(lesson, lab)})


def labs_of_every_lesson():
    return [(lesson, lab) for lesson in lessons.written() for lab in manifest.labs(lesson)]


def wrong_answers():
    cases = []
    for lesson in lessons.written():
        try:
            wrong = lessons.load(lesson, "wrong").WRONG
        except ModuleNotFoundError:
            continue
        for lab, by_name in wrong.items():
            for name, variants in by_name.items():
                cases += [(lesson, lab, name, variant) for variant in variants]
    return cases


LABS = labs_of_every_lesson()
WRONG = wrong_answers()


@pytest.mark.parametrize("lesson,lab", LABS, ids=[f"lesson{n:02d}-lab{l}" for n, l in LABS])
def test_each_lab_has_visible_and_hidden_tests(lesson, lab):
    assert checks.tests_for(lesson, lab, hidden=False), f"lesson {lesson} lab {lab} has no visible test"
    assert checks.tests_for(lesson, lab, hidden=True), f"lesson {lesson} lab {lab} has no hidden test"


@pytest.mark.parametrize("lesson,lab", LABS, ids=[f"lesson{n:02d}-lab{l}" for n, l in LABS])
def test_the_reference_passes_every_test(lesson, lab):
    ns = reference(lesson)
    failures = [(r.test.name, r.message) for r in checks.run(lesson, lab, ns) if not r.passed]
    assert failures == []


@pytest.mark.parametrize("lesson,lab", LABS, ids=[f"lesson{n:02d}-lab{l}" for n, l in LABS])
def test_a_stub_is_not_done_never_a_failure(lesson, lab):
    """Every gap still raising NotImplementedError: each test says "not done yet"."""
    ns = reference(lesson)
    for name in manifest.names(lesson, lab):
        ns = manifest.Namespace(dict(ns.learner(), **stubs(lesson, lab).learner()))
    results = checks.run(lesson, lab, ns)
    assert all(r.not_done for r in results), [(r.test.name, r.message) for r in results if not r.not_done]


def _empty_generator(*args, **kwargs):
    return
    yield


# Bodies that do nothing, in each shape a gap's answer can take. Each test earns its points on
# its own (lab.grader.verdict), so a test that one of these passes would pay for doing nothing.
DO_NOTHING = {
    "returns None": lambda *args, **kwargs: None,
    "returns []": lambda *args, **kwargs: [],
    "returns {}": lambda *args, **kwargs: {},
    "returns ''": lambda *args, **kwargs: "",
    "returns 0": lambda *args, **kwargs: 0,
    "returns its first argument": lambda *args, **kwargs: args[0] if args else None,
    "an empty generator": _empty_generator,
}


@pytest.mark.parametrize("lesson,lab", LABS, ids=[f"lesson{n:02d}-lab{l}" for n, l in LABS])
def test_a_gap_that_does_nothing_earns_no_test(lesson, lab):
    """Every gap of the lab replaced by a body that does nothing: no test, visible or hidden,
    passes, so per-test credit never pays for an empty answer."""
    earned = []
    for what, body in DO_NOTHING.items():
        ns = manifest.Namespace(dict(reference(lesson).learner(),
                                     **{name: body for name in manifest.names(lesson, lab)}))
        earned += [f"{r.test.name} ({what})" for r in checks.run(lesson, lab, ns) if r.passed]
    assert earned == [], f"lesson {lesson} lab {lab}: tests that pass on code that does nothing: {earned}"


@pytest.mark.parametrize("lesson,lab", LABS, ids=[f"lesson{n:02d}-lab{l}" for n, l in LABS])
def test_every_gap_of_the_lab_has_wrong_answers(lesson, lab):
    named = {name for (n, l, name, _) in WRONG if (n, l) == (lesson, lab)}
    assert named == set(manifest.names(lesson, lab)), (
        f"lesson {lesson} lab {lab}: lab/lessons/lesson{lesson:02d}/wrong.py has wrong answers for "
        f"{sorted(named)}, but the lab asks for {manifest.names(lesson, lab)}")


@pytest.mark.parametrize("lesson,lab,name,variant", WRONG,
                         ids=[f"lesson{n:02d}-lab{l}-{v.__name__}" for n, l, _, v in WRONG])
def test_each_wrong_answer_is_caught_in_a_sentence_naming_its_function(lesson, lab, name, variant):
    found = reference(lesson).learner()
    found[name] = variant
    results = checks.run(lesson, lab, manifest.Namespace(found))
    failed = [r for r in results if not r.passed]
    assert failed, f"no test of lesson {lesson} lab {lab} caught {variant.__name__}: {variant.__doc__}"
    assert not any(r.not_done for r in failed)
    assert all(r.message and "\n" not in r.message for r in failed)
    visible = [r for r in failed if not r.test.hidden]
    assert visible, f"only hidden tests caught {variant.__name__}: a visible test should teach it"
    assert any(manifest.bare(name) in r.message for r in visible), (
        f"no visible failure names {manifest.bare(name)}: {[r.message for r in visible]}")

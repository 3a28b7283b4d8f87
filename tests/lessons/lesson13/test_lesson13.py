"""Facts of lesson 13 that the suite every lesson runs does not cover: the options cells show what
the questions' feedback claims, and the tick-all key is the one its cell measures."""

import nbformat
import pytest

from lab.lessons import build, load

from tests.lessons.conftest import by_id, stdout_of


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(13), as_version=4)


def rung(rung_id):
    return next(r for r in load(13).RUNGS if r.id == rung_id)


def test_the_time_written_once_in_the_system_prompt_caches_within_a_session_but_not_across_two(master):
    lines = {line.split(":")[0].strip(): line for line in stdout_of(by_id(master, "demo-where-now")).splitlines()}
    end, transcript = lines["(b) at the end, once"], lines["(d) in the transcript, once"]

    def sessions(line):
        one, two = line.split("session 1 ")[1].split(" | session 2 ")
        return eval(one), eval(two.split(" |")[0])
    assert sessions(lines["(a) on top, every prompt"]) == ([0, 0, 0], [0, 0, 0])
    assert sessions(end)[0][1:] != [0, 0] and sessions(end)[1][0] == 0          # once: cached within, cold across
    assert sessions(transcript)[1][0] > 0                                        # the shared prefix pays across
    assert lines["(c) nowhere"].endswith("the model can see the time: False")
    assert transcript.endswith("the model can see the time: True")
    right = next(i for i, o in enumerate(rung("where-now-goes").options) if o.right)
    assert "transcript" in rung("where-now-goes").options[right].text


def test_the_what_is_stable_key_is_what_its_cell_measures(master):
    changed = [line.endswith("True") for line in stdout_of(by_id(master, "demo-what-is-stable")).splitlines()[:6]]
    assert [fits for _, fits, _ in rung("what-is-stable").options] == [not c for c in changed]
    assert all(len(option) == 3 and option[2] for option in rung("what-is-stable").options)


def test_the_why_once_feedback_agrees_with_lab_2_that_sessions_share_a_briefing():
    said = dict(rung("why-once").common)["So that the briefing is the same in every session."]
    assert "lab 2" in said and "is fine" not in said


def test_the_header_names_the_wall_and_gives_no_number_away(master):
    header = master.cells[0].source
    assert "twenty full-price" not in header and "not have" in header

"""What the instructor reads when nbgrader refuses a submission: the message nbgrader logged, as a
sentence, never a line of code from its traceback."""

from lab.grader.convert import _nbgrader_failure

TRACEBACK = ("Traceback (most recent call last):\n"
             '  File "nbgrader/converters/base.py", line 436, in convert_notebooks\n'
             "    raise NbGraderException(msg)\n"
             "nbgrader.converters.base.NbGraderException: Please see the error log for details\n")


def test_the_logged_error_is_the_sentence():
    log = ("[INFO] Converting notebook submitted/amy/12/12.ipynb\n"
           "[ERROR] One or more notebooks in the assignment use an old version\n"
           "of the nbgrader metadata format.\n"
           "[ERROR] There was an error processing assignment: submitted/amy/12\n"
           "[ERROR] " + TRACEBACK +
           "[ERROR] Please see the error log (x) for details on the specific errors on the above failures.\n")
    said = _nbgrader_failure({"log": log, "error": TRACEBACK})
    assert said == ("nbgrader could not convert it: One or more notebooks in the assignment use an old "
                    "version of the nbgrader metadata format.")


def test_a_traceback_gives_its_exception_line_and_never_code():
    log = "[ERROR] Traceback (most recent call last):\n  File \"x.py\", line 1\n    cells[9]\nIndexError: list index out of range\n"
    assert _nbgrader_failure({"log": log}) == "nbgrader could not convert it: IndexError: list index out of range"
    said = _nbgrader_failure({"log": "", "error": TRACEBACK})
    assert "raise" not in said and said == "nbgrader could not convert it, and said nothing more"

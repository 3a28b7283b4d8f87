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


def test_metadata_found_valid_once_is_not_checked_again_and_bad_metadata_still_fails():
    import nbformat
    import pytest
    from nbgrader.nbgraderformat import ValidationError
    from lab.grader import nbgrader_ext

    def cell(points):
        meta = {"grade": True, "grade_id": "lab1-tests", "locked": True, "points": points,
                "schema_version": 3, "solution": False}
        return nbformat.v4.new_code_cell("lab.check(1, lab=1)", metadata={"nbgrader": meta})

    checker = nbgrader_ext._FastValidator()
    checker.validate_cell(cell(3))
    key = (3, '{"grade": true, "grade_id": "lab1-tests", "locked": true, "points": 3, '
              '"schema_version": 3, "solution": false}')
    assert key in nbgrader_ext._CompiledSchema._valid
    checker.validate_cell(cell(3))          # known: answered from the set
    with pytest.raises(Exception):          # points must be a number, however often 3 was seen
        checker.validate_cell(cell("three"))
    broken = cell(3)
    del broken.metadata["nbgrader"]["points"]
    with pytest.raises(ValidationError):    # nbgrader's own checks after the schema still run
        checker.validate_cell(broken)

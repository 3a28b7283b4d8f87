"""One database engine for each gradebook a process opens, while nbgrader's code opens it again
and again: the gradebook writer (lab/grader/record.py) and each grading process
(lab/grader/convert.py) open the same gradebook through nbgrader's Gradebook many times a
submission."""

import contextlib
import os


_ENGINES, _CREATED, _COURSES = {}, set(), set()


@contextlib.contextmanager
def shared_engines():
    """nbgrader's Gradebook makes a new database engine each time it is opened, some ten times a
    submission, and SQLAlchemy's compiled statements live in the engine, so each opening compiles
    them again; each also lists the database's tables, asks whether every table exists and
    looks up (and commits) the course's row, and closing one closes the engine's connections, so
    that the next opening connects (and SQLite reads the schema) again. Inside this block every
    Gradebook of one database shares one engine, whose tables are listed and checked, and whose
    course is looked up, once: nothing in a gradebook ever drops a table or a course. Closing a
    Gradebook ends its session and hands its connection back to the engine; the block's end
    closes the engine's connections. An engine is never shared across a fork: each process makes
    its own (the key holds the process id), and a grading process forked from the writer never
    touches, not even to close, the engine its parent made."""
    import nbgrader.api
    made, metadata = nbgrader.api.create_engine, nbgrader.api.Base.metadata
    create_all, inspect = metadata.create_all, nbgrader.api.inspect
    check_course = nbgrader.api.Gradebook.check_course
    close = nbgrader.api.Gradebook.close

    def shared(url, **options):
        key = (os.getpid(), str(url), tuple(sorted(options.items())))
        if key not in _ENGINES:
            _ENGINES[key] = made(url, **options)
        return _ENGINES[key]

    def tables_once(bind, **options):   # each opening checks every table is there: once will do
        if bind not in _CREATED:
            create_all(bind=bind, **options)
            _CREATED.add(bind)

    def listed_once(bind):   # asked only to learn whether the database is new
        return _Listed() if bind in _CREATED else inspect(bind)

    def course_once(gradebook, course_id="default_course", **options):
        key = (gradebook.engine, course_id)
        if key not in _COURSES:
            check_course(gradebook, course_id=course_id, **options)
            _COURSES.add(key)

    def session_only(gradebook):   # the engine's connection is kept for the next opening
        gradebook.db.remove()

    nbgrader.api.create_engine, metadata.create_all = shared, tables_once
    nbgrader.api.inspect, nbgrader.api.Gradebook.check_course = listed_once, course_once
    nbgrader.api.Gradebook.close = session_only
    try:
        yield
    finally:
        nbgrader.api.create_engine, nbgrader.api.inspect = made, inspect
        nbgrader.api.Gradebook.check_course, nbgrader.api.Gradebook.close = check_course, close
        del metadata.create_all
        for key, engine in _ENGINES.items():
            if key[0] == os.getpid():
                engine.dispose()


class _Listed:
    """What nbgrader's Gradebook reads of a database whose tables this process made: that it has
    some."""

    def get_table_names(self):
        return ["submitted_assignment"]

"""nbgrader's exchange settings for every account on the hub: learners, instructors, the grader.

Install this file as /etc/jupyter/nbgrader_config.py on the hub (or point JUPYTER_CONFIG_PATH at
this folder, as tests/hub does). docs/instructors.md links it; tests/hub runs the whole term with
it, so what the guide tells an instructor to use is what the test used.
"""
import os

c = get_config()  # noqa: F821 (nbgrader defines get_config)

# One directory that every account can reach (shared storage when there are several machines).
# It must exist and be mode 1777 (writable by all, sticky) before the first release; nbgrader then
# makes <course>/outbound (readable by all, writable by the instructor only), <course>/inbound
# (learners can drop a submission in but cannot list it) and <course>/feedback (reached only
# through a name derived from the learner's own submission).
c.Exchange.root = os.environ.get("NBGRADER_EXCHANGE", "/srv/nbgrader/exchange")

# The course id is part of every exchange path, so one exchange can serve several courses.
c.Exchange.path_includes_course = True
c.CourseDirectory.course_id = os.environ.get("NBGRADER_COURSE_ID", "harness-course")

# Each submission's folder name ends in a random string: a learner who can drop a submission into
# the inbound folder cannot guess the name of anyone else's (nbgrader's default, kept on purpose).
c.ExchangeSubmit.add_random_string = True

"""What each lesson and lab is, derived from harness/syllabus.py, and the learner's harness.py at
any point of the course: labs.py (the syllabus's facts by lesson and lab), starters.py (the
harness.py a lab starts from or ends at), manifest.py (each lab's names, signatures and places,
and the reference's versions), carry.py (a learner's own harness.py carried into the next
lesson's starter)."""

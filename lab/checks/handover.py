"""What a lab test hands the learner's code so that the test holds in both places it runs: in the
learner's own interpreter (a notebook, lab_check) and under the autograder, where the learner's
code runs in a sandboxed worker and every plain value it is given arrives there as a copy.
"""

from lab.stage.display import shape


class Record:
    """A transcript that stays in the test's process: append(), extend(), reading, and item
    assignment. Handed to the learner's run_agent or Harness under the grader, it is a handle, so
    every append the learner's code makes is seen here the moment it happens; a plain list would
    be changed in the worker, as a copy, and the test would see nothing."""

    def __init__(self, items=()):
        self.items = list(items)

    def append(self, message):
        self.items.append(message)

    def extend(self, messages):
        self.items.extend(messages)

    def __iter__(self):
        return iter(list(self.items))  # a copy: a run may append while someone reads

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]

    def __setitem__(self, index, value):
        self.items[index] = value

    def __repr__(self):
        return f"Record({shape(self.items)})"


class Live:
    """A list that stays in the test's process and is walked live: append(), remove(), `in`,
    len(), indexing, and iteration over the list itself, so that code walking it sees a removal
    made during the walk, as it would over a list of its own. Handed to the learner's code under
    the grader, it is a handle; a plain list would arrive there as a copy, and a listener that
    unsubscribes itself on the test's side would never be seen to have gone."""

    def __init__(self, items=()):
        self.items = list(items)

    def append(self, item):
        self.items.append(item)

    def remove(self, item):
        self.items.remove(item)

    def __contains__(self, item):
        return item in self.items

    def __iter__(self):
        return iter(self.items)   # the list itself, not a copy: that is the point

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]

    def __repr__(self):
        return f"Live({self.items!r})"


class ListModel:
    """`model` behind an adapter that hands it the messages as a plain list, whatever kind of
    sequence the learner's code sends (a Record, a tuple, a handle from the worker)."""

    def __init__(self, model):
        self.model = model

    def complete(self, system, messages, tools):
        return self.model.complete(system, list(messages), tools)

"""The gaps of lesson 06, one lab: truncate_head and truncate_tail, the two cuts behind every tool
result's budget.

Each text stands where the reference's ### BEGIN SOLUTION ... ### END SOLUTION part is, under the
docstring; the notebook's solution cell shows its comment lines above the definition. Each ends in
the same stub as every gap, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["truncate_head"] = '''\
# --- your code ---
# Lesson 5's read tool handed the model a whole file, however big. The given read tool now calls
# this function and writes the notice itself; your part is the cut.
#   - Work in whole lines, each with its own line ending: text.splitlines(keepends=True).
#   - Weigh each line in UTF-8 bytes, len(line.encode()), not len(line): "é" weighs two.
#   - Take lines from the top while two things hold: fewer than max_lines taken so far, and the
#     bytes taken so far plus this line's bytes no more than max_bytes. Stop at the first line
#     that breaks either; take nothing after it.
#   - Never part of a line: if the very first line is over max_bytes, return ("", 0).
# Return (the kept lines joined back together, how many lines you kept): a count of LINES, which
# the read tool turns into "Use offset=N to continue.".
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["truncate_tail"] = '''\
# --- your code ---
# The bash tool calls this on everything a command printed. A test run, a build, a compiler
# print their verdict last, so this cut keeps the END.
#   - The same rules as truncate_head (whole lines with their endings, UTF-8 bytes, at most
#     max_lines lines and max_bytes bytes, never part of a line), walked from the last line
#     backwards: stop at the first line, counting from the end, that does not fit, and keep
#     nothing before it. A last line over max_bytes on its own gives ("", 0).
#   - Give the kept lines back in the order the command printed them, not the order you met
#     them.
# Return (kept, lines_shown), as truncate_head does.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

"""The thirteen outputs lesson 12 must print, as its seed shows them, one per demonstration cell
of the notebook (keyed by cell id). Cells whose code ends each block with print() also end with a
blank line, which a printed page cannot show; TRAILING_BLANK lists them."""

SEED_OUTPUTS = {
    'demo-recall': (
        'lines in the file : 4\n'
        'the record        : U A[w1] R(w1) A[w2] U A\n'
        'the model was sent: U A[w1] R(w1) A[w2] R(w2) U\n'
        'toolResult w2 -> "Tool call interrupted: no result was recorded. It may not have run, or may have run partly; check before repeating it."  [is_error]\n'
    ),
    'demo-bill': (
        'messages in the record: 40\n'
        'message 3 is a toolResult of about 12510 tokens\n'
        'requests made: 20 | requests that carried it: 19\n'
        'bill for the session: 254994 input tokens\n'
    ),
    'demo-wall': (
        'prompt  1:   334 tokens sent | part1.txt is noted.\n'
        'prompt  2:   555 tokens sent | part2.txt is noted.\n'
        'prompt  3:   775 tokens sent | part3.txt is noted.\n'
        'prompt  4:   996 tokens sent | part4.txt is noted.\n'
        'prompt  5:  1217 tokens sent | part5.txt is noted.\n'
        'prompt  6:  1438 tokens sent | part6.txt is noted.\n'
        'prompt  7:  1658 tokens sent | part7.txt is noted.\n'
        'prompt  8:  1879 tokens sent | part8.txt is noted.\n'
        'prompt  9:  2100 tokens sent | prompt is too long: 2100 tokens > 2000\n'
        'prompt 10:  2113 tokens sent | prompt is too long: 2113 tokens > 2000\n'
        'prompt 11:  2125 tokens sent | prompt is too long: 2125 tokens > 2000\n'
        'prompt 12:  2138 tokens sent | prompt is too long: 2138 tokens > 2000\n'
    ),
    'demo-three-ways': (
        '(a) the newest 6 messages: R(c7) A U A[c8] R(c8) A\n'
        '    a provider on that list: messages[0]: toolResult c7 has no toolCall before it\n'
        '    your harness sent      : A U A[c8] R(c8) A U\n'
        '    the agent              : Add it to what? Nothing here says what we are working on.\n'
        '    model calls: 1 | files read again: []\n'
        '\n'
        '(b) a summary of everything: U\n'
        '    a provider on that list: accepts it\n'
        '    your harness sent      : U U\n'
        '    the agent              : Indexed: part 8 line 01: the quick brown fox\n'
        "    model calls: 2 | files read again: ['part8.txt']\n"
        '\n'
        '(c) a summary, then the last prompt and its work: U U A[c8] R(c8) A\n'
        '    a provider on that list: accepts it\n'
        '    your harness sent      : U U A[c8] R(c8) A U\n'
        '    the agent              : Indexed: part 8 line 01: the quick brown fox\n'
        '    model calls: 1 | files read again: []\n'
    ),
    'demo-entry': (
        'lines in the file: 9 -> 10\n'
        'every old line still there, unchanged: True\n'
        'the new line:\n'
        "    id: 'e10'\n"
        "    type: 'compaction'\n"
        "    summary: 'Goal: make a.py and b.py agree. Both read; they differ in one name.'\n"
        "    first_kept_id: 'e6'\n"
        '\n'
        'replay(): 5 messages, U U A[c3] R(c3) A\n'
        'user -> "Previous conversation summary:\\nGoal: make a.py and b.py agree. Both read; they d... (98 characters)"\n'
        'user -> "Now run the tests."\n'
        'assistant -> toolCall c3 bash({"command": "pytest"})\n'
        'toolResult c3 -> "3 passed\\n"\n'
        'assistant -> "Green."\n'
        '\n'
        'a new process replays the same list: True\n'
        '\n'
    ),
    'demo-bad-cut': (
        'the view     : U R(c2) A U A[c3] R(c3) A U\n'
        'sent as it is: 400 invalid_request: messages[1]: toolResult c2 has no toolCall before it\n'
        "through lesson 10's repair: U A U A[c3] R(c3) A U\n"
        "the model    : I can't see b.py's text any more. Reading it again.\n"
        'the same model, uncut list: b.py says: B = 2\n'
    ),
    'demo-find-cut': (
        'U A[c1,c2] R(c1) R(c2) A U A[c3] R(c3) A\n'
        '    sizes in tokens      : [13, 14, 4, 4, 8, 6, 9, 5, 4]\n'
        '    a budget of 35 stops on: e4\n'
        '    find_cut keeps from  : e6\n'
        '\n'
        'U A[c1] R(c1) A U A[c2,c3] R(c2) R(c3) A U A\n'
        '    sizes in tokens      : [13, 9, 10, 6, 10, 16, 5, 16, 8, 9, 6]\n'
        '    a budget of 35 stops on: e8\n'
        '    find_cut keeps from  : e10\n'
        '\n'
    ),
    'demo-who-writes': (
        'assistant -> "You asked: Is config.py still on port 9090? My answer: yes. (Not a summary.)"\n'
        'cost of asking: 295 input tokens: all 7 messages, sent again\n'
        '\n'
        'assistant -> toolCall c1 read({})\n'
        '\n'
    ),
    'demo-two-lists': (
        'the live list: U U A U A U A\n'
        '               (a summary, then e5, e6, e8 .. e11)\n'
        '(a) by hand  : U\n'
        '(b) replay() : U U A\n'
        "tomorrow's resume equals (a): False | equals (b): True\n"
        '(c) mid-run  : refused: cannot replace messages during a run\n'
    ),
    'demo-housekeeping': (
        "'raise':\n"
        "    the user typed 'Step 4.' and got: RuntimeError: no summary: 503 overloaded\n"
        '    model calls for the user: 0\n'
        '    a resume tomorrow starts from: user -> "Our goal is port 8080. Step 1."\n'
        '\n'
        "'write what we got':\n"
        "    the user typed 'Step 4.' and got: Step 4 is done.\n"
        '    model calls for the user: 1\n'
        '    a resume tomorrow starts from: user -> "Previous conversation summary:\\n"\n'
        '\n'
        "'skip':\n"
        "    the user typed 'Step 4.' and got: Step 4 is done.\n"
        '    model calls for the user: 1\n'
        '    a resume tomorrow starts from: user -> "Our goal is port 8080. Step 1."\n'
        '\n'
    ),
    'demo-forty': (
        'prompts answered: 40 of 40\n'
        'compacted before prompts: [8, 14, 20, 26, 32, 38]\n'
        'largest request : 1817 tokens\n'
        'lines in the log: 166 | messages in the record: 17\n'
        'log replays as the record: True\n'
        '\n'
        "the last request began with: 'Previous conversation summary:\\n' (729 characters)\n"
        'and inside it, six summaries deep:\n'
        "    'It began: user: Our goal is to index every part file into INDEX.md.'\n"
    ),
    'demo-estimate': (
        'estimate_tokens(h.messages)       : 1070\n'
        'the provider counted, last request: 1626\n'
        'system prompt and tool definitions: 121 tokens that render() never sees\n'
    ),
    'demo-stale-usage': (
        'check 1: the provider said 1843 tokens; the record holds 32 messages, about 1223 by chars/4\n'
        '         over the threshold -> compacted: True\n'
        'check 2: the provider said 1843 tokens; the record holds 9 messages, about 336 by chars/4\n'
        '         over the threshold -> compacted: True\n'
        'check 3: the provider said 1843 tokens; the record holds 9 messages, about 385 by chars/4\n'
        '         over the threshold -> compacted: True\n'
        'check 4: the provider said 1843 tokens; the record holds 9 messages, about 484 by chars/4\n'
        '         over the threshold -> compacted: True\n'
    ),
}

TRAILING_BLANK = {"demo-three-ways", "demo-find-cut", "demo-housekeeping"}


def expected(cell_id):
    return SEED_OUTPUTS[cell_id].rstrip("\n") + "\n" + ("\n" if cell_id in TRAILING_BLANK else "")

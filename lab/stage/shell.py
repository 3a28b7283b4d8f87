"""Shell: a scripted stand-in for a real shell, for the harness's bash tool.

Nothing is executed. Each command line is looked up in a table of scripted outputs, and every
command line asked for is kept in .history, so a cell can show what an agent tried to run; one
that would have reached the network is also kept in .network.
"""

import re

# What the stage knows would go online. Wider than any rule list a harness writes, since the stage
# knows what each scripted command really does (see Shell's `online`).
_NETWORK = re.compile(r"\b(curl|wget|nc|ncat|ssh|scp|sftp|rsync|ftp|telnet)\b|://"
                      r"|\bgit\s+(clone|fetch|pull|push)\b|\b(pip3?|npm)\s+install\b"
                      r"|\b(urllib|requests|socket|http\.client)\b", re.IGNORECASE)


def reaches_network(command):
    """True when the command line `command` names a network tool, a URL, a fetching git or
    package command, or a network library: the stage's own test, not a harness's rule."""
    return bool(_NETWORK.search(command))


class Shell:
    """A shell whose answers are scripted: run(command) -> (output, exit_code).

    Shell(outputs=None) takes {command line: answer}, an answer being the output text (exit code
    0), an (output, exit_code) pair, or a function of the command line returning such a pair.
    script(command, output, exit_code=0) adds or replaces one answer. A command line with no
    answer gives "bash: <first word>: command not found" and exit code 127, as a real shell does.
    .history is every command line run, in order, scripted or not. .network is the ones among
    them that would have reached the network: reaches_network(command) says so, or the command
    line is one of `online`, the scripted commands known to go online although their text does
    not show it (a script that downloads something, say).
    """

    def __init__(self, outputs=None, online=()):
        self._answers = {}
        for command, answer in dict(outputs or {}).items():
            self._set(command, answer)
        if isinstance(online, str) or not all(isinstance(c, str) for c in online):
            raise TypeError("Shell(online=...) takes a list of command lines, e.g. ['python3 sync.py'].")
        self.online = set(online)
        self.history = []
        self.network = []

    def __repr__(self):
        return f"Shell({len(self._answers)} scripted commands, {len(self.history)} run)"

    def _set(self, command, answer):
        if not isinstance(command, str):
            raise TypeError(f"A scripted command must be a string, not {type(command).__name__}.")
        if isinstance(answer, str) or callable(answer):
            self._answers[command] = answer
        elif (isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[0], str)
              and isinstance(answer[1], int)):
            self._answers[command] = answer
        else:
            raise TypeError(f"The answer scripted for {command!r} must be output text, an "
                            "(output, exit_code) pair, or a function of the command line.")

    def script(self, command, output, exit_code=0):
        """Make `command` print `output` and exit with `exit_code` from now on."""
        if not isinstance(output, str) or not isinstance(exit_code, int):
            raise TypeError("script() takes the output as a string and the exit code as an int.")
        self._set(command, (output, exit_code))

    def run(self, command):
        """Run the command line `command`: (output, exit_code), recorded in .history."""
        if not isinstance(command, str):
            raise TypeError(f"Shell.run() takes a command line as a string, not {type(command).__name__}.")
        self.history.append(command)
        if command in self.online or reaches_network(command):
            self.network.append(command)
        answer = self._answers.get(command)
        if answer is None:
            words = command.split()
            name = words[0] if words else command
            return f"bash: {name}: command not found\n", 127
        if isinstance(answer, str):
            return answer, 0
        if callable(answer):
            result = answer(command)
            if not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], str)
                    and isinstance(result[1], int)):
                raise TypeError(f"The function scripted for {command!r} must return an "
                                f"(output, exit_code) pair, not {result!r}.")
            return result
        return answer

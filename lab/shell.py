"""Shell: a scripted stand-in for a real shell, for the harness's bash tool.

Nothing is executed. Each command line is looked up in a table of scripted outputs, and every
command line asked for is kept in .history, so a cell can show what an agent tried to run.
"""


class Shell:
    """A shell whose answers are scripted: run(command) -> (output, exit_code).

    Shell(outputs=None) takes {command line: answer}, an answer being the output text (exit code
    0), an (output, exit_code) pair, or a function of the command line returning such a pair.
    script(command, output, exit_code=0) adds or replaces one answer. A command line with no
    answer gives "bash: <first word>: command not found" and exit code 127, as a real shell does.
    .history is every command line run, in order, scripted or not.
    """

    def __init__(self, outputs=None):
        self._answers = {}
        for command, answer in dict(outputs or {}).items():
            self._set(command, answer)
        self.history = []

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

"""The scripted world a lesson runs in: a model that follows a script (model.py) and the props
more than one lesson puts on the stage (props.py), an in-memory disk (workspace.py) and shell
(shell.py), message builders (builders.py), ways to look at what happened (display.py), the
virtual clock (virtual_time.py) and a few words of English (prose.py). Lesson 15's asynchronous
stage: virtual_loop.py, loop_outcome.py, async_stage.py, timeline.py. Lesson 16's HTTP stage:
http.py, chat_server.py, chat_requests.py, chat_template.py. `lab` exports what a cell uses.
The stage knows nothing of lessons, checks or notebooks."""

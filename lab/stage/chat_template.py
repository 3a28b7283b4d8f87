"""TemplateModel: a provider of the chat-template kind, as local models are served.

A model served from its Hugging Face chat template gets no list of messages: the messages are
rendered into one prompt string by a Jinja template that ships with the model, and the model
continues that string [general]. The template decides which roles exist and in what order they
may come, and it refuses what it cannot show by calling raise_exception(...) from inside itself,
which raises jinja2's TemplateError [general].

The contract:

- The prompt is rendered as transformers renders a chat template (its `_compile_jinja_template`
  and `apply_chat_template`) [general]: in `jinja2.sandbox.ImmutableSandboxedEnvironment(
  trim_blocks=True, lstrip_blocks=True)` with the loop-controls extension, a `raise_exception`
  global that raises `jinja2.exceptions.TemplateError(message)`, a `tojson` filter that does not
  escape HTML, and the variables `messages` and `add_generation_prompt`. The sandbox refuses a
  template that reaches into Python (`().__class__` and the like) or changes what it was given.
- ALTERNATING_TEMPLATE, the stage's template, is in the common style of the templates that insist
  on alternation: roles `system` (optional, first only), `user` and `assistant`; after the system
  message the roles must go user, assistant, user, ..., else it raises
  "Conversation roles must alternate user/assistant/user/assistant/..."; any other role raises a
  sentence naming it; a content that is not a string raises too. Each turn is written
  `<|im_start|>role\\ncontent<|im_end|>\\n` (the ChatML markers [general]), and the prompt ends with
  `<|im_start|>assistant\\n` for the model to continue.
- `TemplateModel(script, template=ALTERNATING_TEMPLATE)`: `await model.generate(messages)`
  renders the prompt over `messages` (a list of {"role", "content": str}), keeps it in
  `model.prompts`, and returns the next script step as the raw text a template model writes. A
  TemplateError goes up as itself, as a local pipeline raises it, and uses no step.
  `model.render(messages)` only renders, for a cell that shows the prompt.

The text a reply is written as, which lesson 16's adapter parses: the assistant message's text,
then each tool call on a line of its own,

    <tool_call>{"name": "read", "arguments": {"path": "notes.txt"}}</tool_call>

the JSON of an object with the tool's name and its arguments (json.dumps, keys in the order the
call has them), with a newline between the text and the first call and between calls. A reply
with no text is its call lines alone. The call's id is not written: a template model names no
ids [general], so the adapter gives each call one. This is the convention of Hermes and Qwen
models, which wrap such a JSON object in <tool_call> tags [general]. Our simplification: the
object is on the tag's own line; Qwen's template writes a newline after <tool_call> and before
</tool_call>.
"""

import json

from jinja2.exceptions import TemplateError
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

from .model import ScriptError

ALTERNATION = "Conversation roles must alternate user/assistant/user/assistant/..."

ALTERNATING_TEMPLATE = """\
{% if messages and messages[0]['role'] == 'system' %}
{% set system_message = messages[0]['content'] %}
{% set loop_messages = messages[1:] %}
{% else %}
{% set system_message = none %}
{% set loop_messages = messages %}
{% endif %}
{% if system_message is not none %}
{% if system_message is not string %}
{{ raise_exception('The content of the system message must be a string.') }}
{% endif %}
{{ '<|im_start|>system\\n' + system_message + '<|im_end|>\\n' -}}
{% endif %}
{% for message in loop_messages %}
{% if message['role'] == 'system' %}
{{ raise_exception('A system message may only come first; this template found one at message ' ~ (loop.index0 + (1 if system_message is not none else 0)) ~ '.') }}
{% elif message['role'] not in ['user', 'assistant'] %}
{{ raise_exception('This template has no role ' ~ message['role'] ~ ': its roles are system, user and assistant.') }}
{% endif %}
{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}
{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}
{% endif %}
{% if message['content'] is not string %}
{{ raise_exception('The content of every message must be a string; the content of this ' ~ message['role'] ~ ' message is not.') }}
{% endif %}
{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' -}}
{% endfor %}
{% if add_generation_prompt %}
{{ '<|im_start|>assistant\\n' -}}
{% endif %}
"""


def _raise_exception(message):
    raise TemplateError(message)


def _tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    # Jinja's own tojson escapes <, > and & for HTML; a prompt is not HTML.
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                      sort_keys=sort_keys)


def compile_template(source):
    """The Jinja template `source`, compiled as a chat template is (see the module's docstring)."""
    if not isinstance(source, str):
        raise TypeError(f"A chat template is Jinja source text, a string, not {type(source).__name__}.")
    environment = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                                extensions=[loopcontrols])
    environment.filters["tojson"] = _tojson
    environment.globals["raise_exception"] = _raise_exception
    return environment.from_string(source)


def tool_call_line(name, arguments):
    """One tool call as a template model writes it: <tool_call>{"name": ..., "arguments": ...}</tool_call>."""
    return "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"


def reply_text(message):
    """The raw text a template model writes for the course assistant message `message`: its text,
    then one tool-call line per call, joined by newlines."""
    text = "".join(b["text"] for b in message["content"] if b.get("type") == "text")
    lines = [tool_call_line(b["name"], b["arguments"]) for b in message["content"]
             if b.get("type") == "toolCall"]
    return "\n".join(([text] if text else []) + lines)


def _checked_script(script):
    if isinstance(script, dict) or not isinstance(script, (list, tuple)):
        raise TypeError("TemplateModel() takes a list of script steps, e.g. [lab.say('Hi.')].")
    for n, step in enumerate(script):
        if not isinstance(step, dict) or step.get("role") != "assistant" \
                or not isinstance(step.get("content"), list):
            raise TypeError(f"Script step {n} is {step!r}; a TemplateModel step is an assistant "
                            "message, made with lab.say() or lab.reply().")
        if step.get("stop_reason") == "error":
            # A local pipeline has no failed reply to send: it raises, or it writes text.
            raise ValueError(f"Script step {n} is a failed reply; a template model only writes "
                             "text, so script what it writes with lab.say() or lab.reply().")
    return list(script)


class TemplateModel:
    """A model of the chat-template kind that writes its replies from `script`.

    TemplateModel(script, template=ALTERNATING_TEMPLATE)

    script     a list of assistant messages (lab.say(), lab.reply(...)), one per generate() call.
    template   the Jinja source of the chat template its prompts are rendered with.

    .prompts   every prompt generate() rendered, in order.
    """

    def __init__(self, script, template=ALTERNATING_TEMPLATE):
        self.script = _checked_script(script)
        self.template = template
        self._compiled = compile_template(template)
        self.prompts = []
        self._next_step = 0

    def __repr__(self):
        return f"TemplateModel({len(self.script)} steps, {len(self.prompts)} prompts)"

    def render(self, messages, add_generation_prompt=True):
        """The prompt the template makes of `messages`. Raises TemplateError when the template
        refuses them; keeps nothing and uses no script step."""
        if isinstance(messages, dict) or not isinstance(messages, (list, tuple)):
            raise TypeError("render() takes a list of messages, each a dict with a role and a content.")
        for n, message in enumerate(messages):
            if not isinstance(message, dict) or "role" not in message:
                raise TypeError(f"messages[{n}] is {message!r}; a message is a dict with a role and a content.")
        return self._compiled.render(messages=list(messages), add_generation_prompt=add_generation_prompt)

    async def generate(self, messages):
        """Render the prompt over `messages`, keep it in .prompts, and return the next script
        step as the raw text the model writes (see the module's docstring for its format)."""
        prompt = self.render(messages)
        if self._next_step >= len(self.script):
            raise ScriptError(f"generate() call {len(self.prompts) + 1} has no reply: the script's "
                              f"{len(self.script)} steps are used up; add steps to the TemplateModel.")
        self.prompts.append(prompt)
        step = self.script[self._next_step]
        self._next_step += 1
        return reply_text(step)

"""lab.TemplateModel and lab.ALTERNATING_TEMPLATE: the prompt rendered in jinja2's sandbox as a
chat template is, the template's own refusals raised as TemplateError, and replies written as the
text a template model writes, tool calls as <tool_call> lines."""

import asyncio
import json
import re

import pytest
from jinja2.exceptions import SecurityError, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

import lab
from lab.stage.chat_template import ALTERNATION, compile_template
from lab.stage.model import ScriptError

ALTERNATION_TEXT = "Conversation roles must alternate user/assistant/user/assistant/..."


def m(role, content):
    return {"role": role, "content": content}


def generate(model, messages):
    return asyncio.run(model.generate(messages))


def test_an_alternating_conversation_renders_turn_by_turn():
    prompt = lab.TemplateModel([]).render([m("system", "Be terse."), m("user", "Hi."),
                                           m("assistant", "Hello."), m("user", "Read a.txt.")])
    assert prompt == ("<|im_start|>system\nBe terse.<|im_end|>\n"
                      "<|im_start|>user\nHi.<|im_end|>\n"
                      "<|im_start|>assistant\nHello.<|im_end|>\n"
                      "<|im_start|>user\nRead a.txt.<|im_end|>\n"
                      "<|im_start|>assistant\n")
    assert lab.TemplateModel([]).render([m("user", "Hi.")], add_generation_prompt=False) == \
        "<|im_start|>user\nHi.<|im_end|>\n"


@pytest.mark.parametrize("roles", [["user", "user"], ["system", "user", "user"], ["assistant"],
                                   ["user", "assistant", "assistant"]])
def test_roles_out_of_turn_raise_exactly_the_alternation_message(roles):
    with pytest.raises(TemplateError) as raised:
        lab.TemplateModel([]).render([m(role, f"words {n}") for n, role in enumerate(roles)])
    assert str(raised.value) == ALTERNATION_TEXT == ALTERNATION


@pytest.mark.parametrize("role", ["tool", "toolResult"])
def test_a_role_the_template_lacks_raises_a_sentence_naming_it(role):
    with pytest.raises(TemplateError, match=f"no role {role}: its roles are system, user and assistant"):
        lab.TemplateModel([]).render([m("user", "Read it."), m(role, "hello")])


def test_a_late_system_message_and_a_content_that_is_no_string_raise():
    with pytest.raises(TemplateError, match="system message may only come first"):
        lab.TemplateModel([]).render([m("user", "a"), m("system", "b")])
    with pytest.raises(TemplateError, match="content of this assistant message is not"):
        lab.TemplateModel([]).render([m("user", "a"), m("assistant", [{"type": "text", "text": "b"}])])


def test_a_reply_is_its_text_then_one_tool_call_line_per_call():
    model = lab.TemplateModel([lab.reply(lab.text("Let me look."), lab.call("read", {"path": "a.txt"}),
                                         lab.call("ls", id="c9")),
                               lab.reply(lab.call("write", {"path": "b", "text": "x"})),
                               lab.say("Done.")])
    first = generate(model, [m("user", "Look.")])
    assert first == ('Let me look.\n<tool_call>{"name": "read", "arguments": {"path": "a.txt"}}</tool_call>\n'
                     '<tool_call>{"name": "ls", "arguments": {}}</tool_call>')
    calls = [json.loads(body) for body in re.findall(r"^<tool_call>(.*)</tool_call>$", first, re.M)]
    assert calls == [{"name": "read", "arguments": {"path": "a.txt"}}, {"name": "ls", "arguments": {}}]
    conversation = [m("user", "Look."), m("assistant", first), m("user", "[result] hello")]
    assert generate(model, conversation) == '<tool_call>{"name": "write", "arguments": {"path": "b", "text": "x"}}</tool_call>'
    assert generate(model, conversation + [m("assistant", "ok"), m("user", "go")]) == "Done."
    assert model.prompts[0] == model.render([m("user", "Look.")])
    assert len(model.prompts) == 3 and model.prompts[1].endswith("[result] hello<|im_end|>\n<|im_start|>assistant\n")


def test_a_refused_prompt_goes_up_as_itself_uses_no_step_and_is_not_kept():
    model = lab.TemplateModel([lab.say("Hi.")])
    with pytest.raises(TemplateError, match=re.escape(ALTERNATION_TEXT)):
        generate(model, [m("user", "a"), m("user", "b")])
    assert model.prompts == []
    assert generate(model, [m("user", "a")]) == "Hi."
    with pytest.raises(ScriptError, match="used up"):
        generate(model, [m("user", "again")])


def test_a_template_renders_in_the_immutable_sandbox_with_raise_exception():
    compiled = compile_template("{{ raise_exception('No, said the template.') }}")
    assert isinstance(compiled.environment, ImmutableSandboxedEnvironment)
    assert compiled.environment.trim_blocks and compiled.environment.lstrip_blocks
    with pytest.raises(TemplateError) as raised:
        compiled.render(messages=[])
    assert str(raised.value) == "No, said the template."


@pytest.mark.parametrize("source", [
    "{{ ().__class__.__base__.__subclasses__() }}",
    "{{ messages.__class__.__mro__[-1].__subclasses__() }}",
    "{% set _ = messages.append({'role': 'user', 'content': 'injected'}) %}",
])
def test_a_template_that_reaches_into_python_is_refused(source):
    with pytest.raises(SecurityError):
        lab.TemplateModel([], template=source).render([m("user", "hi")])


def test_a_template_that_only_peeks_at_a_class_sees_nothing():
    assert lab.TemplateModel([], template="[{{ ().__class__ }}]").render([]) == "[]"


def test_tojson_writes_a_prompt_not_html():
    source = "{% for message in messages %}{{ message | tojson }}{% endfor %}"
    assert lab.TemplateModel([], template=source).render([m("user", "<b> & é")]) == \
        '{"role": "user", "content": "<b> & é"}'


def test_bad_arguments_are_refused_in_a_sentence():
    with pytest.raises(TypeError, match="list of script steps"):
        lab.TemplateModel(lab.say("Hi."))
    with pytest.raises(ValueError, match="failed reply"):
        lab.TemplateModel([lab.fail("overloaded")])
    with pytest.raises(TypeError, match="a dict with a role"):
        lab.TemplateModel([]).render(["hi"])
    with pytest.raises(TypeError, match="Jinja source text"):
        lab.TemplateModel([], template=None)

"""The wire between the grader and one sandboxed worker, and the worker's main loop.

Standard library only and self-contained: the grader imports this module, and the worker (a fresh
interpreter that cannot see this repository) is sent this file's text and runs it.

One message per line, JSON. Plain data (None, bool, int, float, str, and lists, tuples, dicts,
sets and bytes of it) travels by value. Any other object stays where it lives, and the other side
gets a handle, a Remote, whose calls and attribute reads travel back over the wire. Arguments are
passed by copy-restore: when a call returns, every list or dict it was given and changed is
changed the same way on the caller's side, so a callee that appends to a list it was handed is
seen to do so, as it would be in one process.

The two sides are not equal. The grader serves the worker only calls, public attribute reads and
the iteration protocols (async too) on objects it has handed over; never a module or a class,
never a name that starts with "_", never an attribute write, except on an object whose class opts
in (WRITABLE: the classes whose methods the learner writes, so that a method can keep state on its
own instance). Whatever the worker sends back becomes plain data or a Remote in the grader;
nothing it sends can run code there. What the learner's code prints travels with the worker's
next message and reaches only a stdout (or stderr) of the grader's that asks for it (TAKES_PRINTED).

An exception crosses as itself where its class is a builtin one or one of the course's
(COURSE_EXCEPTIONS), with its args, its public attributes and its str(), so that the learner's
code that reads `exc.args[0]` or `exc.filename` reads what it would in the notebook; a
KeyboardInterrupt a test raises reaches the learner's code as a real one. asyncio.CancelledError
crosses as itself both ways, so that a cancellation means on each side what it means in one
process. In the worker, `import lab` gives the names of lab the grader serves, `harness.<part>`
is the starter, and `import asyncio` works (see _AsyncioWithoutProcesses).

Coroutines and async generators (lesson 15) run on a trampoline that the grader drives, since the
worker has no event loop. Awaiting a Remote of the worker's awaitable asks the worker for a step:
send a value into it, or throw an exception in. The step answers with the coroutine's value, with
its exception (crossing as above), or with "await" and the handle of one of the grader's own
objects that the learner's code awaited; the grader awaits that object on its own running loop
(virtual time passes, other tasks run) and sends its result, or throws its exception, a
cancellation included, into the next step. A bare yield (asyncio.sleep(0)) is one turn of the
grader's loop; `async for` and aclose() are the same steps, on what __anext__ and aclose() return.
The grader awaits nothing but its own objects, found by their handles. The handle of a coroutine
or an async generator is one to isinstance, so to inspect.iscoroutine, inspect.isasyncgen and
asyncio (lab.meanwhile and create_task take it). While a step runs, asyncio's running loop in the
worker is the grader's (_GradersLoop, through LoopDoor), as the test's loop is the running one in
the notebook: get_running_loop, create_task, ensure_future, sleep, current_task, timeout,
wait_for and gather work there, on the grader's loop and its virtual clock. Limits: a future made
in the worker itself (asyncio.Future()) cannot be awaited there, since the worker has no loop
that could run it. The handle of a coroutine function is one to inspect.iscoroutinefunction and
asyncio.iscoroutinefunction (by the mark inspect.markcoroutinefunction sets, Python 3.12 on).
"""

import base64
import builtins
import json
import os
import select
import sys
import time
import types

MAX_LINE = 32 << 20      # one message, in bytes
# A read asks for no more than this: a larger buffer is mapped and unmapped by the allocator on
# every read, some 20 microseconds a message, paid twice on each of thousands of round trips.
READ_SIZE = 64 << 10
# json.dumps with these options would make a new encoder for every message
_to_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
MAX_DEPTH = 64           # nesting of one value
MAX_NESTING = 40         # calls waiting on calls waiting on calls
MAX_TEXT = 2000          # an exception's message, as sent
MAX_PRINTED = 1 << 16    # what the learner printed during one message, as sent
# A class whose instances the learner's methods may keep state on sets this to True (the classes
# lab.course.manifest.Namespace makes, whose methods are the learner's). Any other object of the grader's
# stays read-only to the learner's code.
WRITABLE = "learner_state"
# A stdout that sets this to True receives what the learner's code prints (lab.capture_stdout()).
TAKES_PRINTED = "takes_learner_output"


class WireError(Exception):
    """The other side sent something that is not a message of this protocol."""


class Abort(BaseException):
    """The worker can no longer answer: it ran out of time, or its process ended. A BaseException,
    so that a test's `except Exception` cannot mistake it for the learner's code raising."""


class TimedOut(Abort):
    pass


class Gone(Abort):
    pass


class RemoteException(Exception):
    """Mixed into every exception rebuilt from the other side's report of one."""
    remote_type = ""


class ExitRequested(RemoteException):
    """The learner's code called sys.exit() or raised another BaseException that ends a program."""


_exception_classes = {}
# Exception classes of the course's own (lab's and harness's) that the worker knows by name: set
# in the worker from its set-up (a class made there for each, with the same builtin base), and in
# the grader by lab.grader.sandbox (the real classes). An exception of one of them crosses the
# wire as itself, so that `except lab.PowerCut` catches it on either side.
COURSE_EXCEPTIONS = {}


def _builtin_exception(name):
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return cls
    return None


def _named_class(name, base, exit_like):
    """A class named as the other side's was, under its nearest builtin class."""
    key = (name, base, exit_like)
    cls = _exception_classes.get(key)
    if cls is None:
        if exit_like:
            bases = (ExitRequested,)
        else:
            bases = (base,) if issubclass(base, RemoteException) else (base, RemoteException)
        try:
            cls = type(name, bases, {"__module__": "learner"})
        except TypeError:  # a builtin that cannot be subclassed together with RemoteException
            cls = type(name, (RuntimeError, RemoteException), {"__module__": "learner"})
        _exception_classes[key] = cls
    return cls


def _worded(cls, message):
    """A subclass of `cls` whose instances read as `message`: for a class whose str() is its own
    (a course type that words itself), so that str(error) is the same on both sides."""
    key = ("worded", cls)
    sub = _exception_classes.get(key)
    if sub is None:
        def __str__(self):
            return self.__dict__.get("_wire_message", "")
        sub = _exception_classes[key] = type(cls.__name__, (cls,), {"__str__": __str__,
                                                                   "__module__": cls.__module__})
    return sub


def rebuild_exception(info, decode=None, real_exits=False):
    """The exception the other side reported: of the same class where that is a builtin class or
    one of COURSE_EXCEPTIONS, else a class of that name under the nearest builtin class; with the
    same args (decoded by `decode`, plain data or handles), the same public attributes, and the
    same str(). Never a class of the other side's choosing.

    real_exits: a KeyboardInterrupt, SystemExit or other BaseException that is not an Exception
    is rebuilt as itself (the worker's side: a test's Ctrl-C reaches the learner's code as a real
    one); otherwise as ExitRequested, an Exception (the grader's side). An asyncio.CancelledError
    is rebuilt as itself on both sides: a cancellation thrown into the learner's coroutine is one
    there, and one it lets go, or raises, cancels the grader's task that awaited it."""
    base = _builtin_exception(str(info.get("b", "")))
    name = str(info.get("t", base.__name__ if base else "RuntimeError"))
    if not name.isidentifier() or len(name) > 60:
        name = base.__name__ if base else "RuntimeError"
    message = str(info.get("m", ""))[:MAX_TEXT]
    exit_like = base is not None and not issubclass(base, Exception)
    cls = None
    if info.get("s") == "asyncio.CancelledError" and name == "CancelledError":
        import asyncio   # the real class on both sides, so that a cancellation stays one
        cls = asyncio.CancelledError
    elif info.get("c") and name in COURSE_EXCEPTIONS:
        cls = COURSE_EXCEPTIONS[name]
    elif base is not None and name == base.__name__ and (real_exits or not exit_like):
        cls = base
    if cls is None:
        if base is None:
            base = RuntimeError
        cls = _named_class(name, base, exit_like and not real_exits)
    args = None
    if decode is not None and "a" in info:
        try:
            args = decode(info["a"])
        except Exception:
            args = None
    if not isinstance(args, tuple):
        args = (message,) if message or base is not StopIteration else ()
    error = _made(cls, args, info.get("os"))
    for key, value in (info.get("d") or {}).items() if type(info.get("d")) is dict else ():
        if type(key) is str and key.isidentifier() and not key.startswith("_") and type(value) in _SCALARS:
            try:
                setattr(error, key, value)
            except Exception:
                pass
    try:
        same = str(error) == message
    except Exception:
        same = False
    if not same and len(message) < MAX_TEXT:
        worded = _made(_worded(type(error), message), args, info.get("os"))
        worded.__dict__.update({k: v for k, v in vars(error).items()})
        worded._wire_message = message
        error = worded
    error.remote_type = name
    return error


def _made(cls, args, oserror):
    """An instance of `cls` with exactly `args`, built without running anything but builtin
    code and the course's own __init__."""
    try:
        if oserror and issubclass(cls, OSError) and len(args) >= 2:
            error = cls(args[0], args[1], oserror.get("filename"), None, oserror.get("filename2"))
        else:
            error = cls(*args)
    except Exception:
        try:
            error = cls.__new__(cls, *args)
        except Exception:
            error = RuntimeError(*args)
    try:
        error.args = args
    except Exception:
        pass
    return error


def describe_exception(error, ref=None, encode=None):
    """What the other side needs to rebuild `error`: its class name, the nearest builtin class in
    its ancestry, whether it is a course type (COURSE_EXCEPTIONS), its message, its args (encoded
    by `encode`, where they can be), its public plain-data attributes, and an OSError's file names."""
    builtin_name = "Exception"
    try:
        for cls in type(error).__mro__:
            if cls.__module__ == "builtins" and issubclass(cls, BaseException):
                builtin_name = cls.__name__
                break
    except Exception:
        pass
    try:
        message = str(error)
    except BaseException:
        message = "(its message could not be read)"
    try:
        name = type(error).__name__
    except BaseException:
        name = builtin_name
    info = {"t": str(name)[:60], "b": builtin_name, "m": message[:MAX_TEXT]}
    course = COURSE_EXCEPTIONS.get(info["t"])
    if course is not None and isinstance(error, course):
        info["c"] = True
    asyncio = sys.modules.get("asyncio")   # no CancelledError exists where asyncio was never imported
    if asyncio is not None and type(error) is getattr(asyncio, "CancelledError", None):
        info["s"] = "asyncio.CancelledError"
    if encode is not None:
        try:
            args = error.args
            if type(args) is tuple:
                info["a"] = encode(args)
        except BaseException:
            info.pop("a", None)
        try:
            own = {k: v for k, v in vars(error).items()
                   if type(k) is str and not k.startswith("_") and type(v) in _SCALARS
                   and k not in ("remote_type", "remote_line", "remote_msg")}
            if own:
                info["d"] = {k: (v[:MAX_TEXT] if type(v) is str else v) for k, v in own.items()}
        except BaseException:
            pass
    if isinstance(error, OSError) and (error.filename is not None or error.filename2 is not None):
        info["os"] = {k: v for k, v in (("filename", error.filename), ("filename2", error.filename2))
                      if type(v) in (str, int)}
    if isinstance(error, SyntaxError):
        info["line"] = error.lineno
        info["text"] = (error.text or "").strip()[:200]
        info["msg"] = str(error.msg)[:200]
    if ref is not None:
        info["ref"] = ref
    return info


# -- plain data and handles ---------------------------------------------------------------------

_SCALARS = (type(None), bool, int, float, str)


def _own_state(target, name):
    """True when the learner's code may read and set attribute `name` of `target`: its class opts
    in (WRITABLE) and the name is not a dunder, so no class, dict or method is ever reached."""
    return (getattr(type(target), WRITABLE, False) is True and not isinstance(target, type)
            and not (name.startswith("__") and name.endswith("__")) and name.isidentifier())


def _posed_class(remote, type_name, pose):
    """What a handle's __class__ says: the class `pose` names in `types` when the object it stands
    for is of the builtin type `type_name` ("coroutine", "async_generator"), so that isinstance,
    and with it inspect.iscoroutine, inspect.isasyncgen and asyncio, say of the handle what they
    say of the object (code that asks `inspect.iscoroutine(result)` before awaiting it awaits
    the handle); else its own class. type() still says Remote, and C code that checks the exact
    type never takes it for one; what it is asked for is asked of the other side."""
    if remote._type == type_name:
        return getattr(types, pose)
    return type(remote)


class _Awaitable:
    """Mixed into the Remote of an object whose class has __await__ (a coroutine, an async
    generator's asend or athrow, a learner's own awaitable): `await` on it works on either side.

    In the grader it is driven by the trampoline (_driven). In the worker it hands itself up to
    the step that runs the awaiting coroutine (_handed_up). In the grader it is also a coroutine
    to asyncio (collections.abc.Coroutine: send, throw and close drive the same trampoline), so
    that asyncio.create_task(ns.run_tool(...)) takes it as it takes the learner's coroutine in the
    notebook; in the worker these three are the grader's object's own methods, asked for as any
    other attribute is."""

    __slots__ = ()

    __class__ = property(lambda self: _posed_class(self, "coroutine", "CoroutineType"))

    def __await__(self):
        if self._peer.grader:
            return _driven(self._peer, self._handle).__await__()
        return _handed_up(self)

    def _coroutine(self):
        if self._driver is None:
            object.__setattr__(self, "_driver", _driven(self._peer, self._handle))
        return self._driver

    def send(self, value):
        if not self._peer.grader:
            return self.__getattr__("send")(value)
        return self._coroutine().send(value)

    def __next__(self):
        # asyncio's C Task steps a coroutine that is not a native one with next() where it would
        # send None (PyIter_Send), so here next() is send(None), as it is for any coroutine.
        if not self._peer.grader:
            return Remote.__next__(self)
        return self._coroutine().send(None)

    def throw(self, *args):
        if not self._peer.grader:
            return self.__getattr__("throw")(*args)
        return self._coroutine().throw(*args)

    def close(self):
        # Once the trampoline runs, closing stops it where it is, with no message to the worker
        # (close may come from a finalizer, in the middle of another message): the learner's
        # coroutine stays suspended in the worker. Before, the object's own close() is asked for.
        if not self._peer.grader or self._driver is None:
            return self.__getattr__("close")()
        return self._driver.close()


class _AsyncIterable:
    """Mixed into the Remote of an object whose class has __aiter__: `async for` works on it."""

    __slots__ = ()

    def __aiter__(self):
        return self._peer.request("aiter", self._handle)


class _AsyncIterator:
    """Mixed into the Remote of an object whose class has __anext__. What __anext__ returns is
    a Remote of the awaitable the object's own __anext__ made, to be awaited as any other."""

    __slots__ = ()

    __class__ = property(lambda self: _posed_class(self, "async_generator", "AsyncGeneratorType"))

    def __anext__(self):
        peer = self._peer
        # A native async generator tells the running loop when it is first iterated, and the loop
        # closes it (aclose) when it shuts down, running its finally. The handle of the learner's
        # async generator does the same in the grader, so that lab.meanwhile closes a run that
        # was left open as it does in the notebook.
        if peer.grader and self._type == "async_generator" and self._handle not in peer.hooked:
            peer.hooked.add(self._handle)
            firstiter = sys.get_asyncgen_hooks().firstiter
            if firstiter is not None:
                firstiter(self)
        return peer.request("anext", self._handle)


class Remote:
    """An object that lives on the other side of the wire. Calling it, reading a public attribute
    of it, iterating over it, its len() and its truth ask the other side; so do awaiting it and
    `async for` over it, where the object's class has __await__, __aiter__ or __anext__ (the
    class of the handle then has them too: see _remote_class). Nothing else is forwarded:
    comparing it or hashing it is done here, on the handle, and says nothing about the object it
    stands for."""

    __slots__ = ("_peer", "_handle", "_type", "_driver", "__weakref__")

    def __init__(self, peer, handle, type_name):
        object.__setattr__(self, "_peer", peer)
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_type", type_name)
        object.__setattr__(self, "_driver", None)   # the trampoline asyncio steps (_Awaitable.send)

    def __call__(self, *args, **kwargs):
        return self._peer.request("call", self._handle, args=args, kwargs=kwargs)

    def __getattr__(self, name):
        # A dunder, or a slot of the handle itself, is never asked for. Any other name is, and
        # the other side refuses a "_name" unless the object's class opts in (WRITABLE).
        if name.startswith("__") or name in Remote.__slots__:
            raise AttributeError(name)
        return self._peer.request("getattr", self._handle, name=name)

    def __setattr__(self, name, value):
        # Asked of the other side, which refuses unless the object's class opts in (see
        # WRITABLE): a learner's method may keep state on the instance the tests made for it.
        return self._peer.request("setattr", self._handle, args=(value,), name=name)

    def __iter__(self):
        return self._peer.request("iter", self._handle)

    # Its length and its truth are asked of the other side too, so that `if queue:` reads a
    # deque handed over as it would in one process (lesson 9's Harness._drain).
    def __len__(self):
        return self._peer.request("len", self._handle)

    def __bool__(self):
        return bool(self._peer.request("bool", self._handle))

    def __next__(self):
        return self._peer.request("next", self._handle)

    def __get__(self, obj, objtype=None):  # stored on a class, it binds like a function
        if obj is None:
            return self
        return types.MethodType(self, obj)

    @property
    def __signature__(self):
        import inspect
        params = self._peer.request("signature", self._handle)
        if params is None:
            return None
        out = []
        for name, kind, has_default in params:
            kind = getattr(inspect.Parameter, str(kind), inspect.Parameter.POSITIONAL_OR_KEYWORD)
            default = "…" if has_default else inspect.Parameter.empty
            out.append(inspect.Parameter(str(name), kind, default=default))
        try:
            return inspect.Signature(out)
        except ValueError:
            return None

    def __repr__(self):
        return f"<{self._type} from the learner's code>"


_ASYNC_PROTOCOLS = (("a", "__await__", _Awaitable), ("i", "__aiter__", _AsyncIterable),
                    ("n", "__anext__", _AsyncIterator))
_remote_classes = {"": Remote}


TOP_LEVEL_AWAIT = 0x2000   # ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, without importing ast in the worker
CO_COROUTINE = 0x80


def _async_flags(value):
    """Which async protocols the class of `value` has, as the letters of _ASYNC_PROTOCOLS, and
    "c" if it is a coroutine function (a bound method of one too): sent with its handle, so that
    the other side's Remote of it has exactly those. The worker may claim anything here; a false
    claim only makes the grader ask the worker for a step, or inspect call a handle what it is not."""
    try:
        cls = type(value)
        flags = "".join(flag for flag, name, _ in _ASYNC_PROTOCOLS
                        if getattr(cls, name, None) is not None)
    except Exception:
        return ""
    function = value.__func__ if cls is types.MethodType else value
    if type(function) is types.FunctionType and function.__code__.co_flags & CO_COROUTINE:
        flags += "c"
    return flags




class _CoroutineFunction:
    """Mixed into the Remote of a coroutine function: inspect.iscoroutinefunction, and asyncio's,
    say of the handle what they say of the function, by the mark inspect.markcoroutinefunction
    puts on one (set on the class when it is made, where this Python has that mark)."""

    __slots__ = ()


def _remote_class(flags):
    """The class of a Remote whose object has the async protocols `flags` names: Remote with a
    mixin for each, so that inspect.isawaitable and hasattr(x, "__anext__") say of the handle
    what they say of the object. Each is named Remote too."""
    key = "".join(flag for flag, _, _ in _ASYNC_PROTOCOLS if flag in str(flags))
    key += "c" if "c" in str(flags) else ""
    cls = _remote_classes.get(key)
    if cls is None:
        mixins = tuple(mixin for flag, _, mixin in _ASYNC_PROTOCOLS if flag in key)
        namespace = {"__slots__": (), "__doc__": Remote.__doc__, "__module__": Remote.__module__}
        if "c" in key:
            import inspect
            mixins += (_CoroutineFunction,)
            namespace["_is_coroutine_marker"] = getattr(inspect, "_is_coroutine_mark", None)
        cls = _remote_classes[key] = type("Remote", mixins + (Remote,), namespace)
    return cls


def _handed_up(remote):
    """`await remote` in the worker, where `remote` is a handle of the grader's: the handle goes
    up through the learner's coroutine to the step that is running it (Peer._step), which answers
    the grader "await this"; what the grader sends down (the result, or the exception it threw
    in) comes out here as the await's outcome."""
    return (yield remote)


async def _driven(peer, handle):
    """`await` of the worker's awaitable `handle`, in the grader: the trampoline. Each step
    runs the learner's code up to its next await of one of the grader's objects, which is awaited
    here, on the grader's running loop; its outcome goes into the next step. Ends with the
    coroutine's value, or raises what it raised. The worker is asked nothing but steps of
    `handle`, and nothing is awaited here but what Peer.step found in this side's own table."""
    how, value, thrown = "start", None, None
    while True:
        kind, payload = peer.step(handle, how, value, thrown)
        if kind == "return":
            return payload
        value = thrown = None
        try:
            if kind == "turn":   # a bare yield (asyncio.sleep(0)): one turn of the loop
                import asyncio
                await asyncio.sleep(0)
            else:
                value = await payload
        except (Abort, GeneratorExit):
            # The worker is gone, or this trampoline is being closed (see _Awaitable.close):
            # nothing goes to the worker.
            raise
        except BaseException as error:   # a cancellation included: thrown in where it awaited
            thrown = error
        how = "send" if thrown is None else "throw"


class _Encoder:
    """Turns a value into JSON-ready data. Lists and dicts are numbered in the order they are
    first met, so that a later "$r" can name one (aliasing, cycles, and copy-restore)."""

    def __init__(self, peer, known=None, count=0):
        self.peer = peer
        self.index = dict(known or {})   # id(container) -> number
        self.count = count
        self.order = []                  # containers met for the first time, in order
        self.keep = []

    def __call__(self, value, depth=0):
        t = type(value)
        if t in _SCALARS:
            return value
        if depth > MAX_DEPTH:
            raise ValueError("a value nested too deeply to send")
        if isinstance(value, (list, dict)):
            number = self.index.get(id(value))
            if number is not None:
                return {"$r": number}
            self.index[id(value)] = self.count
            self.count += 1
            self.order.append(value)
            self.keep.append(value)
            if isinstance(value, list):
                return [self(item, depth + 1) for item in list.__iter__(value)]
            items = list(dict.items(value))
            if all(type(k) is str and not k.startswith("$") for k, _ in items):
                return {k: self(v, depth + 1) for k, v in items}
            return {"$d": [[self(k, depth + 1), self(v, depth + 1)] for k, v in items]}
        if isinstance(value, Remote) and value._peer is self.peer:
            return {"$o": value._handle}
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, int):
            return int.__index__(value)
        if isinstance(value, float):
            return float.__float__(value)
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, tuple):
            return {"$t": [self(item, depth + 1) for item in tuple.__iter__(value)]}
        if isinstance(value, (set, frozenset)):
            return {"$s": [self(item, depth + 1) for item in value], "f": isinstance(value, frozenset)}
        if isinstance(value, (bytes, bytearray)):
            return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
        return self.peer.export(value)

    def contents(self, container, depth=0):
        """The items of a numbered container itself, for a restore."""
        if isinstance(container, list):
            return [self(item, depth + 1) for item in list.__iter__(container)]
        return [[self(k, depth + 1), self(v, depth + 1)] for k, v in dict.items(container)]


class _Decoder:
    """The inverse of _Encoder. `table` starts with the containers a "$r" may name."""

    def __init__(self, peer, table=None, snapshot=False):
        self.peer = peer
        self.table = list(table or [])
        self.snapshots = [] if snapshot else None
        self.first_new = len(self.table)

    def __call__(self, data, depth=0):
        t = type(data)
        if t in _SCALARS:
            return data
        if depth > MAX_DEPTH:
            raise WireError("a value nested too deeply")
        if t is list:
            out = []
            self.table.append(out)
            out.extend(self(item, depth + 1) for item in data)
            return out
        if t is not dict:
            raise WireError(f"unexpected {t.__name__} in a message")
        if data:
            tag = next(iter(data))
            if tag.startswith("$"):
                return self._tagged(tag, data, depth)
        out = {}
        self.table.append(out)
        for k, v in data.items():
            out[k] = self(v, depth + 1)
        return out

    def _tagged(self, tag, data, depth):
        value = data[tag]
        if tag == "$r":
            if type(value) is not int or not 0 <= value < len(self.table):
                raise WireError("a reference to no container")
            return self.table[value]
        if tag == "$t":
            return tuple(self(item, depth + 1) for item in self._list(value))
        if tag == "$d":
            out = {}
            self.table.append(out)
            for pair in self._list(value):
                pair = self._list(pair)
                if len(pair) != 2:
                    raise WireError("a dict item that is not a pair")
                key = self(pair[0], depth + 1)
                try:
                    out[key] = self(pair[1], depth + 1)
                except TypeError:
                    raise WireError("an unhashable dict key") from None
            return out
        if tag == "$s":
            items = [self(item, depth + 1) for item in self._list(value)]
            try:
                return frozenset(items) if data.get("f") else set(items)
            except TypeError:
                raise WireError("an unhashable set item") from None
        if tag == "$b":
            try:
                return base64.b64decode(str(value), validate=True)
            except ValueError:
                raise WireError("bytes that are not base64") from None
        if tag == "$h":
            if type(value) is not int:
                raise WireError("a handle that is not a number")
            return self.peer.remote(value, str(data.get("t", "object"))[:80], data.get("f", ""))
        if tag == "$o":
            return self.peer.own(value)
        raise WireError(f"unknown tag {tag[:20]!r}")

    @staticmethod
    def _list(value):
        if type(value) is not list:
            raise WireError("a tagged value that is not a list")
        return value

    def take_snapshots(self):
        """What each container decoded so far holds now: to tell, after a call, which changed."""
        self.snapshots = [_shallow(c) for c in self.table]


def _shallow(container):
    return list(container) if type(container) is list else list(dict.items(container))


def _unchanged(container, snapshot):
    now = _shallow(container)
    if len(now) != len(snapshot):
        return False
    if type(container) is list:
        return all(a is b for a, b in zip(now, snapshot))
    return all(a[0] is b[0] and a[1] is b[1] for a, b in zip(now, snapshot))


# -- one side of the wire -----------------------------------------------------------------------

class Peer:
    """One end of the wire. `serving` decides what the other side may ask of this one."""

    def __init__(self, rfd, wfd, *, grader):
        self.rfd, self.wfd = rfd, wfd
        self.grader = grader
        self.buffer = bytearray()
        self.objects = {}          # handle -> object handed to the other side
        self.handles = {}          # id(object) -> handle
        self.remotes = {}          # the other side's handle -> Remote
        self.raised = {}           # ref -> an exception of ours that went across
        self.steps = {}            # the worker's: handle -> what the grader's await of it drives
        self.loop = None           # the worker's: _GradersLoop, made when a step first needs it
        self.hooked = set()        # the grader's: handles of async generators a loop was told of
        self.next_handle = 1
        self.next_call = 1
        self.depth = 0
        self.deadline = None       # monotonic time; only the grader waits with one
        # Asked when the deadline passes: a later deadline if the work still has time (the grader
        # counts CPU seconds, see lab.grader.session.Budget), or None to give up. None: the deadline is final.
        self.more_time = None
        self.dead = None           # why this wire can no longer be used
        self.namespace = None      # the worker's: where cells run and names are looked up
        self.handed_back = {}      # the worker's: name -> (the starter's objects for it, a sentence)
        self.received = 0
        # The grader's: name -> the object of lab it serves the learner's code (`import lab` in
        # the worker), raising AttributeError for any other name.
        self.course = None

    # handles
    def export(self, value):
        if self.grader:
            if isinstance(value, (types.ModuleType, type, types.CodeType, types.FrameType)):
                raise TypeError(f"a {type(value).__name__} cannot be handed to the learner's code")
        handle = self.handles.get(id(value))
        if handle is None:
            handle = self.next_handle
            self.next_handle += 1
            self.objects[handle] = value
            self.handles[id(value)] = handle
        try:
            type_name = type(value).__name__
        except BaseException:
            type_name = "object"
        flags = _async_flags(value)
        if flags:
            return {"$h": handle, "t": str(type_name)[:80], "f": flags}
        return {"$h": handle, "t": str(type_name)[:80]}

    def own(self, handle):
        if type(handle) is not int or handle not in self.objects:
            raise WireError("a handle to nothing this side handed over")
        return self.objects[handle]

    def remote(self, handle, type_name, flags=""):
        remote = self.remotes.get(handle)
        if remote is None:
            remote = self.remotes[handle] = _remote_class(flags)(self, handle, type_name)
        return remote

    # messages
    def send(self, message):
        if not self.grader:
            for key, stream in (("o", sys.stdout), ("w", sys.stderr)):
                printed = stream.take_fresh() if type(stream) is _Bounded else ""
                if printed:
                    message = dict(message, **{key: printed})
        data = _to_json(message).encode("utf-8", "surrogatepass") + b"\n"
        view = memoryview(data)
        while view:
            if self.deadline is not None:
                left = self.deadline - time.monotonic()
                ready = select.select([], [self.wfd], [], max(left, 0))[1] if left > 0 else []
                if not ready:
                    self._expired()
                    continue
            try:
                written = os.write(self.wfd, view)
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                self._die(Gone("the worker process has ended"))
            view = view[written:]

    def _printed(self, text, stderr=False):
        """What the learner's code printed, sent along with a message of the worker's: written to
        this process's stdout (its stderr, for what went to the learner's) only when that stream
        asks for it (a test that captures what is printed, such as lab.capture_stdout()), and
        dropped otherwise, so that nothing the learner
        prints reaches the grader's own output or the verdict."""
        if not self.grader or type(text) is not str:
            return
        stream = sys.stderr if stderr else sys.stdout
        if getattr(stream, TAKES_PRINTED, False) is True:
            stream.write(text[:MAX_PRINTED])

    def _expired(self):
        """The deadline has passed: wait on if more_time grants a later one, else time is up."""
        later = self.more_time() if self.more_time is not None else None
        if later is None or later <= time.monotonic():
            self._die(TimedOut("time ran out"))
        self.deadline = later

    def _die(self, error):
        self.dead = error
        raise error

    def receive(self):
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError):
                    raise WireError("a message that is not JSON") from None
                if type(message) is not dict:
                    raise WireError("a message that is not an object")
                self.received += 1
                if "o" in message:
                    self._printed(message.pop("o"))
                if "w" in message:
                    self._printed(message.pop("w"), stderr=True)
                return message
            if len(self.buffer) > MAX_LINE:
                raise WireError(f"a message longer than {MAX_LINE} bytes")
            if self.deadline is not None:
                left = self.deadline - time.monotonic()
                ready = select.select([self.rfd], [], [], left)[0] if left > 0 else []
                if not ready:
                    self._expired()
                    continue
            try:
                chunk = os.read(self.rfd, READ_SIZE)
            except OSError:
                chunk = b""
            if not chunk:
                self._die(Gone("the worker process has ended"))
            self.buffer += chunk

    # asking
    def request(self, op, handle=None, *, args=(), kwargs=None, name=None, source=None, filename=None,
                throw=None):
        if self.dead is not None:
            raise type(self.dead)(*self.dead.args)
        if self.depth >= MAX_NESTING:
            raise RecursionError("calls between the grader and the learner's code nested too deeply")
        number = self.next_call
        self.next_call += 1
        message = {"k": "q", "n": number, "op": op}
        sent = []
        if handle is not None:
            message["h"] = handle
        if name is not None:
            message["name"] = name
        if source is not None:
            message["source"], message["filename"] = source, filename
        if self.grader and _loop_running():
            message["l"] = 1   # the worker's code runs with the grader's loop as asyncio's (_enter_loop)
        if args or kwargs or throw is not None:
            encoder = _Encoder(self)
            message["a"] = encoder([list(args), dict(kwargs or {})])
            if throw is not None:   # an exception to throw into a step: described, as a reply's is
                ref = None
                if self.grader:
                    ref = len(self.raised) + 1
                    self.raised[ref] = throw
                message["x"] = describe_exception(throw, ref, encoder)
            sent = encoder.order
        self.send(message)
        self.depth += 1
        try:
            while True:
                reply = self.receive()
                kind = reply.get("k")
                if kind == "q":
                    self.serve(reply)
                    continue
                if kind not in ("r", "e") or reply.get("n") != number:
                    raise WireError("a reply to a question that was not asked")
                decoder = _Decoder(self, table=sent)
                value = decoder(reply.get("v")) if kind == "r" else None
                # In the order the other side encoded them: the error's args, then the restores.
                error = self._exception(reply.get("x"), decoder) if kind == "e" else None
                self._restore(decoder, reply.get("s"))
                if error is not None:
                    raise error
                return value
        except WireError as error:
            self._die(Gone(f"the learner's process broke the protocol: {error}"))
        finally:
            self.depth -= 1

    def step(self, handle, how, value=None, thrown=None):
        """One step of the worker's awaitable `handle` (the grader's side of the trampoline, see
        _driven): "start" it, "send" it `value`, or "throw" `thrown` into it. Returns ("return",
        its value), ("turn", None) for a bare yield, or ("await", one of this side's own objects,
        found by the handle the worker named); raises what the learner's code raised. Anything
        else from the worker breaks the protocol."""
        if thrown is not None:
            answer = self.request("step", handle, args=("throw",), throw=thrown)
        else:
            answer = self.request("step", handle, args=(how, value) if how == "send" else (how,))
        if type(answer) is tuple and answer:
            kind = answer[0]
            if kind == "return" and len(answer) == 2:
                return answer
            if kind == "turn" and len(answer) == 1:
                return ("turn", None)
            if kind == "await" and len(answer) == 2 and type(answer[1]) is int \
                    and answer[1] in self.objects:
                return ("await", self.objects[answer[1]])
        self._die(Gone("the learner's process broke the protocol: a step of a coroutine "
                       "answered with something that is neither a value nor an object of the grader's"))

    def _restore(self, decoder, restores):
        if not restores:
            return
        if type(restores) is not list:
            raise WireError("restores that are not a list")
        for item in restores:
            if type(item) is not list or len(item) != 2 or type(item[0]) is not int \
                    or not 0 <= item[0] < decoder.first_new:
                raise WireError("a restore of no container")
            target = decoder.table[item[0]]
            state = decoder._list(item[1])
            if type(target) is list or isinstance(target, list):
                list.__setitem__(target, slice(None), [decoder(x, 1) for x in state])
            else:
                pairs = []
                for pair in state:
                    pair = decoder._list(pair)
                    if len(pair) != 2:
                        raise WireError("a dict item that is not a pair")
                    pairs.append((decoder(pair[0], 1), decoder(pair[1], 1)))
                dict.clear(target)
                try:
                    dict.update(target, pairs)
                except TypeError:
                    raise WireError("an unhashable dict key") from None

    def _exception(self, info, decoder=None):
        if type(info) is not dict:
            raise WireError("an error report that is not an object")
        ref = info.get("ref")
        if self.grader and type(ref) is int and ref in self.raised:
            return self.raised[ref]   # our own exception, back unchanged
        error = rebuild_exception(info, decoder, real_exits=not self.grader)
        if not self.grader and type(ref) is int:
            error._wire_ref = ref
        if "line" in info:
            error.remote_line = info.get("line")
            error.remote_msg = info.get("msg")
        return error

    # answering
    def serve(self, message):
        number = message.get("n")
        decoder = _Decoder(self)
        args, kwargs, thrown = [], {}, None
        try:
            if "a" in message:
                payload = decoder(message["a"])
                if type(payload) is not list or len(payload) != 2 or type(payload[1]) is not dict:
                    raise WireError("arguments that are not [args, kwargs]")
                args, kwargs = payload
                if "x" in message and message.get("op") == "step" and not self.grader:
                    thrown = self._exception(message["x"], decoder)   # decoded after the args, as sent
                decoder.take_snapshots()
            entered = self._enter_loop() if message.get("l") == 1 and not self.grader else None
            try:
                value = self._perform(message, args, kwargs, thrown)
            finally:
                if entered is not None:
                    entered[0]._set_running_loop(entered[1])
            encoder = self._reply_encoder(decoder)
            reply = {"k": "r", "n": number, "v": encoder(value)}
        except Abort:
            raise
        except BaseException as error:  # everything the callee raises goes back as its report
            # A KeyboardInterrupt too: a test's tool that raises one hands the learner's code a
            # real Ctrl-C, as in the notebook; if that code lets it go, it comes back here as
            # this very object (ref) and goes on up.
            ref = getattr(error, "_wire_ref", None) if not self.grader else None
            if self.grader:
                ref = len(self.raised) + 1
                self.raised[ref] = error
            encoder = self._reply_encoder(decoder)
            reply = {"k": "e", "n": number, "x": describe_exception(error, ref, encoder)}
        restores = []
        for i, container in enumerate(decoder.table[:len(decoder.snapshots or [])]):
            if not _unchanged(container, decoder.snapshots[i]):
                restores.append([i, encoder.contents(container)])
        if restores:
            reply["s"] = restores
        try:
            self.send(reply)
        except (TypeError, ValueError) as error:  # a value JSON cannot carry
            self.send({"k": "e", "n": number, "x": describe_exception(error)})

    def _reply_encoder(self, decoder):
        known = {id(c): i for i, c in enumerate(decoder.table[:len(decoder.snapshots or [])])}
        return _Encoder(self, known=known, count=len(decoder.table))

    def _perform(self, message, args, kwargs, thrown=None):
        op = message.get("op")
        if op in ("exec", "lookup", "bye") and not self.grader:
            return self._worker_op(op, message)
        if op == "loop" and self.grader:
            return LoopDoor()
        if op == "course" and self.grader:
            name = message.get("name")
            if type(name) is not str or self.course is None:
                raise AttributeError("lab is not served to the learner's code")
            return self.course(name)
        target = self.own(message.get("h"))
        if op == "call":
            if self.grader and isinstance(target, type):
                raise TypeError("the learner's code may not create objects of the grader's classes")
            if not callable(target):
                raise TypeError(f"'{type(target).__name__}' object is not callable")
            return target(*args, **kwargs)
        if op == "getattr":
            name = message.get("name")
            if type(name) is not str or (name.startswith("_") and not _own_state(target, name)):
                raise AttributeError(f"{name!r} is not readable from the learner's code")
            return getattr(target, name)
        if op == "setattr":
            name = message.get("name")
            if type(name) is not str or not _own_state(target, name) or len(args) != 1 or kwargs:
                raise AttributeError(f"cannot set {name} on an object that lives in another process")
            setattr(target, name, args[0])
            return None
        if op == "iter":
            return iter(target)
        if op == "len":
            return len(target)
        if op == "bool":
            return bool(target)
        if op == "next":
            return next(target)
        if op in ("aiter", "anext"):   # async for, as Python asks: through the object's class
            method = getattr(type(target), "__" + op + "__", None)
            if method is None:
                raise TypeError(f"'async for' needs an object with __{op}__, not "
                                f"'{type(target).__name__}'")
            return method(target)
        if op == "step":
            if self.grader:   # the grader drives; it never runs a step for the worker
                raise TypeError("the learner's code cannot step the grader's coroutines; await them")
            return self._step(message.get("h"), target, args, thrown)
        if op == "signature":
            if self.grader:
                raise TypeError("signatures are not served to the learner's code")
            import inspect
            try:
                signature = inspect.signature(target)
            except (TypeError, ValueError):
                return None
            return [(p.name, p.kind.name, p.default is not p.empty) for p in signature.parameters.values()]
        raise WireError(f"unknown operation {str(op)[:20]!r}")

    def _step(self, handle, target, args, thrown):
        """The worker's side of the trampoline: run the awaitable `target` (what `await target`
        would drive) until it returns, raises, or awaits a handle of the grader's, and say which
        (see Peer.step). A bare yield, as asyncio.sleep(0) makes, asks for a turn of the grader's
        loop. Anything else it yields would need an event loop in this process, which has none:
        a RuntimeError saying so is thrown in at once, as asyncio's own loop throws in one for a
        bad yield."""
        how = args[0] if args else None
        if how == "start":
            if handle in self.steps:
                raise RuntimeError("coroutine is being awaited already")
            iterator = self.steps[handle] = _await_iterator(target)
        else:
            iterator = self.steps.get(handle)
            if iterator is None or how not in ("send", "throw"):
                raise RuntimeError("this coroutine is not being awaited")
        value = args[1] if how == "send" and len(args) > 1 else None
        if how == "throw" and thrown is None:
            raise WireError("a throw with no exception")
        while True:
            entered = self._enter_loop()
            try:
                yielded = iterator.throw(thrown) if thrown is not None else iterator.send(value)
            except StopIteration as stop:
                self.steps.pop(handle, None)
                return ("return", stop.value)
            except BaseException:
                self.steps.pop(handle, None)
                raise
            finally:
                if entered is not None:
                    entered[0]._set_running_loop(entered[1])
            if yielded is None:
                return ("turn",)
            if isinstance(yielded, Remote) and yielded._peer is self:
                return ("await", yielded._handle)
            value, thrown = None, RuntimeError(
                f"your coroutine awaited {type(yielded).__name__!r}, a future of its own process; graded, "
                "your coroutines run on the grader's event loop, whose tasks, futures, sleeps and "
                "timeouts they can use, but a future made here (asyncio.Future(), for one) needs a loop "
                "here, and graded code has none")

    def _enter_loop(self):
        """While a step runs the learner's coroutine, or the grader asks anything of the
        learner's code from inside its running loop (a test's coroutine calling a plain
        function): asyncio's running loop is the grader's (a _GradersLoop), as the test's loop is
        the running one in the notebook, so that get_running_loop, create_task, ensure_future,
        sleep, wait_for and timeout work. Returns
        (asyncio.events, the loop it replaced) to put back, or None where asyncio was never
        imported (code that has not imported it cannot ask for a loop)."""
        asyncio = sys.modules.get("asyncio")
        if asyncio is None:
            return None
        if self.loop is None:
            self.loop = _GradersLoop(self)
        events = asyncio.events
        prior = events._get_running_loop()
        events._set_running_loop(self.loop)
        return events, prior

    def _worker_op(self, op, message):
        if op == "bye":
            os._exit(0)
        if op == "exec":
            source, filename = message.get("source"), message.get("filename")
            # As IPython runs a cell: `await` at its top level is allowed (autoawait). Such a cell
            # compiles to a coroutine, which goes to the grader, whose event loop drives it as it
            # drives a test's await of the learner's code.
            code = compile(str(source), str(filename), "exec", flags=TOP_LEVEL_AWAIT, dont_inherit=True)
            if code.co_flags & CO_COROUTINE:
                return eval(code, self.namespace)
            exec(code, self.namespace)
            return None
        name = str(message.get("name", ""))
        found = _learner_object(self.namespace, name)
        starters, sentence = self.handed_back.get(name, ((), ""))
        if any(found is starter for starter in starters):   # `summarize = harness.summarize`
            raise NameError(sentence)
        # A property (Harness.messages) is sent as its getter: the grader makes it a property again.
        return found.fget if isinstance(found, property) else found


def _loop_running():
    """True in the grader while an event loop runs in this thread (a test's coroutine)."""
    asyncio = sys.modules.get("asyncio")
    return asyncio is not None and asyncio.events._get_running_loop() is not None


class LoopDoor:
    """The grader's running event loop as the learner's coroutines reach it while graded, the
    worker having none of its own (see _GradersLoop): what asyncio's tasks, futures, sleeps and
    timeouts ask of a loop, done on the loop running the tests at the moment of the call, and
    nothing else of it (not stop, close, or a task factory)."""

    @staticmethod
    def _running():
        import asyncio
        return asyncio.get_running_loop()

    def time(self):
        return self._running().time()

    def create_future(self):
        return self._running().create_future()

    def create_task(self, coro, name=None):
        return self._running().create_task(coro, name=name)

    def call_soon(self, callback, *args):
        return self._running().call_soon(callback, *args)

    def call_later(self, delay, callback, *args):
        return self._running().call_later(delay, callback, *args)

    def call_at(self, when, callback, *args):
        return self._running().call_at(when, callback, *args)

    def current_task(self):
        import asyncio
        return asyncio.current_task(self._running())

    def run_in_executor(self, *ignored):
        """Refused, in the test's loop's own words where that is lab's virtual loop (which runs
        nothing in threads), as the notebook refuses it; and nothing is run in a thread of the
        grader's, whose wire to the worker has one user at a time."""
        loop = self._running()
        if type(loop).__module__ == "lab.stage.virtual_loop":
            loop.run_in_executor(None, None)   # raises its own sentence
        raise RuntimeError("graded, your code runs nothing in threads (run_in_executor, asyncio.to_thread): "
                           "make the slow step a coroutine that awaits instead")

    def gather(self, *awaitables, return_exceptions=False):
        import asyncio
        self._running()
        return asyncio.gather(*awaitables, return_exceptions=bool(return_exceptions))


class _GradersLoop:
    """asyncio's running loop in the worker while the grader steps a coroutine of the learner's:
    each call goes to the grader's LoopDoor. A task is the grader's Task, driving the learner's
    coroutine step by step; a future is the grader's; a timer calls the learner's callback from
    the grader's loop. Our simplification: a callback's `context` stays behind (it cannot cross),
    and the loop offers nothing but these."""

    def __init__(self, peer):
        self._peer, self._door = peer, None

    def _ask(self):
        if self._door is None:
            self._door = self._peer.request("loop")
        return self._door

    def time(self):
        return self._ask().time()

    def create_future(self):
        return self._ask().create_future()

    def create_task(self, coro, *, name=None, context=None, **_ignored):
        return self._ask().create_task(coro, name)

    def call_soon(self, callback, *args, context=None):
        return self._ask().call_soon(callback, *args)

    def call_later(self, delay, callback, *args, context=None):
        return self._ask().call_later(delay, callback, *args)

    def call_at(self, when, callback, *args, context=None):
        return self._ask().call_at(when, callback, *args)

    def run_in_executor(self, executor, func, *args):
        return self._ask().run_in_executor()

    def get_debug(self):
        return False

    def is_running(self):
        return True

    def is_closed(self):
        return False

    def __getattr__(self, name):
        raise AttributeError(f"graded, your coroutines run on the grader's event loop, which gives them "
                             f"time, tasks, futures and timers, but not {name}")


def _on_the_graders_loop(asyncio):
    """asyncio, as the worker loads it, answering for the grader's loop where asyncio's own
    functions would look in this process for what only that loop holds: current_task() (the
    grader's task stepping the learner's coroutine, as timeouts and wait_for ask it) and gather()
    (the grader's, gathering there, since a future of this process could not be awaited). On
    any other loop, asyncio's own."""
    own_current_task, own_gather = asyncio.tasks.current_task, asyncio.tasks.gather

    def current_task(loop=None):
        if loop is None:
            loop = asyncio.events.get_running_loop()
        if type(loop) is _GradersLoop:
            return loop._ask().current_task()
        return own_current_task(loop)

    def gather(*awaitables, return_exceptions=False):
        loop = asyncio.events._get_running_loop()
        if type(loop) is _GradersLoop:
            return loop._ask().gather(*awaitables, return_exceptions=return_exceptions)
        return own_gather(*awaitables, return_exceptions=return_exceptions)
    current_task.__doc__, gather.__doc__ = own_current_task.__doc__, own_gather.__doc__
    asyncio.tasks.current_task = asyncio.current_task = current_task
    asyncio.tasks.gather = asyncio.gather = gather


def _await_iterator(target):
    """What `await target` drives: the iterator its class's __await__ returns, as Python asks for
    it, given send and throw if it is a plain iterator."""
    method = getattr(type(target), "__await__", None)
    if method is None:
        raise TypeError(f"object {type(target).__name__} can't be used in 'await' expression")
    iterator = method(target)
    if not (hasattr(iterator, "send") and hasattr(iterator, "throw")):
        iterator = _delegated(iterator)
    return iterator


def _delegated(iterator):
    return (yield from iterator)


def _learner_object(namespace, name):
    """The learner's object for a full name in the namespace the cells ran in, by the rule of
    lab.course.manifest.find (which this process cannot import, since `harness` here is the starter): a
    method is found in a class the learner defined, or as a top-level function of its bare name
    whose first parameter is self."""
    import inspect
    owner, _, attribute = name.rpartition(".")
    if not owner:
        if name not in namespace:
            raise NameError(f"{name} is not defined: run the cell that defines it first")
        return namespace[name]

    def given(value):
        module = getattr(getattr(value, "fget", value), "__module__", None) or ""
        return module == "harness" or module.startswith("harness.")

    cls = namespace.get(owner)
    if inspect.isclass(cls) and not given(cls) and attribute in vars(cls):
        return vars(cls)[attribute]
    value = namespace.get(attribute)
    if value is not None and not given(value):
        try:
            first = next(iter(inspect.signature(getattr(value, "fget", value)).parameters), None)
        except (TypeError, ValueError):
            first = None
        if first == "self":
            return value
    raise NameError(f"{name} is not defined: run the cell that defines it (def {attribute}(self, ...)) first")


# -- the worker's side --------------------------------------------------------------------------

class _Bounded:
    """sys.stdout and sys.stderr in the worker: whatever the learner's code prints is kept up to a
    limit and then dropped, never an error. What was printed since the last message also goes
    with the next message to the grader (Peer.send), which shows it only to a test that asked."""

    def __init__(self, limit=1 << 16):
        self.parts, self.size, self.limit = [], 0, limit
        self.encoding, self.errors = "utf-8", "replace"
        self.fresh, self.fresh_size = [], 0   # printed since the last message to the grader

    def write(self, text):
        text = str(text)
        if self.size < self.limit:
            self.parts.append(text[:self.limit - self.size])
            self.size += len(self.parts[-1])
        if self.fresh_size < MAX_PRINTED:
            self.fresh.append(text[:MAX_PRINTED - self.fresh_size])
            self.fresh_size += len(self.fresh[-1])
        return len(text)

    def take_fresh(self):
        """What was printed since the last call, to go with the next message to the grader."""
        text, self.fresh, self.fresh_size = "".join(self.fresh), [], 0
        return text

    def flush(self):
        pass

    def isatty(self):
        return False

    def writable(self):
        return True


def _audit(protect, allow_write, allow_read=()):
    """An audit hook that refuses what the learner's code has no business doing while it is
    graded: the network, new processes, signals to other processes, native code, and files
    outside its own directory (or inside the ones `protect` names). A second lock behind the
    sandbox, and the only one where no sandbox can be made; audit hooks are not a full security
    boundary on their own (see docs/instructors.md)."""
    import sys as _sys
    protect = tuple(os.path.realpath(p) for p in protect)
    allow_write = os.path.realpath(allow_write)
    allow_read = tuple(os.path.realpath(p) for p in allow_read) + (allow_write,)
    refused = ("socket.", "subprocess.", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
               "os.forkpty", "os.system", "os.kill", "os.killpg", "signal.pthread_kill",
               "ctypes.", "pty.", "resource.setrlimit", "resource.prlimit", "webbrowser.",
               "urllib.Request", "http.client.", "ftplib.", "smtplib.", "telnetlib.", "poplib.",
               "imaplib.", "nntplib.", "sqlite3.")
    file_changes = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown",
                    "os.utime", "os.truncate", "os.link", "os.symlink", "shutil.rmtree",
                    "shutil.copyfile", "shutil.move")
    blocked_modules = ("ctypes", "_ctypes", "_posixsubprocess", "subprocess", "socket", "_socket",
                       "multiprocessing", "_multiprocessing", "_xxsubinterpreters", "ssl", "_ssl",
                       "pty", "sqlite3", "_sqlite3")

    def inside(path, roots):
        return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)

    def hidden(real):
        """Protected, unless a more specific allowed folder holds it: the Python installation is
        readable, while a site-packages folder inside it (where an installed course would put
        the reference) stays protected."""
        deepest = max((len(r) for r in protect if inside(real, (r,))), default=-1)
        return deepest > max((len(r) for r in allow_read if inside(real, (r,))), default=-1)

    def hook(event, args):
        if event.startswith(refused):
            raise PermissionError(f"{event} is not allowed while your code is graded")
        if event.startswith(file_changes):
            paths = [a for a in args[:2] if isinstance(a, (str, bytes))]
            if all(inside(os.path.realpath(os.fsdecode(p)), (allow_write,)) for p in paths) and paths:
                return
            raise PermissionError(f"{event} outside its own directory is not allowed while your code is graded")
        if event == "import" and args and str(args[0]).split(".")[0] in blocked_modules:
            raise ImportError(f"{args[0]} cannot be imported while your code is graded")
        if event == "open":
            path, mode, flags = (list(args) + [None, None, None])[:3]
            if isinstance(path, int):
                return
            if path is None:
                return
            real = os.path.realpath(os.fsdecode(path))
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or \
                      (isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC))
            if inside(real, (allow_write,)):
                return
            if writing:
                raise PermissionError(f"writing {path} is not allowed while your code is graded")
            if protect and hidden(real):
                raise PermissionError(f"reading {path} is not allowed while your code is graded")
        if event in ("os.listdir", "os.scandir") and protect and args:
            real = os.path.realpath(os.fsdecode(args[0] if args[0] is not None else "."))
            if hidden(real):
                raise PermissionError(f"listing {args[0]} is not allowed while your code is graded")

    _sys.addaudithook(hook)


def _limit(limits):
    import resource
    for name, value in limits.items():
        which = getattr(resource, name)
        soft, hard = resource.getrlimit(which)
        value = int(value)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


class _Shell:
    """get_ipython() in the worker. The magics that run their code in the notebook's namespace,
    %time and the cells of %%time and %%capture, run it here too, so that what such a cell
    defines is there as in the notebook; every other magic and shell escape does nothing.
    (%%timeit runs its code in a namespace of its own, so nothing it defines stays: here it does
    nothing.)"""

    def __init__(self, namespace):
        self._namespace = namespace

    def run_line_magic(self, name, line, *args, **kwargs):
        if name == "time":
            self._run(str(line))

    def run_cell_magic(self, name, line, cell, *args, **kwargs):
        if name in ("time", "capture"):
            self._run(str(cell))

    def _run(self, source):
        # compiled as a cell is (its functions belong to the learner's cells, lab.grader.wire
        # _refusing), with `await` at the top level refused as IPython's %%time refuses it
        exec(compile(source, "<cell magic>", "exec", dont_inherit=True), self._namespace)

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class _HarnessParts:
    """Finds every `harness.<part>` as the starter module: the notebook's harness is a package
    whose parts the learner imports (`from harness.tools import run_tool`), and here the starter
    holds every given part in one module."""

    def __init__(self, harness):
        self.harness = harness

    def find_spec(self, name, path=None, target=None):
        if not name.startswith("harness."):
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec):
        return self.harness

    def exec_module(self, module):
        pass


class _AsyncioWithoutProcesses:
    """Lets the learner's code `import asyncio` (lesson 15: asyncio.CancelledError, asyncio.sleep(0)),
    which imports the socket and subprocess modules that the audit hook refuses. asyncio is loaded,
    when first imported, with the socket module loaded before the hook (the hook still refuses
    every use of it: socket.*), a stand-in for subprocess that holds the three constants asyncio
    reads and starts nothing (the real one would bring _posixsubprocess, which forks past the
    hook), and no ssl. None of them is left in sys.modules afterwards, so the learner's own
    `import socket` or `import subprocess` still meets the hook. Made before the hook is added."""

    def __init__(self):
        import socket
        stand_in = types.ModuleType("subprocess", "no processes while your code is graded")
        stand_in.PIPE, stand_in.STDOUT, stand_in.DEVNULL = -1, -2, -3
        self.seeds = {"socket": socket, "_socket": sys.modules.get("_socket"),
                      "subprocess": stand_in, "ssl": None}
        for name in ("socket", "_socket"):
            sys.modules.pop(name, None)

    def find_spec(self, name, path=None, target=None):
        if name != "asyncio":
            return None
        import importlib.machinery
        spec = importlib.machinery.PathFinder.find_spec(name)
        if spec is not None:
            spec.loader = _Seeded(spec.loader, self.seeds, after=_on_the_graders_loop)
        return spec


class _Seeded:
    """A loader that runs another with `seeds` in sys.modules, and takes them out after; then
    `after(module)`, if given."""

    def __init__(self, loader, seeds, after=None):
        self.loader, self.seeds, self.after = loader, seeds, after

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        saved = {name: sys.modules[name] for name in self.seeds if name in sys.modules}
        sys.modules.update(self.seeds)
        try:
            self.loader.exec_module(module)
        finally:
            for name in self.seeds:
                sys.modules.pop(name, None)
            sys.modules.update(saved)
        if self.after is not None:
            self.after(module)


def _refuse_from_the_learners_gaps(harness, refusals):
    """The starter's stub of each gap named in `refusals` ({name: {"own", "other", "handed_back"}},
    from lab.runtime.guards.refusals) says, when a function of the learner's cells (or code
    inside it) calls it, what the notebook's lab.check says of that call: a NotImplementedError
    whose refused_call is the sentence, "own" for the learner's function of the gap's own name,
    else "other" with the caller's name in place of "{caller}". Any other caller gets the stub as
    it is. Returns {name: (the stub and its stand-in, the "handed_back" sentence for a gap that is
    one of them)}."""
    found = {}
    for name, said in refusals.items():
        stub = harness.__dict__.get(str(name))
        if type(stub).__name__ != "function" or type(said) is not dict \
                or not all(type(said.get(k)) is str for k in ("own", "other", "handed_back")):
            continue
        harness.__dict__[name] = _refusing(stub, name, said["own"], said["other"])
        found[name] = ((stub, harness.__dict__[name]), said["handed_back"])
    return found


def _learners_function(code):
    """The outermost name of the function of the learner's cells (as the grader names them) that
    `code` belongs to, or None for any other code and a cell's own top level."""
    outer = code.co_qualname.split(".")[0]
    return outer if code.co_filename.startswith("<cell ") and outer.isidentifier() else None


def _refused(sentence):
    """What a refused call raises: a NotImplementedError whose refused_call lab.checks.run_one reads."""
    error = NotImplementedError(sentence)
    error.refused_call = sentence
    return error


def _refusing(stub, name, own, other):
    import functools

    def refuse(code):
        caller = _learners_function(code)
        if caller is not None:
            raise _refused(own if caller == name else other.replace("{caller}", caller))

    if stub.__code__.co_flags & CO_COROUTINE:   # an async def stays one
        @functools.wraps(stub)
        async def stand_in(*args, **kwargs):
            refuse(sys._getframe(1).f_code)
            return await stub(*args, **kwargs)
    else:
        @functools.wraps(stub)
        def stand_in(*args, **kwargs):
            refuse(sys._getframe(1).f_code)
            return stub(*args, **kwargs)
    return stand_in


def _course_lab(peer, setup):
    """`lab` in the worker, as the learner's code may use it while it is graded: the course's
    exception classes (made here, so that `except lab.PowerCut` works and a test's PowerCut
    arrives as one), and the names of lab the grader serves (LAB_NAMES in lab.grader.sandbox),
    each a call into the grader. Any other name of lab says it is not available here."""
    module = types.ModuleType("lab", "the course's lab package, as the grader serves it")
    for name, base_name in setup.get("course_exceptions", []):
        base = _builtin_exception(str(base_name)) or Exception
        cls = type(str(name), (base,), {"__module__": "lab"})
        COURSE_EXCEPTIONS[cls.__name__] = cls
        setattr(module, cls.__name__, cls)
    served = set(setup.get("lab_names", []))
    doors = {str(k): v for k, v in (setup.get("doors") or {}).items() if type(v) is str}

    def __getattr__(name):
        if name in served:
            value = peer.request("course", name=name)
            setattr(module, name, value)
            return value
        if name in doors:
            return _refused_door(name, doors[name])
        raise AttributeError(_not_served(name))

    module.__getattr__ = __getattr__
    return module


def _not_served(name):
    return (f"lab.{name} is not available while your code is graded: the grader serves lab's message "
            "builders, Workspace and ScriptedModel")


def _refused_door(name, sentence):
    """lab.`name`, one of lab's functions that hand over the course's answers (DOORS in
    lab.runtime.guards), which the grader does not serve: a call from a function of the
    learner's cells fails as the notebook's lab.check fails it (`sentence`, "{caller}" its name),
    any other call as an attribute lab does not serve."""

    def door(*args, **kwargs):
        caller = _learners_function(sys._getframe(1).f_code)
        if caller is not None:
            raise _refused(sentence.replace("{caller}", caller))
        raise AttributeError(_not_served(name))
    door.__name__ = door.__qualname__ = name
    return door


def worker_main(rfd, wfd):
    """The worker: read its set-up, lock itself down, load the starter as `harness`, then answer
    the grader until it says goodbye or the wire breaks."""
    peer = Peer(rfd, wfd, grader=False)
    setup = peer.receive()
    import signal
    for number in (signal.SIGXFSZ, signal.SIGPIPE):
        signal.signal(number, signal.SIG_IGN)
    workdir = setup.get("workdir") or os.getcwd()
    os.chdir(workdir)
    sys.meta_path.insert(0, _AsyncioWithoutProcesses())   # before the starter, which may import asyncio
    harness = types.ModuleType("harness", "the course's starter harness, every gap a stub")
    harness.__path__ = []   # a package, whose every part (harness.tools, ...) is the starter itself
    import marshal
    # compiled by the grader (sandbox.starter_code), which runs this same interpreter
    exec(marshal.loads(base64.b64decode(setup["starter"])), harness.__dict__)
    peer.handed_back = _refuse_from_the_learners_gaps(harness, setup.get("refusals") or {})
    sys.modules["harness"] = harness
    sys.meta_path.insert(0, _HarnessParts(harness))
    sys.modules["lab"] = _course_lab(peer, setup)
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    hidden = set(setup.get("learner_names", []))   # the learner's to define, as in the notebook
    namespace.update({k: v for k, v in vars(harness).items() if not k.startswith("_") and k not in hidden})
    namespace["harness"] = harness
    namespace["get_ipython"] = lambda: _Shell(namespace)
    peer.namespace = namespace
    sys.stdout, sys.stderr = _Bounded(), _Bounded()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    # what the course installs, importable as in the notebook (the course's own packages in
    # these folders are hidden or refused)
    site = [str(p) for p in setup.get("site", [])]
    sys.path.extend(p for p in site if p not in sys.path)
    _limit(setup.get("limits", {}))
    _audit(setup.get("protect", []), workdir, [sys.base_prefix, sys.prefix] + site)
    peer.send({"k": "ready"})
    while True:
        try:
            message = peer.receive()
        except Abort:
            os._exit(0)
        if message.get("k") != "q":
            os._exit(3)
        peer.serve(message)

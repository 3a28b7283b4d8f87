"""Starting a notebook's kernel when several start at once: the build (lab.lessons.build.execute)
and nbval (as a pytest plugin: `pytest -p lab.lessons.kernels --nbval ...`).

jupyter_client chooses a kernel's five TCP ports by asking the system for free ones and letting
them go again; the kernel binds them a second or so later. A kernel started by another process
in that second can take one of them, and then this one dies before it answers ("Kernel died
before replying to kernel_info", its own words being "Address already in use", which nbval sends
to /dev/null). A new start chooses new ports, so a start that dies is tried again, up to ATTEMPTS
times; a kernel that cannot start at all still fails, now with the last lines it wrote."""

import tempfile

ATTEMPTS = 3
DIED = "Kernel died before replying to kernel_info"


class KernelWouldNotStart(RuntimeError):
    """Every attempt to start a kernel ended with the kernel dead before it answered."""


def _last_words(stderr, lines=12):
    stderr.seek(0)
    text = stderr.read().decode("utf-8", "replace").strip()
    return "\n".join(text.splitlines()[-lines:]) or "(it wrote nothing)"


def started(start, attempts=ATTEMPTS):
    """What `start(stderr)` returns, where `start` starts a kernel writing its stderr to the
    binary file it is given. A start that raises jupyter_client's "died before replying" error
    is tried again with a fresh file, up to `attempts` times in all; then KernelWouldNotStart
    says so and quotes what the last kernel wrote. Any other error passes straight through."""
    for _ in range(attempts):
        with tempfile.TemporaryFile() as stderr:
            try:
                return start(stderr)
            except RuntimeError as error:
                if DIED not in str(error):
                    raise
                words = _last_words(stderr)
    raise KernelWouldNotStart(f"the kernel died before it answered, {attempts} times in a row; "
                              f"the last one wrote:\n{words}")


def pytest_configure(config):
    """nbval starts each notebook's kernel through nbval.kernel.start_new_kernel: route it
    through `started`, so that a start that loses the port race is tried again."""
    try:
        from nbval import kernel
    except ImportError:
        return
    original = kernel.start_new_kernel
    if getattr(original, "retries", False):
        return

    def start_new_kernel(startup_timeout=60, kernel_name="python", **kwargs):
        kwargs.pop("stderr", None)
        return started(lambda stderr: original(startup_timeout=startup_timeout,
                                               kernel_name=kernel_name, stderr=stderr, **kwargs))

    start_new_kernel.retries = True
    kernel.start_new_kernel = start_new_kernel

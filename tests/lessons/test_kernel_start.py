"""lab.lessons.kernels: a kernel that dies at start because another took one of its ports is
started again on new ports, by the build and by nbval; a kernel that cannot start says why.
The collision is real: the first start is given a port this test holds."""

import socket

import pytest
from jupyter_client.manager import KernelManager

from lab.lessons import kernels


@pytest.fixture
def taken_port():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()  # a listening socket: a kernel cannot bind it, whatever its options
        yield held.getsockname()[1]


def _start(port_for, tries):
    """A start as nbval makes one, whose shell port is port_for(attempt): 0 lets jupyter_client
    choose (cache_ports=False: else the manager chooses them all). It returns the kernel's answer to "1 + 1" and shuts the kernel down."""
    def start(stderr):
        tries.append(stderr)
        km = KernelManager(kernel_name="python3", ip="127.0.0.1", cache_ports=False,
                           shell_port=port_for(len(tries)))
        km.start_kernel(stderr=stderr)
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=60)
            reply = kc.execute_interactive("1 + 1", timeout=60, output_hook=lambda msg: None)
            return reply["content"]["status"]
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    return start


def test_a_kernel_that_lost_its_port_is_started_again_on_new_ones(taken_port):
    tries = []
    assert kernels.started(_start(lambda n: taken_port if n == 1 else 0, tries)) == "ok"
    assert len(tries) == 2


def test_a_kernel_that_never_starts_fails_with_its_own_words(taken_port):
    tries = []
    with pytest.raises(kernels.KernelWouldNotStart) as failed:
        kernels.started(_start(lambda n: taken_port, tries), attempts=2)
    assert len(tries) == 2
    assert "2 times in a row" in str(failed.value)
    assert "Address already in use" in str(failed.value), str(failed.value)


def test_any_other_error_is_not_tried_again():
    tries = []

    def start(stderr):
        tries.append(stderr)
        raise RuntimeError("Kernel info request timed out")

    with pytest.raises(RuntimeError, match="timed out"):
        kernels.started(start)
    assert len(tries) == 1


def test_as_a_pytest_plugin_it_routes_nbvals_kernel_start_through_the_retry(monkeypatch):
    from nbval import kernel
    tries = []

    def dies_once(startup_timeout=60, kernel_name="python", **kwargs):
        tries.append(kwargs)
        if len(tries) == 1:
            raise RuntimeError(kernels.DIED)
        return "km", "kc"

    monkeypatch.setattr(kernel, "start_new_kernel", dies_once)
    kernels.pytest_configure(None)
    kernels.pytest_configure(None)  # a second configure does not wrap it twice
    assert kernel.start_new_kernel(kernel_name="python3", stderr="devnull", cwd="x") == ("km", "kc")
    assert len(tries) == 2
    # Its stderr is a file the retry can read, not the /dev/null nbval gave it.
    assert all(t["stderr"] != "devnull" and t["cwd"] == "x" for t in tries)

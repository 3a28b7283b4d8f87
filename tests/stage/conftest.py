"""The virtual loop's tests ask "is a loop running in this thread?" and so need an honest answer:
a test elsewhere in the same pytest worker (a kernel client run through a synchronous wrapper) can
leave asyncio's per-thread record of a running loop behind after its loop has stopped. Each test
here starts with that record clear, and gets it back as it was afterwards."""

import asyncio

import pytest


@pytest.fixture(autouse=True)
def no_stale_running_loop():
    left = asyncio._get_running_loop()   # a plain test function never runs inside a loop
    asyncio._set_running_loop(None)
    yield
    asyncio._set_running_loop(left)

"""A try-it cell (lab.trying) never hangs: learner code that loops is stopped at the checks' time
limit, and an interrupt is one sentence; a body that ends in time leaves nothing behind."""

import time

import lab


def test_an_endless_loop_in_a_try_it_cell_is_stopped_in_one_sentence(capsys):
    started = time.monotonic()
    with lab.trying("run_agent", seconds=0.3):
        while True:
            pass
    assert time.monotonic() - started < 5
    assert capsys.readouterr().out == ("run_agent did not finish within 0.3 s, so this cell stopped it: an "
                                       "endless loop? Fix the cell above and run both again.\n")


def test_a_body_that_ends_in_time_leaves_no_stop_behind(capsys):
    with lab.trying("run_agent", seconds=0.2):
        total = sum(range(1000))
    deadline = time.monotonic() + 0.6
    while time.monotonic() < deadline:   # a stop sent late would land here
        total += 1
    assert capsys.readouterr().out == ""


def test_an_interrupt_is_a_sentence(capsys):
    with lab.trying("run_tool"):
        raise KeyboardInterrupt
    assert capsys.readouterr().out == ("Stopped: you interrupted this cell while run_tool ran. Run it again "
                                       "when you are ready.\n")


"""The committed master notebook is what building it now makes: its outputs were produced by
running it, and running it again produces them again. Pictures are compared by their presence
only, since a PNG's bytes may differ between font and rendering libraries of other machines."""

import nbformat

from lab.lessons import build

PICTURE = "image/png"


def without_pictures(nb):
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if PICTURE in output.get("data", {}):
                output["data"][PICTURE] = "<a picture>"
    return nbformat.writes(nb)


def test_a_fresh_build_is_the_committed_notebook():
    fresh = without_pictures(build.execute(build.notebook(12)))
    committed = without_pictures(nbformat.read(build.notebook_path(12), as_version=4))
    if fresh != committed:
        old, new = committed.splitlines(), fresh.splitlines()
        line = next((n for n, (a, b) in enumerate(zip(old, new), 1) if a != b), min(len(old), len(new)) + 1)
        raise AssertionError(f"notebooks/{build.notebook_path(12).name} differs from a fresh build near line "
                             f"{line} (pictures aside): run python -m lab build 12")

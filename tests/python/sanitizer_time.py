"""Time limits for tests that watch child processes, allowing for the ASan build.

Note [Watchdogs under ASan]
~~~~~~~~~~~~~~~~~~~~~~~~~~~
A test that runs a script in a child process gives the child a time limit, so that a hang
fails the test instead of holding the suite. Those limits are set a few times above what the
release library needs on a loaded 2-core machine. The ASan + UBSan build of
scripts/build_asan.sh (clang -O1, every load and store checked, ASan's allocator under every
malloc, about 6 s of `import weft` alone) runs the same work several times slower, and under
it test_deep_graph's 300,000-node chain and 200,000-node hybridized chain passed their 120 s
limit without hanging (docs/ASAN_PYTHON_RUNS.md). So the limit is multiplied by
ASAN_SLOWDOWN when the library under test is that build, told by the library itself
(weft.runtime.Features()'s ASAN: its imported __asan_init, Note [Where the features come
from] in weft/runtime.py) rather than by a setting a user or CI must remember. The release
library with the ASan runtime merely preloaded is not detected, and keeps the plain limits.
"""
from weft import runtime

# The ASan build against the release build on the same loaded machine: a few times slower in
# the graph passes and allocations these tests stress; 5 leaves a margin over what was seen.
ASAN_SLOWDOWN = 5


def time_limit(seconds):
    """`seconds`, or ASAN_SLOWDOWN times it when the library under test is an ASan build."""
    return seconds * ASAN_SLOWDOWN if runtime.Features().is_enabled("ASAN") else seconds

"""The garbage collector's settings of the long-running processes (the ASGI server, Celery workers).

With CPython's default thresholds the collector ran after every 700 new container objects and, every
hundred runs, walked all of the process's objects: Django, DRF and the loaded code are some 180,000 of
them, and a live battle's action allocates thousands of short-lived dicts. That was about 0.45 ms of every
action over HTTP (bench/RESULTS.md). Objects that exist once the app is loaded live as long as the
process: ``gc.freeze()`` takes them out of every collection, and a higher first threshold lets a request's
garbage be collected in one pass instead of several.
"""

import gc

FIRST_THRESHOLD = 20_000


def tune() -> None:
    """Call once the app is loaded (and before a pool forks, so that children share the frozen pages)."""
    gc.collect()
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(FIRST_THRESHOLD, second, third)

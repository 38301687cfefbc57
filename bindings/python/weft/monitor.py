"""Monitor: statistics of executor arrays every ``interval`` batches (MXNet 1.x's
``mx.monitor.Monitor``), for ``Module.fit(monitor=...)`` / ``install_monitor``.

The executor reports its outputs (and, with ``monitor_all``, its arguments and
auxiliary states) after each forward; ``toc`` adds every argument and auxiliary
state matching ``pattern``. Internal node outputs are not reported (see
``Executor.set_monitor_callback``).
"""
import logging
import math
import re

from . import ndarray
from .ndarray import NDArray

__all__ = ["Monitor"]


class Monitor:
    """interval: batches between two reports; stat_func(NDArray) -> NDArray or list of
    them (default ``norm(x) / sqrt(x.size)``); pattern: regular expression of the names
    to report; sort: sort the report by name."""

    def __init__(self, interval, stat_func=None, pattern=".*", sort=False, monitor_all=False):
        if stat_func is None:
            def asum_stat(x):
                """|x| / sqrt(size(x)), computed on the engine."""
                return ndarray.norm(x) / math.sqrt(x.size)
            stat_func = asum_stat
        self.stat_func = stat_func
        self.monitor_all = monitor_all
        self.interval = interval
        self.activated = False
        self.queue = []
        self.step = 0
        self.exes = []
        self.re_prog = re.compile(pattern)
        self.sort = sort

        def stat_helper(name, array):
            if not self.activated or not self.re_prog.match(name):
                return
            self.queue.append((self.step, name, self.stat_func(array)))
        self.stat_helper = stat_helper

    def install(self, exe):
        """Watches an executor."""
        exe.set_monitor_callback(self.stat_helper, self.monitor_all)
        self.exes.append(exe)

    def _wait(self):
        for exe in self.exes:
            for array in exe.arg_arrays + exe.aux_arrays:
                array.wait_to_read()

    def tic(self):
        """Starts collecting for this batch when it is a reporting batch."""
        if self.step % self.interval == 0:
            self._wait()
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self):
        """Ends the batch: [(step, name, text of the statistic)] (empty when not reporting)."""
        if not self.activated:
            return []
        self._wait()
        for exe in self.exes:
            for name, array in zip(exe._arg_names, exe.arg_arrays):  # pylint: disable=protected-access
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
            for name, array in zip(exe._aux_names, exe.aux_arrays):  # pylint: disable=protected-access
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
        self.activated = False
        if self.sort:
            self.queue.sort(key=lambda x: x[1])
        res = []
        for n, k, v_list in self.queue:
            if isinstance(v_list, NDArray):
                v_list = [v_list]
            text = ""
            for v in v_list:
                if not isinstance(v, NDArray):
                    raise TypeError("Monitor: stat_func must return NDArrays, got %s" % type(v).__name__)
                text += (str(v.asscalar()) if v.shape in ((1,), ()) else str(v.asnumpy())) + "\t"
            res.append((n, k, text))
        self.queue = []
        return res

    def toc_print(self):
        """toc, logged one line per statistic."""
        for n, k, v in self.toc():
            logging.info("Batch: {:7d} {:30s} {:s}".format(n, k, v))  # pylint: disable=logging-format-interpolation

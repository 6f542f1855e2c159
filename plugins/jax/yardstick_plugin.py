"""A pytest plugin for yardstick.py (loaded with -p yardstick_plugin).

Environment:
  YARDSTICK_TEST_DUT  the device JAX's test utilities believe they test
                      (jax_test_dut): "cpu" makes a backend meet the
                      expectations and tolerances JAX's tests have of its
                      CPU backend
  YARDSTICK_LOG       a file that receives one JSON line per test: its start
                      ({"start": id}) and each report ({"id", "when",
                      "outcome", "message"}), flushed at once, so that what
                      a crashed process ran can be read back
  YARDSTICK_SKIP      a file of test ids (one a line) to deselect: those a
                      crashed run already finished, and the test it crashed in
"""
import json
import os

_log = None


def pytest_configure(config):
  global _log
  path = os.environ.get("YARDSTICK_LOG")
  if path:
    _log = open(path, "a", buffering=1)


def pytest_collection_modifyitems(session, config, items):
  # the device under test is set once the test files have imported JAX's
  # test utilities (which define the flag; it reads no environment
  # variable): importing them earlier, here, would bind their
  # capture_stdout to the stdout of that moment, not the one the tests
  # print to, and every test that checks printed output would read nothing
  dut = os.environ.get("YARDSTICK_TEST_DUT")
  if dut:
    import jax
    from jax._src import test_util  # noqa: F401  (defines jax_test_dut)
    jax.config.update("jax_test_dut", dut)
  path = os.environ.get("YARDSTICK_SKIP")
  if not path or not os.path.exists(path):
    return
  with open(path) as f:
    skip = {line.rstrip("\n") for line in f if line.strip()}
  keep, drop = [], []
  for item in items:
    (drop if item.nodeid in skip else keep).append(item)
  if drop:
    config.hook.pytest_deselected(items=drop)
    items[:] = keep


def _write(obj):
  if _log is not None:
    _log.write(json.dumps(obj) + "\n")
    _log.flush()


def pytest_runtest_logstart(nodeid, location):
  _write({"start": nodeid})


def pytest_runtest_logreport(report):
  if report.when != "call" and report.outcome == "passed":
    return
  message = ""
  if report.outcome != "passed":
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
      message = crash.message
    elif isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
      message = str(report.longrepr[2])  # a skip: (file, line, reason)
    else:
      message = str(report.longrepr)
  _write({"id": report.nodeid, "when": report.when, "outcome": report.outcome,
          "message": message[:2000]})

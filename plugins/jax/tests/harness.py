"""The plugin tests' tally: each case prints PASS or FAIL (every failure
reported, none stopping the run), then "N passed, M failed" and the exit
status.  A test file imports check and finish from here (run.sh runs the
files from this folder, which Python puts first on the module path)."""
import sys

failures = []
passed = 0


def check(name, fn):
    global passed
    try:
        fn()
        passed += 1
        print(f"PASS {name}")
    except Exception as e:  # report every failure, then fail
        failures.append(name)
        print(f"FAIL {name}: {type(e).__name__}: {str(e)[:2000]}")


def finish():
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""JAX's own tests as a yardstick for the xlac PJRT plugin.

Runs test files of the jax repository, at the tag of the installed jax,
with pytest under JAX_PLATFORMS=cpu (JAX's CPU backend) and under
JAX_PLATFORMS=xlac, and prints for each file and backend how many tests
passed, failed and were skipped, the ratio of tests passing on xlac to tests
passing on cpu, and the tests that fail on xlac but pass on cpu, grouped by
the first line of their error message (numbers and addresses normalized).

    plugins/jax/yardstick.py --jax-repo PATH [options] [test files]

PATH (or $JAX_REPO) is a git repository of jax: a checkout, or a bare git
directory; the script takes tests/, conftest.py and pyproject.toml at tag
jax-v<installed version> (git archive) into a temporary directory, so the
checkout is neither changed nor need be at that tag.  A directory that is
not a git repository but holds tests/ is copied as it is.

The Python environment (--python, $XLAC_JAX_TEST_PYTHON, default
~/.cache/xlac-jax-tests/bin/python) needs jax, jaxlib, pytest<9,
pytest-timeout, absl-py, hypothesis and the rest of jax's
build/test-requirements.txt; it must not have the jax_plugins.xlac package
installed (the xlac runs put plugins/jax first on PYTHONPATH).  The PJRT
library is --lib, $XLAC_PJRT_LIBRARY, or build/lib/libxlac_pjrt.so.

What the settings are and why:
  --cases N        JAX_NUM_GENERATED_CASES (default 1; jax's own default is
                   10 and its CI uses 25): the number of sampled parameter
                   combinations of each parameterized test.  With 1, the
                   seven default files are about 3,470 tests, and both
                   backends take about 40 minutes on two cores (busy with
                   other work as well); 2 makes them about 4,130 tests.
  --timeout S      pytest-timeout per test (default 300 s, thread method:
                   a test that hangs in native code ends its process, and
                   the run resumes after it, counting it as failed).
  --devices N      devices of both backends (default 1, as jax's pytest CI
                   runs): XLA_FLAGS=--xla_force_host_platform_device_count=N
                   for cpu, XLAC_DEVICES=N for xlac; tests that need more
                   devices skip themselves.
  --dut cpu|own    what JAX's test utilities take the device under test to
                   be (jax_test_dut).  "cpu" (the default) holds xlac to
                   the expectations, tolerances and device skips JAX's tests
                   have for its CPU backend, so both runs run the same
                   tests; "own" lets them see the platform name "xlac".
  --xlac-only      xlac runs with JAX_PLATFORMS=xlac rather than xlac,cpu
                   (xlac the default backend, JAX's CPU backend beside it, as
                   on a GPU or TPU).  JAX itself assumes a "cpu" backend:
                   the partial evaluation of scan puts numpy constants on
                   it, and a few tests ask for it by name; without it they
                   fail with "Unknown backend cpu".
  --jobs N         test processes at a time (default 2; the two backends of
                   a file run side by side).
  JAX_SKIP_SLOW_TESTS=true, as jax's CI; x64 off unless --x64.

A test process that crashes (or times out) is run again without the tests
it finished and the one it was in, which counts as failed with the cause
"crash: ..." or "timeout"; every attempt's output is kept under --out.
--report DIR prints the summary of an earlier run again.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
FILES = ["lax_test.py", "lax_numpy_test.py", "lax_control_flow_test.py",
         "lax_numpy_reducers_test.py", "random_test.py", "nn_test.py",
         "api_test.py"]
BACKENDS = ["cpu", "xlac"]
MAX_ATTEMPTS = 30


def log(msg):
  print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---- the tests of jax at the installed version ----

def installed_jax_version(python):
  out = subprocess.run([python, "-c", "import jax; print(jax.__version__)"],
                       capture_output=True, text=True, check=True)
  return out.stdout.strip()


def extract_tests(repo, tag, dest):
  repo = pathlib.Path(repo)
  wanted = ["tests", "conftest.py", "pyproject.toml"]
  if (repo / ".git").exists():
    git = ["git", "-C", str(repo)]
  elif (repo / "HEAD").is_file() and (repo / "objects").is_dir():
    git = ["git", f"--git-dir={repo}"]
  elif (repo / "tests").is_dir():
    log(f"{repo} is not a git repository: using its files as they are, "
        f"not those of {tag}")
    for name in wanted:
      src = repo / name
      if src.is_dir():
        shutil.copytree(src, dest / name)
      elif src.exists():
        shutil.copy(src, dest / name)
    return
  else:
    sys.exit(f"error: {repo} is neither a git repository of jax nor a directory with tests/")
  tar = subprocess.run(git + ["archive", "--format=tar", tag] + wanted,
                       capture_output=True)
  if tar.returncode != 0:
    sys.exit(f"error: git archive {tag} failed: {tar.stderr.decode().strip()}")
  subprocess.run(["tar", "-x", "-C", str(dest)], input=tar.stdout, check=True)


# ---- running one file on one backend ----

def backend_env(args, backend, srcdir):
  env = dict(os.environ)
  env.update({
      "JAX_PLATFORMS": "xlac,cpu" if backend == "xlac" and not args.xlac_only else backend,
      "JAX_NUM_GENERATED_CASES": str(args.cases),
      "JAX_SKIP_SLOW_TESTS": "true",
      "JAX_ENABLE_X64": "1" if args.x64 else "0",
      "PYTHONDONTWRITEBYTECODE": "1",
      "TF_CPP_MIN_LOG_LEVEL": "1",
  })
  for name in ("YARDSTICK_TEST_DUT", "PYTHONPATH", "XLAC_DEVICES"):
    env.pop(name, None)
  if args.dut != "own":
    env["YARDSTICK_TEST_DUT"] = args.dut
  flags = [f for f in env.get("XLA_FLAGS", "").split()
           if not f.startswith("--xla_force_host_platform_device_count")]
  if backend == "cpu":
    if args.devices > 1:
      flags.append(f"--xla_force_host_platform_device_count={args.devices}")
  else:
    env["XLAC_PJRT_LIBRARY"] = str(args.lib)
    env["XLAC_DEVICES"] = str(args.devices)
    env["PYTHONPATH"] = str(HERE)  # the jax_plugins.xlac package
  if args.threads:
    env["XLAC_NUM_THREADS"] = str(args.threads)
  if flags:
    env["XLA_FLAGS"] = " ".join(flags)
  else:
    env.pop("XLA_FLAGS", None)
  return env


def read_jsonl(path):
  records = []
  if path.exists():
    with open(path) as f:
      for line in f:
        try:
          records.append(json.loads(line))
        except json.JSONDecodeError:
          pass  # the last line of a crashed process
  return records


def outcomes_of_records(records):
  """{test id: (outcome, message)} from the plugin's log of one process."""
  res = {}
  for r in records:
    if "id" not in r:
      continue
    old = res.get(r["id"])
    if r["outcome"] == "failed":
      if not old or old[0] != "failed":
        res[r["id"]] = ("failed", r["message"])
    elif r["outcome"] == "skipped":
      if not old:
        res[r["id"]] = ("skipped", r["message"])
    elif not old:
      res[r["id"]] = ("passed", "")
  return res


def outcomes_of_junit(path, file_path):
  """{test id: (outcome, message)} from a junit XML file."""
  res = {}
  root = ET.parse(path).getroot()
  for case in root.iter("testcase"):
    cls = case.get("classname", "")
    name = case.get("name", "")
    # classname is "tests.lax_test.LaxTest": the id pytest would print
    module = file_path[:-3].replace("/", ".")
    cls_only = "" if cls == module else cls.rsplit(".", 1)[-1]
    tid = f"{file_path}::{cls_only}::{name}" if cls_only else f"{file_path}::{name}"
    outcome, message = "passed", ""
    for child in case:
      if child.tag in ("failure", "error"):
        outcome = "failed"
        message = child.get("message") or (child.text or "")
        break
      if child.tag == "skipped":
        outcome, message = "skipped", child.get("message") or ""
    res[tid] = (outcome, message)
  return res


def run_file(args, backend, fname, srcdir, outdir):
  """Runs tests/FNAME on BACKEND; returns {test id: (outcome, message)}."""
  base = outdir / backend / fname[:-3]
  base.parent.mkdir(parents=True, exist_ok=True)
  skip_file = base.with_suffix(".skip")
  skip_file.unlink(missing_ok=True)
  env = backend_env(args, backend, srcdir)
  env["YARDSTICK_SKIP"] = str(skip_file)
  file_path = f"tests/{fname}"
  results = {}
  started = time.time()
  for attempt in range(MAX_ATTEMPTS):
    jsonl = base.parent / f"{base.name}.{attempt}.jsonl"
    xml = base.parent / f"{base.name}.{attempt}.xml"
    out = base.parent / f"{base.name}.{attempt}.out"
    for p in (jsonl, xml):
      p.unlink(missing_ok=True)
    env["YARDSTICK_LOG"] = str(jsonl)
    cmd = [args.python, "-m", "pytest", "-p", "no:cacheprovider",
           "-p", "yardstick_plugin", "-q", "-rN", "--tb=short",
           f"--junitxml={xml}", f"--timeout={args.timeout}",
           "--timeout-method=thread", file_path] + args.pytest_args
    with open(out, "w") as f:
      f.write(" ".join(cmd) + "\n")
      f.flush()
      proc = subprocess.run(cmd, cwd=srcdir, env=env, stdout=f,
                            stderr=subprocess.STDOUT)
    rc = proc.returncode
    if xml.exists() and rc in (0, 1, 5):
      results.update(outcomes_of_junit(xml, file_path))
      break
    # crashed, or hung and ended by pytest-timeout: keep what it finished,
    # count the test it was in as failed, and go on without both
    records = read_jsonl(jsonl)
    done = outcomes_of_records(records)
    results.update(done)
    starts = [r["start"] for r in records if "start" in r]
    text = out.read_text(errors="replace")
    if "Timeout +++" in text:
      cause = f"timeout (over {args.timeout} s)"
    elif rc < 0:
      cause = f"crash: signal {-rc}"
    else:
      cause = f"crash: exit status {rc}"
    if not starts:
      results[f"{file_path}::<collection>"] = ("failed", cause)
      log(f"{backend} {fname}: {cause} before any test ran; see {out}")
      break
    last = starts[-1]
    results[last] = ("failed", cause)
    log(f"{backend} {fname}: {cause} in {last}; resuming after it")
    with open(skip_file, "a") as f:
      for tid in list(done) + [last]:
        f.write(tid + "\n")
  else:
    log(f"{backend} {fname}: gave up after {MAX_ATTEMPTS} attempts")
  elapsed = time.time() - started
  with open(base.with_suffix(".json"), "w") as f:
    json.dump({"seconds": elapsed, "results": results}, f)
  counts = collections.Counter(o for o, _ in results.values())
  log(f"{backend} {fname}: {counts['passed']} passed, {counts['failed']} failed, "
      f"{counts['skipped']} skipped in {elapsed:.0f} s")
  return results


# ---- the summary ----

def cause_of(message):
  lines = [l.strip() for l in (message or "").strip().splitlines() if l.strip()]
  if not lines:
    return "(no message)"
  line = lines[0]
  # "AssertionError:" or "E   ...": the text is on the next line
  if re.fullmatch(r"[\w.]+:", line) and len(lines) > 1:
    line = f"{line} {lines[1]}"
  line = re.sub(r"0x[0-9a-fA-F]+", "<hex>", line)
  line = re.sub(r"(?<![\w-])[-+]?\d+(\.\d*)?([eE][-+]?\d+)?", "N", line)
  line = re.sub(r"\s+", " ", line)
  return line[:200]


def load(outdir, files):
  data = {}
  for backend in BACKENDS:
    for fname in files:
      p = outdir / backend / (fname[:-3] + ".json")
      if p.exists():
        with open(p) as f:
          data[backend, fname] = json.load(f)
  return data


def summarize(outdir, files, settings=None, out=sys.stdout):
  data = load(outdir, files)
  if settings:
    print(settings, file=out)
  hdr = (f"{'file':30} {'cpu pass':>8} {'fail':>5} {'skip':>5} {'time':>6}   "
         f"{'xlac pass':>9} {'fail':>5} {'skip':>5} {'time':>6}   {'ratio':>6}")
  print(hdr, file=out)
  print("-" * len(hdr), file=out)
  tot = {b: collections.Counter() for b in BACKENDS}
  secs = collections.Counter()
  groups = collections.defaultdict(list)
  others = collections.defaultdict(list)  # failing on xlac, not passing on cpu
  for fname in files:
    row = [f"{fname:30}"]
    counts = {}
    for backend in BACKENDS:
      d = data.get((backend, fname))
      if d is None:
        row.append(f"{'-':>8} {'-':>5} {'-':>5} {'-':>6}")
        counts[backend] = None
        continue
      c = collections.Counter(o for o, _ in d["results"].values())
      counts[backend] = c
      tot[backend].update(c)
      secs[backend] += d["seconds"]
      w = 8 if backend == "cpu" else 9
      row.append(f"{c['passed']:>{w}} {c['failed']:>5} {c['skipped']:>5} "
                 f"{d['seconds']:>5.0f}s")
    if counts["cpu"] and counts["xlac"] is not None and counts["cpu"]["passed"]:
      row.append(f"{counts['xlac']['passed'] / counts['cpu']['passed']:>6.3f}")
    else:
      row.append(f"{'-':>6}")
    print("   ".join(row), file=out)
    if ("cpu", fname) in data and ("xlac", fname) in data:
      cpu = data["cpu", fname]["results"]
      for tid, (outcome, message) in data["xlac", fname]["results"].items():
        if outcome != "failed":
          continue
        on_cpu = cpu.get(tid, ("not run",))[0]
        if on_cpu == "passed":
          groups[cause_of(message)].append(tid)
        else:
          others[on_cpu, cause_of(message)].append(tid)
  print("-" * len(hdr), file=out)
  row = [f"{'total':30}"]
  for backend in BACKENDS:
    c = tot[backend]
    w = 8 if backend == "cpu" else 9
    row.append(f"{c['passed']:>{w}} {c['failed']:>5} {c['skipped']:>5} "
               f"{secs[backend]:>5.0f}s")
  ratio = tot["xlac"]["passed"] / tot["cpu"]["passed"] if tot["cpu"]["passed"] else 0
  row.append(f"{ratio:>6.3f}")
  print("   ".join(row), file=out)
  print(f"\nratio (tests passing on xlac / tests passing on cpu): "
        f"{tot['xlac']['passed']}/{tot['cpu']['passed']} = {ratio:.3f}", file=out)
  n = sum(len(v) for v in groups.values())
  print(f"\n{n} tests fail on xlac and pass on cpu, by cause "
        f"({len(groups)} causes):", file=out)
  for cause, tids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
    print(f"\n{len(tids):5}  {cause}", file=out)
    for tid in tids[:3]:
      print(f"       {tid}", file=out)
    if len(tids) > 3:
      print(f"       ... and {len(tids) - 3} more", file=out)
  n = sum(len(v) for v in others.values())
  by_cpu = collections.Counter()
  for (on_cpu, _), tids in others.items():
    by_cpu[on_cpu] += len(tids)
  if n:
    print(f"\n{n} more tests fail on xlac: "
          + ", ".join(f"{k} on cpu {v}" for k, v in sorted(by_cpu.items())), file=out)
  for (on_cpu, cause), tids in sorted(others.items(), key=lambda kv: (-len(kv[1]), kv[0])):
    print(f"{len(tids):5}  ({on_cpu} on cpu) {cause}", file=out)
    print(f"       {tids[0]}" + (f" and {len(tids) - 1} more" if len(tids) > 1 else ""), file=out)
  with open(outdir / "failures.json", "w") as f:
    json.dump({"pass on cpu": groups,
               "not passing on cpu": {f"{k[0]}: {k[1]}": v for k, v in others.items()}},
              f, indent=1)


def main():
  ap = argparse.ArgumentParser(
      description=__doc__.split("\n\n")[0],
      formatter_class=argparse.RawDescriptionHelpFormatter,
      epilog="\n\n".join(__doc__.split("\n\n")[1:]))
  ap.add_argument("files", nargs="*", help=f"test files of jax's tests/ (default: {' '.join(FILES)})")
  ap.add_argument("--jax-repo", default=os.environ.get("JAX_REPO"))
  ap.add_argument("--tag", help="the git tag (default: jax-v<version of jax in --python>)")
  ap.add_argument("--python", default=os.environ.get(
      "XLAC_JAX_TEST_PYTHON", os.path.expanduser("~/.cache/xlac-jax-tests/bin/python")))
  ap.add_argument("--lib", default=os.environ.get("XLAC_PJRT_LIBRARY"))
  ap.add_argument("--cases", type=int, default=1)
  ap.add_argument("--timeout", type=int, default=300)
  ap.add_argument("--devices", type=int, default=1)
  ap.add_argument("--dut", choices=["cpu", "own"], default="cpu")
  ap.add_argument("--jobs", type=int, default=2)
  ap.add_argument("--threads", type=int, help="XLAC_NUM_THREADS of the xlac runs")
  ap.add_argument("--x64", action="store_true", help="JAX_ENABLE_X64=1")
  ap.add_argument("--xlac-only", action="store_true",
                  help="xlac runs with JAX_PLATFORMS=xlac, not xlac,cpu")
  ap.add_argument("--backends", default="cpu,xlac", help="which to run (both are reported)")
  ap.add_argument("--out", help="directory for results and logs (default: a new one in /tmp)")
  ap.add_argument("--report", metavar="DIR", help="print the summary of the run in DIR")
  ap.add_argument("-k", dest="keyword", help="pytest -k expression")
  args = ap.parse_args()
  files = [os.path.basename(f) for f in args.files] or FILES

  if args.report:
    outdir = pathlib.Path(args.report)
    settings = (outdir / "settings.txt").read_text() if (outdir / "settings.txt").exists() else None
    summarize(outdir, files, settings)
    return

  if not args.jax_repo:
    sys.exit("error: give the jax git repository (--jax-repo or JAX_REPO)")
  if not os.path.exists(args.python):
    sys.exit(f"error: no Python at {args.python} (--python)")
  if not args.lib:
    args.lib = HERE.parent.parent / "build" / "lib" / "libxlac_pjrt.so"
  args.lib = pathlib.Path(args.lib).resolve()
  backends = args.backends.split(",")
  if "xlac" in backends and not args.lib.exists():
    sys.exit(f"error: no PJRT library at {args.lib} (--lib or XLAC_PJRT_LIBRARY)")
  args.pytest_args = ["-k", args.keyword] if args.keyword else []

  version = installed_jax_version(args.python)
  tag = args.tag or f"jax-v{version}"
  outdir = pathlib.Path(args.out or tempfile.mkdtemp(prefix="yardstick-"))
  outdir.mkdir(parents=True, exist_ok=True)
  srcdir = pathlib.Path(tempfile.mkdtemp(prefix="yardstick-jax-"))
  try:
    extract_tests(args.jax_repo, tag, srcdir)
    shutil.copy(HERE / "yardstick_plugin.py", srcdir / "yardstick_plugin.py")
    missing = [f for f in files if not (srcdir / "tests" / f).exists()]
    if missing:
      sys.exit(f"error: not in jax's tests/ at {tag}: {' '.join(missing)}")
    settings = (f"jax {version}, tests of {tag}; JAX_NUM_GENERATED_CASES={args.cases}, "
                f"per-test timeout {args.timeout} s, {args.devices} device(s), "
                f"test device {'as cpu' if args.dut == 'cpu' else 'its own platform'}, "
                f"x64 {'on' if args.x64 else 'off'}, "
                f"xlac runs with JAX_PLATFORMS={'xlac' if args.xlac_only else 'xlac,cpu'}"
                + (f", -k {args.keyword!r}" if args.keyword else "") + "\n")
    (outdir / "settings.txt").write_text(settings)
    log(f"results and logs in {outdir}")
    jobs = [(b, f) for f in files for b in backends]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
      futs = [pool.submit(run_file, args, b, f, srcdir, outdir) for b, f in jobs]
      for fut in futs:
        fut.result()
  finally:
    shutil.rmtree(srcdir, ignore_errors=True)
  summarize(outdir, files, settings)
  with open(outdir / "summary.txt", "w") as f:
    summarize(outdir, files, settings, out=f)


if __name__ == "__main__":
  main()

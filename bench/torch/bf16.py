#!/usr/bin/env python3
"""xlac against PyTorch's CPU kernels (oneDNN, MKL) on bfloat16 work.

Two workloads, in bfloat16 (f32 sums on both sides) and, for reference,
in float32:
  gemm      an n x n by n x n product (n = 2048 by default):
            torch.matmul against a StableHLO dot_general compiled by xlac;
  resnet    the ResNet basic block of the JAX model suite
            (bench/models/resnet_block_bf16.mlir and resnet_block.mlir:
            conv 3x3 64->64, batch norm, relu, conv, batch norm, residual
            add, relu on 4x56x56x64), against the same block in PyTorch
            (conv2d on channels-last tensors, which oneDNN runs in NHWC).
Where a CPU has no bfloat16 instructions PyTorch may run bfloat16 on its
own reference kernels rather than oneDNN; the header of each workload
names the oneDNN primitives one call ran (none: MKL or PyTorch's own).
Both sides get the same inputs (drawn here, rounded to bfloat16); xlac's
result is checked against PyTorch's with `xlac run --expect` before any
timing.  Timing is interleaved: each round times PyTorch in this process
(warm, median of --iters calls) and then xlac in a fresh `xlac bench`
process (median of --iters executions after a warm-up), both pinned to the
same cores; the table gives the medians over the rounds and their ratio.

The header printed first says on which CPU the numbers were taken, which
kernel families xlac picked there (`xlac --version --verbose`), which ISA
oneDNN used for the product (ONEDNN_VERBOSE), and the machine's peak
(FLOP per cycle of each path times the highest clock /proc/cpuinfo or
cpufreq reports: in a VM often the base clock, which a core running at
its turbo clock exceeds).  GFLOP/s count the direct products' operations
(2 per multiply-add); a convolution run by Winograd's method does fewer,
so its rate can pass the peak.

usage (from bench/torch/run.sh, which makes the environment):
  bf16.py --xlac build/bin/xlac [--threads 1] [--rounds 5] [--iters 10]
          [--n 2048] [--only gemm|resnet] [--dtypes "bf16 f32"] [--work DIR]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESNET = os.path.join(ROOT, "bench", "models", "resnet_block_bf16.mlir")
RESNET_F32 = os.path.join(ROOT, "bench", "models", "resnet_block.mlir")
EPS = 1e-5


# ---- bfloat16 in numpy: raw uint16 bits, written to .npy as '<V2' (what
# xlac reads and writes for bf16)

def to_bf16_bits(a):
    """Rounds float32 values to bfloat16 (nearest, ties to even); uint16 bits."""
    u = np.ascontiguousarray(a, np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def torch_bf16(bits):
    return torch.from_numpy(bits.copy()).view(torch.bfloat16)


def torch_bits(t):
    return t.contiguous().view(torch.int16).numpy().view(np.uint16)


# ---- the host

def cpu_info():
    name, flags, mhz, vendor = "unknown", set(), [], ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                k, v = k.strip(), v.strip()
                if k == "model name" and name == "unknown":
                    name = v
                elif k == "flags" and not flags:
                    flags = set(v.split())
                elif k == "cpu MHz":
                    mhz.append(float(v))
                elif k == "vendor_id":
                    vendor = v
    except OSError:
        pass
    try:  # the highest clock the kernel's cpufreq reports (absent in many VMs)
        with open("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq") as f:
            mhz.append(int(f.read()) / 1e3)
    except (OSError, ValueError):
        pass
    return name, flags, (max(mhz) if mhz else 0.0), vendor


def peaks(flags, vendor):
    """(path, f32 FLOP per cycle per core) of the vector paths this CPU has,
    and the AMX bfloat16 rate where it has tiles.  Two FMA pipes of 256 bits
    give 32; two of 512 bits 64 (AMD's Zen 4 runs AVX-512 on 256-bit pipes:
    32); one 16 x 16 x 32 tile product per 16 cycles is 1024; vdpbf16ps
    (AVX-512 BF16: 16 sums of two bfloat16 products) once a cycle is 64."""
    out = []
    if "avx512f" in flags:
        out.append(("avx512", 32 if vendor == "AuthenticAMD" else 64))
    if "avx512_bf16" in flags:
        out.append(("avx512bf16", 64))
    if "avx2" in flags and "fma" in flags:
        out.append(("avx2", 32))
    if "amx_bf16" in flags:
        out.append(("amx-bf16", 1024))
    return out


def onednn_impls(fn):
    """The oneDNN implementations (ISA in the name) one call of fn runs, from
    oneDNN's verbose lines, which go to the process's own stdout."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+") as f:
        os.dup2(f.fileno(), 1)
        try:
            with torch.inference_mode(), torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
                fn()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        lines = f.read().splitlines()
    impls = set()
    for line in lines:
        if line.startswith("onednn_verbose") and ",exec," in line:
            fields = line.split(",")
            # onednn_verbose,[timestamp,]primitive,exec,cpu,KIND,IMPL,...
            i = fields.index("exec")
            if len(fields) > i + 3:
                impls.add("%s %s" % (fields[i + 2], fields[i + 3]))
    return ", ".join(sorted(impls)) if impls else "none (MKL's or PyTorch's own kernels)"


# ---- the workloads: inputs, PyTorch function, xlac program

class Dt:
    """How a workload's values are stored: bfloat16 (raw bits, '<V2' in
    .npy) or float32."""

    def __init__(self, name):
        self.name = name
        self.bf16 = name == "bf16"

    def arr(self, a):  # float32 values -> what is saved and fed
        return to_bf16_bits(a) if self.bf16 else np.ascontiguousarray(a, np.float32)

    def save(self, path, a):
        np.save(path, a.view("V2") if self.bf16 else a)

    def tensor(self, a):
        return torch_bf16(a) if self.bf16 else torch.from_numpy(a.copy())

    def bits(self, t):
        return torch_bits(t) if self.bf16 else t.contiguous().numpy()

    def mlir(self):
        return "bf16" if self.bf16 else "f32"


def gemm_case(n, work, dt):
    rng = np.random.default_rng(0)
    a = dt.arr(rng.standard_normal((n, n), dtype=np.float32))
    b = dt.arr(rng.standard_normal((n, n), dtype=np.float32) / np.sqrt(n))
    ty = "tensor<%dx%dx%s>" % (n, n, dt.mlir())
    prog = os.path.join(work, "gemm_%s_%d.mlir" % (dt.name, n))
    with open(prog, "w") as f:
        f.write("func.func @main(%%a: %s, %%b: %s) -> %s {\n"
                "  %%0 = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0]"
                " : (%s, %s) -> %s\n"
                "  return %%0 : %s\n}\n" % ((ty,) * 7))
    ta, tb = dt.tensor(a), dt.tensor(b)
    return dict(name="%s GEMM %d^3" % (dt.name, n), prog=prog, inputs=[a, b], flops=2.0 * n ** 3, bf16=dt.bf16,
                torch_fn=lambda: torch.matmul(ta, tb), tol=(2e-2, 2e-2) if dt.bf16 else (1e-4, 1e-3))


def resnet_case(dt):
    """The ResNet block's parameters, in @main's order (resnet_block.mlir,
    resnet_block_bf16.mlir): b1 b2 g1 g2 w1 w2 (HWIO) mean1 var1 mean2 var2
    x (NHWC)."""
    rng = np.random.default_rng(0)
    c = 64
    w1 = rng.standard_normal((3, 3, c, c), dtype=np.float32) / np.sqrt(9 * c)
    w2 = rng.standard_normal((3, 3, c, c), dtype=np.float32) / np.sqrt(9 * c)
    g1 = 1 + 0.1 * rng.standard_normal(c, dtype=np.float32)
    g2 = 1 + 0.1 * rng.standard_normal(c, dtype=np.float32)
    b1 = 0.1 * rng.standard_normal(c, dtype=np.float32)
    b2 = 0.1 * rng.standard_normal(c, dtype=np.float32)
    m1, m2 = (0.1 * rng.standard_normal(c, dtype=np.float32) for _ in range(2))
    v1, v2 = (rng.uniform(0.5, 1.5, c).astype(np.float32) for _ in range(2))
    x = rng.standard_normal((4, 56, 56, c), dtype=np.float32)
    vals = [dt.arr(t) for t in (b1, b2, g1, g2, w1, w2, m1, v1, m2, v2, x)]
    t = [dt.tensor(q) for q in vals]
    tb1, tb2, tg1, tg2, tw1, tw2, tm1, tv1, tm2, tv2, tx = t
    # HWIO -> OIHW; NHWC data viewed as NCHW in channels-last memory (no copy)
    tw1 = tw1.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
    tw2 = tw2.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
    tx = tx.permute(0, 3, 1, 2)
    eps = torch.tensor(EPS, dtype=tx.dtype)
    col = lambda v: v.view(1, -1, 1, 1)
    s1, s2 = col(torch.rsqrt(tv1 + eps)), col(torch.rsqrt(tv2 + eps))

    def block():
        # the model's batch norm, op by op as JAX writes it:
        # ((h - mean) * rsqrt(var + eps)) * g + b
        h = torch.nn.functional.conv2d(tx, tw1, padding=1)
        h = torch.relu((h - col(tm1)) * s1 * col(tg1) + col(tb1))
        h = torch.nn.functional.conv2d(h, tw2, padding=1)
        h = (h - col(tm2)) * s2 * col(tg2) + col(tb2)
        return torch.relu(h + tx).permute(0, 2, 3, 1)

    flops = 2 * (2.0 * 4 * 56 * 56 * c * c * 9)
    prog = RESNET if dt.bf16 else RESNET_F32
    return dict(name="%s ResNet block 4x56x56x64" % dt.name, prog=prog, inputs=vals, flops=flops, bf16=dt.bf16,
                torch_fn=block, tol=(5e-2, 5e-2) if dt.bf16 else (1e-3, 1e-3))


# ---- timing

def time_torch(fn, iters, warmup=2, budget_s=5.0):
    """Median ms of up to `iters` calls after the warm-up; fewer (at least
    one) when a call is so slow that they would take over budget_s (PyTorch's
    own bfloat16 kernels on CPUs without bfloat16 instructions)."""
    with torch.inference_mode():
        t0 = time.perf_counter()
        fn()
        first = time.perf_counter() - t0
        for _ in range(warmup - 1 if first < budget_s / 4 else 0):
            fn()
        times = []
        for _ in range(max(1, min(iters, int(budget_s / max(first, 1e-9))))):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def xlac_cmd(o, case, inputs, verb, extra):
    cmd = [o.xlac, verb, "--threads", str(o.threads)] + extra
    if case["bf16"]:
        # PyTorch's bfloat16 products run on vdpbf16ps or AMX tiles, which
        # read bfloat16 denormals as zero and flush denormal sums whatever
        # the floating-point mode; xlac uses those instructions only while
        # denormals are flushed
        cmd.append("--flush-denormals")
    for i, p in enumerate(inputs):
        cmd += ["--input", "%d=@%s" % (i, p)]
    return ["taskset", "-c", o.cpus] + cmd + [case["prog"]]


def run_case(o, case, work, tag, dt):
    inputs = []
    for i, q in enumerate(case["inputs"]):
        p = os.path.join(work, "%s_a%d.npy" % (tag, i))
        dt.save(p, q)
        inputs.append(p)
    with torch.inference_mode():
        ref = dt.bits(case["torch_fn"]())
    refp = os.path.join(work, "%s_torch.npy" % tag)
    dt.save(refp, ref)
    atol, rtol = case["tol"]
    chk = subprocess.run(xlac_cmd(o, case, inputs, "run", ["--expect", "0=@" + refp, "--atol", str(atol),
                                                            "--rtol", str(rtol)]),
                         capture_output=True, text=True)
    agree = "agrees" if chk.returncode == 0 else "DISAGREES: " + (chk.stdout + chk.stderr).strip()[-400:]
    t_torch, t_xlac = [], []
    for r in range(o.rounds):
        t_torch.append(time_torch(case["torch_fn"], o.iters))
        b = subprocess.run(xlac_cmd(o, case, inputs, "bench", ["--iters", str(o.iters), "--warmup", "2"]),
                           capture_output=True, text=True)
        m = re.search(r"median_ms=([0-9.]+)", b.stdout)
        if not m:
            sys.exit("bf16.py: xlac bench failed on %s:\n%s" % (case["prog"], (b.stdout + b.stderr)[-2000:]))
        t_xlac.append(float(m.group(1)))
        print("  round %d: torch %.3f ms, xlac %.3f ms" % (r + 1, t_torch[-1], t_xlac[-1]), flush=True)
    return statistics.median(t_torch), statistics.median(t_xlac), agree


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--xlac", default=os.path.join(ROOT, "build", "bin", "xlac"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--only", choices=["gemm", "resnet"])
    ap.add_argument("--dtypes", default="bf16 f32",
                    help="bf16 (the goal), f32 (PyTorch's MKL and oneDNN float kernels), or both")
    ap.add_argument("--work", help="directory for inputs and outputs (default: a temporary one)")
    o = ap.parse_args()
    o.xlac = os.path.abspath(o.xlac)
    if not os.access(o.xlac, os.X_OK):
        sys.exit("bf16.py: %s is not an executable xlac (build it first)" % o.xlac)
    allowed = sorted(os.sched_getaffinity(0))
    if o.threads < 1 or o.threads > len(allowed):
        sys.exit("bf16.py: --threads must be 1 to %d here" % len(allowed))
    cores = allowed[:o.threads]
    o.cpus = ",".join(map(str, cores))
    os.sched_setaffinity(0, cores)
    torch.set_num_threads(o.threads)
    work = o.work or tempfile.mkdtemp(prefix="xlac-torch-")
    os.makedirs(work, exist_ok=True)

    name, flags, mhz, vendor = cpu_info()
    ver = subprocess.run([o.xlac, "--version", "--verbose"], capture_output=True, text=True).stdout
    paths = next((l for l in ver.splitlines() if l.startswith("paths:")), "paths: unknown")
    llvm_cpu = re.search(r"cpu=(\S+)", ver)
    print("host: %s (%s to LLVM), %d thread(s) on cpu %s, clock %.0f MHz (reported)"
          % (name, llvm_cpu.group(1) if llvm_cpu else "?", o.threads, o.cpus, mhz))
    print("xlac %s" % paths)
    print("torch %s, CPU capability %s" % (torch.__version__, torch.backends.cpu.get_cpu_capability()))
    pk = peaks(flags, vendor)
    ghz = mhz / 1e3
    for path, fpc in pk:
        print("peak %s: %d FLOP/cycle x %.2f GHz x %d core(s) = %.0f GFLOP/s"
              % (path, fpc, ghz, o.threads, fpc * ghz * o.threads))
    print("work directory: %s\n" % work)

    cases = []
    for d in o.dtypes.split():
        if d not in ("bf16", "f32"):
            sys.exit("bf16.py: --dtypes takes bf16 and f32, not %s" % d)
        dt = Dt(d)
        if o.only in (None, "gemm"):
            cases.append(("gemm_" + d, dt, gemm_case(o.n, work, dt)))
        if o.only in (None, "resnet"):
            cases.append(("resnet_" + d, dt, resnet_case(dt)))
    rows = []
    for tag, dt, case in cases:
        print("== %s; oneDNN primitives PyTorch runs: %s" % (case["name"], onednn_impls(case["torch_fn"])),
              flush=True)
        tt, tx, agree = run_case(o, case, work, tag, dt)
        rows.append((case, tt, tx, agree))
    print("\n| workload | threads | PyTorch ms | xlac ms | PyTorch/xlac | PyTorch GFLOP/s | xlac GFLOP/s |"
          + "".join(" xlac %% of %s peak |" % p for p, _ in pk))
    print("|---|---|---|---|---|---|---|" + "---|" * len(pk))
    for case, tt, tx, agree in rows:
        gx = case["flops"] / tx / 1e6
        print("| %s | %d | %.3f | %.3f | %.2f | %.0f | %.0f |" % (
            case["name"], o.threads, tt, tx, tt / tx, case["flops"] / tt / 1e6, gx)
              + "".join(" %.0f %% |" % (100 * gx / (f * ghz * o.threads)) if ghz else " ? |" for _, f in pk))
    print()
    bad = 0
    for case, tt, tx, agree in rows:
        print("%s: xlac's result %s with PyTorch's (atol %g, rtol %g)" % (case["name"], agree, *case["tol"]))
        bad += agree != "agrees"
        print("RESULT name=%s threads=%d torch_ms=%.4f xlac_ms=%.4f torch_over_xlac=%.3f"
              % (re.sub(r"\W+", "_", case["name"]).strip("_"), o.threads, tt, tx, tt / tx))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

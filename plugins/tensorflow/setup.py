"""Builds libxlac_tf.so and libxlac_pjrt.so and installs them where
TensorFlow looks for device plugins.

`pip install -v ./plugins/tensorflow`, run with the pip of the environment
that has TensorFlow, puts libxlac_tf.so in site-packages/tensorflow-plugins/
(TensorFlow loads every shared object there at import) and xlac's PJRT
library in site-packages/tensorflow-plugins/xlac/ (a folder, so that
TensorFlow does not take it for a plugin of its own).  libxlac_tf.so is
compiled against that environment's TensorFlow (build.sh: its headers, and
a check that it exports the C++ functions the plugin calls);
libxlac_pjrt.so is built with CMake as plugins/jax builds it
(XLAC_BUILD_DIR, else the checkout's configured build/, else
~/.cache/xlac/pjrt-build), or taken from XLAC_PJRT_LIBRARY.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from setuptools import Distribution, setup
from setuptools.command.build import build

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def build_dir():
    given = os.environ.get("XLAC_BUILD_DIR")
    if given:
        return pathlib.Path(given)
    if (ROOT / "build" / "CMakeCache.txt").exists():
        return ROOT / "build"
    cache = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    return cache / "xlac" / "pjrt-build"


def pjrt_library():
    given = os.environ.get("XLAC_PJRT_LIBRARY")
    if given:
        return pathlib.Path(given)
    if not (ROOT / "CMakeLists.txt").exists():
        raise RuntimeError("xlac: build from a checkout of xlac (plugins/tensorflow), or set XLAC_PJRT_LIBRARY")
    build = build_dir()
    print(f"xlac: building libxlac_pjrt.so with CMake in {build}", file=sys.stderr, flush=True)
    if not (build / "CMakeCache.txt").exists():
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), *gen,
                               "-DCMAKE_BUILD_TYPE=RelWithDebInfo"])
    subprocess.check_call(["cmake", "--build", str(build), "--target", "xlac_pjrt"])
    return build / "lib" / "libxlac_pjrt.so"


def tf_library(out):
    # pip builds in an isolated environment whose path hides the target's
    # packages; the interpreter, and so its purelib, is the target's own
    for lib in dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]):
        tf = pathlib.Path(lib) / "tensorflow"
        if tf.is_dir():
            break
    else:
        raise RuntimeError(f"xlac: no tensorflow in {sysconfig.get_paths()['purelib']}: install the plugin with the "
                           "pip of the environment that has TensorFlow")
    version = "unknown"
    for dist in ("tensorflow", "tensorflow_cpu", "tensorflow_intel", "tf_nightly"):
        found = sorted(tf.parent.glob(f"{dist}-*.dist-info"))
        if found:
            version = found[0].name[len(dist) + 1:-len(".dist-info")]
            break
    env = dict(os.environ, XLAC_TF_DIR=str(tf), XLAC_TF_VERSION=version)
    subprocess.check_call([str(HERE / "build.sh"), str(out)], env=env)
    return out / "libxlac_tf.so"


class BuildWithLibraries(build):
    def run(self):
        super().run()
        pjrt = pjrt_library()
        if not pjrt.exists():
            raise RuntimeError(f"xlac: {pjrt} was not built")
        plugins = pathlib.Path(self.build_lib) / "tensorflow-plugins"
        (plugins / "xlac").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tf_library(_scratch / "lib"),
                        plugins / "libxlac_tf.so")
        shutil.copyfile(pjrt, plugins / "xlac" / "libxlac_pjrt.so")


class BinaryDistribution(Distribution):
    """Not pure Python: a wheel for this platform, and installed."""

    def has_ext_modules(self):
        return True


# setuptools' own build and egg-info folders go outside the checkout
_scratch = pathlib.Path(tempfile.gettempdir()) / f"xlac-tf-plugin-{os.getuid()}"
_scratch.mkdir(parents=True, exist_ok=True)
setup(distclass=BinaryDistribution, cmdclass={"build": BuildWithLibraries},
      options={"build": {"build_base": str(_scratch / "build")}, "egg_info": {"egg_base": str(_scratch)}})

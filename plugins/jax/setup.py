"""Builds (or finds) libxlac_pjrt.so and puts it in the package.

`pip install -v plugins/jax` from a checkout of xlac builds the library with
CMake (-v shows CMake's progress; pip hides it otherwise) in XLAC_BUILD_DIR,
or in a build directory of the checkout that CMake has configured already
(build/), or else in a cache directory outside the checkout
(${XDG_CACHE_HOME:-~/.cache}/xlac/pjrt-build), kept so that a later
install only rebuilds what changed.  XLAC_PJRT_LIBRARY names a library
built already instead.  Nothing is written into the checkout's source
folders: the library goes into the wheel being built.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIB = "libxlac_pjrt.so"
MPI_LIB = "libxlac_pjrt_mpi.so"  # beside it, loaded only under mpirun


def build_dir():
    given = os.environ.get("XLAC_BUILD_DIR")
    if given:
        return pathlib.Path(given)
    if (ROOT / "build" / "CMakeCache.txt").exists():
        return ROOT / "build"
    cache = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    return cache / "xlac" / "pjrt-build"


def built_library():
    given = os.environ.get("XLAC_PJRT_LIBRARY")
    if given:
        return pathlib.Path(given)
    if not (ROOT / "CMakeLists.txt").exists():
        raise RuntimeError("xlac: build from a checkout of xlac (plugins/jax), or set XLAC_PJRT_LIBRARY")
    build = build_dir()
    print(f"xlac: building {LIB} with CMake in {build} (a few minutes the first time)", file=sys.stderr, flush=True)
    if not (build / "CMakeCache.txt").exists():
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), *gen,
                               "-DCMAKE_BUILD_TYPE=RelWithDebInfo"])
    subprocess.check_call(["cmake", "--build", str(build), "--target", "xlac_pjrt"])
    # the MPI bridge (several processes under mpirun), where CMake found MPI
    subprocess.call(["cmake", "--build", str(build), "--target", "xlac_pjrt_mpi"], stderr=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL)
    return build / "lib" / LIB


class BuildWithLibrary(build_py):
    def run(self):
        lib = built_library()
        if not lib.exists():
            raise RuntimeError(f"xlac: {lib} was not built")
        super().run()
        dest = pathlib.Path(self.build_lib) / "jax_plugins" / "xlac" / LIB
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(lib, dest)
        bridge = lib.parent / MPI_LIB
        if bridge.exists():
            shutil.copyfile(bridge, dest.parent / MPI_LIB)


# setuptools' own build and egg-info folders go outside the checkout too
_scratch = pathlib.Path(tempfile.gettempdir()) / f"xlac-jax-plugin-{os.getuid()}"
_scratch.mkdir(parents=True, exist_ok=True)
setup(cmdclass={"build_py": BuildWithLibrary},
      options={"build": {"build_base": str(_scratch / "build")}, "egg_info": {"egg_base": str(_scratch)}})

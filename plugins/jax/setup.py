"""Builds (or finds) libxlac_pjrt.so and puts it in the package.

`pip install plugins/jax` from a checkout of xlac: the library is built in
the checkout's build directory (XLAC_BUILD_DIR, default build/) with CMake,
or taken from XLAC_PJRT_LIBRARY when that names a built one.
"""
import os
import pathlib
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIB = "libxlac_pjrt.so"


def built_library():
    given = os.environ.get("XLAC_PJRT_LIBRARY")
    if given:
        return pathlib.Path(given)
    if not (ROOT / "CMakeLists.txt").exists():
        raise RuntimeError("xlac: build from a checkout of xlac (plugins/jax), or set XLAC_PJRT_LIBRARY")
    build = pathlib.Path(os.environ.get("XLAC_BUILD_DIR", ROOT / "build"))
    if not (build / "CMakeCache.txt").exists():
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), *gen,
                               "-DCMAKE_BUILD_TYPE=RelWithDebInfo"])
    subprocess.check_call(["cmake", "--build", str(build), "--target", "xlac_pjrt"])
    return build / "lib" / LIB


class BuildWithLibrary(build_py):
    def run(self):
        lib = built_library()
        if not lib.exists():
            raise RuntimeError(f"xlac: {lib} was not built")
        dest = HERE / "jax_plugins" / "xlac" / LIB
        shutil.copyfile(lib, dest)
        super().run()


setup(cmdclass={"build_py": BuildWithLibrary})

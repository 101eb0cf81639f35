"""The scripts' one way to get Debian packages for Python (validate, simcheck, fit-variance).

ensure(name, modules, packages): when this python lacks `modules`, re-run the calling script
under Debian's /usr/bin/python3 if that one has them, else install `packages` with apt-get
(as root, or with sudo) and re-run under it.
"""
import os
import shutil
import subprocess
import sys

DEBIAN = "/usr/bin/python3"


def ensure(name, modules, packages):
    try:
        for m in modules:
            __import__(m)
        return
    except ImportError:
        pass
    me = [DEBIAN, os.path.abspath(sys.argv[0])] + sys.argv[1:]
    probe = "import " + ", ".join(modules)
    if os.path.realpath(sys.executable) != os.path.realpath(DEBIAN) and os.path.exists(DEBIAN):
        if subprocess.run([DEBIAN, "-c", probe], capture_output=True).returncode == 0:
            os.execv(DEBIAN, me)
    if shutil.which("apt-get") is None:
        sys.exit(f"{name}: needs " + " ".join(packages) + " (Debian packages); apt-get not found")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print(f"{name}: installing " + " ".join(packages), file=sys.stderr)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-q"] + list(packages), check=True, stdout=subprocess.DEVNULL)
    os.execv(DEBIAN, me)

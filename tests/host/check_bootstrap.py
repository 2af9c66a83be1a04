#!/usr/bin/env python3
"""
check_bootstrap.py - scripts/bootstrap.sh fetches what make test needs,
checked without the network: fake apt-get, dpkg, dpkg-deb and id on the
PATH, the busybox cache in a temporary folder.

    check_bootstrap.py --build BUILD

  fetch_survives_a_failed_update  apt-get update fails as a whole when one
                                  index does (a mirror caught mid-sync),
                                  keeping the lists it fetched: bootstrap
                                  goes on, downloads busybox-static:i386
                                  and unpacks it into the cache
  failed_download_fails           when the lists were not enough (the
                                  download fails), bootstrap fails and
                                  says so

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
BOOTSTRAP = ROOT / "scripts" / "bootstrap.sh"

# The fakes: apt-get's update exits 100 as Debian's does on a failed index.
FAKES = {
    "id": 'echo 0\n',
    "dpkg": 'echo i386\n',
    "apt-get": '''case "$1" in
update) echo "E: Some index files failed to download." >&2; exit 100 ;;
download) [ -n "$FAKE_DOWNLOAD_FAILS" ] && exit 100
	: > busybox-static_1.35.0_i386.deb ;;
*) exit 100 ;;
esac
''',
    "dpkg-deb": 'mkdir -p "$3/bin" && printf "#!/bin/sh\\n" > "$3/bin/busybox" && chmod +x "$3/bin/busybox"\n',
}


def run_bootstrap(tmp, download_fails=False):
    fakes = Path(tmp, "fakes")
    fakes.mkdir(exist_ok=True)
    for name, body in FAKES.items():
        path = fakes / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)
    env = dict(os.environ, PATH="%s:%s" % (fakes, os.environ["PATH"]),
               BUSYBOX_CACHE=str(Path(tmp, "cache")))
    env.pop("BUSYBOX", None)
    if download_fails:
        env["FAKE_DOWNLOAD_FAILS"] = "1"
    return subprocess.run(["sh", str(BOOTSTRAP)], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=60)


def fetch_survives_a_failed_update():
    with tempfile.TemporaryDirectory() as tmp:
        r = run_bootstrap(tmp)
        busybox = Path(tmp, "cache", "root", "bin", "busybox")
        problems = []
        if r.returncode != 0:
            problems.append("exit %d: %s" % (r.returncode, r.stdout.strip()[-300:]))
        if not os.access(busybox, os.X_OK):
            problems.append("no busybox unpacked at %s" % busybox)
        if "going on with the lists it has" not in r.stdout:
            problems.append("the failed update is not reported")
        return problems


def failed_download_fails():
    with tempfile.TemporaryDirectory() as tmp:
        r = run_bootstrap(tmp, download_fails=True)
        if r.returncode == 0:
            return ["bootstrap succeeded without busybox"]
        if "apt-get download busybox-static:i386 failed" not in r.stdout:
            return ["the failed download is not named: %s" % r.stdout.strip()[-300:]]
        return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.parse_args()
    return ktap.report([(f.__name__, f()) for f in
                        (fetch_survives_a_failed_update, failed_download_fails)])


if __name__ == "__main__":
    sys.exit(main())

"""
qmp.py - a QEMU booted for a test, with its serial console on a pipe and
its QMP socket (QEMU's machine protocol) at hand.

    with Machine(cmd) as m:            # cmd: a qemu-system-i386 command
        m.expect(b"kprobes# ")         # serial output, up to a marker
        m.type(b"help\\r")              # serial input
        m.qmp("inject-nmi")            # what the monitor's "nmi" does
        m.qmp("screendump", filename=...)

Used by tests/crash_demos.py and tests/host/check_vga.py.
"""
import json
import os
import select
import socket
import subprocess
import tempfile
import time


class Machine:
    def __init__(self, cmd, qmp=True):
        self.tmp = tempfile.TemporaryDirectory(prefix="qmp-")
        self.sock_path = os.path.join(self.tmp.name, "qmp.sock")
        if qmp:
            cmd = cmd + ["-qmp", f"unix:{self.sock_path},server=on,wait=off"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.out = b""
        self.sock = None

    # -- serial ------------------------------------------------------------
    def read_for(self, seconds):
        """Collect serial output for a while (or until QEMU exits)."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [],
                                        max(deadline - time.time(), 0))
            if not ready:
                break
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                break
            self.out += chunk

    def expect(self, marker, timeout=20):
        """Read until marker appears; True if it did."""
        deadline = time.time() + timeout
        while marker not in self.out and time.time() < deadline:
            self.read_for(min(0.2, max(deadline - time.time(), 0)))
            if self.proc.poll() is not None:
                self.read_for(0.2)
                break
        return marker in self.out

    def type(self, data):
        """Send serial input; False if QEMU is gone (it crashed)."""
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return True
        except BrokenPipeError:
            return False

    def wait(self, timeout):
        """QEMU's exit status, or None if it is still running."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self.read_for(0.5)
        return status

    def text(self):
        return self.out.decode("utf-8", errors="replace").replace("\r\n", "\n")

    # -- QMP ---------------------------------------------------------------
    def _connect(self):
        for _ in range(50):
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(self.sock_path)
                break
            except OSError:
                time.sleep(0.1)
        self.file = self.sock.makefile("rw")
        self.file.readline()                    # the greeting
        self._call("qmp_capabilities")

    def _call(self, command, **arguments):
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.file.write(json.dumps(msg) + "\n")
        self.file.flush()
        while True:
            reply = json.loads(self.file.readline())
            if "return" in reply or "error" in reply:
                return reply

    def qmp(self, command, **arguments):
        """Run one QMP command; returns its reply (a dict)."""
        if self.sock is None:
            self._connect()
        return self._call(command, **arguments)

    # -- the end -------------------------------------------------------------
    def close(self):
        if self.sock:
            self.sock.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

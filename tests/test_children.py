"""Child processes: a pipe written with write_all arrives whole, even when its writer is stopped and
continued while the pipe is full (a partial write, which Python's buffered writer would tear)."""
from __future__ import annotations

import subprocess
import sys
import threading
import time

import psutil

from runner.children import PIPE_BYTES, widen_pipe, write_all

_WRITER = """
import struct, sys
from runner.children import write_all
for i in range(300):
    data = bytes([i % 251]) * (150_000 + i * 997 % 60_000)
    write_all(sys.stdout.fileno(), struct.pack(">I", len(data)) + data)
"""


def test_frames_arrive_whole_through_stops_and_continues():
    proc = subprocess.Popen([sys.executable, "-c", _WRITER], stdout=subprocess.PIPE)
    stopped = threading.Event()

    def stop_and_continue() -> None:   # the writer is blocked on the full pipe: the reader is slow at first
        writer = psutil.Process(proc.pid)
        for _ in range(40):
            try:
                writer.suspend()
                time.sleep(0.005)
                writer.resume()
            except psutil.NoSuchProcess:
                break
            time.sleep(0.01)
        stopped.set()
    thread = threading.Thread(target=stop_and_continue)
    thread.start()
    frames, data = 0, b""
    try:
        while True:
            head = proc.stdout.read(4)
            if not head:
                break
            size = int.from_bytes(head, "big")
            data = proc.stdout.read(size)
            assert data == bytes([frames % 251]) * size, f"frame {frames} torn"
            frames += 1
            if not stopped.is_set():
                time.sleep(0.01)
    finally:
        thread.join()
        proc.wait(30)
    assert frames == 300 and proc.returncode == 0


def test_write_all_writes_everything_to_a_wide_pipe():
    import os
    read, write = os.pipe()
    widen_pipe(write)
    data = bytes(range(256)) * (PIPE_BYTES // 512)   # half the widened pipe: one write, no reader needed
    write_all(write, data)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        assert fh.read() == data

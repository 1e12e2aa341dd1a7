#!/usr/bin/env python3
"""soak_check_test.py: scripts/soak_check.py must pass a steady soak and fail every kind of growth
after warm-up (GL objects, CUDA allocations, resident memory beyond the tolerance), and refuse logs it
cannot judge. Run by ctest (soak_check) or directly."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "soak_check.py")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(SCRIPT))
import soak_check  # noqa: E402


def line(frame, rss=115000, buffers=22, textures=6, cuda="n/a"):
    return (
        "resources: frame=%d rss_kb=%d gl_total=%d gl_buffer=%d gl_texture=%d gl_program=11 cuda_allocs=%s"
        % (frame, rss, buffers + textures + 11, buffers, textures, cuda)
    )


def steady(**changes_at_frame_500):
    """Samples every 100 of 1000 frames; start-up growth before the 100 baseline is allowed."""
    lines = ["hdrlab 0.1.0 | some GPU", line(0, rss=90000, buffers=13, textures=4)]
    for frame in range(100, 1001, 100):
        lines.append(line(frame, **(changes_at_frame_500 if frame >= 500 else {})))
    return lines


class GrowthCheck(unittest.TestCase):
    def findings(self, lines, tolerance=2048):
        return soak_check.find_growth(soak_check.parse_samples(lines), 100, tolerance)

    def test_steady_run_passes_despite_start_up_growth(self):
        self.assertEqual(self.findings(steady()), [])

    def test_one_more_gl_object_fails(self):
        findings = self.findings(steady(buffers=23))
        self.assertTrue(any(f.startswith("gl_buffer grew from 22 (frame 100) to 23 (frame 500)") for f in findings))
        self.assertTrue(any(f.startswith("gl_total grew") for f in findings))
        self.assertEqual(sum(f.startswith("gl_buffer") for f in findings), 1, "reported once")

    def test_fewer_gl_objects_pass(self):
        self.assertEqual(self.findings(steady(textures=5)), [])

    def test_cuda_allocation_growth_fails(self):
        lines = [line(f, cuda=4) for f in range(0, 1001, 100)]
        self.assertEqual(self.findings(lines), [])
        lines[-1] = line(1000, cuda=5)
        self.assertEqual(len(self.findings(lines)), 1)
        self.assertIn("cuda_allocs grew from 4", self.findings(lines)[0])

    def test_rss_within_tolerance_passes_and_beyond_fails(self):
        self.assertEqual(self.findings(steady(rss=115000 + 2048)), [])
        findings = self.findings(steady(rss=115000 + 2049))
        self.assertEqual(len(findings), 1)
        self.assertIn("rss_kb grew from 115000 (frame 100) to 117049 (frame 500)", findings[0])

    def test_too_few_samples_after_warm_up_is_an_error(self):
        with self.assertRaises(ValueError):
            self.findings([line(0), line(100)])

    def test_malformed_line_is_an_error(self):
        with self.assertRaises(ValueError):
            soak_check.parse_samples(["resources: gl_total=3"])


class CommandLine(unittest.TestCase):
    def run_check(self, lines, *args):
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "soak.log")
            with open(log, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
            return subprocess.run(
                [sys.executable, SCRIPT, log, *args], capture_output=True, text=True, check=False
            )

    def test_exit_codes(self):
        self.assertEqual(self.run_check(steady(), "100", "2048").returncode, 0)
        grown = self.run_check(steady(buffers=30), "100", "2048")
        self.assertEqual(grown.returncode, 1)
        self.assertIn("soak_check: growth after warm-up: gl_buffer grew", grown.stdout)
        self.assertEqual(self.run_check(["no samples"], "100", "2048").returncode, 2)
        self.assertEqual(self.run_check(steady(), "100").returncode, 2)


if __name__ == "__main__":
    unittest.main()

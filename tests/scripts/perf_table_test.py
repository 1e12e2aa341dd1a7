#!/usr/bin/env python3
"""perf_table_test.py: scripts/perf_table.py turns `bench pipeline` CSVs (before and after the
read/write floors) into the PERF.md table, puts it between the markers and nowhere else, refuses input
it cannot use with one line, and takes the device, driver, date and commit from the flags, the
environment file and the bench's log in that order. With HDRLAB_BIN_DIR set (ctest sets it), also
runs scripts/perf-table.sh end to end on a tiny frame. Run by ctest (perf_table) or directly."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "perf_table.py")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(SCRIPT))
import perf_table  # noqa: E402

OLD_HEADER = ("size,bins,operator,path,histogram_method,scan_method,stage,time_source,median_us,bytes,floor_us,"
              "time_over_floor,copy_gb_per_s,frames")
NEW_HEADER = OLD_HEADER + ",read_bytes,write_bytes,read_gb_per_s,write_gb_per_s,frame_format"


def old_rows():
    """A 4K configuration as the copy-floor bench wrote it: the histogram 'under' its old floor."""
    base = "3840x2160,256,percentile,%s,compute-shared-atomic,compute-scan,%s,%s,%s,%s,%s,%s,1969.00,60"
    gl = [base % ("gl", "scene", "gl-timer-query", "5742.3", "132710400", "67.4", "85.2"),
          base % ("gl", "histogram", "gl-timer-query", "55.3", "132711424", "67.4", "0.82"),
          base % ("gl", "histogram/kernels", "gl-timer-query", "20.0", "", "", ""),
          base % ("gl", "apply", "gl-timer-query", "62.4", "165888000", "84.3", "0.74"),
          base % ("gl", "frame", "wall-clock", "5960.0", "1", "1", "5960")]
    cuda = ("3840x2160,256,percentile,cuda-histogram,cuda-fast,built-in,frame,wall-clock,6310.0,1,1,6310,"
            "1969.00,60")
    return [OLD_HEADER] + gl + [cuda]


def new_rows(fmt, size, histogram_us, frame_us, cuda_frame_us, read="3550", write="3890"):
    row = ("%s,256,%s,%s,compute-shared-atomic,compute-scan,%s,%s,%s,%s,%s,%s,4100.00,60,%s,%s," + read + "," +
           write + "," + fmt)
    out = []
    for op in ("percentile", "ward"):
        out.append(row % (size, op, "gl", "histogram", "gl-timer-query", histogram_us, "132711424", "37.4",
                          "%.5g" % (float(histogram_us) / 37.4), "132710400", "1024"))
        out.append(row % (size, op, "gl", "curve", "gl-timer-query", "25.0", "2048", "0.001", "25000", "1024",
                          "1024"))
        out.append(row % (size, op, "gl", "frame", "wall-clock", frame_us, "1", "1", "1", "1", "0"))
        out.append(("%s,256,%s,cuda-scan,compute-shared-atomic,cuda-blelloch,frame,wall-clock,%s,1,1,1,4100.00,60,"
                    "1,0,%s,%s,%s") % (size, op, cuda_frame_us, read, write, fmt))
    return out


class Files:
    def __init__(self):
        self.folder = tempfile.TemporaryDirectory()

    def write(self, name, lines):
        path = os.path.join(self.folder.name, name)
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        return path

    def read(self, name):
        with open(os.path.join(self.folder.name, name), encoding="utf-8") as handle:
            return handle.read()


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, check=False)


class Table(unittest.TestCase):
    def setUp(self):
        self.files = Files()

    def tearDown(self):
        self.files.folder.cleanup()

    def test_old_csv_keeps_its_copy_floor_and_shows_stages_under_it(self):
        rows = perf_table.read_rows([self.files.write("old.csv", old_rows())], "rgba32f")
        table = perf_table.build_table(rows, {"device": "NVIDIA H200"})
        self.assertIn("| percentile / histogram | 55.3 / 67.4 (0.82x) **under the floor** |", table)
        self.assertIn("| percentile / histogram/kernels | 20.0 |", table)
        self.assertIn("| percentile / frame | 5.96 ms |", table)
        self.assertIn("| percentile / cuda-histogram `cuda-fast` | 6.31 (+6%) |", table)
        self.assertIn("these CSVs predate the read/write floors", table)
        self.assertIn("| 1969 |", table)
        self.assertIn("| device | NVIDIA H200 |", table)
        self.assertIn("| commit | not recorded |", table)
        self.assertNotIn("read (best", table)

    def test_formats_and_sizes_become_columns_in_order(self):
        lines = [NEW_HEADER]
        lines += new_rows("rgba32f", "3840x2160", "55.9", "5960", "6310")
        lines += new_rows("rgba32f", "1920x1080", "25.7", "2090", "2430", read="5200", write="4800")
        lines += new_rows("rgba16f", "3840x2160", "30.1", "5800", "6100")
        rows = perf_table.read_rows([self.files.write("new.csv", lines)], None)
        table = perf_table.build_table(rows, {})
        self.assertIn("| operator / stage | rgba32f 1080p | rgba32f 4K | rgba16f 4K |", table)
        self.assertIn("| percentile / histogram | 25.7 / 37.4 (0.69x) **under the floor** | 55.9 / 37.4 (1.49x) "
                      "| 30.1 / 37.4 (0.80x) **under the floor** |", table)
        self.assertIn("| ward / curve | 25.0 / 0.001 (25000x) |", table)
        self.assertIn("| percentile / gl (`compute-shared-atomic` + `compute-scan`) | 2.09 | 5.96 | 5.80 |", table)
        self.assertIn("| ward / cuda-scan `cuda-blelloch` | 2.43 (+16%) | 6.31 (+6%) | 6.10 (+5%) |", table)
        self.assertIn("| read (best streaming read at the frame's size) | 5200 | 3550 | 3550 |", table)
        self.assertIn("| write (best streaming write at the frame's size) | 4800 | 3890 | 3890 |", table)
        self.assertNotIn("predate", table)
        # An operator filter keeps only that operator's rows.
        only = perf_table.build_table(rows, {}, operators=["ward"])
        self.assertNotIn("percentile /", only)
        with self.assertRaises(perf_table.InputError):
            perf_table.build_table(rows, {}, operators=["no-such"])
        with self.assertRaises(perf_table.InputError):
            perf_table.build_table(rows, {}, bins="64")

    def test_peer_rows_sit_beside_hdrlabs_metering(self):
        header = NEW_HEADER + ",ref_us,time_over_ref,ref_api,exposure_ev"
        lines = [header] + [line + ",,,," for line in new_rows("rgba16f", "3840x2160", "55.9", "5960", "6310")]
        peer = "3840x2160,256,percentile,peer-%s,%s,-,%s,gl-timer-query,%s,,,,,60,,,,,rgba16f,,,,%s"
        lines += [peer % ("bevy", "bevy", "metering", "41.5", "-2.5000"),
                  peer % ("bevy", "bevy", "metering/histogram", "40.0", "-2.5000"),
                  peer % ("godot", "godot", "metering", "30.25", "-1.2500")]
        rows = perf_table.read_rows([self.files.write("peers.csv", lines)], None)
        table = perf_table.build_table(rows, {})
        self.assertIn("**Metering beside the engines' own**", table)
        self.assertIn("| hdrlab percentile | 80.9 |", table)  # histogram 55.9 + curve 25.0
        self.assertIn("| bevy | 41.5 (EV -2.50) |", table)
        self.assertIn("| godot | 30.2 (EV -1.25) |", table)
        self.assertNotIn("peer-", table.split("**Metering beside")[0], "peers stay out of the stage tables")
        # The one CSV check: a peer row needs its EV and a metering stage.
        for bad in (peer % ("bevy", "bevy", "metering", "41.5", ""), peer % ("bevy", "bevy", "histogram", "1", "0")):
            with self.assertRaises(perf_table.InputError):
                perf_table.read_rows([self.files.write("bad.csv", [header, bad])], None)

    def test_update_replaces_only_the_marked_block(self):
        csv_path = self.files.write("new.csv", [NEW_HEADER] + new_rows("rgba32f", "3840x2160", "55.9", "5960", "6310"))
        doc = self.files.write("PERF.md", ["# Performance", "intro", perf_table.BEGIN, "stale table",
                                           perf_table.END, "## History", "kept"])
        result = run("--update", doc, "--date", "2026-11-24", csv_path)
        self.assertEqual(result.returncode, 0, result.stderr)
        text = self.files.read("PERF.md")
        self.assertTrue(text.startswith("# Performance\nintro\n" + perf_table.BEGIN + "\n"))
        self.assertTrue(text.endswith(perf_table.END + "\n## History\nkept\n"))
        self.assertNotIn("stale table", text)
        self.assertIn("| date | 2026-11-24 |", text)
        self.assertIn("[`new.csv`](new.csv)", text, "raw-data links relative to the document")
        self.assertEqual(run("--update", doc, "--date", "2026-11-24", csv_path).returncode, 0)
        self.assertEqual(self.files.read("PERF.md"), text, "regenerating is idempotent")

    def test_bad_input_is_one_line_and_status_2(self):
        csv_path = self.files.write("new.csv", [NEW_HEADER] + new_rows("rgba32f", "3840x2160", "55.9", "5960", "6310"))
        no_markers = self.files.write("doc.md", ["# no markers"])
        not_csv = self.files.write("other.csv", ["a,b", "1,2"])
        short = self.files.write("short.csv", [NEW_HEADER, "3840x2160,256,ward"])
        for args in (["--update", no_markers, csv_path], [not_csv], [short],
                     [os.path.join(self.files.folder.name, "missing.csv")], ["--bins", "64", csv_path]):
            result = run(*args)
            self.assertEqual(result.returncode, 2, args)
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
            self.assertTrue(result.stderr.startswith("perf_table.py: error: "), result.stderr)
        self.assertEqual(self.files.read("doc.md"), "# no markers\n", "a refused update leaves the file alone")

    def test_facts_from_flags_then_env_then_log(self):
        log = self.files.write("bench.txt", [
            "hdrlab bench pipeline on NVIDIA H200/PCIe/SSE2 (NVIDIA Corporation, OpenGL 4.6.0 NVIDIA 580.159.04): "
            "60 timed frames after 20 warm-up frames per configuration, default scene",
            "build: 1234567890ab-dirty, run at 2026-11-24 10:00 UTC",
            "device peak: 4800.0 GB/s (NVIDIA H200, 141 GB HBM3e, data sheet; ...)"])
        env = self.files.write("environment.txt", ["date: 2026-11-25", "device: NVIDIA H200", "commit: ffffffffffff"])
        csv_path = self.files.write("new.csv", [NEW_HEADER] + new_rows("rgba32f", "3840x2160", "55.9", "5960", "6310"))
        result = run("--log", log, "--env", env, "--driver", "999.1", csv_path)
        self.assertEqual(result.returncode, 0, result.stderr)
        for line in ("| device | NVIDIA H200 |", "| driver | 999.1 |", "| date | 2026-11-25 |",
                     "| commit | 1234567890ab-dirty |", "| device peak | 4800.0 GB/s (NVIDIA H200"):
            self.assertIn(line, result.stdout)
        facts = perf_table.read_logs([log])
        self.assertEqual(facts["driver"], "580.159.04")
        self.assertEqual(facts["device"], "NVIDIA H200/PCIe/SSE2")

    def test_clahe_rows_follow_the_pipeline_tables_only_when_given(self):
        pipeline = perf_table.read_rows(
            [self.files.write("new.csv", [NEW_HEADER] + new_rows("rgba32f", "3840x2160", "55.9", "5960", "6310"))], None)
        clahe_csv = self.files.write("clahe.csv", [
            "size,bits,backend,device,histogram_us,lut_us,blend_us,total_us,min_total_us,runs,exact,target_us,error",
            "3840x2160,8,gl,GL: NVIDIA H200,9.5,3.1,10.2,22.8,22.1,200,1,25.0,",
            "3840x2160,8,cuda,,,,,,,0,0,20.0,unavailable: this build has no CUDA backend",
            "1920x1080,8,gl,GL: NVIDIA H200,3.0,3.0,5.0,11.0,10.5,200,1,10.0,",
            "3840x2160,16,gl,GL: NVIDIA H200,60.0,40.0,20.0,120.0,118.0,200,0,250.0,",
            "3840x2160,16,cpu,CPU,90000.0,60000.0,30000.0,180000.0,170000.0,3,1,,",
            "1920x1080,16,cuda,,,,,,,0,0,,failed: out of memory",
        ])
        clahe = perf_table.read_clahe_rows([clahe_csv])
        table = perf_table.build_table(pipeline, {}, clahe_rows=clahe)
        self.assertIn("**CLAHE** (`hdrlab bench clahe`", table)
        self.assertIn("| 8-bit 4K / gl | 9.5 | 3.1 | 10.2 | 22.8 | 25.0 (met) | yes |", table)
        self.assertIn("| 8-bit 1080p / gl | 3.0 | 3.0 | 5.0 | 11.0 | 10.0 (missed) | yes |", table)
        self.assertIn("| 16-bit 4K / gl | 60.0 | 40.0 | 20.0 | 120.0 | 250.0 (met) | **no** |", table)
        self.assertIn("| 16-bit 4K / cpu | 90000.0 | 60000.0 | 30000.0 | 180000.0 | - | yes |", table)
        self.assertIn("| 16-bit 1080p / cuda | failed: out of memory |", table)
        self.assertNotIn("8-bit 4K / cuda", table)  # unavailable backends are left out
        self.assertLess(table.index("| 8-bit 1080p / gl"), table.index("| 8-bit 4K / gl"))
        self.assertLess(table.index("| 8-bit 4K / gl"), table.index("| 16-bit 1080p / cuda"))
        self.assertIn("[`clahe.csv`]", table)
        # Without CLAHE rows the table is what it was.
        self.assertEqual(perf_table.build_table(pipeline, {}, clahe_rows=[]), perf_table.build_table(pipeline, {}))
        self.assertNotIn("CLAHE", perf_table.build_table(pipeline, {}))
        # Through the command line, and a wrong file refused on one line.
        pipeline_csv = self.files.write("p.csv", [NEW_HEADER] + new_rows("rgba32f", "3840x2160", "55.9", "5960", "6310"))
        result = run("--clahe", clahe_csv, pipeline_csv)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("| 8-bit 4K / gl |", result.stdout)
        # A bench clahe CSV among the positional CSVs (docs/perf/<name>/*.csv) is taken as --clahe.
        mixed = run(pipeline_csv, clahe_csv)
        self.assertEqual(mixed.returncode, 0, mixed.stderr)
        self.assertEqual(mixed.stdout, result.stdout)
        self.assertEqual(run(clahe_csv).returncode, 2)
        bad = run("--clahe", self.files.write("bad.csv", ["size,bits", "1x1,8"]), pipeline_csv)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("not a `bench clahe` CSV", bad.stderr)

    def test_fusion_rows_follow_the_pipeline_tables_only_when_given(self):
        pipeline_csv = self.files.write("p.csv", [NEW_HEADER] + new_rows("rgba32f", "3840x2160", "55.9", "5960", "6310"))
        pipeline = perf_table.read_rows([pipeline_csv], None)
        fusion_csv = self.files.write("fusion.csv", [
            "size,format,reduction,levels,map,device,reduce_us,pyramid_us,collapse_us,total_us,min_total_us,runs,"
            "exact,target_us,error",
            "3840x2160,rgba16f,4,10,960x540,GL: NVIDIA H200,12.5,30.0,40.0,82.5,80.0,200,1,150.0,",
            "1920x1080,rgba16f,4,9,480x270,GL: NVIDIA H200,4.0,20.0,25.0,49.0,47.0,200,0,,",
            "7680x4320,rgba16f,4,0,0x0,GL: NVIDIA H200,,,,,,0,0,,failed: out of memory",
        ])
        fusion = perf_table.read_fusion_rows([fusion_csv])
        table = perf_table.build_table(pipeline, {}, fusion_rows=fusion)
        self.assertIn("**Fusion local exposure** (`hdrlab bench fusion`", table)
        self.assertIn("| 4K rgba16f (960x540, 10) | 12.5 | 30.0 | 40.0 | 82.5 | 150.0 (met) | yes |", table)
        self.assertIn("| 1080p rgba16f (480x270, 9) | 4.0 | 20.0 | 25.0 | 49.0 | - | **no** |", table)
        self.assertIn("failed: out of memory |", table)
        self.assertLess(table.index("| 1080p rgba16f"), table.index("| 4K rgba16f"))
        self.assertIn("[`fusion.csv`]", table)
        self.assertEqual(perf_table.build_table(pipeline, {}, fusion_rows=[]), perf_table.build_table(pipeline, {}))
        result = run("--fusion", fusion_csv, pipeline_csv)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("| 4K rgba16f (960x540, 10) |", result.stdout)
        mixed = run(pipeline_csv, fusion_csv)  # among the positional CSVs it is taken as --fusion
        self.assertEqual(mixed.returncode, 0, mixed.stderr)
        self.assertEqual(mixed.stdout, result.stdout)
        bad = run("--fusion", self.files.write("bad.csv", ["size,format", "1x1,rgba16f"]), pipeline_csv)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("not a `bench fusion` CSV", bad.stderr)
        short = run("--fusion", self.files.write("short.csv", [
            "size,format,reduction,levels,map,reduce_us,pyramid_us,collapse_us,total_us,exact,target_us,error",
            "1x1,rgba16f,4"]), pipeline_csv)
        self.assertEqual(short.returncode, 2)
        self.assertIn("short.csv:2: wrong number of fields", short.stderr)

    def test_the_h200_csv_in_the_repository(self):
        path = os.path.join(ROOT, "docs", "perf", "pipeline-all-h200-2026-11-23-env.csv")
        if not os.path.exists(path):
            self.skipTest("docs/perf/pipeline-all-h200-2026-11-23-env.csv is not there")
        rows = perf_table.read_rows([path], "rgba32f")
        table = perf_table.build_table(rows, {}, operators=["percentile", "ward"])
        self.assertIn("| percentile / histogram | 25.7 / 16.9 (1.52x) | 55.3 / 67.4 (0.82x) **under the floor** |",
                      table)
        self.assertIn("| ward / curve/fit | 46.0 | 47.7 |", table)
        self.assertIn("| percentile / cuda-histogram `cuda-fast` | 2.43 (+16%) | 6.31 (+6%) |", table)


class Script(unittest.TestCase):
    def test_perf_table_sh_end_to_end(self):
        bin_dir = os.environ.get("HDRLAB_BIN_DIR")
        if not bin_dir or not os.path.exists(os.path.join(bin_dir, "hdrlab")):
            self.skipTest("HDRLAB_BIN_DIR (the folder of a built hdrlab) is not set")
        with tempfile.TemporaryDirectory() as out:
            doc = os.path.join(out, "PERF.md")
            with open(doc, "w", encoding="utf-8") as handle:
                handle.write("# P\n%s\n%s\nrest\n" % (perf_table.BEGIN, perf_table.END))
            env = dict(os.environ, OUT=out, SIZES="64x36", FRAMES="2", WARMUP="1", CLAHE_RUNS="2",
                       FUSION_RUNS="2", PYTHON=sys.executable)
            result = subprocess.run(["bash", os.path.join(ROOT, "scripts", "perf-table.sh"), "--bin", bin_dir,
                                     "--update", doc], env=env, capture_output=True, text=True, check=False)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertTrue(os.path.exists(os.path.join(out, "perf-table.tar.gz")))
            with open(os.path.join(out, "perf-table", "perf-table.md"), encoding="utf-8") as handle:
                table = handle.read()
            for text in ("| percentile / histogram |", "| ward / curve |", "| ward / frame |", "64x36",
                         "| 8-bit 64x36 / gl |", "| 16-bit 64x36 / cpu |", "| 64x36 rgba16f (16x9, 4) |"):
                self.assertIn(text, table)
            with open(doc, encoding="utf-8") as handle:
                self.assertIn("| percentile / apply |", handle.read())


if __name__ == "__main__":
    unittest.main()

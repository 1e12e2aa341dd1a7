#!/usr/bin/env python3
"""perf_table.py: the current-numbers table at the top of docs/PERF.md, from `hdrlab bench pipeline`
output (its --csv files, and optionally its printed logs for the device, build and peak lines).

One table of every stage of the GL path (median us / floor us and time / floor) per frame format and
size, one of the frame time of the GL path and of each CUDA path, and the rates the floors used, under
a header naming the device, driver, date and commit; with --clahe, also the CLAHE rows of `hdrlab bench
clahe --csv` (each backend's passes per image size and bit depth, against issue 33's targets), with
--fusion the fusion local exposure's rows of `hdrlab bench fusion --csv` (its sub-passes per frame size,
against issue 34's target); such CSVs given among the positional ones count as --clahe / --fusion. Written
to stdout, to --output, or with --update between the markers <!-- perf-table:begin --> and
<!-- perf-table:end --> of a Markdown file.
scripts/perf-table.sh runs the bench and this in one go.

Usage:
  perf_table.py [--env FILE] [--log LOG ...] [--device D] [--driver V] [--date D] [--commit C] [--peak P]
                [--assume-frame-format F] [--bins N] [--operators a,b] [--note TEXT]
                [--clahe CLAHE.csv ...] [--fusion FUSION.csv ...] [--update DOC.md | --output FILE] CSV...
The facts come from, in order of precedence: the flags, --env (lines "key: value": device, driver,
date, commit; scripts/perf-table.sh writes it), the logs ("hdrlab bench pipeline on ...", "build:
..., run at ...", "device peak: ..."); but a log's build revision beats --env's commit (it names the
binary that ran). CSVs older than the read/write floors (no frame_format column)
take --assume-frame-format. Exit status 0, or 2 with one line on stderr for bad input.
"""
import argparse
import csv
import os
import re
import sys

BEGIN = "<!-- perf-table:begin -->"
END = "<!-- perf-table:end -->"
REQUIRED = [
    "size", "bins", "operator", "path", "histogram_method", "scan_method", "stage", "time_source",
    "median_us", "floor_us", "time_over_floor",
]
FLOOR_TOLERANCE = 0.95  # commands/bench/BenchFloors.h kFloorTolerance
CLAHE_REQUIRED = ["size", "bits", "backend", "histogram_us", "lut_us", "blend_us", "total_us", "exact", "target_us",
                  "error"]
FUSION_REQUIRED = ["size", "format", "reduction", "levels", "map", "reduce_us", "pyramid_us", "collapse_us", "total_us",
                   "exact", "target_us", "error"]


class InputError(Exception):
    """Bad input: reported as one line, exit status 2."""


def read_csv(path, required, kind):
    """The rows of one CSV of `kind` (e.g. "bench clahe") as (line number, dict), after checking that
    its header has every `required` column and each row every field; InputError otherwise."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in required if c not in (reader.fieldnames or [])]
            if missing:
                raise InputError("%s: not a `%s` CSV (no column %s)" % (path, kind, ", ".join(missing)))
            rows = []
            for line, row in enumerate(reader, start=2):
                if None in row or any(row.get(c) is None for c in required):
                    raise InputError("%s:%d: wrong number of fields" % (path, line))
                rows.append((line, dict(row)))
            return rows
    except OSError as error:
        raise InputError("%s: %s" % (path, error.strerror or error)) from None


def to_floats(row, keys, path, line):
    """`row`'s `keys` as floats in place (None where empty); InputError for anything else."""
    try:
        for key in keys:
            row[key] = float(row[key]) if row[key] else None
    except ValueError as error:
        raise InputError("%s:%d: %s" % (path, line, error)) from None


def read_rows(paths, assume_format):
    rows = []
    for path in paths:
        for line, row in read_csv(path, REQUIRED, "bench pipeline"):
            row["frame_format"] = row.get("frame_format") or assume_format or "unknown"
            row["median"], row["floor"], row["ratio"] = row["median_us"], row["floor_us"], row["time_over_floor"]
            to_floats(row, ("median", "floor", "ratio"), path, line)
            if row["median"] is None:
                raise InputError("%s:%d: no median_us" % (path, line))
            row["source_file"] = path
            check_peer_row(row, path, line)
            rows.append(row)
    if not rows:
        raise InputError("no rows in %s" % ", ".join(paths))
    return rows


def check_peer_row(row, path, line):
    """An engine peer's row (`bench pipeline --peers`: path peer-<id>, stage metering or metering/<pass>)
    carries the EV where the engine's adaptation settles on the frame; other rows leave it empty."""
    row["peer"] = row["path"].startswith("peer-")
    if not row["peer"]:
        return
    if not row["stage"].startswith("metering"):
        raise InputError("%s:%d: a peer row's stage is metering or metering/<pass>, not %s" % (path, line, row["stage"]))
    try:
        row["ev"] = float(row.get("exposure_ev") or "")
    except ValueError:
        raise InputError("%s:%d: a peer row without its exposure_ev" % (path, line)) from None


def peer_section(rows, peers, columns):
    """Each engine peer's metering beside hdrlab's (histogram + scan + curve of the percentile operator's
    GL path), median us, with the EV the peer settles on."""
    head = "| %s |" + " %s |" * len(columns)
    out = ["", "**Metering beside the engines' own** (median us on the same frame, GL timer queries; hdrlab: "
           "histogram + scan + curve rows of the percentile operator, GL path (with the curve built in the histogram "
           "pass there is no curve row); a peer: every pass its auto exposure "
           "runs, with the EV it settles on; docs/PERF.md says what each peer follows and simplifies):", ""]
    out.append(head % (("metering",) + tuple("%s %s" % (fmt, size_label(size)) for fmt, size in columns)))
    out.append("|---|" + "---:|" * len(columns))
    cells = []
    for fmt, size in columns:
        parts = {}
        for row in rows:
            if (row["frame_format"], row["size"], row["operator"], row["path"]) == (fmt, size, "percentile", "gl") \
                    and row["stage"] in ("histogram", "scan", "curve"):
                parts[row["stage"]] = row["median"]
        # The curve may be built in the histogram pass's last workgroup: then there is no curve row.
        cells.append(number(sum(parts.values())) if "histogram" in parts else "-")
    out.append(head % (("hdrlab percentile",) + tuple(cells)))
    for peer in unique(row["path"] for row in peers):
        cells = []
        for fmt, size in columns:
            match = [row for row in peers if (row["frame_format"], row["size"], row["path"], row["stage"])
                     == (fmt, size, peer, "metering")]
            cells.append("%s (EV %.2f)" % (number(match[-1]["median"]), match[-1]["ev"]) if match else "-")
        out.append(head % ((peer[len("peer-"):],) + tuple(cells)))
    return out


def read_clahe_rows(paths):
    """The rows of `hdrlab bench clahe --csv` files; a backend not available there is left out."""
    rows = []
    for path in paths or []:
        for line, row in read_csv(path, CLAHE_REQUIRED, "bench clahe"):
            if row["error"].startswith("unavailable"):
                continue
            to_floats(row, ("histogram_us", "lut_us", "blend_us", "total_us", "target_us"), path, line)
            row["source_file"] = path
            rows.append(row)
    return rows


def read_fusion_rows(paths):
    """The rows of `hdrlab bench fusion --csv` files."""
    rows = []
    for path in paths or []:
        for line, row in read_csv(path, FUSION_REQUIRED, "bench fusion"):
            to_floats(row, ("reduce_us", "pyramid_us", "collapse_us", "total_us", "target_us"), path, line)
            row["source_file"] = path
            rows.append(row)
    return rows


def clahe_section(rows):
    """The CLAHE rows: median us per pass and total per image and backend, the target, exactness."""
    out = ["", "**CLAHE** (`hdrlab bench clahe`: OpenCV's CLAHE, 8x8 tiles, clip limit 40, photo-like synthetic "
           "image; median us per pass, the histogram with its clear; target: issue 33's):", "",
           "| image / backend | histogram | lut | blend | total | target | equal to the CPU reference |",
           "|---|---:|---:|---:|---:|---:|---|"]
    rows = sorted(rows, key=lambda r: (int(r["bits"]), pixels(r["size"])))
    for row in rows:
        name = "%s-bit %s / %s" % (row["bits"], size_label(row["size"]), row["backend"])
        if row["error"]:
            out.append("| %s | %s | | | | | |" % (name, row["error"]))
            continue
        target = "-"
        if row["target_us"] is not None:
            target = "%s (%s)" % (number(row["target_us"]), "met" if row["total_us"] <= row["target_us"] else "missed")
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            name, number(row["histogram_us"]), number(row["lut_us"]), number(row["blend_us"]),
            number(row["total_us"]), target, "yes" if row["exact"] == "1" else "**no**"))
    return out


def fusion_section(rows):
    """The fusion local exposure rows: median us per sub-pass and total per frame, the target, exactness."""
    out = ["", "**Fusion local exposure** (`hdrlab bench fusion`: exposure fusion as Unreal 5.5's Fusion method, "
           "contrast scales 0.8/0.8, synthetic frame; median us per sub-pass; target: issue 34's):", "",
           "| frame (base, levels) | reduce | pyramid | collapse | total | target | equal to the CPU reference |",
           "|---|---:|---:|---:|---:|---:|---|"]
    for row in sorted(rows, key=lambda r: pixels(r["size"])):
        name = "%s %s (%s, %s)" % (size_label(row["size"]), row["format"], row["map"], row["levels"])
        if row["error"]:
            out.append("| %s | %s | | | | | |" % (name, row["error"]))
            continue
        target = "-"
        if row["target_us"] is not None:
            target = "%s (%s)" % (number(row["target_us"]), "met" if row["total_us"] <= row["target_us"] else "missed")
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            name, number(row["reduce_us"]), number(row["pyramid_us"]), number(row["collapse_us"]),
            number(row["total_us"]), target, "yes" if row["exact"] == "1" else "**no**"))
    return out


def csv_header(path):
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            return next(csv.reader(handle), [])
    except OSError:
        return []


def is_clahe_csv(path):
    """Whether `path` is a `bench clahe` CSV (its header), so that a folder's *.csv can be given whole."""
    header = csv_header(path)
    return "backend" in header and "bits" in header and "stage" not in header


def is_fusion_csv(path):
    """Whether `path` is a `bench fusion` CSV (its header)."""
    header = csv_header(path)
    return "reduce_us" in header and "collapse_us" in header


def pixels(size):
    match = re.fullmatch(r"(\d+)x(\d+)", size)
    return int(match.group(1)) * int(match.group(2)) if match else 0


def size_label(size):
    return {"1920x1080": "1080p", "3840x2160": "4K"}.get(size, size)


def unique(values):
    seen = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def read_env(path):
    facts = {}
    if not path:
        return facts
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                key, sep, value = line.partition(":")
                if sep and value.strip():
                    facts[key.strip().lower()] = value.strip()
    except OSError as error:
        raise InputError("%s: %s" % (path, error.strerror or error)) from None
    return facts


def read_logs(paths):
    """Facts printed by the bench: renderer and GL version, build and run time, device peak."""
    facts = {}
    for path in paths or []:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError as error:
            raise InputError("%s: %s" % (path, error.strerror or error)) from None
        match = re.search(r"^hdrlab bench pipeline on (.*) \((.*), OpenGL (.*)\): ", text, re.M)
        if match:
            facts.setdefault("device", match.group(1))
            driver = re.search(r"NVIDIA (\d+(?:\.\d+)+)", match.group(3)) or re.search(r"(Mesa \S+)", match.group(3))
            if driver:
                facts.setdefault("driver", driver.group(1))
        match = re.search(r"^build: (\S+), run at (\d{4}-\d{2}-\d{2})", text, re.M)
        if match:
            facts.setdefault("commit", match.group(1))
            facts.setdefault("date", match.group(2))
        match = re.search(r"^device peak: (.*)$", text, re.M)
        if match:
            facts.setdefault("peak", match.group(1))
    return facts


def number(value, digits=1):
    return "%.*f" % (digits, value)


def small(value):
    """Floors of a few bytes are nanoseconds: three significant digits below 1, else one decimal."""
    return "%.3g" % value if 0 < value < 1 else number(value)


def ratio_text(value):
    return "%.0fx" % value if value >= 100 else "%.1fx" % value if value >= 10 else "%.2fx" % value


def stage_cell(row):
    if row is None:
        return "-"
    if row["stage"] == "frame":
        return number(row["median"] / 1000.0, 2) + " ms"
    if row["floor"] is None or row["ratio"] is None:
        return number(row["median"])
    cell = "%s / %s (%s)" % (number(row["median"]), small(row["floor"]), ratio_text(row["ratio"]))
    if row["ratio"] < FLOOR_TOLERANCE:
        cell += " **under the floor**"
    return cell


def path_name(row):
    if row["path"] == "gl":
        return "gl (`%s` + `%s`)" % (row["histogram_method"], row["scan_method"])
    method = row["scan_method"] if row["path"] == "cuda-scan" else row["histogram_method"]
    return "%s `%s`" % (row["path"], method)


def build_table(rows, facts, bins=None, operators=None, note=None, link_base=None, clahe_rows=None,
                fusion_rows=None):
    peers = [row for row in rows if row.get("peer")]
    rows = [row for row in rows if not row.get("peer")]
    if not rows:
        raise InputError("only engine peer rows: no `bench pipeline` stage rows")
    all_bins = unique(row["bins"] for row in rows)
    if bins is None:
        bins = "256" if "256" in all_bins else sorted(all_bins, key=int)[0]
    rows = [row for row in rows if row["bins"] == str(bins)]
    if not rows:
        raise InputError("no rows with %s bins (the CSVs have %s)" % (bins, ", ".join(all_bins)))
    present = unique(row["operator"] for row in rows)
    operators = operators or present
    for op in operators:
        if op not in present:
            raise InputError("no rows of operator %s (the CSVs have %s)" % (op, ", ".join(present)))
    formats = unique(row["frame_format"] for row in rows)
    sizes = sorted(unique(row["size"] for row in rows), key=pixels)
    measured = set((row["frame_format"], row["size"]) for row in rows)
    columns = [(fmt, size) for fmt in formats for size in sizes if (fmt, size) in measured]

    # The last row of a (format, size, operator, path, methods, stage) wins: a rerun replaces a run.
    table = {}
    for row in rows:
        key = (row["frame_format"], row["size"], row["operator"], row["path"], row["histogram_method"],
               row["scan_method"], row["stage"])
        table[key] = row
    gl = [row for row in rows if row["path"] == "gl"]
    if not gl:
        raise InputError("no rows of the gl path")

    out = []
    head = "| %s |" + " %s |" * len(columns)
    rule = "|---|" + "---:|" * len(columns)
    column_names = tuple("%s %s" % (fmt, size_label(size)) for fmt, size in columns)

    def fact(key, default="not recorded"):
        return facts.get(key) or default

    out.append("| | |")
    out.append("|---|---|")
    out.append("| device | %s |" % fact("device"))
    out.append("| driver | %s |" % fact("driver"))
    out.append("| date | %s |" % fact("date"))
    out.append("| commit | %s |" % fact("commit"))
    out.append("| device peak | %s |" % fact("peak", "not printed by this bench run"))
    out.append("| configuration | default scene, %s bins, operators %s, frame formats %s |"
               % (bins, ", ".join(operators), ", ".join(formats)))
    raw = unique([row["source_file"] for row in rows + (clahe_rows or []) + (fusion_rows or [])])
    links = []
    for path in raw:
        target = os.path.relpath(path, link_base) if link_base else path
        links.append("[`%s`](%s)" % (os.path.basename(path), target.replace(os.sep, "/")))
    out.append("| raw data | %s |" % ", ".join(links))
    if note:
        out.append("")
        out.append(note)
    if any(row["time_source"] == "cpu-fallback" for row in rows):
        out.append("")
        out.append("**Not GPU numbers:** these times are CPU fallbacks (a software renderer's timer queries "
                   "read 0), and so are the rates.")

    out.append("")
    glpaths = unique("`%s` + `%s`" % (row["histogram_method"], row["scan_method"]) for row in gl)
    out.append("**Stages, GL path** (%s): median us / floor us (time / floor); `frame` is the wall-clock "
               "time per frame." % ", ".join(glpaths))
    out.append("")
    out.append(head % (("operator / stage",) + column_names))
    out.append(rule)
    for op in operators:
        stages = unique(row["stage"] for row in gl if row["operator"] == op)
        for stage in stages:
            cells = []
            for fmt, size in columns:
                match = [row for key, row in table.items()
                         if key[0] == fmt and key[1] == size and key[2] == op and key[3] == "gl" and key[6] == stage]
                cells.append(stage_cell(match[-1] if match else None))
            out.append(head % (("%s / %s" % (op, stage),) + tuple(cells)))

    paths = unique((row["path"], row["histogram_method"], row["scan_method"]) for row in rows
                   if row["stage"] == "frame")
    out.append("")
    out.append("**Frame time per path** (ms, wall clock; a CUDA path's change against the GL path in brackets):")
    out.append("")
    out.append(head % (("operator / path",) + column_names))
    out.append(rule)
    for op in operators:
        for kind, histogram, scan in paths:
            cells = []
            for fmt, size in columns:
                row = table.get((fmt, size, op, kind, histogram, scan, "frame"))
                base = [r for key, r in table.items() if key[:4] == (fmt, size, op, "gl") and key[6] == "frame"]
                if row is None:
                    cells.append("-")
                elif kind == "gl" or not base or base[-1]["median"] <= 0:
                    cells.append(number(row["median"] / 1000.0, 2))
                else:
                    change = (row["median"] / base[-1]["median"] - 1.0) * 100.0
                    cells.append("%s (%+.0f%%)" % (number(row["median"] / 1000.0, 2), change))
            if any(cell != "-" for cell in cells):
                name = path_name({"path": kind, "histogram_method": histogram, "scan_method": scan})
                out.append(head % (("%s / %s" % (op, name),) + tuple(cells)))

    out.append("")
    out.append("**Rates the floors used** (GB/s):")
    out.append("")
    out.append(head % (("rate",) + column_names))
    out.append(rule)
    has_split = any(row.get("read_gb_per_s") for row in rows)
    keys = [("read_gb_per_s", "read (best streaming read at the frame's size)"),
            ("write_gb_per_s", "write (best streaming write at the frame's size)"),
            ("copy_gb_per_s", "copy (reference, read + write counted)")]
    if not has_split:
        keys = [("copy_gb_per_s", "copy (read + write counted; these CSVs predate the read/write floors: "
                 "their floors are bytes / this copy rate)")]
    for key, label in keys:
        cells = []
        for fmt, size in columns:
            values = [row.get(key) for row in rows if row["frame_format"] == fmt and row["size"] == size and row.get(key)]
            rate = float(values[-1]) if values else None
            cells.append("-" if rate is None else number(rate, 0 if rate >= 100 else 2))
        out.append(head % ((label,) + tuple(cells)))
    if peers:
        out.extend(peer_section(rows, [row for row in peers if row["bins"] == str(bins)] or peers, columns))
    if clahe_rows:
        out.extend(clahe_section(clahe_rows))
    if fusion_rows:
        out.extend(fusion_section(fusion_rows))
    return "\n".join(out) + "\n"


def update_document(path, table):
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise InputError("%s: %s" % (path, error.strerror or error)) from None
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        raise InputError("%s: no %s ... %s markers to put the table between" % (path, BEGIN, END))
    generated = ("%s\n<!-- Generated by scripts/perf_table.py from `hdrlab bench pipeline` output "
                 "(scripts/perf-table.sh); edit the script, not this table. -->\n\n%s\n" % (BEGIN, table))
    text = text[:begin] + generated + text[end:]
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+", help="bench pipeline --csv files")
    parser.add_argument("--log", action="append", default=[], help="the bench's printed output (repeatable)")
    parser.add_argument("--env", help="key: value lines (device, driver, date, commit)")
    for key in ("device", "driver", "date", "commit", "peak"):
        parser.add_argument("--" + key)
    parser.add_argument("--assume-frame-format", help="frame format of CSVs without a frame_format column")
    parser.add_argument("--bins", help="bin count to show (default 256, else the smallest)")
    parser.add_argument("--operators", help="comma list (default: every operator in the CSVs)")
    parser.add_argument("--note", help="a paragraph under the header")
    parser.add_argument("--clahe", action="append", default=[], help="bench clahe --csv files (repeatable)")
    parser.add_argument("--fusion", action="append", default=[], help="bench fusion --csv files (repeatable)")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--update", help="Markdown file whose marked block is replaced")
    target.add_argument("--output", help="write the table here instead of stdout")
    args = parser.parse_args(argv)
    try:
        # The build line of the bench names what ran (with -dirty): it beats the checkout's commit.
        logged = read_logs(args.log)
        facts = dict(logged)
        facts.update(read_env(args.env))
        if "commit" in logged:
            facts["commit"] = logged["commit"]
        for key in ("device", "driver", "date", "commit", "peak"):
            if getattr(args, key):
                facts[key] = getattr(args, key)
        # A `bench clahe` or `bench fusion` CSV among the positional ones (a folder's *.csv) counts as
        # --clahe or --fusion.
        clahe_paths = args.clahe + [path for path in args.csv if is_clahe_csv(path)]
        fusion_paths = args.fusion + [path for path in args.csv if is_fusion_csv(path)]
        pipeline_paths = [path for path in args.csv if not is_clahe_csv(path) and not is_fusion_csv(path)]
        if not pipeline_paths:
            raise InputError("no `bench pipeline` CSV among %s" % ", ".join(args.csv))
        rows = read_rows(pipeline_paths, args.assume_frame_format)
        operators = [op for op in args.operators.split(",") if op] if args.operators else None
        link_base = os.path.dirname(os.path.abspath(args.update or args.output or "."))
        if not (args.update or args.output):
            link_base = None
        clahe_rows = read_clahe_rows(clahe_paths)
        fusion_rows = read_fusion_rows(fusion_paths)
        table = build_table(rows, facts, args.bins, operators, args.note, link_base, clahe_rows, fusion_rows)
        if args.update:
            update_document(args.update, table)
        elif args.output:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(table)
        else:
            sys.stdout.write(table)
    except InputError as error:
        sys.stderr.write("perf_table.py: error: %s\n" % error)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

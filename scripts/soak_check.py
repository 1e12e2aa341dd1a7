#!/usr/bin/env python3
"""soak_check.py: the growth check of scripts/soak.sh.

Reads the `resources:` lines that `hdrlab --resource-report N` prints (frame, rss_kb, gl_* counts,
cuda_allocs) and fails when anything grows after warm-up:

- warm-up: every sample before WARMUP_FRAMES (soak.sh passes 10% of the run); the baseline is the
  first sample at or after it. Start-up (shader compilation, lazily made method scratch, driver
  caches) allocates by design, so growth is only judged from there on.
- GL objects (every gl_* kind) and CUDA allocations: no later sample may exceed the baseline.
- resident memory: no later sample may exceed the baseline by more than RSS_TOLERANCE_KB (allocator
  and driver noise; a leak of one small object per frame exceeds it within a few thousand frames).

Usage: soak_check.py LOG WARMUP_FRAMES RSS_TOLERANCE_KB
Prints one line per finding; exit 0 (no growth), 1 (growth), 2 (unusable input).
"""
import re
import sys

LINE = re.compile(r"^resources: (.*)$")


def parse_samples(lines):
    """The samples of a report, as dicts of int (cuda_allocs: None where the build has no CUDA)."""
    samples = []
    for line in lines:
        match = LINE.match(line.strip())
        if not match:
            continue
        sample = {}
        for field in match.group(1).split():
            key, _, value = field.partition("=")
            sample[key] = None if value == "n/a" else int(value)
        if "frame" not in sample or "rss_kb" not in sample:
            raise ValueError("resource line without frame or rss_kb: " + line.strip())
        samples.append(sample)
    return samples


def find_growth(samples, warmup_frames, rss_tolerance_kb):
    """One message per count that grew after warm-up (empty: no growth)."""
    after = [s for s in samples if s["frame"] >= warmup_frames]
    if len(after) < 2:
        raise ValueError(
            "need at least two samples at or after the warm-up of %d frames, got %d" % (warmup_frames, len(after))
        )
    baseline = after[0]
    findings = []
    grown = set()  # each count is reported once, at its first growth
    counted = [k for k in baseline if k.startswith("gl_") or k == "cuda_allocs"]
    for sample in after[1:]:
        for key in counted:
            if key in grown or baseline[key] is None or sample.get(key) is None:
                continue
            if sample[key] > baseline[key]:
                grown.add(key)
                findings.append(
                    "%s grew from %d (frame %d) to %d (frame %d)"
                    % (key, baseline[key], baseline["frame"], sample[key], sample["frame"])
                )
        if "rss_kb" not in grown and baseline["rss_kb"] >= 0 and sample["rss_kb"] > baseline["rss_kb"] + rss_tolerance_kb:
            grown.add("rss_kb")
            findings.append(
                "rss_kb grew from %d (frame %d) to %d (frame %d), more than the tolerance of %d KiB"
                % (baseline["rss_kb"], baseline["frame"], sample["rss_kb"], sample["frame"], rss_tolerance_kb)
            )
    return findings


def main(argv):
    if len(argv) != 4:
        print("usage: soak_check.py LOG WARMUP_FRAMES RSS_TOLERANCE_KB", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8", errors="replace") as log:
            samples = parse_samples(log)
        findings = find_growth(samples, int(argv[2]), int(argv[3]))
    except (OSError, ValueError) as error:
        print("soak_check: error: %s" % error, file=sys.stderr)
        return 2
    for finding in findings:
        print("soak_check: growth after warm-up: " + finding)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

# Sourced after tests/lib.sh by tests of the per-interval histograms
# (series.hist, results/README.md): tests/ivhist.py, a decoder written
# apart from the C one, behind shell functions.
#
#   ivhist_check SET...      every repetition's intervals add up, bucket by
#                            bucket, to its histogram, and each interval to
#                            its series' ios; prints "N intervals, M IOs";
#                            fails when a repetition has no series.hist
#   ivhist_pct FILE REP DIR P   interval I's percentile P (the bucket's
#                            midpoint, as iomatrix reports) of repetition
#                            REP (1-based) of cell FILE: "I NS" per line
#   ivhist_buckets FILE REP DIR   "I LOW_NS COUNT" per non-empty bucket
#   ivhist_fio_kept LOG CELLFILE   every count of fio's histogram log in the
#                            reads of the imported cell, window by window
#                            and bucket by bucket; "N of M windows"
#   ivhist_agg_sum SET       a fleet set's aggregate cells: each interval's
#                            histogram the sum of its hosts' (same plan_id)
ivhist_check() { python3 "$ROOT/tests/ivhist.py" check "$@"; }
ivhist_pct() { python3 "$ROOT/tests/ivhist.py" pct "$@"; }
ivhist_buckets() { python3 "$ROOT/tests/ivhist.py" buckets "$@"; }
ivhist_fio_kept() { python3 "$ROOT/tests/ivhist.py" fio-kept "$@"; }
ivhist_agg_sum() { python3 "$ROOT/tests/ivhist.py" agg-sum "$@"; }

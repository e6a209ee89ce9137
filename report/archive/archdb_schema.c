/*
 * archdb_schema.c - the tables and views of index.sqlite (archdb.h), once:
 * the CREATE statements the code runs and docs/database.md's table of
 * every column, its unit and its meaning come from these rows, so the page
 * cannot drift from the file (tests/integration/archive/db_schema_doc.sh).
 * The cells table has one column per key of the key table
 * (bench/suite/keys.c), named as the key: a new key is a new column.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "archdb_schema.h"
#include "setarchive.h"
#include "setlist_entry.h"
#include "resultset/rset.h"
#include "stats/qos.h"
#include "suite/keys.h"

#define SET_ID { "set_id", "INTEGER", NULL, "the set (sets.set_id)" }
#define CELL_ID { "cell_id", "INTEGER", NULL, "the cell file's id (cells/NNNN.json)" }
#define REP { "rep", "INTEGER", NULL, "repetition, 1-based" }
#define DIRECTION { "direction", "TEXT", NULL, "`read` or `write`" }
#define END { NULL, NULL, NULL, NULL, 0, ARCHDB_FIELD_NONE }
/* the column is written from field f of the struct T its rows are made of */
#define AT(T, f) offsetof(T, f), ARCHDB_FIELD_OF(((T *)0)->f)
/* the same, a string that may be NULL */
#define AT_OR_NULL(T, f) offsetof(T, f), ARCHDB_FIELD_STR_NULL

static const struct archdb_col meta_cols[] = {
	{ "key", "TEXT", NULL, "`made_for`: the machine and archive directory the file was made "
	  "for (a hash; another one makes every command rebuild or ignore it); `iomatrix`: "
	  "the version that wrote it" },
	{ "value", "TEXT", NULL, "its value" },
	END,
};

static const struct archdb_col sets_cols[] = {
	{ "set_id", "INTEGER", NULL, "the set's number in this file (not stable across rebuilds: "
	  "join on it, name sets by `path`)" },
	{ "path", "TEXT", NULL, "the set's directory, relative to the archive "
	  "(`2026-11-30T024012Z_quick_vm`, `reference/...`)" },
	{ "name", "TEXT", NULL, "the set directory's own name" },
	{ "date", "TEXT", "UTC", "what the archive sorts sets by: `started_at`, else the date "
	  "the directory name starts with, else `unknown`" },
	{ "suite", "TEXT", NULL, "the suite's name (`unknown` when the manifest has none)" },
	{ "title", "TEXT", NULL, "the suite's title, NULL when none" },
	{ "host", "TEXT", NULL, "the host name of the manifest (`unknown` when none; a fleet "
	  "set's controller: each cell names its host)" },
	{ "started_at", "TEXT", "UTC", "when the run started (ISO 8601), NULL when unknown" },
	{ "finished_at", "TEXT", "UTC", "when it ended, NULL while running" },
	{ "status", "TEXT", NULL, "`complete`, `interrupted`, `failed`, `running`; NULL when the "
	  "manifest has none" },
	{ "scale", "REAL", NULL, "the `--scale` factor (1: full size; below 1 a rehearsal)" },
	{ "source", "TEXT", NULL, "who measured: `iomatrix`, or the importer's tool (`fio`, "
	  "`sysbench`, `csv`, `synthetic`)" },
	{ "version", "TEXT", NULL, "the version of the tool that measured" },
	{ "kernel", "TEXT", NULL, "the kernel release of the host, NULL when unknown" },
	{ "sums_sha256", "TEXT", NULL, "sha256 (hex) of the set's SHA256SUMS file, NULL when it "
	  "has none: the row's stamp" },
	{ "verified", "TEXT", NULL, "`intact`, `FAILED` or `no checksums`, as `iomatrix verify` "
	  "says; a FAILED set has no cells, results or numbers here" },
	{ "failed_why", "TEXT", NULL, "what fails verification (`changed cells/0001.json, ...`)" },
	{ "cells_total", "INTEGER", NULL, "cells of the plan" },
	{ "cells_done", "INTEGER", NULL, "cell files read" },
	{ "cells_failed", "INTEGER", NULL, "of those, failed ones" },
	{ "has_report", "INTEGER", NULL, "1 when the set has report/report.html" },
	{ "repo_own", "INTEGER", NULL, "1 for this repository's own example and reference sets "
	  "(below examples/ or reference/), which list, history and site count only with --all" },
	{ "fleet_hosts", "INTEGER", NULL, "hosts of a fleet set (`run --hosts`, `--mpi`), NULL "
	  "for one host" },
	{ "loaded", "INTEGER", NULL, "1 when the set has a readable cell (0: `warnings` says why "
	  "not, and it has no numbers)" },
	{ "stamp", "TEXT", NULL, "sha256 of the digest and of every file's device, inode, size "
	  "and times when the set was read: `index` reads a set again when it changed" },
	{ "dirs_stamp", "TEXT", NULL, "device, inode, size and times of the set's directory, "
	  "of its cells/ and of every file in the two: history, list and site use the row "
	  "while it holds" },
	END,
};

static const struct archdb_col warnings_cols[] = {
	SET_ID,
	{ "i", "INTEGER", NULL, "order" },
	{ "kind", "TEXT", NULL, "`warning`, or `error` (the set could not be read)" },
	{ "relative", "INTEGER", NULL, "1: the message followed the set's path and `: `, which "
	  "is left out here" },
	{ "message", "TEXT", NULL, "what the reader said about the set" },
	END,
};

static const struct archdb_col list_entries_cols[] = {
	SET_ID,
	{ "date", "TEXT", NULL, "DATE as `iomatrix list` shows it",
	  AT(struct setlist_entry, date) },
	{ "suite", "TEXT", NULL, "SUITE", AT(struct setlist_entry, suite) },
	{ "host", "TEXT", NULL, "HOST (`fleet:N` for a fleet set)",
	  AT(struct setlist_entry, host) },
	{ "devices", "TEXT", NULL, "DEVICES", AT(struct setlist_entry, devices) },
	{ "scale", "TEXT", NULL, "SCALE", AT(struct setlist_entry, scale) },
	{ "cells", "TEXT", NULL, "CELLS (`done/total`, failed ones, bad index entries)",
	  AT(struct setlist_entry, cells) },
	{ "status", "TEXT", NULL, "STATUS", AT(struct setlist_entry, status) },
	{ "fails_verification", "TEXT", NULL, "what fails verification",
	  AT_OR_NULL(struct setlist_entry, unverified) },
	END,
};

static const struct archdb_col briefs_cols[] = {
	SET_ID,
	{ "started_at", "TEXT", "UTC", "`started_at`, NULL when the manifest has none" },
	{ "suite", "TEXT", NULL, "`suite`: the suite's name" },
	{ "sha256", "TEXT", NULL, "`sha256`: of the suite file" },
	{ "host", "TEXT", NULL, "`host` (a fleet set's controller)" },
	{ "fleet_hosts", "INTEGER", NULL, "`fleet_hosts`, NULL for one host" },
	{ "scale", "REAL", NULL, "`scale` (`rehearsal` is scale != 1)" },
	{ "source", "TEXT", NULL, "`source`: `iomatrix` or the importer's tool" },
	{ "status", "TEXT", NULL, "`status` as the manifest says it" },
	{ "command", "TEXT", NULL, "`command`: the set's command line, NULL for an import" },
	{ "cells_done", "INTEGER", NULL, "`cells_done`, NULL unknown" },
	{ "cells_total", "INTEGER", NULL, "`cells_total`, NULL unknown" },
	{ "cells_failed", "INTEGER", NULL, "`cells_failed`, NULL unknown" },
	{ "verify", "TEXT", NULL, "`verify`: `intact`, `no checksums` or `FAILED`, NULL not "
	  "checked (running)" },
	{ "fails_verification", "TEXT", NULL, "`fails_verification`, NULL when none" },
	{ "error", "TEXT", NULL, "`error`: why its manifest is unusable, NULL when it is not" },
	END,
};

static const struct archdb_col brief_devices_cols[] = {
	SET_ID,
	{ "i", "INTEGER", NULL, "order in the manifest" },
	{ "name", "TEXT", NULL, "a device name of `devices`" },
	END,
};

static const struct archdb_col devices_cols[] = {
	SET_ID,
	{ "dev", "INTEGER", NULL, "the device's number in its set (cells.dev)" },
	{ "name", "TEXT", NULL, "the suite's device name", AT(struct arc_dev, name) },
	{ "host", "TEXT", NULL, "the host it ran on (a fleet set: each host's; `all`: the "
	  "fleet's aggregate)", AT(struct arc_dev, host) },
	{ "path", "TEXT", NULL, "the path it was measured at", AT_OR_NULL(struct arc_dev, path) },
	{ "identity", "TEXT", NULL, "what makes two sets' devices one (history's series): the "
	  "host and name plus the model and serial's sha256 where known, else the path; a model "
	  "device's keys (`engine: model`) in place of a disk", AT(struct arc_dev, ident) },
	{ "model", "TEXT", NULL, "the disk's model, NULL when unknown", AT_OR_NULL(struct arc_dev, model) },
	{ "firmware", "TEXT", NULL, "its firmware revision, NULL when unknown" },
	{ "filesystem", "TEXT", NULL, "the filesystem holding the path, NULL for a raw device" },
	{ "ram", "INTEGER", NULL, "1 when the target is memory (tmpfs, zram, brd, pmem: it "
	  "measures RAM, not storage), 0 when not, NULL when unknown" },
	END,
};

static const struct archdb_col environment_cols[] = {
	SET_ID,
	{ "dev", "INTEGER", NULL, "the device (devices.dev)" },
	{ "key", "TEXT", NULL, "`kernel`, `iomatrix` (the tool's version), `firmware`, "
	  "`scheduler`, `mount options`, `filesystem`, `governor`, `virtualisation`: what "
	  "history names when a series moves" },
	{ "value", "TEXT", NULL, "its value (keys without one have no row)" },
	END,
};

static const struct archdb_col cells_cols[] = {
	SET_ID, CELL_ID,
	{ "host", "TEXT", NULL, "a fleet set's host that ran it (`all`: the aggregate), else NULL" },
	{ "device", "TEXT", NULL, "the suite's device name" },
	{ "dev", "INTEGER", NULL, "its device (devices.dev) for an ok cell, NULL for a failed one" },
	{ "status", "TEXT", NULL, "`ok` or `failed`" },
	{ "error", "TEXT", NULL, "why it failed" },
	{ "latency_kind", "TEXT", NULL, "what every latency of the cell measures: `total` "
	  "(submission to completion), `completion` (fio's clat) or `response` (from the "
	  "intended start of a rated IO)" },
	{ "workload", "TEXT", NULL, "the workload key (suite/workload.h): every parameter that "
	  "can change the result, where it counts (`pattern=randread;bs=4K;iodepth=1;...`; a "
	  "value an import inferred is spelled `pattern~write`); cells with one workload key "
	  "are one workload, for report, compare, history and the site alike" },
	END,
};

static const struct archdb_col stats_cols[] = {
	SET_ID, CELL_ID, DIRECTION,
	{ "metric", "TEXT", NULL, "`iops`, `bw_bytes_s`, `lat_mean_ns`, `lat_p50_ns`, "
	  "`lat_p99_ns`, `lat_max_ns` (the cell file's summary)" },
	{ "n", "INTEGER", NULL, "repetitions", AT(struct rset_stat, n) },
	{ "mean", "REAL", "the metric's", "mean over the repetitions", AT(struct rset_stat, mean) },
	{ "stddev", "REAL", "the metric's", "standard deviation", AT(struct rset_stat, stddev) },
	{ "min", "REAL", "the metric's", "smallest", AT(struct rset_stat, min) },
	{ "max", "REAL", "the metric's", "largest", AT(struct rset_stat, max) },
	{ "cv", "REAL", NULL, "coefficient of variation, stddev/mean", AT(struct rset_stat, cv) },
	{ "ci95", "REAL", "the metric's", "half-width of the 95 % confidence interval of the "
	  "mean (Student's t; 0 when n < 2)", AT(struct rset_stat, ci95) },
	END,
};

static const struct archdb_col directions_cols[] = {
	SET_ID, CELL_ID, DIRECTION,
	{ "ios", "INTEGER", "IOs", "IOs of every repetition" },
	{ "bytes", "INTEGER", "bytes", "bytes of every repetition" },
	{ "lat_mean_ns", "REAL", "ns", "mean latency of every IO of every repetition (the "
	  "report's)" },
	{ "lat_p99_ns", "REAL", "ns", "p99 latency of every IO of every repetition (the "
	  "report's)" },
	{ "lat_min_ns", "REAL", "ns", "least latency" },
	END,
};

static const struct archdb_col results_cols[] = {
	SET_ID, CELL_ID, REP, DIRECTION,
	{ "ios", "INTEGER", "IOs", "IOs completed in the measured time",
	  AT(struct rset_rep_dir, ios) },
	{ "bytes", "INTEGER", "bytes", "bytes moved", AT(struct rset_rep_dir, bytes) },
	{ "runtime_ns", "INTEGER", "ns", "measured time (ramp excluded)" },
	{ "iops", "REAL", "IOPS", "ios / runtime", AT(struct rset_rep_dir, iops) },
	{ "bw_bytes_s", "REAL", "bytes/s", "bytes / runtime", AT(struct rset_rep_dir, bw_bytes_s) },
	{ "lat_mean_ns", "REAL", "ns", "mean latency", AT(struct rset_rep_dir, lat_mean_ns) },
	{ "lat_min_ns", "REAL", "ns", "least latency", AT(struct rset_rep_dir, lat_min_ns) },
	{ "lat_max_ns", "REAL", "ns", "largest latency", AT(struct rset_rep_dir, lat_max_ns) },
	{ "lat_stddev_ns", "REAL", "ns", "standard deviation of the latency",
	  AT(struct rset_rep_dir, lat_stddev_ns) },
	{ "latency_kind", "TEXT", NULL, "the cell's (cells.latency_kind)" },
	END,
};

static const struct archdb_col percentiles_cols[] = {
	SET_ID, CELL_ID,
	{ "rep", "INTEGER", NULL, "repetition, 1-based; 0: every repetition merged (the "
	  "cell's lat_ns_merged)" },
	DIRECTION,
	{ "p", "REAL", "%", "the percentile (99.9)" },
	{ "ns", "REAL", "ns", "its latency" },
	END,
};

static const struct archdb_col series_cols[] = {
	SET_ID, CELL_ID, REP, DIRECTION,
	{ "fine", "INTEGER", NULL, "0: the coarse intervals (`interval`, default 1 s); 1: the "
	  "20 ms intervals of a write's first 2 s" },
	{ "i", "INTEGER", NULL, "the interval, 0-based from the start of the measured time" },
	{ "interval_ns", "INTEGER", "ns", "its length (the last one of a run is usually "
	  "partial)" },
	{ "ios", "INTEGER", "IOs", "IOs completed in it" },
	{ "bytes", "INTEGER", "bytes", "bytes moved in it" },
	{ "lat_mean_ns", "REAL", "ns", "mean latency of its IOs" },
	END,
};

static const struct archdb_col load_points_cols[] = {
	SET_ID, CELL_ID,
	{ "point", "INTEGER", NULL, "the load point, 0-based in offered order" },
	{ "offered_iops", "REAL", "IOPS", "what the jobs were asked for in total",
	  AT(struct qos_point, offered_iops) },
	{ "achieved_iops", "REAL", "IOPS", "what they did", AT(struct qos_point, achieved_iops) },
	{ "refined", "INTEGER", NULL, "1: added by the bisection around the QoS target",
	  AT(struct qos_point, refined) },
	{ "knee", "INTEGER", NULL, "1: the knee (the response p99 stays above 3x its low-load "
	  "level from here on)" },
	{ "response_p50_ns", "REAL", "ns", "response latency (from each IO's intended start) p50",
	  AT(struct qos_point, p50_ns) },
	{ "response_p99_ns", "REAL", "ns", "response p99", AT(struct qos_point, p99_ns) },
	{ "response_p999_ns", "REAL", "ns", "response p99.9", AT(struct qos_point, p999_ns) },
	{ "response_p9999_ns", "REAL", "ns", "response p99.99", AT(struct qos_point, p9999_ns) },
	{ "response_mean_ns", "REAL", "ns", "response mean", AT(struct qos_point, mean_ns) },
	{ "service_p50_ns", "REAL", "ns", "service latency (from submission) p50",
	  AT(struct qos_point, svc_p50_ns) },
	{ "service_p99_ns", "REAL", "ns", "service p99", AT(struct qos_point, svc_p99_ns) },
	{ "service_p999_ns", "REAL", "ns", "service p99.9", AT(struct qos_point, svc_p999_ns) },
	{ "service_mean_ns", "REAL", "ns", "service mean", AT(struct qos_point, svc_mean_ns) },
	END,
};

static const struct archdb_col load_sweeps_cols[] = {
	SET_ID, CELL_ID,
	{ "max_iops", "REAL", "IOPS", "the probed maximum" },
	{ "qos_metric", "TEXT", NULL, "the target's metric (`p99`, `p99.9`, `p99.99`, `mean`), "
	  "NULL without a target" },
	{ "qos_target_ns", "INTEGER", "ns", "the target" },
	{ "sustained_iops", "REAL", "IOPS", "the highest achieved load that meets the target "
	  "and keeps up, NULL when none does" },
	END,
};

static const struct archdb_col plateaus_cols[] = {
	SET_ID, CELL_ID, REP,
	{ "i", "INTEGER", NULL, "the plateau, 0-based in time order" },
	{ "first_index", "REAL", NULL, "its first coarse interval, NULL unknown",
	  AT(struct rset_plateau, first_index) },
	{ "start_ns", "REAL", "ns", "where it starts, NULL unknown",
	  AT(struct rset_plateau, start_ns) },
	{ "duration_ns", "REAL", "ns", "how long it lasts", AT(struct rset_plateau, duration_ns) },
	{ "level_bw_bytes_s", "REAL", "bytes/s", "its level",
	  AT(struct rset_plateau, level_bw_bytes_s) },
	{ "bytes", "REAL", "bytes", "bytes written in it", AT(struct rset_plateau, bytes) },
	END,
};

static const struct archdb_col cliffs_cols[] = {
	SET_ID, CELL_ID, REP,
	{ "found", "INTEGER", NULL, "1: a write cliff (the rule of docs/reports.md)" },
	{ "break_ns", "REAL", "ns", "when the level dropped" },
	{ "drop_pct", "REAL", "%", "by how much" },
	{ "interval_ns", "REAL", "ns", "the series' interval" },
	{ "samples", "INTEGER", NULL, "intervals the fit used" },
	{ "stalls", "INTEGER", NULL, "intervals with no write at all" },
	END,
};

static const struct archdb_col steady_state_cols[] = {
	SET_ID,
	{ "cell_id", "INTEGER", NULL, "the cell run until steady (`steady_state:`), NULL for a "
	  "device's SNIA PTS rounds" },
	{ "device", "TEXT", NULL, "the device" },
	{ "steady", "INTEGER", NULL, "1 steady, 0 not (stopped at the limit)" },
	{ "metric", "TEXT", NULL, "rounds: the tracked metric (`iops`, `bw_bytes_s`, "
	  "`lat_mean_ns`)" },
	{ "window", "INTEGER", NULL, "repetitions or rounds a window spans" },
	{ "rounds", "INTEGER", NULL, "rounds run (NULL for a cell)" },
	{ "steady_round", "INTEGER", NULL, "the round it became steady in, NULL never" },
	{ "range_pct", "REAL", "%", "a cell's measured range within the window" },
	{ "slope_pct", "REAL", "%", "a cell's measured slope over the window" },
	END,
};

static const struct archdb_col reproductions_cols[] = {
	SET_ID,
	{ "original", "TEXT", NULL, "the directory name of the set it reproduces (join "
	  "sets.name)" },
	{ "original_manifest_sha256", "TEXT", NULL, "sha256 of that set's manifest.json" },
	{ "tolerance_pct", "REAL", "%", "the `--tolerance` its verdicts were judged by" },
	END,
};

static const struct archdb_col cell_metrics_cols[] = {
	SET_ID, CELL_ID,
	{ "metric", "TEXT", NULL, "`iops` (IOPS), `mbs` (MB/s, 10^6 bytes/s), `lat_mean`, "
	  "`lat_p99` (µs): history's and the site's value of an ok cell, its directions "
	  "together" },
	{ "mean", "REAL", "the metric's", "the value", AT(struct arc_val, mean) },
	{ "stddev", "REAL", "the metric's", "its spread over the repetitions",
	  AT(struct arc_val, stddev) },
	{ "ci95", "REAL", "the metric's", "half-width of its 95 % confidence interval",
	  AT(struct arc_val, ci95) },
	{ "n", "INTEGER", NULL, "repetitions", AT(struct arc_val, n) },
	END,
};

#define FK "FOREIGN KEY (set_id) REFERENCES sets(set_id) ON DELETE CASCADE"
#define T(n, h, k) { #n, h, n##_cols, k }

const struct archdb_table archdb_tables[] = {
	T(meta, "About the file itself.", "PRIMARY KEY (key)) WITHOUT ROWID"),
	T(sets, "One row per result set of the archive.", "PRIMARY KEY (set_id), UNIQUE (path))"),
	T(warnings, "What the set reader said about a set, one row per warning.",
	  "PRIMARY KEY (set_id, i), " FK ") WITHOUT ROWID"),
	T(list_entries, "What `iomatrix list` shows of a set, as it shows it (the terminal's "
	  "escapes applied): list reads this row while the set is unchanged.",
	  "PRIMARY KEY (set_id), " FK ") WITHOUT ROWID"),
	T(briefs, "A set in brief, one row per set: one column per key of `list --format json` "
	  "(docs/reports.md, \"A set in brief\"), as the set says it (its `path` is where "
	  "the set is found).", "PRIMARY KEY (set_id), " FK ") WITHOUT ROWID"),
	T(brief_devices, "A set in brief's `devices`, one row per name.",
	  "PRIMARY KEY (set_id, i), " FK ") WITHOUT ROWID"),
	T(devices, "One row per device of a set, per host in a fleet set.",
	  "PRIMARY KEY (set_id, dev), " FK ") WITHOUT ROWID"),
	T(environment, "What history compares when a series moves: one row per device and "
	  "key.", "PRIMARY KEY (set_id, dev, key), " FK ") WITHOUT ROWID"),
	T(cells, "One row per cell file; one column per key of the suite language (`iomatrix "
	  "validate --help`), in the units of results/README.md (sizes in bytes, durations "
	  "in ns).", "PRIMARY KEY (set_id, cell_id), " FK ") WITHOUT ROWID"),
	T(stats, "The cell file's summary across repetitions: one row per cell, direction and "
	  "metric.", "PRIMARY KEY (set_id, cell_id, direction, metric), " FK ") WITHOUT ROWID"),
	T(directions, "Every repetition of a cell's direction together.",
	  "PRIMARY KEY (set_id, cell_id, direction), " FK ") WITHOUT ROWID"),
	T(results, "One row per repetition and direction.",
	  "PRIMARY KEY (set_id, cell_id, rep, direction), " FK ") WITHOUT ROWID"),
	T(percentiles, "Latency percentiles, one row per percentile.",
	  "PRIMARY KEY (set_id, cell_id, rep, direction, p), " FK ") WITHOUT ROWID"),
	T(series, "The time series: one row per interval.",
	  "PRIMARY KEY (set_id, cell_id, rep, direction, fine, i), " FK ") WITHOUT ROWID"),
	T(load_sweeps, "A cell with `load_sweep`: its maximum and QoS verdict.",
	  "PRIMARY KEY (set_id, cell_id), " FK ") WITHOUT ROWID"),
	T(load_points, "A load sweep's points, one row each.",
	  "PRIMARY KEY (set_id, cell_id, point), " FK ") WITHOUT ROWID"),
	T(plateaus, "The plateaus of a write's series (the write-cliff fit).",
	  "PRIMARY KEY (set_id, cell_id, rep, i), " FK ") WITHOUT ROWID"),
	T(cliffs, "The write-cliff verdict of a repetition's writes.",
	  "PRIMARY KEY (set_id, cell_id, rep), " FK ") WITHOUT ROWID"),
	T(steady_state, "Steady state: of a cell run until steady, and of a device's SNIA PTS "
	  "rounds.", FK ")"),
	T(reproductions, "A set made by `iomatrix reproduce`: which set it reproduces.",
	  "PRIMARY KEY (set_id), " FK ") WITHOUT ROWID"),
	T(cell_metrics, "History's and the site's value of each ok cell: one row per metric.",
	  "PRIMARY KEY (set_id, cell_id, metric), " FK ") WITHOUT ROWID"),
};
const size_t archdb_ntables = sizeof(archdb_tables) / sizeof(archdb_tables[0]);

const struct archdb_view archdb_views[] = {
	{ "report_numbers", "The report's numbers per cell and direction: mean IOPS and "
	  "bandwidth with their 95 % CI and CV, and the latency of every IO (mean and p99, "
	  "ns). Only sets that are not FAILED have rows.",
	  "SELECT c.set_id, c.cell_id, s.path AS set_path, c.host, c.device, c.label, "
	  "c.pattern, c.bs, c.iodepth, c.jobs, d.direction, i.n AS n, "
	  "i.mean AS iops, i.ci95 AS iops_ci95, i.cv AS iops_cv, "
	  "b.mean AS bw_bytes_s, b.ci95 AS bw_ci95, b.cv AS bw_cv, "
	  "d.lat_mean_ns, d.lat_p99_ns, s.verified "
	  "FROM directions d JOIN cells c USING (set_id, cell_id) JOIN sets s USING (set_id) "
	  "LEFT JOIN stats i ON i.set_id = d.set_id AND i.cell_id = d.cell_id "
	  "AND i.direction = d.direction AND i.metric = 'iops' "
	  "LEFT JOIN stats b ON b.set_id = d.set_id AND b.cell_id = d.cell_id "
	  "AND b.direction = d.direction AND b.metric = 'bw_bytes_s' "
	  "WHERE c.status = 'ok'" },
	{ "device_series", "History's device series: one row per set, device, workload and "
	  "metric, in date order (what `iomatrix history` plots; its change points are "
	  "history's own).",
	  "SELECT s.date, s.path AS set_path, s.scale, v.host, v.name AS device, v.identity, "
	  "c.label || ' ' || c.pattern AS workload, c.workload AS workload_key, m.metric, "
	  "m.mean, m.ci95, m.n "
	  "FROM cell_metrics m JOIN cells c USING (set_id, cell_id) "
	  "JOIN devices v ON v.set_id = c.set_id AND v.dev = c.dev "
	  "JOIN sets s ON s.set_id = c.set_id "
	  "ORDER BY s.date, s.path, v.identity, workload, m.metric" },
	{ "best_4k_qd1_random_read", "Every device's best 4K QD1 random read across all sets "
	  "(IOPS, one job, full size runs; a device is its identity).",
	  "SELECT v.host, v.name AS device, v.model, max(m.mean) AS iops, "
	  "count(DISTINCT c.set_id) AS sets FROM cell_metrics m JOIN cells c USING (set_id, cell_id) "
	  "JOIN devices v ON v.set_id = c.set_id AND v.dev = c.dev "
	  "JOIN sets s ON s.set_id = c.set_id "
	  "WHERE c.pattern = 'randread' AND c.bs = 4096 AND c.iodepth = 1 AND c.jobs = 1 "
	  "AND m.metric = 'iops' AND s.scale = 1 GROUP BY v.identity ORDER BY iops DESC" },
};
const size_t archdb_nviews = sizeof(archdb_views) / sizeof(archdb_views[0]);

/* ---- the cells table's columns from the key table ---- */

static const char *key_sql_type(const struct key *k)
{
	switch (k->type) {
	case KT_PATTERN: case KT_ENGINE: case KT_DATA: case KT_LABEL: case KT_STEADY:
	case KT_CPULIST: case KT_CUSTOM: case KT_RANDDIST:
		return "TEXT";
	case KT_PCT:
		return "REAL";
	default:
		return "INTEGER";
	}
}

static const char *key_unit(const struct key *k)
{
	switch (k->type) {
	case KT_SIZE: case KT_SIZE_PCT: case KT_OFFSET: case KT_IO_SIZE:
		return "bytes";
	case KT_DURATION:
		return "ns";
	case KT_PCT:
		return "%";
	default:
		return NULL;
	}
}

/* The second field's column (size_pct, offset_pct, compress_pct, ...). */
static const char *key_unit2(const struct key *k)
{
	return k->type == KT_IO_SIZE ? "file sets" : "%";
}

static struct archdb_col cells_all[sizeof(cells_cols) / sizeof(cells_cols[0]) + 2 * NKEYS];
static size_t ncells_all;
static char key_help[NKEYS][2][160];
static pthread_once_t cells_once = PTHREAD_ONCE_INIT;

static void cells_build(void)
{
	size_t n = 0;
	for (const struct archdb_col *c = cells_cols; c->name; c++)
		cells_all[n++] = *c;
	for (int k = 0; k < NKEYS; k++) {
		const struct key *key = &cell_keys[k];
		const char *help = key->help && *key->help ? key->help :
				   "(`iomatrix validate --help` explains it)";
		snprintf(key_help[k][0], sizeof(key_help[k][0]), "%s%s", help,
			 key->type == KT_CUSTOM || key->type == KT_STEADY ?
			 " (its JSON, NULL at the default)" : "");
		cells_all[n++] = (struct archdb_col){ key->name, key_sql_type(key), key_unit(key),
						      key_help[k][0], 0, ARCHDB_FIELD_NONE };
		if (key->json2) {
			snprintf(key_help[k][1], sizeof(key_help[k][1]), "`%s` as %s%s",
				 key->name, key_unit2(key),
				 key->type == KT_IO_SIZE ? " (0: given in bytes)" : " (0: not used)");
			cells_all[n++] = (struct archdb_col){ key->json2, key->type == KT_DATA ?
							      "INTEGER" : "REAL", key_unit2(key),
							      key_help[k][1], 0, ARCHDB_FIELD_NONE };
		}
	}
	ncells_all = n;
}

const struct archdb_col *archdb_table_cols(const struct archdb_table *t, size_t *n)
{
	if (!strcmp(t->name, "cells")) {
		pthread_once(&cells_once, cells_build);
		*n = ncells_all;
		return cells_all;
	}
	*n = 0;
	while (t->cols[*n].name)
		(*n)++;
	return t->cols;
}

const struct archdb_table *archdb_table_find(const char *name)
{
	for (size_t i = 0; i < archdb_ntables; i++)
		if (!strcmp(archdb_tables[i].name, name))
			return &archdb_tables[i];
	return NULL;
}

const char *archdb_col_unit(const char *table, const char *col)
{
	const struct archdb_table *t = table ? archdb_table_find(table) : NULL;
	size_t n;
	const struct archdb_col *c = t ? archdb_table_cols(t, &n) : NULL;
	for (size_t i = 0; c && i < n; i++)
		if (!strcmp(c[i].name, col))
			return c[i].unit && strcmp(c[i].unit, "the metric's") ? c[i].unit : NULL;
	return NULL;
}

void archdb_schema_sql(struct sbuf *b)
{
	for (size_t i = 0; i < archdb_ntables; i++) {
		const struct archdb_table *t = &archdb_tables[i];
		size_t n;
		const struct archdb_col *c = archdb_table_cols(t, &n);
		sbuf_addf(b, "CREATE TABLE %s (", t->name);
		for (size_t k = 0; k < n; k++)
			sbuf_addf(b, "\"%s\" %s, ", c[k].name, c[k].type);
		sbuf_addf(b, "%s;\n", t->key);
	}
	/* deleting a set's rows and finding a path take an index each */
	sbuf_adds(b, "CREATE INDEX steady_state_set ON steady_state (set_id);\n");
	for (size_t i = 0; i < archdb_nviews; i++)
		sbuf_addf(b, "CREATE VIEW %s AS %s;\n", archdb_views[i].name, archdb_views[i].sql);
}

/* A doc cell: '|' would end the cell. */
static void doc_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s, f);
	}
}

void archdb_schema_doc(FILE *f)
{
	fprintf(f, "Schema version %d (`PRAGMA user_version`).\n", ARCHDB_SCHEMA_VERSION);
	for (size_t i = 0; i < archdb_ntables; i++) {
		const struct archdb_table *t = &archdb_tables[i];
		size_t n;
		const struct archdb_col *c = archdb_table_cols(t, &n);
		fprintf(f, "\n### `%s`\n\n%s\n\n| column | type | unit | meaning |\n|---|---|---|---|\n",
			t->name, t->help);
		for (size_t k = 0; k < n; k++) {
			fprintf(f, "| `%s` | %s | ", c[k].name, c[k].type);
			doc_text(f, c[k].unit ? c[k].unit : "");
			fputs(" | ", f);
			doc_text(f, c[k].help);
			fputs(" |\n", f);
		}
	}
	fputs("\n## Views\n", f);
	for (size_t i = 0; i < archdb_nviews; i++)
		fprintf(f, "\n### `%s`\n\n%s\n\n```sql\n%s\n```\n", archdb_views[i].name,
			archdb_views[i].help, archdb_views[i].sql);
}

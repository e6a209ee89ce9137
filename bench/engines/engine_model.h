/*
 * engine_model.h - the model device's parameters (engine_model.c): a
 * device that does no IO and whose behaviour, and so whose true IOPS,
 * bandwidth and latency, follow from these numbers alone.  The suite keys
 * model_* (suite/keys.c) fill it; docs/engines.md gives the formulas.
 */
#ifndef IOMATRIX_ENGINE_MODEL_H
#define IOMATRIX_ENGINE_MODEL_H

#include <stdint.h>

/* The service time of one IO, of mean latency_ns. */
enum model_dist {
	MODEL_FIXED,       /* always latency_ns */
	MODEL_EXPONENTIAL, /* exponential of that mean (memoryless) */
	MODEL_UNIFORM,     /* uniform in 0 .. 2 x latency_ns */
};

#define MODEL_MAX_PARALLEL 64
/* The longest one IO of the model may take: model_latency's maximum, and
 * what validate lets the ceilings make one IO take when the cell has no
 * runtime (suite_check.c); with a runtime, one IO must fit in it. */
#define MODEL_IO_MAX_NS (60ull * 1000000000ull)

struct model_params {
	uint64_t latency_ns;    /* mean service time of one IO */
	enum model_dist dist;
	unsigned parallel;      /* IOs served at once (servers) */
	uint64_t iops;          /* ceiling on IOs started a second; 0: none */
	uint64_t bw;            /* ceiling on bytes started a second; 0: none */
	uint64_t write_buffer;  /* bytes a repetition writes at full speed */
	uint64_t write_rate;    /* bytes a second written once the buffer is
				 * full; 0: no limit */
	double noise_pct;       /* a repetition's device is slower or faster
				 * by a factor (1 + noise)^u, u uniform in
				 * -1..1, seeded; 0: none */
};

#endif

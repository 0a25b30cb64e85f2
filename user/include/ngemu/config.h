/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated system's parameters: one struct, filled from a preset named
 * after a paper's setup, then config files, then command-line options, in
 * that order (later wins). Every parameter has a key ("link-bw"); the same
 * keys are the config file's "key = value" lines and ngemu's "--key value"
 * options, so there is one spelling for everything.
 *
 * A key is described by one struct ng_key. The runtime's keys are listed
 * in lib/config/keys.c; a model component's keys are listed next to it
 * (ng_component.keys), so a component brings its own parameters.
 */
#ifndef NGEMU_CONFIG_H
#define NGEMU_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ngemu/model/codec.h"
#include "ngemu/model/decision.h"
#include "ngemu/model/directory.h"
#include "ngemu/model/l1.h"
#include "ngemu/model/l2.h"
#include "ngemu/model/mem_side_l2.h"
#include "ngemu/model/migrate.h"
#include "ngemu/model/rdc.h"
#include "ngemu/model/rdma_cache.h"
#include "ngemu/model/scalegpu.h"

#define NG_MAX_GPUS	16
#define NG_MAX_SMS	64	/* emulated SMs (worker threads) per GPU */

enum ng_placement {
	NG_PLACE_FIRST_TOUCH,	/* page homed at the GPU that touches it first */
	NG_PLACE_FGP,		/* fine-grained interleave, fgp-granularity */
	NG_PLACE_CGP,		/* whole pages; consecutive pages round-robin */
	NG_PLACE_CODA,		/* CODA's chunk rule (CODA sec. 4.3, Equation 2) */
	NG_PLACE_HOST,		/* host memory, over the CPU-GPU link */
	NG_PLACE_NODE,		/* every page on one GPU (cgp by node) */
};

/* CODA's chunk rule (runtime/placement.c) */
enum ng_coda_chunk {
	NG_CODA_CHUNK_CAP,	/* min(4 KB, B x N), as the paper writes it */
	NG_CODA_CHUNK_UNCAPPED,	/* B x N */
};

/* Host copies a run's time includes (ScaleGPU's baselines) */
enum ng_host_copies {
	NG_COPIES_NONE,		/* the data is where the kernels need it */
	NG_COPIES_ONCE,		/* H2D of the read data before, D2H after */
	NG_COPIES_PER_KERNEL,	/* split code: each kernel's data in and out */
};

/* Where CODA's B comes from */
enum ng_coda_b {
	NG_CODA_B_PROFILE,	/* a profiling run's page-access tracking */
	NG_CODA_B_HINT,		/* the allocation's block_bytes (public API) */
};

enum ng_sched_kind {
	NG_SCHED_RR,		/* block b -> GPU b mod n */
	NG_SCHED_BATCH,		/* NUMA-GPU contiguous batches (default) */
	NG_SCHED_CODA,		/* CODA affinity */
	NG_SCHED_MGPUSIM,	/* MGPUSim's unified multi-GPU driver */
};

/* Software page replication baselines (CARVE section II / Fig 5). */
enum ng_replicate {
	NG_REPL_NONE,		/* NUMA-GPU: L2 caching only */
	NG_REPL_RO,		/* + a local copy of read-only shared pages */
	NG_REPL_ALL,		/* ideal: every access local, no coherence cost */
};

/*
 * How the GPUs are connected (model/link.c): a link per ordered pair, each
 * at link-bw (mesh); one port per GPU each way into a switch (switch); or
 * one link per GPU to the CPU, which GPU-to-GPU traffic crosses twice
 * (hub). Switch and hub bound a GPU's traffic to link-bw each way.
 */
enum ng_link_topology {
	NG_TOPO_MESH,
	NG_TOPO_SWITCH,
	NG_TOPO_HUB,
};

/*
 * DualOpt's remote-access optimizations (model/decision.c): none (the paper's
 * baseline: remote lines cross the link whole), one forced on for the
 * whole run, or the decision engine's choice per GPU.
 */
enum ng_remote_opt {
	NG_RO_OFF,		/* baseline: line transfers, no RDMA cache */
	NG_RO_COALESCE,		/* fine-grained remote loads, CoDec packing */
	NG_RO_RDMA,		/* the RDMA cache holds remote lines */
	NG_RO_AUTO,		/* the decision engine picks one of the two */
};

enum ng_mem_backend {
	NG_MEM_AUTO,
	NG_MEM_USER,
	NG_MEM_KMOD,
};

struct ng_config {
	char preset[16];
	unsigned int gpus;
	unsigned int sms;		/* emulated SMs = worker threads per GPU */
	unsigned int sm_scale;		/* real SMs one emulated SM stands for */
	unsigned int mlp;		/* line requests in flight per SM; 0: derived */
	double ipc;			/* warp instructions a real SM issues a cycle */
	/*
	 * Lanes of a wavefront, 32 or 64: with 64, two consecutive warps of
	 * the kernel API (32 lanes each) are one wavefront, whose line
	 * requests they share and which takes one warp slot of the SM.
	 */
	unsigned int warp_width;
	unsigned int blocks_per_sm;	/* resident blocks per emulated SM */
	unsigned int threads_per_sm;	/* resident threads per SM; 0: no limit */
	uint64_t shared_per_sm;		/* shared memory per SM; 0: no limit */
	double freq_ghz;
	unsigned int line;		/* modeled cache line, bytes */
	uint64_t page;			/* page (placement unit), bytes */
	uint64_t mem_per_gpu;		/* device memory per GPU, bytes */
	struct ng_l2_config l2;		/* the L2 (model/l2.c) */
	double local_bw;		/* GB/s (1e9 B/s) per GPU memory */
	double local_latency_ns;
	double link_bw;			/* GB/s, each direction of each link */
	double link_latency_ns;		/* one way */
	enum ng_link_topology topology;	/* what link-bw is the bandwidth of */
	unsigned int flit;		/* link bytes are rounded up to flits */
	double host_bw;			/* GB/s, each direction, per GPU */
	double host_latency_ns;		/* one way */
	enum ng_placement placement;
	unsigned int place_node;	/* GPU of NG_PLACE_NODE */
	uint64_t fgp_granularity;	/* bytes per FGP chunk */
	/*
	 * CARVE Table V(b): this percentage of the pages (chosen by a hash
	 * of their number) lives in host memory, as a Unified Memory
	 * oversubscription leaves them; the rest is placed as @placement
	 * says (0: none)
	 */
	double host_share;
	enum ng_coda_chunk coda_chunk;
	enum ng_coda_b coda_b;
	enum ng_sched_kind sched;
	bool steal;			/* idle GPUs take other GPUs' blocks */
	enum ng_mem_backend backend;
	bool deterministic;		/* all SMs on one thread, fixed order */
	bool checked;			/* every warp access checked (kernel.h) */
	unsigned int interval;		/* skew bound between host threads, cycles */
	unsigned int threads;		/* host threads (<= GPUs); 0: one per CPU */
	unsigned int stress;		/* host perturbation, 1 in N; 0: off */
	uint64_t seed;
	bool inject;			/* remote costs become real delays */
	double inject_batch_us;		/* spin only once this much is owed */
	uint64_t shared_bytes;		/* shared memory per block */
	/* CARVE (model/rdc.c): RDC carved out of each GPU's memory */
	struct ng_rdc_config rdc;
	enum ng_replicate replicate;	/* software replication baseline */
	bool sharing_profile;		/* keep the sharing profile (a measurement) */
	bool page_profile;		/* CODA's page-access tracking (one too) */
	enum ng_host_copies host_copies;
	/* REC (model/l1.c): an L1 per real SM (CU), software coherent */
	struct ng_l1_config l1;
	/* REC (model/directory.c): the L2's coherence for remote lines */
	struct ng_dir_config dir;
	/* DualOpt (model/decision.c, mshr.c, rdma_cache.c, codec.c) */
	enum ng_remote_opt remote_opt;
	unsigned int xfer_gran;		/* fine-grained transfer unit, bytes */
	unsigned int mshr_entries;	/* miss entries per real SM (CU) */
	struct ng_codec_config codec;	/* CoDec packets (codec.c) */
	struct ng_rdma_config rdma;	/* the RDMA cache (rdma_cache.c) */
	struct ng_decision_config de;	/* the decision engine (decision.c) */
	struct ng_migrate_config mig;	/* page migration (migrate.c) */
	/* MGPUSim's memory-side L2 (model/mem_side_l2.c) */
	struct ng_msl2_config msl2;
	/* ScaleGPU (model/scalegpu.c): device memory caches host memory */
	struct ng_scalegpu_config sg;
	/* CPU-GPU link packets (link.c); host_header 0: not modeled */
	unsigned int host_header;	/* bytes of header per packet */
	unsigned int host_payload;	/* most data bytes per packet */
};

/*
 * Presets: the papers' setups (lib/config/presets.c). ng_config_presets[]
 * lists the names, NULL-terminated.
 */
int ng_config_preset(struct ng_config *cfg, const char *name,
		     char *err, size_t errlen);
extern const char *const ng_config_presets[];
/* The setup a preset reproduces (one line), or NULL for an unknown name. */
const char *ng_config_preset_desc(const char *name);
/* Which paper it is, and what of that paper ngemu does not build yet. */
const char *ng_config_preset_paper(const char *name);
const char *ng_config_preset_missing(const char *name);
/*
 * Its suite (ngemu bench --list): a line about it, and the names of the
 * workloads its experiments run, NULL-terminated; NULL for an unknown name.
 */
const char *ng_config_preset_suite(const char *name);
const char *const *ng_config_preset_workloads(const char *name);

enum ng_key_type {
	NG_KEY_UINT,		/* unsigned int, a whole number */
	NG_KEY_SIZE,		/* uint64_t, a size: 4096, 64K, 2M, 1G */
	NG_KEY_SIZE_PCT,	/* a size, or "P%" of mem-per-gpu (double at pct_off) */
	NG_KEY_DOUBLE,
	NG_KEY_BOOL,		/* bool: yes/no, on/off, true/false, 1/0 */
	NG_KEY_ENUM,		/* an enum: one of names[] */
	NG_KEY_PLACE,		/* enum ng_placement, or node:G */
};

/* One parameter: its key, where it lives in struct ng_config, its range. */
struct ng_key {
	const char *name;
	enum ng_key_type type;
	size_t off;
	double min, max;
	const char *help;
	const char *const *names;	/* NG_KEY_ENUM: value names, by value */
	unsigned int nnames;
	size_t pct_off;			/* NG_KEY_SIZE_PCT: the percentage */
	double pct_max;			/* and its bound; 0: below 100 */
};

#define NG_KEY_OFF(field)	offsetof(struct ng_config, field)

/* A table entry: a number, size or yes/no key of field @f in [lo, hi]. */
#define NG_KEY_NUM(key, t, f, lo, hi, text)				\
	{ .name = (key), .type = (t), .off = NG_KEY_OFF(f), .min = (lo),	\
	  .max = (hi), .help = (text) }
/* An enum key: field @f takes the index of a name in the array @nm. */
#define NG_KEY_CHOICE(key, f, nm, text)					\
	{ .name = (key), .type = NG_KEY_ENUM, .off = NG_KEY_OFF(f),		\
	  .help = (text), .names = (nm),					\
	  .nnames = sizeof(nm) / sizeof((nm)[0]) }

/* The key called @name (the runtime's or a component's), or NULL. */
const struct ng_key *ng_config_find_key(const char *name);

/*
 * Set one parameter by key from text. Returns 0, or -EINVAL (malformed or
 * out-of-range value, message in @err naming key and problem) or -ENOENT
 * (unknown key).
 */
int ng_config_set(struct ng_config *cfg, const char *key, const char *value,
		  char *err, size_t errlen);
/* True when @key is a known key; *is_flag says it needs no value. */
bool ng_config_key(const char *key, bool *is_flag);

/* Print one key's value of @cfg as config text. */
void ng_config_format(const struct ng_config *cfg, const struct ng_key *k,
		      char *buf, size_t len);

/*
 * Read "key = value" lines ('#' starts a comment; lines of any length)
 * over @cfg. A "system = NAME" line applies a preset at that point. A
 * file that cannot be opened or read to its end (a directory, a read
 * error) is an error naming it; errors in a line name FILE:LINE. Returns
 * 0 or -errno (-EINVAL for a bad line).
 */
int ng_config_load(struct ng_config *cfg, const char *path,
		   char *err, size_t errlen);

/*
 * Turn the sizes given as a share of memory (rdc-size 6.25%) into bytes,
 * for the configuration's final mem-per-gpu and line. ng_config_from_args()
 * and ng_system_create() do it; call it after setting keys by hand.
 */
void ng_config_resolve(struct ng_config *cfg);

/* Cross-parameter checks (line <= page, powers of two, ...). */
int ng_config_validate(const struct ng_config *cfg, char *err, size_t errlen);

/*
 * Blocks of @threads threads using @shared bytes of shared memory that an
 * emulated SM holds at once under config @cfg, as a GPU's occupancy
 * calculator says: blocks-per-sm, or fewer when threads-per-sm or
 * shared-per-sm (0: no limit) run out first (threads count whole
 * wavefronts of warp-width lanes); at least 1. ng_launch() runs a kernel with that many.
 */
#define NG_CONFIG_WARP	32
unsigned int ng_resident_blocks(const struct ng_config *cfg,
				unsigned int threads, unsigned int shared);

/*
 * Line requests an emulated SM has in flight at most: mlp when set, else
 * its real SMs' miss entries (mshr-entries x sm-scale).
 */
unsigned int ng_config_mlp(const struct ng_config *cfg);

/* Derived numbers the calibration benchmarks are held against. */
double ng_config_remote_latency_ns(const struct ng_config *cfg);
double ng_config_local_load_latency_ns(const struct ng_config *cfg);

/* Print in config-file syntax (so the output is a valid config file). */
void ng_config_print(const struct ng_config *cfg, FILE *out);

/* Value names of the enums, indexed by value. */
extern const char *const ng_placement_names[6];
extern const char *const ng_sched_names[4];
extern const char *const ng_coda_chunk_names[2];
extern const char *const ng_coda_b_names[2];
extern const char *const ng_host_copies_names[3];
extern const char *const ng_mem_backend_names[3];
extern const char *const ng_coherence_names[3];
extern const char *const ng_replicate_names[3];
extern const char *const ng_directory_names[5];
extern const char *const ng_topology_names[3];
extern const char *const ng_dir_policy_names[2];
extern const char *const ng_remote_opt_names[4];
extern const char *const ng_migrate_names[2];

const char *ng_placement_name(enum ng_placement p);
const char *ng_sched_name(enum ng_sched_kind s);
const char *ng_mem_backend_name(enum ng_mem_backend b);
const char *ng_coherence_name(enum ng_coherence c);
const char *ng_replicate_name(enum ng_replicate r);

/*
 * The configuration a command line asks for: preset (--system NAME,
 * default carve), then every --config FILE in the order given (a later
 * file over an earlier one), then every --KEY VALUE (or --KEY=VALUE; a
 * yes/no key alone means yes, --no-KEY means no), in that order whatever
 * their order on the line. Arguments that are not config options are
 * copied to @rest, an array of @restcap entries (*nrest of them, argv[0]
 * excluded; argc - 1 entries always suffice); more than @restcap of them
 * is an error. Returns 0, or -EINVAL with a message naming the problem.
 */
int ng_config_from_args(struct ng_config *cfg, int argc, char **argv,
			char **rest, int restcap, int *nrest, char *err,
			size_t errlen);

/* Parse "64K", "2M", "1G", "4096" (binary units). */
int ng_parse_size(const char *s, uint64_t *out);

#endif /* NGEMU_CONFIG_H */

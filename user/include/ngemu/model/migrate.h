/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page migration's settings (a baseline of DualOpt's and CODA's: a page
 * moves to the first GPU that reaches it remotely; the component is
 * lib/model/migrate.c). They sit in struct ng_config as its member .mig;
 * the keys migrate and migrate-latency set them.
 */
#ifndef NGEMU_MODEL_MIGRATE_H
#define NGEMU_MODEL_MIGRATE_H

/* Page migration on first remote touch (DualOpt's second comparison). */
enum ng_migrate {
	NG_MIGRATE_OFF,
	NG_MIGRATE_FIRST_TOUCH,	/* a page moves to the first GPU reaching it remotely */
};

struct ng_migrate_config {
	enum ng_migrate mode;
	double latency_ns;		/* a migrating fault's stall */
};

/* Off; a migrating fault stalls 20 us. */
#define NG_MIGRATE_DEFAULTS	{ .mode = NG_MIGRATE_OFF, .latency_ns = 20000 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_MIGRATE_COUNTERS(X)						\
	X(MIG_PAGES,	"migrate", "pages",	"pages migrated on a first remote touch") \
	X(MIG_BYTES,	"migrate", "bytes",	"link bytes moving them")

#endif /* NGEMU_MODEL_MIGRATE_H */

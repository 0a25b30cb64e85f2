/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decision engine's settings (DualOpt sec. 4.3: after a warm-up, it
 * watches a window of a GPU's remote accesses and picks coalescing or
 * remote data caching for it by three thresholds; the component is
 * lib/model/decision.c). They sit in struct ng_config as its member .de;
 * the keys de-warmup, de-window, remote-thresh, block-thresh and
 * hit-thresh set them.
 */
#ifndef NGEMU_MODEL_DECISION_H
#define NGEMU_MODEL_DECISION_H

struct ng_decision_config {
	unsigned int warmup;		/* remote accesses before the window */
	unsigned int window;		/* remote accesses the engine watches */
	double remote_thresh, block_thresh, hit_thresh;
};

/*
 * DualOpt Table 1's thresholds (2%, 0.2, 0.4); the warm-up and window are
 * ngemu's (2000 and 20000 remote accesses).
 */
#define NG_DECISION_DEFAULTS						\
	{ .warmup = 2000, .window = 20000, .remote_thresh = 0.02,	\
	  .block_thresh = 0.2, .hit_thresh = 0.4 }

#endif /* NGEMU_MODEL_DECISION_H */

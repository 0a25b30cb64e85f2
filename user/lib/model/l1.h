/* SPDX-License-Identifier: GPL-2.0 */
/* What the L1 (l1.c) tells DualOpt's decision engine (decision.c). */
#ifndef NGEMU_LIB_MODEL_L1_H
#define NGEMU_LIB_MODEL_L1_H

#include <stdbool.h>
#include <stdint.h>

struct ng_model;

/*
 * Words used and words fetched of the remote lines GPU @gpu's L1s held
 * (remote-opt auto only, else 0): those that left so far, and with
 * @resident those still there too. Only from the GPU's own host thread.
 */
void ng_l1_remote_words(const struct ng_model *m, unsigned int gpu,
			bool resident, uint64_t *used, uint64_t *fetched);

#endif /* NGEMU_LIB_MODEL_L1_H */

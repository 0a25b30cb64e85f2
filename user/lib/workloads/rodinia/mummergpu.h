/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mummergpu: what its kernel (mummergpu.c) and its CPU side
 * (mummergpu_ref.c: the input, the suffix tree, the reference walk)
 * share.
 */
#ifndef NGEMU_LIB_WL_RODINIA_MUMMERGPU_H
#define NGEMU_LIB_WL_RODINIA_MUMMERGPU_H

#include <stdlib.h>

#include "workloads/wl.h"

#define MG_BLOCK	256		/* Rodinia's BLOCKSIZE */
#define MG_WARPS	(MG_BLOCK / NG_WARP)
#define MG_QLEN		30		/* bases a read */
#define MG_QREC		(MG_QLEN + 2)	/* 'q', the read, '\0' */
#define MG_MIN		20		/* mummergpu's -l default */
#define MG_NRES		(MG_QLEN - MG_MIN + 1)	/* coordinates a read */
#define MG_ROOT		1		/* node 0 is "no node" */

/* Rodinia's _PixelOfNode, 32-bit fields where it packs 24 (16 bytes) */
struct mg_node {
	uint32_t start, end;	/* the edge into the node: ref[start..end] */
	uint32_t suffix;	/* suffix link */
	uint32_t parent;
};

/* Rodinia's _PixelOfChildren: the A, C, G, T children, 0 for none */
struct mg_kids {
	uint32_t c[4];
};

/* Rodinia's _MatchCoord: the node and the characters matched on its edge */
struct mg_coord {
	uint32_t node, edge;
};

struct mg_input {
	char *ref;		/* 's', the reference, '$' */
	uint64_t rlen;		/* its bases */
	char *qry;		/* nq records of MG_QREC bytes */
	int32_t *addrs, *lens;	/* queryAddrs, queryLengths */
	uint64_t nq;
	struct mg_node *nodes;
	struct mg_kids *kids;
	uint64_t nnodes;	/* with node 0 */
};

/* 0-3 for A, C, G, T; 4 for anything else ('$', '\0') */
static inline unsigned int mg_base(char c)
{
	switch (c) {
	case 'A': return 0;
	case 'C': return 1;
	case 'G': return 2;
	case 'T': return 3;
	default: return 4;
	}
}

int mg_make(struct mg_input *in, uint64_t nq, uint64_t seed);
void mg_input_free(struct mg_input *in);
/* Rodinia's kernel_gold: every read's coordinates, and their lengths */
void mg_gold(const struct mg_input *in, struct mg_coord *out,
	     uint8_t *len);
/*
 * Every start's length in @len (0: under MG_MIN) against its longest
 * match in the reference, found without the tree. 0, or -1 with @msg.
 */
int mg_lengths(const struct mg_input *in, const uint8_t *len, char *msg,
	       size_t n);

#endif /* NGEMU_LIB_WL_RODINIA_MUMMERGPU_H */

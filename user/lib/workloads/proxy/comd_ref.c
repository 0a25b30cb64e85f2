// SPDX-License-Identifier: GPL-2.0
/*
 * comd's CPU side: the link cells' layout, the Lennard-Jones pair and
 * the Verlet updates, which its kernels (comd.c) also run, the lattice, and
 * the same step on the host that its result is checked against.
 */
#include "workloads/proxy/comd.h"

/* Cell (x, y, z)'s index: z-major. */
uint64_t cm_cell(const struct cm_args *a, unsigned int x, unsigned int y,
		 unsigned int z)
{
	return ((uint64_t)z * a->nc + y) * a->nc + x;
}

/*
 * Neighbour @n (0..26: dz, dy, dx in -1..1, dx fastest, as the loop over
 * nbrBoxes) of cell @c: its index and the shift of its periodic image.
 */
uint64_t cm_nbr(const struct cm_args *a, uint64_t c, int n,
		float shift[3])
{
	int d[3] = { n % 3 - 1, n / 3 % 3 - 1, n / 9 - 1 };
	int q[3] = { (int)(c % a->nc), (int)(c / a->nc % a->nc),
		     (int)(c / ((uint64_t)a->nc * a->nc)) };

	for (int m = 0; m < 3; m++) {
		q[m] += d[m];
		shift[m] = 0;
		if (q[m] < 0) {
			q[m] += (int)a->nc;
			shift[m] = -a->extent;
		} else if (q[m] >= (int)a->nc) {
			q[m] -= (int)a->nc;
			shift[m] = a->extent;
		}
	}
	return cm_cell(a, (unsigned int)q[0], (unsigned int)q[1],
		       (unsigned int)q[2]);
}

/*
 * ljForce's pair term: atom @ri's force and U (fu) from atom @rj whose
 * image is shifted by @sh (the kernel's and the CPU's).
 */
void cm_pair(const struct cm_args *a, const struct cm_vec *ri,
	     const struct cm_vec *rj, const float sh[3],
	     struct cm_vec *fu)
{
	float dr[3], r2 = 0, ir2, r6, e, fr;

	for (int m = 0; m < 3; m++) {
		dr[m] = ri->x[m] - (rj->x[m] + sh[m]);
		r2 += dr[m] * dr[m];
	}
	if (!(r2 <= a->rcut2 && r2 > 0.0f))
		return;
	ir2 = 1.0f / r2;
	r6 = a->s6 * (ir2 * ir2 * ir2);
	e = r6 * (r6 - 1.0f) - a->eshift;
	fu->x[3] += 0.5f * e;
	fr = -4.0f * CM_EPSILON * r6 * ir2 * (12.0f * r6 - 6.0f);
	for (int m = 0; m < 3; m++)
		fu->x[m] -= dr[m] * fr;
}

/* advanceVelocity's p += dt f, and advancePosition's r += dt p / m */
void cm_kick(struct cm_vec *p, const struct cm_vec *f, float dt)
{
	for (int m = 0; m < 3; m++)
		p->x[m] += dt * f->x[m];
}

void cm_drift(struct cm_vec *r, const struct cm_vec *p, float dt)
{
	float inv = 1.0f / CM_MASS;

	for (int m = 0; m < 3; m++)
		r->x[m] += dt * p->x[m] * inv;
}

/*
 * Atom @gid, basis atom @ib of unit cell @u: its place on the lattice,
 * displaced by up to CM_DELTA in each coordinate (randomDisplacements).
 */
struct cm_vec cm_atom(uint64_t gid, const unsigned int u[3], int ib)
{
	static const float basis[4][3] = {
		{ 0.25f, 0.25f, 0.25f }, { 0.25f, 0.75f, 0.75f },
		{ 0.75f, 0.25f, 0.75f }, { 0.75f, 0.75f, 0.25f },
	};
	uint64_t h = wlc_hash(gid * 457 + 1);
	struct cm_vec v = { { 0 } };

	for (int m = 0; m < 3; m++) {
		float d = (float)((h >> (16 * m)) & 0xffff) / 65535.0f;

		v.x[m] = ((float)u[m] + basis[ib][m]) * CM_LAT +
			 (2.0f * d - 1.0f) * CM_DELTA;
	}
	return v;
}

/* The cell of position @v (putAtomInBox). */
uint64_t cm_cell_of(const struct cm_args *a, const struct cm_vec *v)
{
	float cell = a->extent / (float)a->nc;
	unsigned int q[3];

	for (int m = 0; m < 3; m++) {
		float x = v->x[m] < 0 ? 0 : v->x[m];

		q[m] = (unsigned int)(x / cell);
		if (q[m] >= a->nc)
			q[m] = a->nc - 1;
	}
	return cm_cell(a, q[0], q[1], q[2]);
}

/* The host's atoms: CoMD's lattice, displaced, in their cells. */
void cm_lattice(const struct cm_args *a, unsigned int nx,
		struct cm_vec *r, uint32_t *natoms)
{
	uint64_t n = 4ULL * nx * nx * nx;

	memset(natoms, 0, a->ncells * sizeof(*natoms));
	/* createFccLattice's order: gid = ib + 4 (iz + nx (iy + nx ix)) */
	for (uint64_t gid = 0; gid < n; gid++) {
		unsigned int u[3] = { (unsigned int)(gid / 4 / nx / nx),
				      (unsigned int)(gid / 4 / nx % nx),
				      (unsigned int)(gid / 4 % nx) };
		struct cm_vec v = cm_atom(gid, u, (int)(gid % 4));
		uint64_t c = cm_cell_of(a, &v);

		/* a full cell is refused by the caller */
		if (natoms[c] < CM_MAXATOMS)
			r[c * CM_MAXATOMS + natoms[c]] = v;
		natoms[c]++;
	}
}

/* The CPU's ljForce over the same cells and slots. */
void cm_cpu_force(const struct cm_args *a, const uint32_t *natoms,
		  const struct cm_vec *r, struct cm_vec *f)
{
	memset(f, 0, a->ncells * CM_MAXATOMS * sizeof(*f));
	for (uint64_t c = 0; c < a->ncells; c++)
		for (int n = 0; n < 27; n++) {
			float sh[3];
			uint64_t jc = cm_nbr(a, c, n, sh);

			for (uint32_t i = 0; i < natoms[c]; i++)
				for (uint32_t j = 0; j < natoms[jc]; j++)
					cm_pair(a, &r[c * CM_MAXATOMS + i],
						&r[jc * CM_MAXATOMS + j], sh,
						&f[c * CM_MAXATOMS + i]);
		}
}

void cm_cpu_step(const struct cm_args *a, const uint32_t *natoms,
		 struct cm_vec *r, struct cm_vec *p, struct cm_vec *f)
{
	for (uint64_t c = 0; c < a->ncells; c++)
		for (uint32_t i = 0; i < natoms[c]; i++) {
			uint64_t s = c * CM_MAXATOMS + i;

			cm_kick(&p[s], &f[s], 0.5f * CM_DT);
			cm_drift(&r[s], &p[s], CM_DT);
		}
	cm_cpu_force(a, natoms, r, f);
	for (uint64_t c = 0; c < a->ncells; c++)
		for (uint32_t i = 0; i < natoms[c]; i++)
			cm_kick(&p[c * CM_MAXATOMS + i], &f[c * CM_MAXATOMS + i],
				0.5f * CM_DT);
}

/* Cells a side for @nx unit cells: as many of at least the cutoff as fit. */
unsigned int cm_cells(unsigned int nx)
{
	return (unsigned int)((float)nx * CM_LAT / CM_CUTOFF);
}

/* The used words of @v's slots, packed, for the check: 4 a slot. */
float *cm_pack(const struct cm_args *a, const uint32_t *natoms,
	       const struct cm_vec *v, uint64_t *n)
{
	float *out = malloc(a->ncells * CM_MAXATOMS * sizeof(struct cm_vec));

	*n = 0;
	if (!out)
		return NULL;
	for (uint64_t c = 0; c < a->ncells; c++)
		for (uint32_t i = 0; i < natoms[c]; i++)
			for (int m = 0; m < 4; m++)
				out[(*n)++] = v[c * CM_MAXATOMS + i].x[m];
	return out;
}

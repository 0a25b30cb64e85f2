// SPDX-License-Identifier: GPL-2.0
/*
 * The SMs two papers' presets share (config/preset.h): a GCN3 CU as
 * MGPUSim builds it (DualOpt, REC), a Fermi SM as GPGPU-Sim builds it
 * (CODA, ScaleGPU).
 */
#include "config/preset.h"

/*
 * A GCN3 compute unit as MGPUSim v3.0.0 builds it (timing/cu/
 * computeunit.go): 4 SIMDs of 10 wavefronts (40 x 64 = 2560 threads; no
 * cap on work-groups but that), 64 KB of LDS, and an L1 vector cache of
 * 16 MSHRs that caps its transactions, hits too, at 16 (samples/runner/
 * shaderarray.go; writearound maxNumConcurrentTrans). DualOpt and REC
 * ran 64 of them per GPU.
 */
void ng_preset_mgpusim_cu(struct ng_config *c)
{
	/*
	 * GCN3 runs 64-lane wavefronts; its 4 SIMD16s retire 64 lanes a
	 * cycle, two of ipc's 32-lane instructions (the base's ipc of 2)
	 */
	c->warp_width = 64;
	c->sms = 64;
	c->sm_scale = 1;
	c->threads_per_sm = 2560;
	c->blocks_per_sm = 40;
	c->shared_per_sm = 64 << 10;
	c->mshr_entries = 16;
}

/*
 * A Fermi SM as GPGPU-Sim 3.1.2's TeslaC2050 config has it (ScaleGPU's
 * Table 1 line for line): 1536 threads, 8 blocks (-gpgpu_shader_cta),
 * 48 KB of shared memory, an L1 of 32 MSHRs.
 */
void ng_preset_fermi_sm(struct ng_config *c)
{
	c->sm_scale = 1;
	c->threads_per_sm = 1536;
	c->blocks_per_sm = 8;
	c->shared_per_sm = 48 << 10;
	c->mshr_entries = 32;
}

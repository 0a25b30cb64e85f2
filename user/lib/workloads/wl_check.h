/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload's checks (private to lib/workloads): its result against the
 * CPU reference (floats within a tolerance, words exactly), with the
 * failure worded the same everywhere; --corrupt-one's wrong element, which
 * such a check must catch; the module's placement against the model's
 * homes; and the calibration workloads' refusal of a configuration that is
 * not the baseline they measure.
 */
#ifndef NGEMU_LIB_WL_CHECK_H
#define NGEMU_LIB_WL_CHECK_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/err.h"
#include "ngemu/workloads/workload.h"

/*
 * kmod backend: add the module's placement of @b, compared with the
 * model's homes, to the result; a disagreement fails the verification.
 */
static inline void wl_check_kmod(struct ng_system *sys, const struct ng_buf *b,
				 struct ng_bench_result *r)
{
	struct ng_kmod_check c;

	if (ng_space_check_kmod(ng_system_space(sys), b, &c))
		return;
	r->kmod = true;
	r->placement.pages += c.pages;
	r->placement.populated += c.populated;
	r->placement.agree += c.agree;
	r->placement.fallback += c.fallback;
	r->placement.comparable = c.comparable;
	if (c.comparable && c.agree != c.populated && r->verified) {
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "numagpu.ko placed %llu of %llu pages elsewhere than the model's homes",
			 (unsigned long long)(c.populated - c.agree),
			 (unsigned long long)c.populated);
	}
}

/*
 * The calibration workloads measure the NUMA-GPU baseline's parameters;
 * a remote data cache and its coherence add costs of their own.
 */
static inline int wl_calibration_baseline(struct ng_system *sys,
					  const struct ng_bench_result *r,
					  char *err, size_t errlen)
{
	if (!ng_system_config(sys)->rdc.size)
		return 0;
	ng_seterr(err, errlen,
		  "%s calibrates the baseline model, which the remote data cache and its coherence would change: run it with --rdc-size 0",
		  r->workload);
	return -EINVAL;
}

/*
 * --corrupt-one: change element n / 2 of a float result before it is
 * verified, by more than any tolerance, so that the check must fail.
 */
static inline void wl_corrupt_f32(const struct ng_bench_opts *o, float *got,
				  uint64_t n)
{
	if (o->corrupt && n)
		got[n / 2] += 1.0f + 2.0f * (got[n / 2] < 0 ? -got[n / 2]
							    : got[n / 2]);
}

/*
 * Verify @n floats of a result against the CPU reference @want: element i
 * passes when |got - want| <= rtol * |want| + atol. Sets r->verified and
 * r->verify: @ok (what was checked) or the first element that differs,
 * named @what[i], or @what[row][col] for a matrix of @cols columns
 * (@cols 0: a vector).
 */
static inline bool wl_check_f32(struct ng_bench_result *r, const char *what,
				const float *got, const float *want, uint64_t n,
				uint64_t cols, float rtol, float atol,
				const char *ok)
{
	for (uint64_t i = 0; i < n; i++) {
		float d = got[i] - want[i], m = want[i] < 0 ? -want[i] : want[i];

		if (d <= rtol * m + atol && -d <= rtol * m + atol)
			continue;
		r->verified = false;
		if (cols)
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu][%llu] = %g, the CPU reference says %g",
				 what, (unsigned long long)(i / cols),
				 (unsigned long long)(i % cols), (double)got[i],
				 (double)want[i]);
		else
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu] = %g, the CPU reference says %g", what,
				 (unsigned long long)i, (double)got[i],
				 (double)want[i]);
		return false;
	}
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify), "%s", ok);
	return true;
}

/*
 * --corrupt-one for a word result, as wl_corrupt_f32() does for floats:
 * element n / 2 changes before it is verified.
 */
static inline void wl_corrupt_u32(const struct ng_bench_opts *o,
				  uint32_t *got, uint64_t n)
{
	if (o->corrupt && n)
		got[n / 2] += 1;
}

/*
 * Words must match exactly; the failure worded as wl_check_f32()'s
 * (@cols 0: a vector).
 */
static inline bool wl_check_u32(struct ng_bench_result *r, const char *what,
				const uint32_t *got, const uint32_t *want,
				uint64_t n, uint64_t cols, const char *ok)
{
	for (uint64_t i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		r->verified = false;
		if (cols)
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu][%llu] = %u, the CPU reference says %u",
				 what, (unsigned long long)(i / cols),
				 (unsigned long long)(i % cols), got[i], want[i]);
		else
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu] = %u, the CPU reference says %u", what,
				 (unsigned long long)i, got[i], want[i]);
		return false;
	}
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify), "%s", ok);
	return true;
}

#endif /* NGEMU_LIB_WL_CHECK_H */

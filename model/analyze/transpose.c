/* Rule transpose: FLOPs spent transposing, a large share of the work. */
#include "config.h"

#include "model/analyze/rules.h"

#include "model/report/report.h"

int rule_transpose(struct an_ctx *c)
{
	struct an_finding *f;
	int64_t tr, hw;
	double pct;
	char share[40];
	int rc = an_summary_pair(c, "transpose_flops", "hardware_flops", &tr,
				 &hw);

	if (rc)
		return rc < 0 ? -1 : 0;
	pct = 100.0 * (double)tr / (double)hw;
	report_pct(share, sizeof(share), pct);
	if (pct <= c->param[0]) {
		an_note(c, "no finding: transpose FLOPs are %s of hardware"
			" FLOPs (at most %g%%)", share, c->param[0]);
		return 0;
	}
	f = an_add(c, "lay tensors out in the order the engines read them, so"
		   " the tensor engine does not transpose them",
		   "transpose FLOPs are %s of hardware FLOPs (over %g%%):"
		   " %lld of %lld", share, c->param[0], (long long)tr,
		   (long long)hw);
	an_int(f, "transpose_flops", tr);
	an_int(f, "hardware_flops", hw);
	an_real(f, "pct", pct);
	return 0;
}

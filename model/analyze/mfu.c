/* Rule mfu: the model's FLOPs a small share of what the hardware ran. */
#include "config.h"

#include "model/analyze/rules.h"

#include "model/report/report.h"

int rule_mfu(struct an_ctx *c)
{
	struct an_finding *f;
	int64_t model, hw;
	double pct;
	char share[40];
	int rc = an_summary_pair(c, "model_flops", "hardware_flops", &model,
				 &hw);

	if (rc)
		return rc < 0 ? -1 : 0;
	pct = 100.0 * (double)model / (double)hw;
	report_pct(share, sizeof(share), pct);
	if (pct >= c->param[0]) {
		an_note(c, "no finding: model FLOPs are %s of hardware"
			" FLOPs (at least %g%%)", share, c->param[0]);
		return 0;
	}
	/* the gap is work the hardware did that the model did not ask for:
	 * padding, recomputation, transposes */
	f = an_add(c, "look for padding to tile sizes, recomputation and"
		   " transposes; shapes that are multiples of 128 waste less",
		   "model FLOPs are %s of hardware FLOPs (under %g%%):"
		   " %lld of %lld", share, c->param[0], (long long)model,
		   (long long)hw);
	an_int(f, "model_flops", model);
	an_int(f, "hardware_flops", hw);
	an_real(f, "pct", pct);
	return 0;
}

/* Rule spill: reloading spilled state a large share of the HBM reads. */
#include "config.h"

#include "model/analyze/rules.h"

#include "model/report/report.h"

int rule_spill(struct an_ctx *c)
{
	struct an_finding *f;
	int64_t sp, hbm;
	double pct;
	char share[40];
	int rc = an_summary_pair(c, "spill_reload_bytes", "hbm_read_bytes",
				 &sp, &hbm);

	if (rc)
		return rc < 0 ? -1 : 0;
	pct = 100.0 * (double)sp / (double)hbm;
	report_pct(share, sizeof(share), pct);
	if (pct <= c->param[0]) {
		an_note(c, "no finding: spill reloads are %s of HBM reads"
			" (at most %g%%)", share, c->param[0]);
		return 0;
	}
	f = an_add(c, "the working set does not fit in SBUF: use smaller"
		   " tiles or fuse the operations that reload",
		   "spill reloads are %s of HBM reads (over %g%%):"
		   " %lld of %lld bytes", share, c->param[0], (long long)sp,
		   (long long)hbm);
	an_int(f, "spill_reload_bytes", sp);
	an_int(f, "hbm_read_bytes", hbm);
	an_real(f, "pct", pct);
	return 0;
}

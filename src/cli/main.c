/* nxtop: a terminal browser for AWS Neuron profiles. */
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <string.h>

#include "src/cli/cli.h"
#include "model/model.h"

static const struct {
	const char *name;
	int (*fn)(struct cli *c, int argc, char **argv);
} commands[] = {
	{ "import", cmd_import },
	{ "summary", cmd_summary },
	{ "analyze", cmd_analyze },
	{ "export", cmd_export },
	{ "diff", cmd_diff },
	{ "demo", cmd_demo },
	{ "list", cmd_list },
};

int main(int argc, char **argv)
{
	struct cli c;

	model_init();
	/* past a file size limit, writes fail (EFBIG) and the import says
	 * so and cleans up, instead of the process being killed */
	signal(SIGXFSZ, SIG_IGN);
	memset(&c, 0, sizeof(c));
	sysgroup_default(&c.group);
	setlocale(LC_ALL, "");
	/* numbers in JSON and exports always use '.' */
	setlocale(LC_NUMERIC, "C");
	opterr = 0;
	for (size_t i = 0; argc > 1 && i < NX_ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[1], commands[i].name)) {
			c.cmd = commands[i].name;
			return cli_finish(commands[i].fn(&c, argc - 1,
							 argv + 1));
		}
	}
	return cli_finish(cmd_view(&c, argc, argv));
}

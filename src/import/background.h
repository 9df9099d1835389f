/* Device profiles of a bundle imported after its system profile: in a
 * thread while the viewer shows the system profile (struct devqueue
 * says how far each is), or all at once before a command that needs
 * every one of them. */
#ifndef NX_BACKGROUND_H
#define NX_BACKGROUND_H

#include "model/devqueue.h"
#include "src/import/base.h"

struct background;

/* Queues the device profiles the cache at path left for later into q
 * and starts importing them, newest-needed first, in one thread. NULL
 * when there are none (or on an error, in err_get()). */
struct background *background_start(const char *path,
				    const struct import_opts *o,
				    struct devqueue *q);
/* Stops the import under way (its rows are not kept: it stays queued
 * for the next viewer) and ends the thread. */
void background_stop(struct background *bg);

/* Imports every device profile the cache at path left for later, with
 * the progress line of o. 0, or -1 with err_get() set when the cache
 * could not be read; a device profile that fails becomes "failed". */
int background_finish(const char *path, const struct import_opts *o);

#endif

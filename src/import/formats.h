/* The entry point of each format's importer, called by the dispatcher.
 * Each reads im->path into a new profile of im->w and fills im->res;
 * 0, or -1 with err_get() set. */
#ifndef NX_IMPORT_FORMATS_H
#define NX_IMPORT_FORMATS_H

#include "src/import/base.h"

int import_neuron_json(struct import *im);
int import_pftrace(struct import *im);
int import_chrome_json(struct import *im);
/* im->path is a folder of Parquet tables (src/import/parquet/). */
int import_parquet_device(struct import *im);
int import_parquet_system(struct import *im);

#endif

#ifndef CLIBPSL_SHIM_H
#define CLIBPSL_SHIM_H
#include <libpsl.h>
#endif

#ifndef SWIPE_CLIBPQ_SHIM_H
#define SWIPE_CLIBPQ_SHIM_H
// Debian's libpq-dev puts the header under /usr/include/postgresql; the
// package's pkg-config file ("libpq") adds that folder to the include path.
#include <libpq-fe.h>
#endif

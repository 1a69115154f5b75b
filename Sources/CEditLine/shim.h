#ifndef SWIPE_CEDITLINE_SHIM_H
#define SWIPE_CEDITLINE_SHIM_H
#include <stdio.h>
#include <locale.h>
#include <histedit.h>

/* el_set and history are variadic, which Swift cannot call: each use we
   need gets a typed static inline wrapper here. */
#endif

/* cgo-noop: a C function that does nothing. */
#include "noop.h"

void noop(void)
{
}

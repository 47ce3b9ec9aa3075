/*
 * tls-dynamic-lib.c - the library of tls-dynamic-live.c: a thread-local
 * array too large for the static TLS surplus, so that dlopen() makes the
 * loader allocate the thread's block of it dynamically.
 */
__thread void *tls_slots[(1 << 20) / sizeof(void *)];

void **keep_in_tls(void *p)
{
	tls_slots[0] = p;
	return &tls_slots[0];
}

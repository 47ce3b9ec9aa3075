void noop(void);

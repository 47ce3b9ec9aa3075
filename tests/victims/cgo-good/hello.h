void hello(void);

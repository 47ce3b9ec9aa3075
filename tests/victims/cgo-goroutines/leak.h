void *leak_sized(int k);

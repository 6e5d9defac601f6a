/* Calls to the hook in sections that must not be traced: reported, not recorded. */
extern int ext(int);

__attribute__((section(".noinstr.text"))) int noinstr_func(int x) { return ext(x * 3); }

__attribute__((section(".text..nomcount"))) int opted_out(int x) { return ext(x * 5); }

int traced(int x) { return noinstr_func(x) + opted_out(x); }

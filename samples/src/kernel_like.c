/*
 * A kernel-like translation unit: the kinds of functions recordmcount meets.
 * Built for every machine by samples/build.sh.
 */
extern int ext(int);
extern void HOOK_SYMBOL(void);

static __attribute__((noinline)) int s_other(int x) { return ext(x) + 1; }

int g_func(int x) { return s_other(x) * 2; }

/* Weak: another object may replace it at link time. */
int __attribute__((weak)) w_func(int x) { return ext(x - 1); }

/* Init code is traced (.init.text is on the kernel tool's list). */
__attribute__((section(".init.text"))) int init_func(int x) { return ext(x + 5); }

/* notrace: the compiler emits no hook call at all. */
__attribute__((no_instrument_function)) int notrace_func(int x) { return ext(x); }

/* Takes the hook's address: a reference that is not a call, never recorded. */
void *hook_address(void) { return (void *)HOOK_SYMBOL; }

int g2(int x) { return g_func(x) + w_func(x); }

/*
 * Only weak functions, one section each (-ffunction-sections): the kernel tool fails here with
 * "Cannot find symbol for section"; mcountkit adds a section symbol instead.
 */
extern int ext(int);

int __attribute__((weak)) weak_a(int x) { return ext(x + 1); }

int __attribute__((weak)) weak_b(int x) { return ext(x + 2); }

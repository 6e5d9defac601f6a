/* A small program for the post-link examples: three traced functions and a static one. */
#include <stdio.h>

__attribute__((noinline)) int twice(int x) { return 2 * x; }
__attribute__((noinline)) int add(int a, int b) { return twice(a) + b; }
__attribute__((noinline)) static int helper(int x) { return add(x, 1); }
int main(void) { printf("sum %d\n", helper(20)); return 0; }

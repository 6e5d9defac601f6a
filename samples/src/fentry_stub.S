/* The hook of a user-space -mfentry program: glibc has no __fentry__, so a bare return. */
	.text
	.globl __fentry__
	.type __fentry__, %function
__fentry__:
	ret
	.size __fentry__, .-__fentry__
	.section .note.GNU-stack,"",%progbits

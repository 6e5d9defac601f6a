/**
 * What a booted kernel's ftrace will make of an image's tables, worked out offline: the kernel's
 * own symbol tables ({@link org.mcountkit.core.ftrace.Kallsyms} in vmlinux, the module loader's
 * view of a {@code .ko}: {@link org.mcountkit.core.ftrace.ModuleKallsyms}), the release and
 * configuration the rules depend on, and the rules of {@code kernel/trace/ftrace.c} that drop,
 * free or mark records ({@link org.mcountkit.core.ftrace.FtraceRules}). Internal: the facade
 * returns {@link org.mcountkit.core.FunctionList}.
 */
package org.mcountkit.core.ftrace;

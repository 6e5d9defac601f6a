package org.mcountkit.core.image;

import java.util.Set;
import org.mcountkit.api.Section;

/**
 * Which executable sections ftrace may patch: the kernel tool's list (every name starting with
 * {@code .text}, plus eight exact names), except {@code .text..nomcount}, where functions opt out.
 */
public final class TracedSections {

    /** Functions placed here are never recorded (the LTO proposal's opt-out section). */
    public static final String NOMCOUNT = ".text..nomcount";

    private static final Set<String> EXACT = Set.of(
            ".init.text",
            ".ref.text",
            ".sched.text",
            ".spinlock.text",
            ".irqentry.text",
            ".softirqentry.text",
            ".kprobes.text",
            ".cpuidle.text");

    private TracedSections() {}

    /** True for executable PROGBITS sections that can hold code at all. */
    public static boolean isCode(Section section) {
        return section.isProgbits() && section.isExecutable();
    }

    /** True when sites in a section of this name are recorded. */
    public static boolean isTraced(String name) {
        if (name.equals(NOMCOUNT)) {
            return false;
        }
        return name.startsWith(".text") || EXACT.contains(name);
    }
}

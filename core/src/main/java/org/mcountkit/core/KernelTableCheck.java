package org.mcountkit.core;

import java.util.List;

/**
 * What {@code verify} adds for a kernel image (a vmlinux with its {@code linux_banner}): how many
 * records ftrace will keep after boot, how many it will list as invalid, and the problems that
 * make the table unusable, a sentence each: empty, all zero, unsorted on a machine whose kernel
 * does not sort it at boot, or missing entries a baseline table had.
 */
public record KernelTableCheck(int afterBoot, int invalid, List<String> problems) {

    public KernelTableCheck {
        problems = List.copyOf(problems);
    }
}

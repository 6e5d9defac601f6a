package org.mcountkit.core;

import java.nio.file.Path;
import java.util.List;

/**
 * One kernel as {@code diff} reads it: its vmlinux, the modules it loads (in load order) and the
 * objects or build folders it was linked from (for the reasons; none is fine).
 */
public record KernelFiles(Path image, List<Path> modules, List<Path> objects) {

    public KernelFiles {
        modules = List.copyOf(modules);
        objects = List.copyOf(objects);
    }
}

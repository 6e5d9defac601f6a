package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How the backends' linked-program tests link their programs: the machine's gcc with the
 * variant's {@code flags} (ABI, byte order), {@code -nostdlib}, the objects, and the test's own
 * {@code hook} source (the hook and {@code _start}), so no C library or profiling run-time is
 * linked in.
 */
public record NostdlibLink(Toolchain toolchain, List<String> flags, String hook) {

    public NostdlibLink {
        flags = List.copyOf(flags);
    }

    /** {@code objects} and the hook linked static, not PIE, with {@code more} flags, into {@code dir/name}. */
    public Path link(Path dir, String name, List<Path> objects, String... more) {
        return linked(dir, name, objects, List.of("-static", "-no-pie"), List.of(more));
    }

    /**
     * A PIE without a dynamic linker: every pointer in its data, table words included, gets a
     * relative dynamic relocation, as in a relocatable kernel.
     */
    public Path pie(Path dir, String name, List<Path> objects) {
        return linked(dir, name, objects, List.of("-pie", "-Wl,--no-dynamic-linker"), List.of());
    }

    private Path linked(Path dir, String name, List<Path> objects, List<String> kind, List<String> more) {
        Path hookSource = Samples.write(dir, "hook.s", hook);
        Path out = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of(toolchain.tool("gcc")));
        command.addAll(flags);
        command.add("-nostdlib");
        command.addAll(kind);
        objects.forEach(o -> command.add(o.toString()));
        command.add(hookSource.toString());
        command.addAll(more);
        command.addAll(List.of("-o", out.toString()));
        Command.check(dir, command);
        return out;
    }
}
